/* The state of a conversion run and of the file it converts: private
   to the pipeline, and included by pipeline.c and pipeline_run.c alone,
   after pipeline.h (whose run_config and file_stats it holds).  */

#ifndef UTF8CONV_PIPELINE_STATE_H
#define UTF8CONV_PIPELINE_STATE_H

#include "fast.h"
#include "history.h"
#include "mojibake.h"

enum
{
  PIVOT_CAP = 2048,
  OUT_CAP = 1 << 18,
  OUT_START = 1 << 15,          /* The output buffer's room at first,  */
  OUT_GROW = 1 << 20,           /* until so many bytes were written.  */
  /* With a fast path, the state machine takes this many bytes at a time,
     so that the fast path resumes soon after an error (or after what a
     memo cannot hold: ISO-2022-KR's ESC as a character).  */
  SCALAR_WINDOW = 8,
  /* The fast path wants at least this much room in the output buffer.  */
  FAST_ROOM = 1 << 14
};

struct run
{
  struct run_config cfg;
  int out_fd;
  uint8_t *in;
  uint8_t *history;             /* For each file's struct file.  */
  struct pivot pivot;
  uint8_t *out;                 /* OUT_CAP bytes,  */
  size_t out_len;
  size_t out_cap;               /* of which so many are used.  */
  struct encoder enc;
  uint64_t out_total;           /* Bytes written out so far.  */
  struct file_stats last_stats; /* Of the last file, for --report.  */
  enum bom_state bom;
  bool any_file;                /* A file has been started.  */
  int write_errno;              /* The error of a failed write, after
                                   which the output is discarded; 0 when
                                   none.  */
  pipeline_write_fn *write;     /* Takes the output instead of OUT_FD.  */
  void *write_arg;
  struct policy_bytes bytes;     /* The verdicts written as bytes.  */
  /* The line-ending stage runs: an --eol that changes breaks, or
     --report, which counts them.  */
  bool eol_active;
  /* What a fast path writes before its breaks are converted (with an
     --eol that changes them); OUT_CAP bytes.  */
  uint8_t *scratch;
  /* --fix-mojibake's stage; NULL without it.  */
  struct mojibake *moji;
};

/* How the line-ending stage sees what a fast path converts.  */
enum eol_fast
{
  EOL_FAST_NONE,                /* The stage is off.  */
  EOL_FAST_OUTPUT,              /* On the output bytes: 0x0D and 0x0A
                                   are CR and LF there.  */
  EOL_FAST_INPUT                /* On the input bytes: the fast path
                                   stops before each break that the mode
                                   changes, and the state machine takes
                                   the break.  */
};

/* The state of the file being converted.  */
struct file
{
  char const *name;
  struct decoder dec;
  struct codec const *reads;    /* The codec the input is read with: the
                                   one asked for, or the one -f auto
                                   detected; NULL until it has.  */
  fast_fn *fast;                /* READS's fast path, or NULL; until
                                   -f auto has decided, UTF-8's, for the
                                   ASCII it lets through.  */
  struct codec const *fast_reads;       /* What FAST reads.  */
  fast_resume_fn *fast_resume;  /* Its form for after an error, or
                                   NULL.  */
  enum eol_fast eol_fast;
  /* The offset of the character whose encoding error stopped the file
     (STOP_LOCATED), for the count of the characters decoded up to it.  */
  uint64_t stop_offset;
  bool stop_located;
  bool at_break;                /* The fast path stopped before a break
                                   (EOL_FAST_INPUT).  */
  bool eol_dos;                 /* The fast path's last output held a
                                   CR: convert the next to the side.  */
  struct eol_state eol;
  uint64_t lf_unread;           /* U+000A the decoder counted after the
                                   value a strict error stopped at: no
                                   break --report counts.  */
  bool at_start;                /* Nothing decoded yet.  */
  struct file_stats stats;      /* For --report.  */
  /* The buffer being converted, at offset BUF_BASE of the file, and the
     bytes before it (their buffer is the run's).  */
  uint8_t const *buf;
  uint64_t buf_base;
  struct history history;
};

/* Where the values passed to emit came from: each at OFF[i] relative
   to BASE, from N[i] input bytes; or (OFF == NULL) all replacing the
   decoding error REPLACED, at BASE.  */
struct origin
{
  int64_t const *off;
  uint8_t const *n;
  uint64_t base;
  uint64_t lines;               /* U+000A decoded before the first value.  */
  struct codec_error const *replaced;
};

/* pipeline.c's steps, which pipeline_run.c's loop over a file's
   buffers takes.  */

/* Write out the buffered output.  */
void write_out (struct run *r);
/* Choose the fast path of file F, which the decoder of READS reads.  */
void choose_fast (struct run *r, struct file *f, struct codec const *reads);
/* Convert IN[0..N) of file F, which starts at offset BASE of the file;
   false when a strict error stopped the file.  */
bool convert_buffer (struct run *r, struct file *f, uint8_t const *in,
                     size_t n, uint64_t base, bool last);
/* What the mojibake stage holds goes out unrepaired (a CR held is lone,
   at AT); false when a strict error stopped the file.  */
bool flush_held (struct run *r, struct file *f, uint64_t at);
/* Write out what the encoder holds back.  */
void flush_encoder (struct run *r);
/* The first file F decides whether its signature is carried.  */
void decide_bom (struct run *r, struct file const *f, bool signature);

#endif
