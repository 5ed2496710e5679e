/* qsort for arrays that may be empty: an empty array's base may be NULL, which qsort must not get. */
#ifndef CT_REPORT_MODEL_SORT_H
#define CT_REPORT_MODEL_SORT_H

#include <stdlib.h>

static inline void rp_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
}

#endif
