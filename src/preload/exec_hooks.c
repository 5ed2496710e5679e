/* exec: the new program is traced through the environment it inherits (LD_PRELOAD, CUDATRACE_*); what this
 * one has buffered is flushed first, since exec discards the process's memory.  The trace file is
 * close-on-exec; if exec fails, tracing simply goes on.  (posix_spawn and system() start a new process,
 * which does not need this: the parent's buffers stay.) */
#include "config.h"

#include <dlfcn.h>
#include <unistd.h>

#include "preload/recorder.h"

#define EXPORT __attribute__((visibility("default")))

typedef int exec_fn(const char *, char *const[], char *const[]);
typedef int execv_fn(const char *, char *const[]);

static void *real(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    exec_fn *fn = (exec_fn *)real("execve");
    ct_rec_flush();
    return fn(path, argv, envp);
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    exec_fn *fn = (exec_fn *)real("execvpe");
    ct_rec_flush();
    return fn(file, argv, envp);
}

EXPORT int execv(const char *path, char *const argv[])
{
    execv_fn *fn = (execv_fn *)real("execv");
    ct_rec_flush();
    return fn(path, argv);
}

EXPORT int execvp(const char *file, char *const argv[])
{
    execv_fn *fn = (execv_fn *)real("execvp");
    ct_rec_flush();
    return fn(file, argv);
}
