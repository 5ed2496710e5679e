/* The recorder's own tests' variant table (recorder-variants.c), attached to the recorder before main. */
#ifndef CT_TESTS_RECORDER_VARIANTS_H
#define CT_TESTS_RECORDER_VARIANTS_H

#include "recorder/variants.h"

extern const struct ct_variant ct_variants[];
extern const unsigned ct_variant_count;

#endif
