/* Growing an array by doubling: the one helper behind the format's indexes and the report's tables. */
#ifndef CT_FORMAT_GROW_H
#define CT_FORMAT_GROW_H

#include <stdint.h>
#include <stdlib.h>

/* `p` (holding *cap elements of `elem` bytes) reallocated to hold at least `need`, room for `first` at the
 * first growth; *cap updated.  NULL when out of memory, `p` then untouched and still the caller's. */
static inline void *ct_grow_from(void *p, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap * 2 : first;
    while (c < need)
        c *= 2;
    if (c > SIZE_MAX / elem)
        return NULL;
    void *q = realloc(p, c * elem);
    if (q)
        *cap = c;
    return q;
}

/* ct_grow_from with room for 16 at first. */
static inline void *ct_grow(void *p, size_t *cap, size_t need, size_t elem)
{
    return ct_grow_from(p, cap, need, elem, 16);
}

#endif
