/* Placement of what every traced call touches.  Between two calls the driver runs for microseconds and
 * evicts the tracer's lines from the first-level caches and TLBs; the fewer distinct lines and pages a call
 * touches, the less it pays to bring them back.  So the flags read on each call share one section (one or
 * two cache lines), and the functions of the launch path are placed together in .text.hot. */
#ifndef CT_RECORDER_HOT_H
#define CT_RECORDER_HOT_H

#define CT_HOT_DATA __attribute__((section(".ct_hot")))
#define CT_HOT_CODE __attribute__((hot))

#endif
