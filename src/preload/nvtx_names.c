/* NVTX's names (nvtx_names.h). */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "preload/nvtx_names.h"
#include "recorder/intern.h"
#include "recorder/recorder.h"
#include "recorder/alloc.h"

/* A thread's recent messages, by hash: the text is kept to compare, since a program may build messages in a
 * buffer it reuses (so the pointer says nothing).  Longer messages go to the intern table every time. */
#define CACHE_SLOTS 64
#define CACHE_TEXT 52
struct msg {
    uint64_t hash;
    uint32_t id, len;
    char text[CACHE_TEXT];
};
static __thread struct msg *cache __attribute__((tls_model("initial-exec")));
static pthread_key_t cache_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

/* The cache entry this thread last found or made for the text at last_ptr: a program pushes the same
 * literal over and over, so the pointer finds the entry without hashing; the text is still compared. */
static __thread const char *last_ptr __attribute__((tls_model("initial-exec")));
static __thread struct msg *last_msg __attribute__((tls_model("initial-exec")));

/* At thread exit; an NVTX call from a later destructor of the thread makes a new cache. */
static void free_cache(void *c)
{
    cache = last_msg = NULL;
    last_ptr = NULL;
    ct_free(c);
}

static void make_key(void) { pthread_key_create(&cache_key, free_cache); }

static struct msg *thread_cache(void)
{
    pthread_once(&key_once, make_key);
    if ((cache = ct_calloc(CACHE_SLOTS, sizeof *cache)) != NULL)
        pthread_setspecific(cache_key, cache); /* freed at thread exit */
    return cache;
}

uint32_t ct_nvtx_ascii_id(const char *s)
{
    struct msg *m = last_msg;
    /* strncmp, not memcmp: the text now at s may be shorter than the entry's (a buffer freed and reused). */
    if (s == last_ptr && m && strncmp(m->text, s, m->len) == 0 && s[m->len] == '\0')
        return m->id;

    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    size_t n = 0;
    for (; s[n]; n++)
        h = (h ^ (unsigned char)s[n]) * 1099511628211ull;
    struct msg *c = cache ? cache : thread_cache();
    if (n >= CACHE_TEXT || !c)
        return ct_rec_intern(CT_STR_NVTX, s);
    m = &c[(h ^ h >> 32) % CACHE_SLOTS];
    if (!(m->id && m->hash == h && m->len == n && memcmp(m->text, s, n) == 0)) {
        uint32_t id = ct_rec_intern(CT_STR_NVTX, s);
        if (!id)
            return 0;
        m->hash = h;
        m->len = (uint32_t)n;
        memcpy(m->text, s, n);
        m->id = id;
    }
    last_ptr = s;
    last_msg = m;
    return m->id;
}

const char *ct_nvtx_utf8(const wchar_t *s, char *buf, size_t size)
{
    size_t o = 0;

    if (!s)
        return NULL;
    for (; *s; s++) {
        unsigned char b[4];
        const size_t n = ct_utf8((uint32_t)*s, b);
        if (o + n >= size)
            break;
        memcpy(buf + o, b, n);
        o += n;
    }
    buf[o] = '\0';
    return buf;
}

uint32_t ct_nvtx_wide_id(const wchar_t *s)
{
    char buf[1024];
    return ct_nvtx_ascii_id(ct_nvtx_utf8(s, buf, sizeof buf));
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct ct_nvtx_domain **domains; /* by id - 1 */
static size_t ndomains, cap;

struct ct_nvtx_domain *ct_nvtx_domain(const char *name)
{
    uint32_t name_id = ct_rec_intern(CT_STR_NVTX, name ? name : "");
    struct ct_nvtx_domain *d = NULL;

    pthread_mutex_lock(&mu);
    for (size_t i = 0; i < ndomains; i++)
        if (domains[i]->name_id == name_id && name_id) {
            d = domains[i];
            goto out;
        }
    if (ndomains == UINT16_MAX)
        goto out;
    if (ndomains == cap) {
        size_t nc = cap ? cap * 2 : 16;
        struct ct_nvtx_domain **v = ct_realloc(domains, nc * sizeof *v);
        if (!v)
            goto out;
        domains = v;
        cap = nc;
    }
    if ((d = ct_calloc(1, sizeof *d)) != NULL) {
        d->id = (uint16_t)(ndomains + 1);
        d->name_id = name_id;
        domains[ndomains++] = d;
        ct_rec_nvtx_name(CT_NVTX_NAME_DOMAIN, d->id, 0, name_id);
    }
out:
    pthread_mutex_unlock(&mu);
    return d;
}

struct ct_nvtx_string *ct_nvtx_string(const char *s)
{
    struct ct_nvtx_string *r = ct_calloc(1, sizeof *r);

    if (r)
        r->id = ct_rec_intern(CT_STR_NVTX, s ? s : "");
    return r;
}
