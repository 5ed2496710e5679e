/* A minimal NVTX injection library of a user's own (tests/integration/nvtx.sh): counts pushes, pops and
 * marks and notes the domain and registered string it was given, then says so at exit.  The tracer must load
 * it (CUDATRACE_NVTX_FORWARD) and call on to it with its own handles. */
#include <stdio.h>
#include <string.h>

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

static int pushes, pops, marks;
static char domain[64] = "?", string[64] = "?";
static struct nvtxDomainRegistration_st { int unused; } dom;
static struct nvtxStringRegistration_st { int unused; } str;

static int push_a(const char *m) { (void)m; return pushes++; }
static int push_ex(const nvtxEventAttributes_t *a) { (void)a; return pushes++; }
static int pop(void) { return pops++; }
static void mark_a(const char *m) { (void)m; marks++; }
static nvtxDomainHandle_t create_a(const char *n)
{
    snprintf(domain, sizeof domain, "%s", n);
    return &dom;
}
static nvtxStringHandle_t reg_a(nvtxDomainHandle_t d, const char *s)
{
    if (d == &dom)
        snprintf(string, sizeof string, "%s", s);
    return &str;
}
static int dpush(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    if (d == &dom && a->messageType == NVTX_MESSAGE_TYPE_REGISTERED && a->message.registered == &str)
        pushes++;
    return 0;
}
static int dpop(nvtxDomainHandle_t d) { return d == &dom ? pops++ : -1; }

__attribute__((destructor)) static void report(void)
{
    fprintf(stderr, "nvtxcount: %d pushes, %d pops, %d marks, domain %s, string %s\n", pushes, pops, marks, domain,
            string);
}

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get);
int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
    const NvtxExportTableCallbacks *cb = get(NVTX_ETID_CALLBACKS);
    NvtxFunctionTable t;
    unsigned n;
    if (!cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &t, &n))
        return 0;
    *t[NVTX_CBID_CORE_RangePushA] = (NvtxFunctionPointer)push_a;
    *t[NVTX_CBID_CORE_RangePushEx] = (NvtxFunctionPointer)push_ex;
    *t[NVTX_CBID_CORE_RangePushW] = (NvtxFunctionPointer)push_a;
    *t[NVTX_CBID_CORE_RangePop] = (NvtxFunctionPointer)pop;
    *t[NVTX_CBID_CORE_MarkA] = (NvtxFunctionPointer)mark_a;
    if (!cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &t, &n))
        return 0;
    *t[NVTX_CBID_CORE2_DomainCreateA] = (NvtxFunctionPointer)create_a;
    *t[NVTX_CBID_CORE2_DomainRegisterStringA] = (NvtxFunctionPointer)reg_a;
    *t[NVTX_CBID_CORE2_DomainRangePushEx] = (NvtxFunctionPointer)dpush;
    *t[NVTX_CBID_CORE2_DomainRangePop] = (NvtxFunctionPointer)dpop;
    return 1;
}
