/* Diagnostics on standard error: the program's name first, after the
   progress line is cleared, and the data errors in their documented
   form (file, line, byte offset, bytes, reason).  */

#ifndef UTF8CONV_DIAG_H
#define UTF8CONV_DIAG_H

#include <stdint.h>

#include "pipeline.h"

/* Make every diagnostic of gnulib's error () clear the progress line
   before it is printed.  */
void diag_init (void);

/* --verbose: name FILE on a line of its own, "FILE:", as iconv does,
   after the progress line is cleared.  */
void diag_verbose (char const *file);

/* Print E of FILE.  With a non-NULL VERB, say that COUNT errors of the
   file were VERB ("replaced") instead of stopping at it.  */
void diag_data_error (char const *file, struct data_error const *e,
                      char const *verb, uint64_t count);

/* The text diagnostics of a file converted by the pipeline: a strict
   stop as it happens (the pipeline's on_error hook; ARG is unused), and
   at the end of the file, a warning when the policy POLICY handled
   errors.  */
void diag_stop (void *arg, char const *file, struct data_error const *e);
void diag_handled (char const *file, struct file_stats const *s,
                   enum policy policy);

#endif
