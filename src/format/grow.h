/* Growing an array by doubling: the one helper behind the format's indexes and the report's tables. */
#ifndef CT_FORMAT_GROW_H
#define CT_FORMAT_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* `p` (holding *cap elements of `elem` bytes) reallocated to hold at least `need`; *cap updated.  NULL when
 * out of memory, `p` then untouched and still the caller's. */
static inline void *ct_grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    if (c > SIZE_MAX / elem)
        return NULL;
    void *q = realloc(p, c * elem);
    if (q)
        *cap = c;
    return q;
}

#endif
