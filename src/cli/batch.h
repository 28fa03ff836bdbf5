/* Running the inputs through the pipeline, in one of three modes:
   concatenated to one output (standard output or -o), checked one by
   one (--check), or each converted in place (-i).  Every file ends with
   an outcome for the report (report.h) and adds to the exit status.  */

#ifndef UTF8CONV_BATCH_H
#define UTF8CONV_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "pipeline.h"
#include "progress.h"
#include "report.h"
#include "walk.h"

enum batch_mode
{
  BATCH_STREAM,
  BATCH_CHECK,
  BATCH_IN_PLACE
};

struct batch_config
{
  struct run_config run;        /* For the pipeline.  */
  enum batch_mode mode;
  char const *output;           /* -o FILE, or NULL.  */
  char const *suffix;           /* -i SUFFIX, or NULL.  */
  bool keep_times;              /* -k.  */
  bool binary;                  /* --binary: no binary test.  */
  bool recursive;               /* -r: the binary test in every mode.  */
  bool quiet;                   /* -q: no warnings.  */
  bool verbose;                 /* --verbose: name each file first.  */
  bool silent;                  /* No data diagnostics at all.  */
  bool detect;                  /* --detect: print what -f auto found.  */
  struct report *report;        /* NULL without --report(-json).  */
  struct progress *progress;    /* NULL without --progress.  */
};

/* Convert the inputs ENTRIES[0..N) as CFG says.  Returns the exit
   status.  */
int batch_run (struct batch_config const *cfg,
               struct walk_entry const *entries, size_t n);

#endif
