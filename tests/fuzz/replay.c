/* The fuzz target without libFuzzer: runs LLVMFuzzerTestOneInput once on each file named (a corpus), so
 * `make check` replays the committed corpus with the compiler and sanitizers of the build at hand. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 2;
        }
        size_t cap = 1 << 16, n = 0, got;
        uint8_t *buf = malloc(cap), *more;
        while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0)
            if ((n += got) == cap) {
                more = realloc(buf, cap *= 2);
                if (!more)
                    free(buf);
                buf = more;
            }
        fclose(f);
        if (!buf) {
            fputs("replay: out of memory\n", stderr);
            return 2;
        }
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
    }
    return 0;
}
