# Sorting and quantiles for the bench scripts' summaries (run-overhead, run-train-overhead): sort(a, n) sorts
# a[0..n-1] in place; quantile(a, n, p) of sorted a, by linear interpolation between order statistics (R's
# default, type 7; bench/quantile.h is the C programs' copy of the rule).
function sort(a, n,    i, j, x) { for (i = 1; i < n; i++) { x = a[i]; for (j = i - 1; j >= 0 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x } }
function quantile(a, n, p,    h, lo) { h = (n - 1) * p; lo = int(h); return lo + 1 < n ? a[lo] + (h - lo) * (a[lo + 1] - a[lo]) : a[lo] }
