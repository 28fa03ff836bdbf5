/* --progress: a one-line progress display on standard error, only when
   it is a terminal (SPEC §2, §12).  At most one display is active; it is
   cleared before any diagnostic (diag.c), at exit, and on a fatal
   signal.  */

#ifndef UTF8CONV_PROGRESS_H
#define UTF8CONV_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct progress;

/* Start a display for TOTAL input bytes (-1 when unknown) in FILES
   files, or return NULL when standard error is not a terminal, or when
   TEXT_TO_STDOUT (the converted text goes to standard output) and
   standard output is the same terminal: the line would be drawn into
   the text.  */
struct progress *progress_start (int64_t total, uint64_t files,
                                 bool text_to_stdout);

/* The next of the FILES files is taken up (P may be NULL).  */
void progress_next_file (struct progress *p);

/* The pipeline's hook: BYTES more input bytes were converted.  ARG is
   the struct progress.  Looks at the clock once and redraws at most ten
   times a second.  */
void progress_update (void *arg, uint64_t bytes);

/* Clear the line, so that something else can be written on standard
   error; the next update draws it again (P may be NULL).  */
void progress_clear (struct progress *p);

/* Clear the line and free P (NULL is fine).  */
void progress_finish (struct progress *p);

/* Clear the line of the active display, if any: before a diagnostic.  */
void progress_clear_active (void);

#endif
