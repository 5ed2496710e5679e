#include "config.h"

#include "report/model/partial_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/model/trace.h"

#define PROG "cudatrace-report"
#define HEADER_SIZE 32
#define MAX_PAYLOAD ((uint64_t)1 << 40) /* a longer length is a corrupt header, not an allocation */

int rp_partial_file_is(const char *path, const struct rp_partial_kind *k)
{
    char magic[RP_PARTIAL_MAGIC_LEN];
    struct stat st;
    /* Only a regular file is looked into: reading a pipe or FIFO here would take from it what the trace
     * reader must read, and opening a FIFO would let its writer start (a partial is read from a regular file;
     * the trace reader says so of one piped in).  Checked again once open (O_NONBLOCK: a FIFO put there
     * meanwhile does not hang the open). */
    if (!strcmp(path, "-") || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return 0;
    }
    const int is = read(fd, magic, sizeof magic) == (ssize_t)sizeof magic && !memcmp(magic, k->magic, sizeof magic);
    close(fd);
    return is;
}

int rp_partial_file_write(FILE *f, const struct rp_partial_kind *k, const struct rp_bytes *payload)
{
    struct rp_bytes head = {0};
    rp_put_raw(&head, k->magic, RP_PARTIAL_MAGIC_LEN);
    rp_put_u32le(&head, k->version);
    rp_put_u32le(&head, 0); /* flags: none yet */
    rp_put_u64le(&head, payload->n);
    rp_put_u32le(&head, rp_crc32(0, payload->p, payload->n));
    if (!head.oom)
        rp_put_u32le(&head, rp_crc32(0, head.p, head.n));
    const int rc = !payload->oom && !head.oom && fwrite(head.p, 1, head.n, f) == head.n &&
                           (!payload->n || fwrite(payload->p, 1, payload->n, f) == payload->n)
                       ? 0
                       : -1;
    rp_bytes_free(&head);
    return rc;
}

/* The whole file into memory (*len bytes): a partial holds its files' state, not their calls.  NULL with *rc
 * and a message when it cannot be read. */
static unsigned char *slurp(const char *path, size_t *len, int *rc)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    unsigned char *p = NULL;
    *rc = RP_EXIT_UNREADABLE;
    *len = 0;
    if (fd < 0 || fstat(fd, &st) < 0) {
        fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size : 4096;
    for (;;) {
        if (!p || *len == cap) {
            unsigned char *q = cap < SIZE_MAX / 2 ? realloc(p, p ? 2 * cap : cap) : NULL;
            if (!q) {
                free(p);
                close(fd);
                *rc = RP_EXIT_FAILED;
                fprintf(stderr, PROG ": out of memory\n");
                return NULL;
            }
            cap = p ? 2 * cap : cap;
            p = q;
        }
        ssize_t got = read(fd, p + *len, cap - *len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
            free(p);
            close(fd);
            return NULL;
        }
        if (got == 0)
            break;
        *len += (size_t)got;
    }
    close(fd);
    *rc = RP_EXIT_OK;
    return p;
}

int rp_partial_file_read(const char *path, const struct rp_partial_kind *k, unsigned char **buf,
                         struct rp_rd *payload)
{
    size_t len;
    int rc;
    unsigned char *p = slurp(path, &len, &rc);
    *buf = NULL;
    if (!p)
        return rc;
    struct rp_rd h = {p, p + len, 0};
    const void *magic = rp_get_raw(&h, RP_PARTIAL_MAGIC_LEN);
    const uint32_t version = rp_get_u32le(&h), flags = rp_get_u32le(&h);
    const uint64_t size = rp_get_u64le(&h);
    const uint32_t body_crc = rp_get_u32le(&h), head_crc = rp_get_u32le(&h);
    if (!magic || memcmp(magic, k->magic, RP_PARTIAL_MAGIC_LEN)) {
        fprintf(stderr, PROG ": %s: not %s %s partial\n", path, k->name[0] == 'a' ? "an" : "a", k->name);
        rc = RP_EXIT_UNREADABLE;
    } else if (h.bad || head_crc != rp_crc32(0, p, HEADER_SIZE - 4)) {
        fprintf(stderr, PROG ": %s: %s %s partial header\n", path, h.bad ? "truncated" : "corrupt", k->name);
        rc = RP_EXIT_DAMAGED;
    } else if (version != k->version || flags) {
        fprintf(stderr, PROG ": %s: %s partial of version %u (flags %#x): this cudatrace-report reads version %u only\n",
                path, k->name, version, flags, k->version);
        rc = RP_EXIT_UNREADABLE;
    } else if (size > MAX_PAYLOAD || size != len - HEADER_SIZE ||
               rp_crc32(0, p + HEADER_SIZE, (size_t)size) != body_crc) {
        fprintf(stderr, PROG ": %s: %s %s partial (%zu bytes of %llu after its header)\n", path,
                size > len - HEADER_SIZE ? "truncated" : "corrupt", k->name, len - HEADER_SIZE,
                (unsigned long long)size);
        rc = RP_EXIT_DAMAGED;
    }
    if (rc != RP_EXIT_OK) {
        free(p);
        return rc;
    }
    *buf = p;
    *payload = (struct rp_rd){p + HEADER_SIZE, p + len, 0};
    return RP_EXIT_OK;
}

void rp_partial_file_faulty(const char *path, const struct rp_partial_kind *k)
{
    fprintf(stderr, PROG ": %s: corrupt %s partial (its checksum holds: written by a faulty writer)\n", path, k->name);
}
