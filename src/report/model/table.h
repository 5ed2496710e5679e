/* A summary table: rows of text cells, printed as an aligned table, CSV or JSON.  Rows are kept until
 * printed (a summary has one row per distinct name, never one per call). */
#ifndef CT_REPORT_MODEL_TABLE_H
#define CT_REPORT_MODEL_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "report/model/text.h"

struct rp_table {
    const char *key;   /* JSON member and CSV section name: "api" */
    const char *title; /* table heading: "CUDA API summary" */
    int kv;            /* a two-column key/value table: a JSON object instead of an array of rows; a key
                          ending in '#' has a numeric value (the mark is not shown) */
    unsigned ncols;
    char **headers;    /* column titles, also the JSON member names of a row */
    unsigned char *numeric; /* per column: 0 text, 1 number (grouped in tables), 2 id (not grouped);
                               numbers are right-aligned and unquoted in JSON */
    char **cells;      /* nrows * ncols */
    size_t nrows, cap;
    int oom;
};

/* Column titles; a title ending in '#' is a number (digits grouped in tables), one ending in '!' a number
 * shown as is (ids); the mark is dropped.  Returns 0 or -1 (no memory). */
int rp_table_init(struct rp_table *t, const char *key, const char *title, unsigned ncols,
                  const char *const *titles);
/* A key/value table (kv): columns "Field" and "Value".  0 or -1 (no memory). */
int rp_table_init_kv(struct rp_table *t, const char *key, const char *title);
/* Set a column title after init (titles with the time unit in them). */
int rp_table_set_header(struct rp_table *t, unsigned col, const char *title);
/* The table of one of several things (a file, a rank): its key becomes "KEY[WHAT]" and its title
 * "TITLE: WHAT", in the caller's buffers (which must outlive the printing). */
void rp_table_of(struct rp_table *t, const char *what, char *key, size_t key_size, char *title, size_t title_size);
/* Append a row of ncols cells (copied). */
void rp_table_row(struct rp_table *t, const char *const *cells);
/* Print in `fmt`; `first` says whether it is the first table of the output (separators, JSON commas);
 * `labelled` adds "# key" lines before CSV sections (more than one table printed). */
void rp_table_print(const struct rp_table *t, FILE *out, enum rp_format fmt, int first, int labelled);
void rp_table_free(struct rp_table *t);

#endif
