/* --report: what happened to each file, and in total (SPEC §2).

   The pipeline fills a `struct file_stats' for each input; utf8conv.c
   hands it to report_file, and calls report_total after the run.  The
   line format is an interface (see the man page's REPORT section):

     utf8conv: report: FILE: in N B, out N B, N chars, N errors[ (KINDS)]
       [, N VERB][, stopped], BOM seen N written N removed N
       [, detected ENC (HOW)[, N CP1252 fallbacks (N B)]]

   all on one line; the total line has "total: N files, " in place of
   "FILE: " and counts the detected encodings.  */

#ifndef UTF8CONV_REPORT_H
#define UTF8CONV_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "codec.h"
#include "policy.h"

struct file_stats
{
  uint64_t bytes_in;
  uint64_t bytes_out;
  uint64_t chars;               /* Characters decoded, not counting a
                                   signature BOM or errors.  */
  uint64_t decode_errors[ERR_KIND_COUNT];       /* By kind.  */
  uint64_t encode_errors;
  uint64_t handled;             /* Errors the policy replaced, escaped or
                                   dropped.  */
  bool stopped;                 /* A strict error ended the file.  */
  bool unread;                  /* The file could not be read at all.  */
  unsigned int bom_seen;        /* A signature at the start of the file.  */
  unsigned int bom_written;     /* The output's BOM, written with it.  */
  /* -f auto only: the detected codec (NULL otherwise) and how.  */
  struct codec const *detected;
  enum detect_how how;
  uint64_t fallback_seqs;
  uint64_t fallback_bytes;
};

struct report;

/* Start a report of a run under POLICY.  */
struct report *report_start (enum policy policy);

/* Add the file NAME with the statistics S, and print its line.  */
void report_file (struct report *, char const *name,
                  struct file_stats const *s);

/* Print the total line and free the report.  */
void report_total (struct report *);

/* The number of characters in the well-formed input IN[0..N) of the
   codec FROM, for the fast paths, which bypass the decoder.  */
uint64_t report_count_chars (struct codec const *from, uint8_t const *in,
                             size_t n);

#endif
