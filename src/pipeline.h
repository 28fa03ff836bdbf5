/* The conversion pipeline: read fixed buffers, decode, apply the policy,
   encode, write.  One `struct run' spans all inputs (one output stream);
   each input file is converted by pipeline_convert_fd.  */

#ifndef UTF8CONV_PIPELINE_H
#define UTF8CONV_PIPELINE_H

#include <stdint.h>

#include "codec.h"
#include "policy.h"

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
  FILE_READ_ERROR               /* The file could not be read.  */
};

struct run_config
{
  struct codec const *from;
  struct codec const *to;
  struct policy_config policy;
  enum bom_mode bom;
  size_t block_size;
  bool quiet;
};

struct run;

/* Start a run writing to OUT_FD.  */
struct run *pipeline_start (struct run_config const *, int out_fd);

/* Convert the input FD, called NAME in diagnostics, appending to the
   output.  A write error is reported and ends the program with status 2.  */
enum file_result pipeline_convert_fd (struct run *, int fd, char const *name);

/* Write out everything still held and free the run.  */
void pipeline_finish (struct run *);

#endif
