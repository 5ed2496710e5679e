/* Lock-free hand-offs between threads, told to ThreadSanitizer.
 *
 * A program built with -fsanitize=thread is traced by the ordinary libcudatrace.so behind the TSan runtime
 * (doc/contributing.md#sanitizers).  TSan then sees the tracer's intercepted calls (mmap, malloc, memcpy,
 * pthread_mutex_*, writev, free) but not its atomics, so memory that one thread allocates and publishes with
 * a release store and another uses after an acquire load (a thread's new ring, a queued metadata record, a
 * context's GPU timing pool) looks unordered to it: a false race, such as ct_ring_new's mmap against the
 * writer's writev of the ring.  Each such hand-off therefore also calls ct_tsan_release(obj) before the store
 * that publishes obj and ct_tsan_acquire(obj) after the load that found it: the order the atomics give,
 * nothing more.  Without TSan the weak functions are null: one test where an object is published or looked
 * at, never per record. */
#ifndef CT_RECORDER_TSAN_H
#define CT_RECORDER_TSAN_H

#if defined(__SANITIZE_THREAD__) /* gcc */
#define CT_TSAN_BUILD 1
#elif defined(__has_feature) /* clang */
#if __has_feature(thread_sanitizer)
#define CT_TSAN_BUILD 1
#endif
#endif

#ifdef CT_TSAN_BUILD
/* Built with TSan (scripts/check-sanitizers): it sees the atomics themselves, and checks their orders, which
 * an annotation would vouch for whatever they are. */
static inline void ct_tsan_release(void *obj) { (void)obj; }
static inline void ct_tsan_acquire(void *obj) { (void)obj; }
#else
/* The TSan runtime's (sanitizer/tsan_interface.h); null where it is not loaded. */
void __tsan_acquire(void *addr) __attribute__((weak));
void __tsan_release(void *addr) __attribute__((weak));

static inline void ct_tsan_release(void *obj)
{
    if (__tsan_release)
        __tsan_release(obj);
}

static inline void ct_tsan_acquire(void *obj)
{
    if (__tsan_acquire)
        __tsan_acquire(obj);
}
#endif

#endif
