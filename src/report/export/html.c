/* The HTML report's page (export.h): one self-contained file, its style and its one script inline, nothing
 * fetched (a Content-Security-Policy forbids it), charts as SVG drawn here.  The script sorts a table by the
 * column whose heading is clicked (or named in the address: #sort=KEY:COLUMN), and says in the page that it
 * ran (body data-ok="1") or which error stopped it (html data-errors, and the text of #errors), so that a
 * browser test can tell. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/export/export.h"
#include "report/model/html.h"

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:0 24px 40px;color:#222;background:#fff}\n"
    "h1{font-size:22px;margin:16px 0 2px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ccc}\n"
    "h3{font-size:15px;margin:18px 0 6px}.cmd{font-family:monospace;color:#555;margin:0;word-break:break-all}\n"
    "nav a{margin-right:14px}#errors{color:#b00;background:#fee;padding:6px;white-space:pre-wrap}\n"
    /* long names (C++ templates) wrap anywhere, so that a table stays as wide as the page */
    "table{border-collapse:collapse;font-size:13px;max-width:100%}th,td{padding:2px 8px;"
    "border-bottom:1px solid #eee;text-align:left;vertical-align:top}td:not(.num){overflow-wrap:anywhere}\n"
    ".num{text-align:right;font-variant-numeric:tabular-nums}table.sortable th{cursor:pointer;background:#f4f4f4;"
    "position:sticky;top:0}\n"
    "th[aria-sort=ascending]::after{content:' \\25b2'}th[aria-sort=descending]::after{content:' \\25bc'}\n"
    "table.kv th{background:none;font-weight:600}td.stack{font-family:monospace;font-size:12px}\n"
    /* the header's fields in two columns of pairs: half as tall */
    "table.kv{display:grid;grid-template-columns:max-content minmax(0,1fr) max-content minmax(0,1fr);"
    "column-gap:4px}table.kv tbody,table.kv tr{display:contents}table.kv td.num{text-align:left}\n"
    ".none,.note{color:#666}svg{display:block;max-width:100%;height:auto;font-size:11px}\n"
    "svg .label{text-anchor:end;fill:#333}svg .dim{fill:#888}svg .in{fill:#fff;pointer-events:none}\n"
    ".bars rect{fill:#4e79a7}.bars .bar:hover rect{fill:#f28e2b}.idle{fill:#f3f3f3}\n"
    ".busy.l1{fill:#c6dbef}.busy.l2{fill:#6baed6}.busy.l3{fill:#2171b5}.busy.l4{fill:#08306b}\n"
    "rect.range{stroke:#fff;stroke-width:.5}.axis line{stroke:#999}.axis text{fill:#555}\n"
    ".live{fill:#9ecae1;stroke:#3182bd;stroke-width:1}line.peak{stroke:#d62728;stroke-dasharray:3 2}"
    "circle.peak{fill:#d62728}text.peak{fill:#d62728;font-weight:600}\n"
    "footer{margin-top:32px;color:#888;font-size:12px}\n";

/* Before everything else: errors of the main script, even one that stops it from being parsed, are shown
 * in the page and marked for a test. */
static const char catcher[] =
    "window.onerror=function(m,s,l,c){var h=document.documentElement;"
    "h.setAttribute('data-errors',(+(h.getAttribute('data-errors')||0)+1)+'');"
    "var e=document.getElementById('errors');if(e){e.hidden=false;"
    "e.textContent+='JavaScript error: '+m+' (line '+l+':'+c+')\\n';}};\n";

static const char script[] =
    "(function(){'use strict';\n"
    "function val(td,num){if(!num)return td.textContent.toLowerCase();var v=td.getAttribute('data-v');"
    "return v===null||v===''?-Infinity:parseFloat(v);}\n"
    "function sortBy(table,col,dir){var head=table.tHead.rows[0].cells,th=head[col],num=th.hasAttribute('data-num');"
    "var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);"
    "rows.sort(function(a,b){var x=val(a.cells[col],num),y=val(b.cells[col],num);return(x<y?-1:x>y?1:0)*dir;});"
    "rows.forEach(function(r){body.appendChild(r);});"
    "Array.prototype.forEach.call(head,function(c){c.removeAttribute('aria-sort');});"
    "th.setAttribute('aria-sort',dir>0?'ascending':'descending');}\n"
    "function click(table,col){var th=table.tHead.rows[0].cells[col],was=th.getAttribute('aria-sort');"
    "var dir=was?(was==='ascending'?-1:1):(th.hasAttribute('data-num')?-1:1);sortBy(table,col,dir);}\n"
    "var tables=document.querySelectorAll('table.sortable');\n"
    "Array.prototype.forEach.call(tables,function(table){"
    "Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th,col){th.tabIndex=0;th.title='sort by '+th.textContent;"
    "th.addEventListener('click',function(){click(table,col);});"
    "th.addEventListener('keydown',function(e){if(e.key==='Enter'||e.key===' '){e.preventDefault();click(table,col);}});});});\n"
    /* #sort=KEY:COLUMN[&sort=...]: a table sorted as if its column's heading were clicked (links, tests) */
    "decodeURIComponent(location.hash.slice(1)).split('&').forEach(function(p){"
    "var m=/^sort=([^:]+):(.+)$/.exec(p);if(!m)return;"
    "Array.prototype.forEach.call(tables,function(table){if(table.getAttribute('data-key')!==m[1])return;"
    "Array.prototype.forEach.call(table.tHead.rows[0].cells,function(th,col){if(th.textContent===m[2])click(table,col);});});});\n"
    "document.body.setAttribute('data-tables',tables.length+'');\n"
    "document.body.setAttribute('data-ok','1');\n"
    "})();\n";

void rp_html_begin(FILE *out, const struct rp_trace *t)
{
    const char *cmd = t->nfiles ? t->files[0].cmdline : "";
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
          "script-src 'unsafe-inline'; img-src data:\">\n<meta name=\"viewport\" content=\"width=device-width\">\n"
          "<title>cudatrace report: ", out);
    rp_html_text_cut(out, cmd, 80);
    fprintf(out, "</title>\n<style>\n%s</style>\n<script>\n%s</script>\n</head>\n<body data-ok=\"0\">\n"
                 "<header><h1>cudatrace report</h1><p class=\"cmd\">", style, catcher);
    rp_html_text(out, cmd);
    fputs("</p></header>\n<pre id=\"errors\" hidden></pre>\n<nav><a href=\"#trace\">Trace</a><a href=\"#findings\">Findings</a><a href=\"#gpu\">GPU "
          "time</a><a href=\"#timeline\">Timeline</a><a href=\"#memory\">Memory</a>", out);
    if (rp_html_ranked(t))
        fputs("<a href=\"#ranks\">Ranks</a>", out);
    fputs("<a href=\"#host\">Host</a></nav>\n", out);
}

void rp_html_end(FILE *out)
{
    fprintf(out, "<footer>Made by cudatrace-report %s: one file, nothing fetched.  Click a column's heading to "
                 "sort its table; hover over a bar or span for its numbers.</footer>\n<script>\n%s</script>\n"
                 "</body></html>\n", PACKAGE_VERSION, script);
}

int rp_html_ranked(const struct rp_trace *t)
{
    int32_t first = -1;
    for (size_t i = 0; i < t->nfiles; i++) {
        int32_t r = t->files[i].rank.rank;
        if (r >= 0 && first >= 0 && r != first)
            return 1;
        if (r >= 0)
            first = r;
    }
    return 0;
}

struct rank_row {
    int32_t rank;
    uint64_t calls, spans;
    double gpu_ns;
};

static int by_rank(const void *x, const void *y)
{
    const struct rank_row *a = x, *b = y;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* One chart: a bar per rank of `what` (0: GPU span time, 1: calls). */
static void rank_bars(FILE *out, const struct rank_row *r, size_t n, int what, const char *title)
{
    double max = 0;
    const unsigned row = 18, label = 120, width = 600;
    for (size_t i = 0; i < n; i++) {
        double v = what ? (double)r[i].calls : r[i].gpu_ns;
        if (v > max)
            max = v;
    }
    fprintf(out, "<h3>%s</h3>\n<svg class=\"bars ranks\" data-key=\"%s\" viewBox=\"0 0 %u %zu\" width=\"%u\" "
                 "height=\"%zu\" role=\"img\">\n", title, what ? "rank_calls" : "rank_gpu", label + width + 100,
            n * row + 4, label + width + 100, n * row + 4);
    for (size_t i = 0; i < n; i++) {
        double v = what ? (double)r[i].calls : r[i].gpu_ns, w = max > 0 ? v / max * width : 0;
        char d[32];
        if (what)
            snprintf(d, sizeof d, "%" PRIu64, r[i].calls);
        else
            rp_html_duration(d, sizeof d, v);
        fprintf(out, "<g class=\"bar\"><title>rank %d: %s</title><text class=\"label\" x=\"%u\" y=\"%zu\">rank %d</text>"
                     "<rect x=\"%u\" y=\"%zu\" width=\"%.1f\" height=\"%u\" data-rank=\"%d\" data-v=\"%.0f\"/>"
                     "<text x=\"%.1f\" y=\"%zu\">%s</text></g>\n",
                (int)r[i].rank, d, label - 6, i * row + 14, (int)r[i].rank, label, i * row + 2, w < 1 ? 1 : w, row - 4,
                (int)r[i].rank, v, label + (w < 1 ? 1 : w) + 4, i * row + 14, d);
    }
    fputs("</svg>\n", out);
}

int rp_html_ranks(FILE *out, const struct rp_trace *t)
{
    struct rank_row *r = calloc(t->nfiles, sizeof *r);
    size_t n = 0;
    if (!r) {
        fprintf(stderr, "cudatrace-report: out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < t->nfiles; i++) {
        const struct rp_file *f = &t->files[i];
        size_t k = 0;
        if (f->rank.rank < 0)
            continue;
        while (k < n && r[k].rank != f->rank.rank)
            k++;
        if (k == n)
            r[n++].rank = f->rank.rank;
        r[k].calls += f->calls;
        for (size_t j = 0; j < f->gpu.n; j++)
            if (f->gpu.v[j].end_ns > f->gpu.v[j].start_ns) {
                r[k].gpu_ns += (double)(f->gpu.v[j].end_ns - f->gpu.v[j].start_ns);
                r[k].spans++;
            }
    }
    qsort(r, n, sizeof *r, by_rank);
    fputs("<p>Each rank's work side by side: the GPU time of its spans (kernels, copies and sets, summed over its "
          "streams) and the CUDA calls it recorded.  The spread table below puts each API function's and kernel's "
          "total time of the least and the most loaded rank side by side, the widest spread first.</p>\n", out);
    rank_bars(out, r, n, 0, "GPU span time per rank");
    rank_bars(out, r, n, 1, "Calls recorded per rank");
    free(r);
    return 0;
}
