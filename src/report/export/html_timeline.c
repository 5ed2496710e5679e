/* The HTML report's GPU timeline (export.h, rp_html_timeline): how busy each device's streams were over the
 * run, a row per (device, stream), with the NVTX ranges of each thread above.  The spans are summed into
 * pixel-wide bins as they are read, so the chart holds at most RP_HTML_BINS runs of bins per row whatever
 * the number of spans; NVTX ranges narrower than a pixel are counted, not drawn. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/export/export.h"
#include "report/model/html_chart.h"
#include "report/model/html.h"
#include "report/model/map.h"

#define MAX_STREAMS 32   /* stream rows drawn; spans of the others share one more row */
#define MAX_THREADS 16   /* NVTX rows (threads with ranges) drawn */
#define MAX_DEPTH 4      /* nesting levels drawn per NVTX row; deeper ranges are drawn at the last */
#define MAX_RANGES 5000  /* NVTX ranges drawn in all */
#define ROW 16           /* pixels per row */

struct stream_row {
    size_t file;         /* streams of different processes are rows of their own */
    int32_t rank;        /* the file's (-1: none), for the rows' order */
    int32_t device;      /* INT32_MIN: the row of the streams beyond MAX_STREAMS */
    uint64_t stream;
    uint64_t spans;
    double busy_ns;
    double *bin;         /* busy ns per bin */
};

struct streams {
    struct stream_row *v;
    size_t n, cap;
    struct rp_u64map of; /* (stream, file << 32 | device) -> row */
};

static struct stream_row *row_of(struct streams *s, size_t file, int32_t rank, int32_t device, uint64_t stream)
{
    struct rp_u64map_entry *e = rp_u64map_get(&s->of, stream, (uint64_t)file << 32 | (uint32_t)device);
    if (e)
        return &s->v[e->v1];
    if (s->n >= MAX_STREAMS) { /* the shared row of the rest */
        file = 0;
        device = INT32_MIN;
        stream = 0;
        if ((e = rp_u64map_get(&s->of, 0, (uint32_t)INT32_MIN)))
            return &s->v[e->v1];
    }
    struct stream_row *v = ct_grow(s->v, &s->cap, s->n + 1, sizeof *v);
    if (!v)
        return NULL;
    s->v = v;
    v = &s->v[s->n];
    memset(v, 0, sizeof *v);
    v->file = file;
    v->rank = rank;
    v->device = device;
    v->stream = stream;
    if (!(v->bin = calloc(RP_HTML_BINS, sizeof *v->bin)) ||
        !rp_u64map_put(&s->of, stream, (uint64_t)file << 32 | (uint32_t)device, s->n, 0)) {
        free(v->bin);
        return NULL;
    }
    return &s->v[s->n++];
}

/* Spread [t0, t1) over the bins it covers. */
static void add_busy(struct stream_row *r, const struct rp_html_axis *a, int64_t t0, int64_t t1)
{
    if (t0 < a->start)
        t0 = a->start;
    if (t1 > a->end)
        t1 = a->end;
    if (t1 <= t0)
        return;
    r->busy_ns += (double)(t1 - t0);
    /* in ns since the start: a double holds those exactly, not times of the report clock (since 1970) */
    const double r0 = (double)(t0 - a->start), r1 = (double)(t1 - a->start);
    for (int b = rp_html_bin(a, t0), last = rp_html_bin(a, t1 - 1); b <= last; b++) {
        double lo = b * a->bin_ns, hi = lo + a->bin_ns;
        double s = r0 > lo ? r0 : lo, e = r1 < hi ? r1 : hi;
        if (e > s)
            r->bin[b] += e - s;
    }
}

struct file_rank {
    int32_t rank; /* -1: none */
    size_t file;
};

/* By rank, files without one last; else in the order given. */
static int by_rank(const void *x, const void *y)
{
    const struct file_rank *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < 0 ? 1 : b->rank < 0 ? -1 : a->rank < b->rank ? -1 : 1;
    return (a->file > b->file) - (a->file < b->file);
}

static int by_device_stream(const void *x, const void *y)
{
    const struct stream_row *a = x, *b = y;
    if ((a->device == INT32_MIN) != (b->device == INT32_MIN))
        return a->device == INT32_MIN ? 1 : -1;
    if (a->rank != b->rank) /* ranks in order, files without one after them */
        return a->rank < 0 ? 1 : b->rank < 0 ? -1 : a->rank < b->rank ? -1 : 1;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    if (a->device != b->device)
        return a->device == INT32_MIN ? 1 : b->device == INT32_MIN ? -1 : a->device < b->device ? -1 : 1;
    return (a->stream > b->stream) - (a->stream < b->stream);
}

/* A busy fraction in four shades: 1 up to a quarter of the bin busy, ... 4 more than three quarters. */
static int level(double busy, double bin_ns)
{
    double f = busy / bin_ns;
    return busy <= 0 ? 0 : f <= 0.25 ? 1 : f <= 0.5 ? 2 : f <= 0.75 ? 3 : 4;
}

/* Who a row is of, when there are several processes: "rank 3 ", "pid 1234 ". */
static const char *process(char *buf, size_t size, const struct rp_trace *t, size_t file)
{
    const struct rp_file *f = &t->files[file];
    if (t->nfiles < 2)
        buf[0] = '\0';
    else if (f->rank.rank >= 0)
        snprintf(buf, size, "rank %d ", (int)f->rank.rank);
    else
        snprintf(buf, size, "pid %u ", f->hdr.pid);
    return buf;
}

static void stream_label(char *buf, size_t size, const struct rp_trace *t, const struct stream_row *r)
{
    char who[32];
    if (r->device == INT32_MIN)
        snprintf(buf, size, "other streams");
    else if (r->device < 0)
        snprintf(buf, size, "%sGPU ? stream 0x%" PRIx64, process(who, sizeof who, t, r->file), r->stream);
    else
        snprintf(buf, size, "%sGPU %d stream 0x%" PRIx64, process(who, sizeof who, t, r->file), (int)r->device,
                 r->stream);
}

/* A row: runs of bins of the same shade as one rect each, its tooltip the run's time and busy share. */
static void draw_stream(FILE *out, const struct rp_trace *t, const struct rp_html_axis *a, const struct stream_row *r,
                        unsigned y)
{
    char label[96], d0[32], d1[32], d2[32];
    stream_label(label, sizeof label, t, r);
    fprintf(out, "<g class=\"stream\" data-device=\"%d\" data-stream=\"0x%" PRIx64 "\" data-spans=\"%" PRIu64
                 "\" data-busy=\"%.0f\"><text class=\"label\" x=\"%d\" y=\"%u\">%s <tspan class=\"dim\">%.1f%%"
                 "</tspan></text><rect class=\"idle\" x=\"%d\" y=\"%u\" width=\"%d\" height=\"%d\"/>\n",
            r->device == INT32_MIN ? -2 : (int)r->device, r->stream, r->spans, r->busy_ns, RP_HTML_LEFT - 6, y + 12,
            label, 100.0 * r->busy_ns / ((double)(a->end - a->start) > 0 ? (double)(a->end - a->start) : 1),
            RP_HTML_LEFT, y + 1, RP_HTML_BINS, ROW - 2);
    for (int b = 0; b < RP_HTML_BINS;) {
        int lv = level(r->bin[b], a->bin_ns), e = b + 1;
        double busy = r->bin[b];
        while (e < RP_HTML_BINS && level(r->bin[e], a->bin_ns) == lv)
            busy += r->bin[e++];
        if (lv)
            fprintf(out, "<rect class=\"busy l%d\" x=\"%d\" y=\"%u\" width=\"%d\" height=\"%d\"><title>%s: %s to "
                         "%s, busy %s (%.0f%%)</title></rect>\n",
                    lv, RP_HTML_LEFT + b, y + 1, e - b, ROW - 2, label, rp_html_duration(d0, sizeof d0, b * a->bin_ns),
                    rp_html_duration(d1, sizeof d1, e * a->bin_ns), rp_html_duration(d2, sizeof d2, busy),
                    100.0 * busy / ((e - b) * a->bin_ns));
        b = e;
    }
    fputs("</g>\n", out);
}

/* The NVTX rows: a row per (file, thread) with ranges, ranges at least a pixel wide drawn, nested ones
 * below their parents.  Returns the height used; *drawn and *hidden count ranges. */
static unsigned draw_nvtx(FILE *out, const struct rp_trace *t, const struct rp_html_axis *a, unsigned y,
                          size_t *drawn, size_t *hidden, size_t *rows_hidden)
{
    static const char *const palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948"};
    unsigned rows = 0, y0 = y;
    for (size_t i = 0; i < t->nfiles; i++) {
        const struct rp_file *f = &t->files[i];
        for (size_t j = 0; j < f->nvtx.n;) {
            uint32_t tid = f->nvtx.r[j].tid;
            size_t k = j;
            unsigned depth = 0;
            while (k < f->nvtx.n && f->nvtx.r[k].tid == tid) {
                if (f->nvtx.r[k].depth + 1 > depth)
                    depth = f->nvtx.r[k].depth + 1;
                k++;
            }
            if (rows == MAX_THREADS) {
                (*rows_hidden)++;
                *hidden += k - j;
                j = k;
                continue;
            }
            if (depth > MAX_DEPTH)
                depth = MAX_DEPTH;
            char who[32];
            const char *name = rp_thread_name(f, tid);
            fprintf(out, "<g class=\"nvtx\" data-tid=\"%" PRIu32 "\"><text class=\"label\" x=\"%d\" y=\"%u\">%s",
                    tid, RP_HTML_LEFT - 6, y + 12, process(who, sizeof who, t, i));
            if (*name) {
                rp_html_text_cut(out, name, 16);
                putc(' ', out);
            }
            fprintf(out, "tid %" PRIu32 "</text>\n", tid);
            for (; j < k; j++) {
                const struct rp_nvtx_range *r = &f->nvtx.r[j];
                if (r->style == RP_NVTX_MARK) /* an instant, not a range (nor in the summary's nvtx table) */
                    continue;
                int64_t t0 = (int64_t)r->t0 + f->clock_offset, t1 = (int64_t)r->t1 + f->clock_offset;
                double x0 = rp_html_x(a, t0), x1 = rp_html_x(a, t1);
                if (x1 - x0 < 1 || *drawn >= MAX_RANGES) {
                    (*hidden)++;
                    continue;
                }
                const char *msg = rp_file_string(f, r->name_id);
                char fill[8], d[32];
                unsigned lv = r->depth < MAX_DEPTH ? r->depth : MAX_DEPTH - 1;
                if (r->has_color)
                    snprintf(fill, sizeof fill, "#%06" PRIx32, r->color & 0xffffff);
                else
                    snprintf(fill, sizeof fill, "%s", palette[r->name_id % (sizeof palette / sizeof palette[0])]);
                fprintf(out, "<rect class=\"range\" x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
                             "<title>", RP_HTML_LEFT + x0, y + lv * ROW + 1, x1 - x0, ROW - 2, fill);
                rp_html_text_cut(out, msg ? msg : "", 200); /* 5000 ranges of long messages: still bounded */
                fprintf(out, ": %s</title></rect>", rp_html_duration(d, sizeof d, (double)(t1 - t0)));
                if (x1 - x0 >= 30 && msg) {
                    fprintf(out, "<text class=\"in\" x=\"%.1f\" y=\"%u\">", RP_HTML_LEFT + x0 + 2, y + lv * ROW + 12);
                    rp_html_text_cut(out, msg, (size_t)((x1 - x0 - 4) / 6.5));
                    fputs("</text>", out);
                }
                putc('\n', out);
                (*drawn)++;
            }
            fputs("</g>\n", out);
            y += depth * ROW + 4;
            rows++;
        }
    }
    return y - y0;
}

int rp_html_timeline(FILE *out, struct rp_trace *t)
{
    struct rp_html_axis a;
    struct streams s = {0};
    int rc = 0;
    rp_html_axis_init(&a, t);
    /* files by rank: the first MAX_STREAMS streams met get rows, so the lowest ranks' are the ones drawn */
    struct file_rank *order = malloc((t->nfiles ? t->nfiles : 1) * sizeof *order);
    if (!order)
        rc = -1;
    for (size_t i = 0; order && i < t->nfiles; i++)
        order[i] = (struct file_rank){t->files[i].rank.rank, i};
    if (order)
        qsort(order, t->nfiles, sizeof *order, by_rank);
    for (size_t k = 0; k < t->nfiles && !rc; k++) {
        const size_t i = order[k].file;
        const struct rp_file *f = &t->files[i];
        for (size_t j = 0; j < f->gpu.n; j++) {
            const struct rp_gpu_span *sp = &f->gpu.v[j];
            struct stream_row *r = row_of(&s, i, f->rank.rank, sp->device, sp->stream);
            if (!r) {
                rc = -1;
                break;
            }
            r->spans++;
            add_busy(r, &a, (int64_t)sp->start_ns + f->clock_offset, (int64_t)sp->end_ns + f->clock_offset);
        }
    }
    free(order);
    if (rc) {
        fprintf(stderr, "cudatrace-report: out of memory\n");
        goto out;
    }
    if (s.n) /* s.v is NULL without spans */
        qsort(s.v, s.n, sizeof *s.v, by_device_stream);
    size_t nvtx = 0;
    for (size_t i = 0; i < t->nfiles; i++)
        nvtx += t->files[i].nvtx.n;
    fputs("<section id=\"timeline\"><h2>GPU timeline</h2>\n", out);
    if (!s.n && !nvtx) {
        fputs("<p class=\"none\">No GPU spans nor NVTX ranges in this trace (GPU time: CUDATRACE_GPU_TIME; "
              "NVTX: format 6).</p></section>\n", out);
        goto out;
    }
    fputs("<p>Each stream's row is shaded by how much of each pixel's time its kernels, copies and sets kept "
          "it busy (darker: busier); the percentage is of the whole run.  NVTX ranges are above, by thread, "
          "nested ones below their parents.</p>\n", out);
    /* The NVTX rows go first; their height is known once drawn, so they go in a group moved into place. */
    size_t drawn = 0, hidden = 0, rows_hidden = 0;
    char *nbuf = NULL;
    size_t nlen = 0;
    FILE *nv = open_memstream(&nbuf, &nlen);
    if (!nv) {
        rc = -1;
        fprintf(stderr, "cudatrace-report: out of memory\n");
        goto out;
    }
    unsigned nh = draw_nvtx(nv, t, &a, 0, &drawn, &hidden, &rows_hidden);
    if (fclose(nv) != 0 || !nbuf) {
        free(nbuf);
        rc = -1;
        fprintf(stderr, "cudatrace-report: out of memory\n");
        goto out;
    }
    unsigned top = 4, h = top + nh + (nh ? 8 : 0) + (unsigned)s.n * ROW + 30;
    fprintf(out, "<svg class=\"timeline\" viewBox=\"0 0 %d %u\" width=\"%d\" height=\"%u\" role=\"img\" "
                 "data-streams=\"%zu\" data-ranges=\"%zu\" data-ranges-hidden=\"%zu\">\n",
            RP_HTML_WIDTH, h, RP_HTML_WIDTH, h, s.n, drawn, hidden);
    fprintf(out, "<g transform=\"translate(0,%u)\">\n", top);
    fwrite(nbuf, 1, nlen, out);
    free(nbuf);
    fputs("</g>\n", out);
    unsigned y = top + nh + (nh ? 8 : 0);
    for (size_t i = 0; i < s.n; i++, y += ROW)
        draw_stream(out, t, &a, &s.v[i], y);
    rp_html_ticks(out, &a, y);
    fputs("</svg>\n", out);
    if (hidden)
        fprintf(out, "<p class=\"note\">%zu NVTX ranges not drawn: narrower than a pixel%s%s.</p>\n", hidden,
                drawn >= MAX_RANGES ? ", or beyond the first 5000" : "",
                rows_hidden ? ", or of threads beyond the first 16" : "");
    fputs("</section>\n", out);
out:
    for (size_t i = 0; i < s.n; i++)
        free(s.v[i].bin);
    free(s.v);
    rp_u64map_free(&s.of);
    return rc;
}
