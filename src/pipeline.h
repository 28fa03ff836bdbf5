/* The conversion pipeline: read fixed buffers, decode, apply the policy,
   encode, write.  One `struct run' spans all inputs (one output stream);
   each input file is converted by pipeline_convert_fd.  */

#ifndef UTF8CONV_PIPELINE_H
#define UTF8CONV_PIPELINE_H

#include <stdint.h>

#include "codec.h"
#include "policy.h"
#include "report.h"

enum bom_mode
{
  BOM_AUTO,
  BOM_STRIP,
  BOM_ADD
};

/* What happened to one input file.  */
enum file_result
{
  FILE_OK,                      /* Converted; errors, if any, handled.  */
  FILE_DROPPED,                 /* Converted, but `ignore' dropped input.  */
  FILE_STOPPED,                 /* A strict error stopped the conversion.  */
  FILE_READ_ERROR,              /* The file could not be read.  */
  FILE_WRITE_ERROR              /* Writing failed (only with
                                   write_errors_return).  */
};

struct run_config
{
  struct codec const *from;
  struct codec const *to;
  struct policy_config policy;
  enum bom_mode bom;
  size_t block_size;
  bool quiet;
  /* No diagnostic for data errors at all, not even a strict stop
     (--check -q: only the exit status speaks).  */
  bool silent;
  /* A write error is reported, ends the file and makes its result
     FILE_WRITE_ERROR, instead of ending the program (-i: the other
     files go on).  */
  bool write_errors_return;
  /* Lone surrogates in UTF-16/UTF-32 input are errors even for a WTF-8
     or MUTF-8 output (--check: each input must be well-formed in its own
     encoding).  */
  bool well_formed_input;
  /* --report: count the characters that the fast paths convert too
     (everything else is counted anyway; see pipeline_file_stats).  */
  bool report;
  /* --progress: called after each buffer is converted with the number
     of input bytes it held, and ARG; NULL for none.  */
  void (*progress) (void *arg, uint64_t bytes);
  void *progress_arg;
};

struct run;

/* Start a run writing to OUT_FD; a negative OUT_FD discards the output
   (--check).  */
struct run *pipeline_start (struct run_config const *, int out_fd);

/* Convert the input FD, called NAME in diagnostics, appending to the
   output.  A write error is reported and ends the program with status 2,
   unless the run's configuration says write_errors_return.  */
enum file_result pipeline_convert_fd (struct run *, int fd, char const *name);

/* The statistics of the file that pipeline_convert_fd converted last
   (with the run's configuration `report' set, also the characters that
   the fast paths converted).  */
void pipeline_file_stats (struct run const *, struct file_stats *);

/* Write out everything still held and free the run.  */
void pipeline_finish (struct run *);

#endif
