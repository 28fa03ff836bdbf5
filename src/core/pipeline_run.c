/* The pipeline's run: its buffers, made once and freed at its end, and
   the statistics of each file it converts (see pipeline.c for the
   conversion itself).  */

#include <config.h>

#include "pipeline.h"

#include <stdlib.h>

#include "mojibake.h"
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
      s->breaks_lf = f->dec.newlines - f->eol.crlf;
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
void
pipeline_end_file (struct run *r, struct file *f, uint64_t bytes_in,
          uint64_t out_start)
{
  keep_stats (r, f, bytes_in, out_start);
  encoder_release (&r->enc);
  encoder_init (&r->enc, r->cfg.to);
  decoder_release (&f->dec);
}
