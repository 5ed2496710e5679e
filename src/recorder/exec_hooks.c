/* exec: the new program is traced through the environment it inherits (LD_PRELOAD, CUDATRACE_*); what this
 * one has buffered is flushed first, since exec discards the process's memory.  The trace file is
 * close-on-exec; if exec fails, tracing simply goes on.  (posix_spawn and system() start a new process,
 * which does not need this: the parent's buffers stay.)  execl, execlp and execle are hooked too: glibc
 * builds their argument vector and calls its own execve, past an interposed one. */
#include "config.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <unistd.h>

#include "recorder/export.h"
#include "recorder/recorder.h"


typedef int exec_fn(const char *, char *const[], char *const[]);
typedef int execv_fn(const char *, char *const[]);

static void *real(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

CT_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    exec_fn *fn = (exec_fn *)real("execve");
    ct_rec_flush();
    return fn(path, argv, envp);
}

CT_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    exec_fn *fn = (exec_fn *)real("execvpe");
    ct_rec_flush();
    return fn(file, argv, envp);
}

CT_EXPORT int execv(const char *path, char *const argv[])
{
    execv_fn *fn = (execv_fn *)real("execv");
    ct_rec_flush();
    return fn(path, argv);
}

CT_EXPORT int execvp(const char *file, char *const argv[])
{
    execv_fn *fn = (execv_fn *)real("execvp");
    ct_rec_flush();
    return fn(file, argv);
}

CT_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
    int (*fn)(int, char *const[], char *const[]) = (int (*)(int, char *const[], char *const[]))real("fexecve");
    ct_rec_flush();
    return fn(fd, argv, envp);
}

/* The arguments of an execl-style call: how many from `first` to the NULL (count_args, over a copy of ap),
 * then the vector itself, NULL included (fill_args, which leaves *ap after the NULL: execle's envp). */
static size_t count_args(const char *first, va_list ap)
{
    va_list c;
    size_t n = 0;

    if (first) {
        va_copy(c, ap);
        for (n = 1; va_arg(c, char *) != NULL; n++)
            ;
        va_end(c);
    }
    return n;
}

static void fill_args(char **argv, size_t n, const char *first, va_list *ap)
{
    argv[0] = (char *)first;
    for (size_t i = 1; i <= n; i++)
        argv[i] = va_arg(*ap, char *);
}

/* execl (execv underneath), execlp (execvp) and execle (execve, with the envp after the NULL). */
static int exec_list(const char *real_name, const char *path, const char *arg, va_list ap, int with_envp)
{
    va_list args;
    va_copy(args, ap);
    size_t n = count_args(arg, args);
    char *argv[n + 1];
    fill_args(argv, n, arg, &args);
    char *const *envp = with_envp ? va_arg(args, char *const *) : NULL;
    va_end(args);
    void *fn = real(real_name);
    ct_rec_flush();
    return with_envp ? ((exec_fn *)fn)(path, argv, envp) : ((execv_fn *)fn)(path, argv);
}

CT_EXPORT int execl(const char *path, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int rc = exec_list("execv", path, arg, ap, 0);
    va_end(ap);
    return rc;
}

CT_EXPORT int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int rc = exec_list("execvp", file, arg, ap, 0);
    va_end(ap);
    return rc;
}

CT_EXPORT int execle(const char *path, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int rc = exec_list("execve", path, arg, ap, 1);
    va_end(ap);
    return rc;
}
