/* The pipeline's run: its buffers, made once and freed at its end; the
   loop that reads each file a buffer at a time (pipeline.c converts
   each buffer) and the statistics of each file it converts.  */

#include <config.h>

#include "pipeline.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "mojibake.h"
#include "readahead.h"
#include "safe-read.h"
#include "xalloc.h"

#include "pipeline_state.h"

struct run *
pipeline_start (struct run_config const *cfg, int out_fd)
{
  struct run *r = xzalloc (sizeof *r);
  r->cfg = *cfg;
  r->cfg.policy.to_flags = cfg->to->flags;
  r->in = xmalloc (cfg->block_size);
  r->pivot.cp = xnmalloc (PIVOT_CAP, sizeof *r->pivot.cp);
  r->pivot.off = xnmalloc (PIVOT_CAP, sizeof *r->pivot.off);
  r->history = xmalloc (HISTORY);
  r->pivot.n = xnmalloc (PIVOT_CAP, sizeof *r->pivot.n);
  r->pivot.cap = PIVOT_CAP;
  r->out = xmalloc (OUT_CAP);
  r->out_cap = OUT_START;
  r->eol_active = cfg->eol != EOL_KEEP || cfg->report;
  if (cfg->eol != EOL_KEEP)
    r->scratch = xmalloc (OUT_CAP);
  if (cfg->fix_mojibake)
    r->moji = mojibake_new (PIVOT_CAP);
  encoder_init (&r->enc, cfg->to);
  policy_bytes_plan (&r->cfg.policy, cfg->to, &r->bytes);
  pipeline_restart (r, out_fd, NULL, NULL);
  return r;
}

void
pipeline_restart (struct run *r, int out_fd, pipeline_write_fn *write,
                  void *arg)
{
  r->out_fd = out_fd;
  r->write = write;
  r->write_arg = arg;
  r->out_len = 0;
  r->out_total = 0;
  r->write_errno = 0;
  r->any_file = false;
  r->bom = bom_start (r->cfg.bom, r->cfg.to);
}

/* Keep the statistics of the file F, which held BYTES_IN bytes and
   started at OUT_START bytes of output, for pipeline_file_stats.  */
static void
keep_stats (struct run *r, struct file *f, uint64_t bytes_in,
            uint64_t out_start)
{
  struct file_stats *s = &f->stats;
  s->bytes_in = bytes_in;
  if (r->eol_active)
    {
      s->breaks_crlf = f->eol.crlf;
      s->breaks_cr = f->eol.cr;
      s->breaks_lf = f->dec.newlines - f->lf_unread - f->eol.crlf;
    }
  /* out_total leaves out bytes lost to a write error.  */
  s->bytes_out = (r->out_total + r->out_len < out_start ? 0
                  : r->out_total + r->out_len - out_start);
  /* --check writes nothing.  */
  if (r->out_fd < 0 && !r->write)
    s->bytes_out = s->bom_written = 0;
  if (!decoder_detected (&f->dec, &s->detected))
    s->detected.codec = NULL;
  r->last_stats = *s;
}

void
pipeline_file_stats (struct run const *r, struct file_stats *s)
{
  *s = r->last_stats;
}

/* End the file F, which held BYTES_IN bytes, and started at OUT_START
   bytes of output: its statistics are kept, and the decoder and the
   encoder are ready for the next file.  */
static void
pipeline_end_file (struct run *r, struct file *f, uint64_t bytes_in,
          uint64_t out_start)
{
  keep_stats (r, f, bytes_in, out_start);
  encoder_release (&r->enc);
  encoder_init (&r->enc, r->cfg.to);
  decoder_release (&f->dec);
}

enum file_result
pipeline_convert_fd (struct run *r, int fd, char const *name)
{
  struct file *f = xzalloc (sizeof *f);
  uint64_t base = 0, out_start = r->out_total + r->out_len;
  bool ok = true, last = false;
  struct readahead *ra = NULL;
  enum file_result result;

  f->name = name;
  f->history.bytes = r->history;
  f->at_start = true;
  decoder_init (&f->dec, r->cfg.from);
  f->dec.lone_surrogates_ok
    = (!r->cfg.well_formed_input
       && policy_passes_lone_surrogates (&r->cfg.policy, r->cfg.to->flags));
  f->eol.mode = r->cfg.eol;
  f->eol.cr_breaks = r->cfg.eol_cr_breaks;
  if (r->moji)
    mojibake_reset (r->moji);
  choose_fast (r, f, r->cfg.from);

  while (ok && !last && r->write_errno == 0)
    {
      uint8_t *in = r->in;
      size_t n = (ra ? readahead_next (ra, &in)
                  : safe_read (fd, r->in, r->cfg.block_size));
      /* After the first block, a file that utf8conv opened (not standard
         input) may be read ahead by a second thread.  */
      if (base == 0 && 0 < n && n != SAFE_READ_ERROR && fd != STDIN_FILENO)
        ra = readahead_start (fd, r->cfg.block_size, in, n);
      if (n == SAFE_READ_ERROR)
        {
          f->stats.sys_errno = errno;
          flush_held (r, f, base);
          flush_encoder (r);
          write_out (r);
          /* A file that could not be read at all does not decide the
             BOM; one that was cut short by a read error did.  */
          if (!f->at_start)
            r->any_file = true;
          pipeline_end_file (r, f, base, out_start);
          if (ra)
            readahead_stop (ra);
          free (f);
          return FILE_READ_ERROR;
        }
      last = n == 0;
      ok = convert_buffer (r, f, in, n, base, last);
      if (ok && last)
        ok = flush_held (r, f, base);
      history_keep (&f->history, in, n, base,
                    decoder_holds_lookahead (&f->dec));
      base += n;
      if (!ok || last)
        flush_encoder (r);
      write_out (r);
      if (r->cfg.progress)
        r->cfg.progress (r->cfg.progress_arg, n);
    }
  if (ra)
    readahead_stop (ra);
  if (!r->any_file)
    decide_bom (r, f, false);
  r->any_file = true;
  pipeline_end_file (r, f, base, out_start);

  if (r->write_errno)
    {
      r->last_stats.sys_errno = r->write_errno;
      result = FILE_WRITE_ERROR;
    }
  else if (f->stats.stopped)
    result = FILE_STOPPED;
  else
    result = f->stats.dropped ? FILE_DROPPED : FILE_OK;
  free (f);
  return result;
}
