#define _GNU_SOURCE /* dladdr1 */
#include "config.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/record.h"
#include "recorder/forklock.h"
#include "recorder/intern.h"
#include "recorder/meta_queue.h"
#include "recorder/pystack.h"
#include "recorder/warn.h"
#include "recorder/alloc.h"

/* Where CPython keeps what we read, per minor version (the interpreter's headers; an object's type pointer
 * is at 8 in every build we support).  Frames and code objects are never written, only read. */
struct layout {
    unsigned minor;
    unsigned ts_frame;     /* PyThreadState: the current frame, or (cf_frame >= 0) the _PyCFrame holding it */
    int cf_frame;          /* _PyCFrame: current_frame (3.11, 3.12), -1 without a _PyCFrame */
    int frame_objects;     /* 3.8 to 3.10: frames are PyFrameObjects, one eval-loop call each */
    unsigned f_code, f_back, f_where; /* code, previous frame, f_lasti (int) or the instruction pointer */
    int f_entry, f_owner;  /* 3.11 is_entry, 3.11+ owner (char); -1: none */
    unsigned lasti_scale;  /* frame objects: bytes per f_lasti unit (3.10 counts code units) */
    unsigned co_filename, co_name, co_firstlineno, co_code; /* co_name: co_qualname from 3.11;
                                                              * co_code: co_code_adaptive (3.11+) */
    unsigned str_ascii, str_compact; /* sizeof PyASCIIObject, PyCompactUnicodeObject: where text starts */
};

#define OWNER_CSTACK 3 /* 3.12+: a shim frame the eval loop pushes on entry: frames above it ran in that call */

static const struct layout layouts[] = {
    {8, 24, -1, 1, 32, 24, 104, -1, -1, 1, 104, 112, 40, 0, 48, 72},
    {9, 24, -1, 1, 32, 24, 104, -1, -1, 1, 104, 112, 40, 0, 48, 72},
    {10, 24, -1, 1, 32, 24, 96, -1, -1, 2, 104, 112, 40, 0, 48, 72},
    {11, 56, 8, 0, 32, 48, 56, 68, 69, 1, 112, 128, 72, 184, 48, 72},
    {12, 56, 0, 0, 0, 8, 56, -1, 70, 1, 112, 128, 68, 192, 40, 56},
    {13, 72, -1, 0, 0, 8, 56, -1, 70, 1, 112, 128, 68, 200, 40, 56},
};

/* One code object seen in a frame.  Its address alone could be reused by another once it is freed, so the
 * identity includes its file and name objects and first line.  Readers find it without a lock: `code` is
 * stored last, with release.  Slots are never reused: an index stays valid for the process's life. */
struct code_slot {
    _Atomic uintptr_t code; /* 0: empty */
    uintptr_t file, name;
    int first;
    uint32_t file_id, name_id;
};

#define CODE_SLOTS (1u << 15) /* distinct code objects: at most 3/4 of it are filled */

int ct_py_on;
static const struct layout *L;
static unsigned max_frames;
static struct code_slot *codes;
static size_t codes_used;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t code_type, str_type, eval_lo, eval_hi;
static int (*is_initialized)(void), (*is_finalizing)(void);
static void *(*this_thread_state)(void);
static int (*addr2line)(void *code, int addrq);

static inline uintptr_t ld_ptr(uintptr_t p, unsigned off) { return *(const uintptr_t *)(p + off); }
static inline int ld_int(uintptr_t p, unsigned off) { return *(const int *)(p + off); }

/* A Python frame as a key word: code slot (17 bits), eval-loop call counted from the innermost (8), byte
 * offset of the instruction in the code (32).  The last word: a tag and the frame count. */
#define WORD(slot, call, addrq) ((uint64_t)(slot) << 40 | (uint64_t)((call) & 0xffu) << 32 | (uint32_t)(addrq))
#define W_SLOT(w) ((unsigned)((w) >> 40))
#define W_CALL(w) ((unsigned)((w) >> 32 & 0xffu))
#define W_ADDRQ(w) ((int)(uint32_t)(w))
#define TAG (0xC7ull << 56) /* never a user-space return address */

/* A str object's text as UTF-8 (compact strings: every name and file name is one), "?" otherwise. */
static void str_text(uintptr_t s, char *buf, size_t size)
{
    if (!s || ld_ptr(s, 8) != str_type) {
        snprintf(buf, size, "?");
        return;
    }
    size_t len = (size_t)ld_ptr(s, 16), o = 0;
    unsigned state = *(const unsigned *)(s + 32), kind = state >> 2 & 7, compact = state >> 5 & 1,
             ascii = state >> 6 & 1;
    if (!compact || (kind != 1 && kind != 2 && kind != 4)) {
        snprintf(buf, size, "?");
        return;
    }
    const unsigned char *d = (const unsigned char *)(s + (ascii ? L->str_ascii : L->str_compact));
    for (size_t i = 0; i < len && o + 5 < size; i++) {
        uint32_t c = kind == 1 ? d[i] : kind == 2 ? ((const uint16_t *)d)[i] : ((const uint32_t *)d)[i];
        o += ct_utf8(c, (unsigned char *)buf + o);
    }
    buf[o] = '\0';
}

static size_t code_hash(uintptr_t code) { return (size_t)((code >> 4) * 0x9e3779b97f4a7c15ull >> 40); }

/* The slot of this code object (*found), or the empty slot where it would go. */
static struct code_slot *probe(uintptr_t code, uintptr_t file, uintptr_t name, int first, int *found)
{
    for (size_t i = code_hash(code) & (CODE_SLOTS - 1);; i = (i + 1) & (CODE_SLOTS - 1)) {
        struct code_slot *s = &codes[i];
        uintptr_t c = atomic_load_explicit(&s->code, memory_order_acquire);
        if (!c || (c == code && s->file == file && s->name == name && s->first == first)) {
            *found = c != 0;
            return s;
        }
    }
}

/* The slot index of a code object, entered on first sight (its names interned); -1 when the table is full
 * or out of memory. */
static long code_slot_of(uintptr_t code)
{
    uintptr_t file = ld_ptr(code, L->co_filename), name = ld_ptr(code, L->co_name);
    int first = ld_int(code, L->co_firstlineno), found;
    struct code_slot *s = probe(code, file, name, first, &found);
    if (__builtin_expect(found, 1))
        return s - codes;

    char text[1024];
    str_text(file, text, sizeof text);
    uint32_t file_id = ct_intern(CT_STR_PYTHON, text, 0);
    str_text(name, text, sizeof text);
    uint32_t name_id = ct_intern(CT_STR_PYTHON, text, 0);
    long idx = -1;
    if (!file_id || !name_id)
        return -1;
    pthread_mutex_lock(&mu);
    s = probe(code, file, name, first, &found);
    if (!found && (codes_used + 1) * 4 <= (size_t)CODE_SLOTS * 3) {
        s->file = file;
        s->name = name;
        s->first = first;
        s->file_id = file_id;
        s->name_id = name_id;
        codes_used++;
        atomic_store_explicit(&s->code, code, memory_order_release);
        found = 1;
    }
    if (found)
        idx = s - codes;
    pthread_mutex_unlock(&mu);
    return idx;
}

/* The thread's current frame, or 0: only while the interpreter runs (not before it starts nor once it
 * finalizes, when thread states go away) and only for a thread that has a thread state. */
static uintptr_t current_frame(void)
{
    if (!is_initialized() || is_finalizing())
        return 0;
    uintptr_t ts = (uintptr_t)this_thread_state();
    if (!ts)
        return 0;
    uintptr_t f = ld_ptr(ts, L->ts_frame);
    if (L->cf_frame >= 0 && f)
        f = ld_ptr(f, (unsigned)L->cf_frame);
    return f;
}

int ct_pystack_append_(void **out)
{
    uintptr_t f = current_frame();
    unsigned n = 0, call = 0;

    for (unsigned steps = 0; f && !(f & 7) && n < max_frames && steps < 4 * CT_MAX_STACK_DEPTH; steps++) {
        uintptr_t code = ld_ptr(f, L->f_code);
        if (L->f_owner >= 0 && *(const char *)(f + L->f_owner) == OWNER_CSTACK) {
            call++; /* 3.12+: the frames above ran in an eval-loop call of their own */
        } else {
            if (!code || (code & 7) || ld_ptr(code, 8) != code_type)
                break;
            long addrq = L->frame_objects ? (long)ld_int(f, L->f_where) * L->lasti_scale
                                          : (long)(ld_ptr(f, L->f_where) - (code + L->co_code));
            if (addrq >= 0) { /* < 0: a frame not yet started */
                long slot = code_slot_of(code);
                if (slot < 0)
                    break;
                out[n++] = (void *)(uintptr_t)WORD(slot, call, addrq);
            }
            if (L->frame_objects || (L->f_entry >= 0 && *(const char *)(f + L->f_entry)))
                call++; /* each frame object had its eval-loop call; 3.11: the first frame of its call */
        }
        f = ld_ptr(f, L->f_back);
    }
    if (!n)
        return 0;
    out[n] = (void *)(uintptr_t)(TAG | n);
    return (int)n + 1;
}

int ct_pystack_write(uint32_t id, void *const *words, int nwords, const uint64_t *native, int nnative)
{
    struct ct_py_frame frames[CT_PY_WORDS];
    unsigned char rec[sizeof(struct ct_rec_pystack) + sizeof frames];
    int n = nwords - 1, k = 0, i = 0;
    unsigned call = 0;

    /* Each eval-loop call's frames go just before its native frame, the innermost call first; the calls
     * whose native frame was not kept (or not found) go after the native frames. */
    for (; i <= nnative && k < n; i++) {
        int eval = i < nnative && native[i] >= eval_lo && native[i] < eval_hi;
        if (!eval && i < nnative)
            continue;
        for (; k < n && (i == nnative || W_CALL((uint64_t)(uintptr_t)words[k]) <= call); k++) {
            uint64_t w = (uint64_t)(uintptr_t)words[k];
            const struct code_slot *s = &codes[W_SLOT(w)];
            int line = addr2line((void *)atomic_load_explicit(&s->code, memory_order_relaxed), W_ADDRQ(w));
            frames[k] = (struct ct_py_frame){s->file_id, s->name_id, line > 0 ? (uint32_t)line : 0, (uint16_t)i, 0};
        }
        call++;
    }
    ct_put_pystack(rec, 0, id, frames, (size_t)n);
    return ct_meta_push(rec, ct_size_pystack((size_t)n), 1);
}

/* dlsym from here: our own export passes names not starting with "cu" straight to glibc's. */
static void *sym(const char *name) { return dlsym(RTLD_DEFAULT, name); }

void ct_pystack_start(unsigned depth)
{
    const char *(*version)(void) = (const char *(*)(void))sym("Py_GetVersion");
    unsigned major = 0, minor = 0;

    if (!version || sscanf(version(), "%u.%u", &major, &minor) != 2)
        return; /* not a Python process */
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++)
        if (major == 3 && layouts[i].minor == minor)
            L = &layouts[i];
    is_initialized = (int (*)(void))sym("Py_IsInitialized");
    if (!(is_finalizing = (int (*)(void))sym("Py_IsFinalizing"))) /* 3.13; before, the private name */
        is_finalizing = (int (*)(void))sym("_Py_IsFinalizing");
    this_thread_state = (void *(*)(void))sym("PyGILState_GetThisThreadState");
    addr2line = (int (*)(void *, int))sym("PyCode_Addr2Line");
    code_type = (uintptr_t)sym("PyCode_Type");
    str_type = (uintptr_t)sym("PyUnicode_Type");
    if (!L || !is_initialized || !is_finalizing || !this_thread_state || !addr2line || !code_type || !str_type ||
        sym("_Py_MergeZeroLocalRefcount")) { /* that one: a free-threaded build, whose objects differ */
        ct_warn("Python %u.%u: Python frames are recorded for CPython 3.8 to 3.13 (not free-threaded builds); "
                "stacks show native frames only", major, minor);
        return;
    }
    Dl_info info;
    const ElfW(Sym) *es = NULL;
    void *eval = sym("_PyEval_EvalFrameDefault");
    if (eval && dladdr1(eval, &info, (void **)&es, RTLD_DL_SYMENT) && es) {
        eval_lo = (uintptr_t)eval;
        eval_hi = eval_lo + es->st_size;
    }
    if (!(codes = ct_calloc(CODE_SLOTS, sizeof *codes)))
        return;
    max_frames = depth;
    ct_py_on = 1;
}

int ct_pystack_fork_lock(void) { return ct_fork_lock(&mu); }

void ct_pystack_fork_unlock(int taken, int child)
{
    if (child)
        pthread_mutex_init(&mu, NULL);
    else
        ct_fork_unlock(&mu, taken);
}
