/* Replays the driver entry-point requests of the CUDA 13.0 runtime (tests/data/cudart-13.0-entry-point-
 * requests.txt) against libcuda.so.1, the way the runtime makes them: dlopen, dlsym of cuGetProcAddress_v2,
 * cuGetProcAddress_v2("cuGetProcAddress") at 11030 and 12000, and every further request through the pointer
 * returned for 12000. For each row whose exported name the library exports, the pointer returned must be
 * dlsym(library, that name), the exact variant; a row the library does not export must come back
 * SYMBOL_NOT_FOUND. Runs on the simulated driver (LD_LIBRARY_PATH) and on a real one.
 * Usage: replay-entry-points REQUESTS_FILE. Exit 0 when nothing mismatched. */
#include "config.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef CUresult (*get_proc_v2)(const char *symbol, void **pfn, int version, cuuint64_t flags,
                                CUdriverProcAddressQueryResult *status);

static void *library;
static unsigned int mismatches;

static const char *symbol_name(const void *p)
{
    Dl_info info;
    if (!p)
        return "NULL";
    return dladdr(p, &info) && info.dli_sname ? info.dli_sname : "(unnamed address)";
}

static void mismatch(unsigned int line, const char *what, const char *symbol, int version, unsigned long long flags,
                     CUresult r, CUdriverProcAddressQueryResult status, const void *got, const char *expected)
{
    mismatches++;
    printf("mismatch: line %u: %s %d 0x%llx: %s: result %d, status %d, got %s, expected %s\n", line, symbol,
           version, flags, what, (int)r, (int)status, symbol_name(got), expected);
}

/* The runtime's first two requests: the 4- and 5-argument forms of cuGetProcAddress itself. */
static get_proc_v2 self_lookup(get_proc_v2 bootstrap)
{
    static const struct {
        int version;
        const char *exported;
    } forms[] = {{11030, "cuGetProcAddress"}, {12000, "cuGetProcAddress_v2"}};
    void *pfn[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        CUresult r = bootstrap("cuGetProcAddress", &pfn[i], forms[i].version, 0, &status);
        void *expected = dlsym(library, forms[i].exported);
        if (r != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS || !expected || pfn[i] != expected)
            mismatch(0, "self look-up", "cuGetProcAddress", forms[i].version, 0, r, status, pfn[i], forms[i].exported);
    }
    return (get_proc_v2)pfn[1];
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s REQUESTS_FILE\n", argv[0]);
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        perror(argv[1]);
        return 2;
    }
    if (!(library = dlopen("libcuda.so.1", RTLD_NOW))) {
        fprintf(stderr, "replay: %s\n", dlerror());
        return 2;
    }
    get_proc_v2 bootstrap = (get_proc_v2)dlsym(library, "cuGetProcAddress_v2");
    if (!bootstrap) {
        fprintf(stderr, "replay: libcuda.so.1 exports no cuGetProcAddress_v2\n");
        return 2;
    }
    get_proc_v2 get_proc = self_lookup(bootstrap);
    if (!get_proc)
        get_proc = bootstrap;

    char line[512];
    unsigned int lineno = 0, rows = 0, checked = 0, missing = 0;
    while (fgets(line, sizeof line, in)) {
        char symbol[256], exported[256];
        int version;
        unsigned long long flags;
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (sscanf(line, "%255s %d %llx %255s", symbol, &version, &flags, exported) != 4) {
            fprintf(stderr, "replay: %s:%u: unreadable row\n", argv[1], lineno);
            return 2;
        }
        rows++;
        const char *name = strcmp(symbol, "\"\"") == 0 ? "" : symbol;
        void *pfn = (void *)1;
        CUdriverProcAddressQueryResult status = (CUdriverProcAddressQueryResult)-1;
        CUresult r = get_proc(name, &pfn, version, flags, &status);
        void *expected = dlsym(library, exported);
        if (expected) {
            checked++;
            if (r != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS || pfn != expected)
                mismatch(lineno, "wrong variant", symbol, version, flags, r, status, pfn, exported);
        } else {
            missing++;
            if (r != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND || pfn != NULL)
                mismatch(lineno, "not exported, yet found", symbol, version, flags, r, status, pfn, "SYMBOL_NOT_FOUND");
        }
    }
    fclose(in);
    printf("replay: %u rows checked, %u not implemented, %u mismatches\n", checked, missing, mismatches);
    if (rows < 400 || checked == 0) {
        fprintf(stderr, "replay: only %u rows read, %u checked: wrong file?\n", rows, checked);
        return 1;
    }
    return mismatches ? 1 : 0;
}
