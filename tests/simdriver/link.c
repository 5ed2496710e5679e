/* The JIT linker: PTX inputs are checked and concatenated; the "cubin" cuLinkComplete hands out is that text
 * under a marker line, which cuModuleLoadData accepts like any PTX. A device function declared `.extern` in
 * one input must be defined in another, or cuLinkComplete fails as the driver's does. */
#include "config.h"

#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_LINK_MARKER "// cudatrace simdriver linked image"

struct CUlinkState_st {
    struct sim_obj obj;
    struct sim_jit_options options;
    uint64_t t0;
    char *text;
    size_t len;
    unsigned int inputs;
    char **input_names;
    struct sim_ptx *input_ptx;
    char *image;      /* cuLinkComplete's output, owned until cuLinkDestroy */
};

static CUresult link_create(unsigned int numOptions, CUjit_option *options, void **optionValues,
                            CUlinkState *stateOut)
{
    CUresult r = sim_ctx_require(NULL);
    if (r != CUDA_SUCCESS)
        return r;
    if (!stateOut)
        return CUDA_ERROR_INVALID_VALUE;
    struct CUlinkState_st *s = calloc(1, sizeof *s);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if ((r = sim_jit_options_parse(&s->options, numOptions, options, optionValues)) != CUDA_SUCCESS) {
        free(s);
        return r;
    }
    s->t0 = sim_now_ns();
    sim_obj_register(&s->obj, SIM_LINK);
    *stateOut = s;
    return CUDA_SUCCESS;
}

CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues, CUlinkState *stateOut)
{
    return link_create(numOptions, options, optionValues, stateOut);
}

CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
                         CUlinkState *stateOut)
{
    return link_create(numOptions, options, optionValues, stateOut);
}

static float elapsed_ms(const struct CUlinkState_st *s)
{
    return (float)((double)(sim_now_ns() - s->t0) / 1e6);
}

/* Room for one more input of n bytes. */
static CUresult grow(struct CUlinkState_st *s, size_t n)
{
    char *text = realloc(s->text, s->len + n + 2);
    if (!text)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->text = text;
    char **names = realloc(s->input_names, (s->inputs + 1) * sizeof *names);
    if (!names)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->input_names = names;
    struct sim_ptx *ptx = realloc(s->input_ptx, (s->inputs + 1) * sizeof *ptx);
    if (!ptx)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->input_ptx = ptx;
    return CUDA_SUCCESS;
}

static CUresult add_data(CUlinkState state, CUjitInputType type, const void *data, size_t size, const char *name,
                         unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    SIM_REQUIRE_INIT();
    if (!sim_obj_live(state, SIM_LINK))
        return CUDA_ERROR_INVALID_HANDLE;
    struct sim_jit_options per_input;
    CUresult r = sim_jit_options_parse(&per_input, numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    if (!data || size == 0)
        return CUDA_ERROR_INVALID_VALUE;
    char error[256] = "";
    if (type != CU_JIT_INPUT_PTX) {
        snprintf(error, sizeof error, "cudatrace simdriver: %s: only PTX inputs are simulated", name ? name : "?");
        r = CUDA_ERROR_INVALID_IMAGE;
    }
    struct sim_ptx ptx;
    if (r == CUDA_SUCCESS)
        r = sim_ptx_parse(data, size, &ptx, error, sizeof error);
    if (r != CUDA_SUCCESS) {
        sim_jit_options_finish(&state->options, "", error, elapsed_ms(state));
        return r;
    }
    size_t n = strnlen(data, size);
    char *input_name = strdup(name ? name : "(unnamed)");
    if (!input_name || grow(state, n) != CUDA_SUCCESS) {
        free(input_name);
        sim_ptx_free(&ptx);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    memcpy(state->text + state->len, data, n);
    state->len += n;
    state->text[state->len++] = '\n';
    state->text[state->len] = '\0';
    state->input_names[state->inputs] = input_name;
    state->input_ptx[state->inputs++] = ptx;
    return CUDA_SUCCESS;
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                       unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    return add_data(state, type, data, size, name, numOptions, options, optionValues);
}

CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                          unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    return add_data(state, type, data, size, name, numOptions, options, optionValues);
}

static CUresult add_file(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                         CUjit_option *options, void **optionValues)
{
    SIM_REQUIRE_INIT();
    if (!sim_obj_live(state, SIM_LINK))
        return CUDA_ERROR_INVALID_HANDLE;
    char *text;
    size_t len;
    CUresult r = sim_read_file(path, &text, &len);
    if (r != CUDA_SUCCESS)
        return r;
    r = add_data(state, type, text, len, path, numOptions, options, optionValues);
    free(text);
    return r;
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                       CUjit_option *options, void **optionValues)
{
    return add_file(state, type, path, numOptions, options, optionValues);
}

CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                          CUjit_option *options, void **optionValues)
{
    return add_file(state, type, path, numOptions, options, optionValues);
}

static bool defined(const struct CUlinkState_st *s, const char *func)
{
    for (unsigned int i = 0; i < s->inputs; i++) {
        for (unsigned int j = 0; j < s->input_ptx[i].nfuncs; j++) {
            if (strcmp(s->input_ptx[i].funcs[j], func) == 0)
                return true;
        }
    }
    return false;
}

/* The first `.extern .func` no input defines, in the driver's words; false when all are resolved. */
static bool undefined_reference(const struct CUlinkState_st *s, char *error, size_t errlen)
{
    for (unsigned int i = 0; i < s->inputs; i++) {
        for (unsigned int j = 0; j < s->input_ptx[i].nexterns; j++) {
            if (!defined(s, s->input_ptx[i].externs[j])) {
                snprintf(error, errlen, "error   : Undefined reference to '%s' in '%s'", s->input_ptx[i].externs[j],
                         s->input_names[i]);
                return true;
            }
        }
    }
    return false;
}

CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    SIM_REQUIRE_INIT();
    if (!sim_obj_live(state, SIM_LINK))
        return CUDA_ERROR_INVALID_HANDLE;
    if (!cubinOut || !sizeOut || state->inputs == 0)
        return CUDA_ERROR_INVALID_VALUE;
    char error[512];
    if (undefined_reference(state, error, sizeof error)) {
        sim_jit_options_finish(&state->options, "", error, elapsed_ms(state));
        return CUDA_ERROR_INVALID_SOURCE;
    }
    free(state->image);
    size_t size = sizeof SIM_LINK_MARKER + state->len + 1;
    if (!(state->image = malloc(size)))
        return CUDA_ERROR_OUT_OF_MEMORY;
    snprintf(state->image, size, "%s\n%s", SIM_LINK_MARKER, state->text);
    char info[512] = ""; /* like the driver's, empty unless verbose */
    if (state->options.verbose)
        snprintf(info, sizeof info, "info    : linked %u PTX input%s for 'sm_90'\n", state->inputs,
                 state->inputs == 1 ? "" : "s");
    sim_jit_options_finish(&state->options, info, "", elapsed_ms(state));
    *cubinOut = state->image;
    *sizeOut = strlen(state->image) + 1;
    return CUDA_SUCCESS;
}

CUresult cuLinkDestroy(CUlinkState state)
{
    SIM_REQUIRE_INIT();
    if (!state || !sim_obj_unregister(&state->obj, SIM_LINK))
        return CUDA_ERROR_INVALID_HANDLE;
    for (unsigned int i = 0; i < state->inputs; i++) {
        free(state->input_names[i]);
        sim_ptx_free(&state->input_ptx[i]);
    }
    free(state->input_names);
    free(state->input_ptx);
    free(state->text);
    free(state->image);
    free(state);
    return CUDA_SUCCESS;
}
