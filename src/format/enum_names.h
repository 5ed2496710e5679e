/* The lowercase words used for the format's enums and flag sets in text output (dump tool, report). */
#ifndef CT_FORMAT_ENUM_NAMES_H
#define CT_FORMAT_ENUM_NAMES_H

#include <stddef.h>
#include <stdint.h>

const char *ct_name_family(unsigned family);        /* none alloc free launch copy */
const char *ct_name_mem_kind(unsigned kind);        /* unknown device host pinned managed async vmm vmm_map array */
const char *ct_name_launch_kind(unsigned kind);     /* kernel cooperative host_func graph */
const char *ct_name_str_kind(unsigned kind);        /* kernel thread other nvtx */
const char *ct_name_nvtx_kind(unsigned kind);       /* push pop start end mark */
const char *ct_name_rank_source(unsigned source);   /* none RANK OMPI_COMM_WORLD_RANK PMI_RANK SLURM_PROCID */
const char *ct_name_lost_reason(unsigned reason);   /* buffer_full write_error shutdown nested */
const char *ct_name_record_type(unsigned type);     /* process string api call ... gpu gpu-info */
const char *ct_name_gpu_mode(unsigned mode);        /* off sample all */
const char *ct_name_gpu_source(unsigned source);    /* none events activity */
const char *ct_name_gpu_why(unsigned why);          /* chosen no-cupti cupti-busy program cupti-error child */
const char *ct_name_gpu_request(unsigned request);  /* CUDATRACE_GPU_TIME's words: off sample events auto all activity */

/* Flag sets as words joined by `sep` ("none" when empty): CT_VARIANT_* and CT_COPY_*. Returns buf. */
char *ct_format_vflags(char *buf, size_t len, unsigned vflags, char sep);
char *ct_format_copy_flags(char *buf, size_t len, unsigned flags, char sep);
char *ct_format_gpu_span_flags(char *buf, size_t len, unsigned flags, char sep); /* CT_GPU_SPAN_*: sampled graph
                                                                                 * no-call activity */

#endif
