/* Symbols a program may bind to: everything else in libcudatrace.so is hidden (-fvisibility=hidden). */
#ifndef CT_RECORDER_EXPORT_H
#define CT_RECORDER_EXPORT_H

#define CT_EXPORT __attribute__((visibility("default")))

#endif
