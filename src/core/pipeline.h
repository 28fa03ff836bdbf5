/* The conversion pipeline: read fixed buffers, decode, apply the policy,
   encode, write.  One `struct run' spans the inputs of one output
   document (one output stream; with -i and --check, one file each, the
   run restarted between them); each input file is converted by
   pipeline_convert_fd.

   The pipeline prints nothing about the data: it hands every data error
   to the run's on_error hook and keeps each file's statistics, and its
   caller decides what to say.  */

#ifndef UTF8CONV_PIPELINE_H
#define UTF8CONV_PIPELINE_H

#include <stdint.h>

#include "bom.h"
#include "codec.h"
#include "eol.h"
#include "mojibake.h"
#include "policy.h"

/* What happened to one input file.  */
enum file_result
{
  FILE_OK,                      /* Converted; errors, if any, handled.  */
  FILE_DROPPED,                 /* Converted, but `ignore' dropped input.  */
  FILE_STOPPED,                 /* A strict error stopped the conversion.  */
  FILE_READ_ERROR,              /* The file could not be read.  */
  FILE_WRITE_ERROR              /* Writing failed.  */
};

/* One located data error: a decoding error, or (with ERR_UNENCODABLE)
   a character that the output cannot hold.  */
struct data_error
{
  uint64_t offset;              /* Byte offset from the start of the file.  */
  uint64_t line;                /* 1-based.  */
  struct codec_error err;       /* Bytes, length and kind.  */
  ucs4_t c;                     /* For encoding errors.  */
  char const *encoding;         /* The input or output encoding's name.  */
  bool stopped;                 /* A strict stop; otherwise the policy
                                   handled it.  */
};

/* What the pipeline counts of one input file.  */
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
  struct data_error first;      /* The first of them, when HANDLED > 0.  */
  bool stopped;                 /* A strict error ended the file.  */
  bool dropped;                 /* `ignore' dropped input.  */
  int sys_errno;                /* Of a read or write error.  */
  unsigned int bom_seen;        /* A signature at the start of the file.  */
  unsigned int bom_written;     /* The output's BOM, written with it.  */
  /* The line breaks read, by kind (with --report, or an --eol that
     changes breaks; 0 otherwise).  */
  uint64_t breaks_crlf, breaks_lf, breaks_cr;
  uint64_t mojibake_repairs;    /* With --fix-mojibake.  */
  /* -f auto only: what it detected (codec NULL otherwise).  */
  struct detection detected;
};

/* Where the output goes instead of a file descriptor: a function that
   takes each piece of output in order, and returns 0 or an errno
   value.  */
typedef int pipeline_write_fn (void *arg, uint8_t const *buf, size_t n);

struct run_config
{
  struct codec const *from;
  struct codec const *to;
  struct policy_config policy;
  enum bom_mode bom;
  enum eol_mode eol;            /* --eol.  */
  bool eol_cr_breaks;           /* --eol-from=cr: a lone CR is a break.  */
  size_t block_size;
  /* Lone surrogates in UTF-16/UTF-32 input are errors even for a WTF-8
     or MUTF-8 output (--check without -t: each input must be well-formed
     in its own encoding).  */
  bool well_formed_input;
  /* --report: count the characters that the fast paths convert too
     (everything else is counted anyway; see pipeline_file_stats), and
     the line breaks.  */
  bool report;
  /* --progress: called after each buffer is converted with the number
     of input bytes it held, and ARG; NULL for none.  */
  void (*progress) (void *arg, uint64_t bytes);
  void *progress_arg;
  /* Called with each strict stop of the file FILE, and, with
     EVERY_ERROR, with every data error, as it happens; NULL for none.  */
  void (*on_error) (void *arg, char const *file, struct data_error const *);
  void *error_arg;
  bool every_error;
  /* --fix-mojibake: repair mojibake (mojibake.h), and call ON_REPAIR,
     unless NULL, with ERROR_ARG, the file's name and each repair, once
     its character is written.  */
  bool fix_mojibake;
  void (*on_repair) (void *arg, char const *file,
                     struct moji_repair const *);
};

struct run;

/* Start a run writing to OUT_FD; a negative OUT_FD discards the output
   (--check).  */
struct run *pipeline_start (struct run_config const *, int out_fd);

/* Start a new output document on the run R, written to OUT_FD, or (when
   WRITE is not NULL) given to WRITE with ARG: as a new run would, but
   without allocating its buffers again.  */
void pipeline_restart (struct run *r, int out_fd, pipeline_write_fn *write,
                       void *arg);

/* Convert the input FD, called NAME in the data errors, appending to the
   output.  A read or a write error ends the file; its errno value is in
   the file's statistics, and after a write error the run discards its
   output.  Data errors go to the on_error hook.  */
enum file_result pipeline_convert_fd (struct run *, int fd, char const *name);

/* The statistics of the file that pipeline_convert_fd converted last
   (with the run's configuration `report' set, also the characters that
   the fast paths converted).  */
void pipeline_file_stats (struct run const *, struct file_stats *);

/* Write out everything still held and free the run.  */
void pipeline_finish (struct run *);

#endif
