/* --report and --report-json: what happened to each file, and in total
   (SPEC §2, §12).

   Each file ends with one outcome: converted, unchanged, skipped (why),
   failed (why), stopped, valid or invalid.  The text report writes one
   line per file and a total line on standard error, in the format of
   the man page's REPORT section:

     utf8conv: report: FILE: OUTCOME[ (WHY)][, in N B[, out N B], N chars,
       N errors[ (KINDS)][, N VERB], BOM seen N[ written N removed N]
       [, detected ENC (HOW)[, N CP1252 fallbacks (N B)]]]

   all on one line ("out" and the BOMs written only for a file that was
   written, and in the total not under --check; the fallbacks only when
   there were some, naming the code page used); the total line has "total: N files (N OUTCOME, ...)" in
   place of "FILE: OUTCOME".  The JSON report writes the same facts as
   JSON Lines (json.h), and every data error as well.  */

#ifndef UTF8CONV_REPORT_H
#define UTF8CONV_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "pipeline.h"
#include "policy.h"

enum outcome
{
  OUTCOME_CONVERTED,
  OUTCOME_UNCHANGED,            /* -i: the new bytes were the old ones.  */
  OUTCOME_SKIPPED,
  OUTCOME_FAILED,               /* Left unchanged, or not converted.  */
  OUTCOME_STOPPED,              /* A strict stop in a stream.  */
  OUTCOME_VALID,                /* --check.  */
  OUTCOME_INVALID,
  OUTCOME_COUNT
};

/* The end of one file.  */
struct file_outcome
{
  enum outcome outcome;
  char const *why;              /* For skipped and failed; NULL else.  */
  struct file_stats const *stats;       /* NULL when nothing was read.  */
  bool written;                 /* Output of it was written.  */
  int64_t binary_offset;        /* skipped (binary): where, else -1.  */
};

struct report;

/* Start a report of a run under POLICY and --eol EOL: text on
   standard error when TEXT, JSON Lines on JSON when it is not NULL.  */
struct report *report_start (enum policy policy, enum eol_mode eol,
                             bool text, FILE *json);

/* The data error E of FILE (JSON only: the text diagnostics are
   diag.c's).  */
void report_error (struct report *, char const *file,
                   struct data_error const *e);

/* --fix-mojibake runs: count its repairs in the file and total lines
   and objects.  */
void report_fix_mojibake (struct report *);

/* --check runs: the total says nothing of output (nothing is
   written).  */
void report_check (struct report *);

/* The mojibake repair RP of FILE (JSON only).  */
void report_repair (struct report *, char const *file,
                    struct moji_repair const *rp);

/* The outcome of the file NAME.  */
void report_file (struct report *, char const *name,
                  struct file_outcome const *);

/* Write the totals and free the report.  */
void report_total (struct report *);

#endif
