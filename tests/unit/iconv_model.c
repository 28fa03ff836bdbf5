/* A model of the iconv(3) bridge built on iconv(3) itself (see
   iconv_model.h).  */

#include <config.h>

#include "iconv_model.h"

#include <errno.h>
#include <iconv.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "simd/kernels.h"
#include "unicode/utf8.h"

#ifndef ICONV_CONST
# define ICONV_CONST
#endif

enum
{
  MAX_INPUT = ICONV_MODEL_MAX_INPUT,
  OUT_ROOM = 64 * MAX_INPUT,    /* Bytes of UTF-32LE iconv() may give.  */
  MAX_CALLS = MAX_INPUT + 1     /* iconv() calls on one input (one more
                                   than its errors).  */
};

/* Append the value C to B as UTF-8.  */
static void
put_utf8 (struct sb *b, ucs4_t c)
{
  char u[4];
  size_t n;
  if (c < 0x80)
    u[0] = (char) c, n = 1;
  else if (c < 0x800)
    u[0] = (char) (0xC0 | c >> 6), u[1] = (char) (0x80 | (c & 0x3F)), n = 2;
  else if (c < 0x10000)
    u[0] = (char) (0xE0 | c >> 12), u[1] = (char) (0x80 | (c >> 6 & 0x3F)),
      u[2] = (char) (0x80 | (c & 0x3F)), n = 3;
  else
    u[0] = (char) (0xF0 | c >> 18), u[1] = (char) (0x80 | (c >> 12 & 0x3F)),
      u[2] = (char) (0x80 | (c >> 6 & 0x3F)),
      u[3] = (char) (0x80 | (c & 0x3F)), n = 4;
  sb_append (b, u, n);
}

/* What the model has written so far.  */
struct model
{
  struct sb out;
  bool started;                 /* A value or an error was written.  */
};

/* Append the UTF-32LE values in BUF[0..N) to M.  */
static void
put_values (struct model *m, uint8_t const *buf, size_t n)
{
  size_t k;
  for (k = 0; k + 4 <= n; k += 4)
    {
      ucs4_t c = (buf[k] | (ucs4_t) buf[k + 1] << 8
                  | (ucs4_t) buf[k + 2] << 16 | (ucs4_t) buf[k + 3] << 24);
      if (!(c == 0xFEFF && !m->started))
        put_utf8 (&m->out, c);
      m->started = true;
    }
}

/* Flush CD into BUF; the number of bytes it gave.  */
static size_t
flush_cd (iconv_t cd, uint8_t *buf)
{
  char *op = (char *) buf;
  size_t ol = OUT_ROOM;
  iconv (cd, NULL, NULL, &op, &ol);
  return OUT_ROOM - ol;
}

/* Whether an iconv_t for NAME that was given IN[CALLS[k]..N) for each
   of the NCALLS calls holds something back.  */
static bool
replay_holds (char const *name, uint8_t const *in, size_t n,
              size_t const *calls, size_t ncalls, uint8_t *buf)
{
  iconv_t cd = iconv_open ("UTF-32LE", name);
  size_t k;
  bool held;
  for (k = 0; k < ncalls; k++)
    {
      ICONV_CONST char *ip = (ICONV_CONST char *) in + calls[k];
      char *op = (char *) buf;
      size_t il = n - calls[k], ol = OUT_ROOM;
      iconv (cd, &ip, &il, &op, &ol);
    }
  held = flush_cd (cd, buf) > 0;
  iconv_close (cd);
  return held;
}

/* What the policy P makes of the error IN[0..LEN) in M; false when it
   stops.  Sets *DROPPED under ignore.  */
static bool
model_error (struct model *m, enum policy p, uint8_t const *in, size_t len,
             bool *dropped)
{
  size_t k;
  m->started = true;
  switch (p)
    {
    case POLICY_STRICT:
      return false;
    case POLICY_REPLACE:
      put_utf8 (&m->out, 0xFFFD);
      break;
    case POLICY_ESCAPE:
      for (k = 0; k < len; k++)
        sb_printf (&m->out, "\\x%02x", in[k]);
      break;
    case POLICY_SURROGATEESCAPE:
      for (k = 0; k < len; k++)
        if (in[k] < 0x80)
          return false;
      sb_append (&m->out, (char const *) in, len);
      break;
    case POLICY_IGNORE:
      *dropped = true;
      break;
    }
  return true;
}

/* Convert IN[0..N) from NAME to UTF-8 under the policy P into M, as
   described at the top; the file's result.  */
static enum file_result
model_run (char const *name, enum policy p, uint8_t const *in, size_t n,
           struct model *m)
{
  static uint8_t buf[OUT_ROOM];
  size_t calls[MAX_CALLS], ncalls = 0, pos = 0;
  iconv_t cd = iconv_open ("UTF-32LE", name);
  enum file_result res = FILE_OK;
  bool dropped = false;

  memset (m, 0, sizeof *m);
  sb_printf (&m->out, "%s", "");
  for (;;)
    {
      ICONV_CONST char *ip = (ICONV_CONST char *) in + pos;
      char *op = (char *) buf;
      size_t il = n - pos, ol = OUT_ROOM, q, len;
      int err = iconv (cd, &ip, &il, &op, &ol) == (size_t) -1 ? errno : 0;

      calls[ncalls++] = pos;
      put_values (m, buf, OUT_ROOM - ol);
      if (err == 0)
        {
          put_values (m, buf, flush_cd (cd, buf));
          res = dropped ? FILE_DROPPED : FILE_OK;
          break;
        }
      q = (size_t) ((uint8_t const *) ip - in);
      len = err != EINVAL ? 1 : n - q < MAX_ERROR_BYTES ? n - q
            : MAX_ERROR_BYTES;
      /* iconv(3) may blame the byte after the last one (glibc's
         ISO-2022-CN-EXT at a SO with no designation): the bridge
         blames the last one then.  */
      if (q == n)
        q--;
      if (replay_holds (name, in, n, calls, ncalls, buf))
        {
          put_values (m, buf, flush_cd (cd, buf));
          ncalls = 0;
        }
      if (!model_error (m, p, in + q, len, &dropped))
        {
          res = FILE_STOPPED;
          break;
        }
      pos = q + len;
    }
  iconv_close (cd);
  return res;
}

enum file_result
iconv_model_run (char const *name, enum policy p, uint8_t const *in,
                 size_t n, struct sb *out)
{
  struct model m;
  enum file_result res = model_run (name, p, in, n, &m);
  *out = m.out;
  return res;
}

/* The value of the well-formed UTF-8 character at S, and its length in
   *LEN.  */
static ucs4_t
utf8_at (uint8_t const *s, size_t *len)
{
  ucs4_t c = s[0];
  size_t k;
  *len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  if (*len > 1)
    c &= 0x7F >> *len;
  for (k = 1; k < *len; k++)
    c = c << 6 | (s[k] & 0x3F);
  return c;
}

/* Append to OUT what CD makes of the UTF-8 text S (a replacement),
   using BUF: a character of it that CD cannot encode is left out, as
   the pipeline does.  */
static void
encode_text (iconv_t cd, struct sb *out, char const *s, uint8_t *buf)
{
  ICONV_CONST char *ip = (ICONV_CONST char *) s;
  size_t il = strlen (s);
  while (il > 0)
    {
      char *op = (char *) buf;
      size_t ol = OUT_ROOM;
      if (iconv (cd, &ip, &il, &op, &ol) == (size_t) -1 && il > 0)
        {
          size_t len;
          utf8_at ((uint8_t const *) ip, &len);
          ip += len;
          il -= len;
        }
      sb_append (out, (char const *) buf, OUT_ROOM - ol);
    }
}

enum file_result
iconv_model_encode (char const *name, unsigned int flags, enum policy p,
                    uint8_t const *in, size_t n, struct sb *out)
{
  static uint8_t buf[OUT_ROOM];
  iconv_t cd = iconv_open (name, "UTF-8");
  enum file_result res = FILE_OK;
  bool dropped = false;
  size_t pos = 0;

  memset (out, 0, sizeof *out);
  sb_printf (out, "%s", "");
  /* A signature, which --bom=strip drops.  */
  if (n >= 3 && memcmp (in, "\xEF\xBB\xBF", 3) == 0)
    pos = 3;
  for (;;)
    {
      ICONV_CONST char *ip = (ICONV_CONST char *) in + pos;
      char *op = (char *) buf;
      size_t il = n - pos, ol = OUT_ROOM, len;
      int err = iconv (cd, &ip, &il, &op, &ol) == (size_t) -1 ? errno : 0;
      char esc[16];
      ucs4_t c;

      sb_append (out, (char const *) buf, OUT_ROOM - ol);
      if (err == 0)
        {
          res = dropped ? FILE_DROPPED : FILE_OK;
          break;
        }
      pos = (size_t) ((uint8_t const *) ip - in);
      c = utf8_at (in + pos, &len);
      pos += len;
      if (p == POLICY_STRICT || p == POLICY_SURROGATEESCAPE)
        {
          res = FILE_STOPPED;
          break;
        }
      if (p == POLICY_REPLACE)
        encode_text (cd, out, flags & CODEC_UNICODE ? "\xEF\xBF\xBD" : "?",
                     buf);
      else if (p == POLICY_ESCAPE)
        {
          snprintf (esc, sizeof esc, c < 0x100 ? "\\x%02x"
                    : c < 0x10000 ? "\\u%04x" : "\\U%08x", (unsigned) c);
          encode_text (cd, out, esc, buf);
        }
      else
        dropped = true;
    }
  /* The shift-reset sequence, at the end and at a stop.  */
  {
    char *op = (char *) buf;
    size_t ol = OUT_ROOM;
    iconv (cd, NULL, NULL, &op, &ol);
    sb_append (out, (char const *) buf, OUT_ROOM - ol);
  }
  iconv_close (cd);
  return res;
}

static int
to_sb (void *arg, uint8_t const *buf, size_t n)
{
  sb_append (arg, (char const *) buf, n);
  return 0;
}

/* See iconv_model_take_runs; NULL: a run for each conversion.  */
static struct run *(*take_run) (struct run_config const *, int);

void
iconv_model_take_runs (struct run *(*get) (struct run_config const *, int))
{
  take_run = get;
}

void
iconv_model_fast_paths (bool on)
{
  static struct kernels const *chosen;
  static bool selected;
  if (!selected)
    {
      kernels_select ();
      chosen = kernels;
      selected = true;
    }
  kernels = on ? chosen : NULL;
}

enum file_result
iconv_pipeline_config (int in_fd, struct run_config const *config,
                       uint8_t const *in, size_t n, size_t bs,
                       struct sb *out, struct file_stats *stats)
{
  struct run_config cfg;
  struct run *run;
  enum file_result res;

  /* Padding too, which a run cache compares.  */
  memcpy (&cfg, config, sizeof cfg);
  cfg.block_size = bs;
  memset (out, 0, sizeof *out);
  sb_printf (out, "%s", "");
  if (ftruncate (in_fd, 0) != 0
      || pwrite (in_fd, in, n, 0) != (ssize_t) n
      || lseek (in_fd, 0, SEEK_SET) != 0)
    {
      printf ("Bail out! cannot write the input file\n");
      exit (1);
    }
  run = take_run ? take_run (&cfg, -1) : pipeline_start (&cfg, -1);
  pipeline_restart (run, -1, to_sb, out);
  res = pipeline_convert_fd (run, in_fd, "in");
  if (stats)
    pipeline_file_stats (run, stats);
  if (!take_run)
    pipeline_finish (run);
  return res;
}

/* Convert IN[0..N) from FROM to TO with the pipeline (see
   iconv_pipeline_run).  */
static enum file_result
pipeline_run (int in_fd, struct codec const *from, struct codec const *to,
              enum policy p, uint8_t const *in, size_t n, size_t bs,
              struct sb *out)
{
  struct run_config cfg;

  memset (&cfg, 0, sizeof cfg);
  cfg.from = from;
  cfg.to = to;
  cfg.policy.policy = p;
  cfg.bom = BOM_STRIP;
  return iconv_pipeline_config (in_fd, &cfg, in, n, bs, out, NULL);
}

enum file_result
iconv_pipeline_run (int in_fd, struct codec const *from, enum policy p,
                    uint8_t const *in, size_t n, size_t bs, struct sb *out)
{
  return pipeline_run (in_fd, from, codec ("UTF-8"), p, in, n, bs, out);
}

enum file_result
iconv_pipeline_encode (int in_fd, struct codec const *to, enum policy p,
                       uint8_t const *in, size_t n, size_t bs,
                       struct sb *out)
{
  return pipeline_run (in_fd, codec ("UTF-8"), to, p, in, n, bs, out);
}

enum file_result
iconv_pipeline_run_utf16 (int in_fd, struct codec const *from, bool big,
                          enum policy p, uint8_t const *in, size_t n,
                          size_t bs, struct sb *out)
{
  return pipeline_run (in_fd, from, codec (big ? "UTF-16BE" : "UTF-16LE"), p,
                       in, n, bs, out);
}

enum file_result
iconv_pipeline_encode_utf16 (int in_fd, struct codec const *to, bool big,
                             enum policy p, uint8_t const *in, size_t n,
                             size_t bs, struct sb *out)
{
  static uint8_t u16[2 * ICONV_MODEL_MAX_INPUT];
  size_t i = 0, len, o = 0, k;
  while (i < n)
    {
      ucs4_t c = utf8_at (in + i, &len), unit[2];
      unsigned int units = 1;
      unit[0] = c;
      if (c >= 0x10000)
        {
          unit[0] = 0xD800 + ((c - 0x10000) >> 10);
          unit[1] = 0xDC00 + ((c - 0x10000) & 0x3FF);
          units = 2;
        }
      for (k = 0; k < units; k++, o += 2)
        {
          u16[o + big] = (uint8_t) unit[k];
          u16[o + !big] = (uint8_t) (unit[k] >> 8);
        }
      i += len;
    }
  return pipeline_run (in_fd, codec (big ? "UTF-16BE" : "UTF-16LE"), to, p,
                       u16, o, bs, out);
}

void
iconv_model_utf16 (struct sb *s, bool big)
{
  struct sb u;
  size_t i = 0;
  memset (&u, 0, sizeof u);
  sb_printf (&u, "%s", "");
  while (i < s->len)
    {
      uint8_t const *b = (uint8_t const *) s->s + i;
      ucs4_t c, unit[2];
      enum err_kind kind;
      int r = utf8_sequence (&utf8_form, b, s->len - i, true, &c, &kind);
      size_t k, units = 1;
      char two[2];
      if (r <= 0)
        {
          c = 0xDC00 + b[0];
          r = 1;
        }
      unit[0] = c;
      if (c >= 0x10000)
        {
          unit[0] = 0xD800 + ((c - 0x10000) >> 10);
          unit[1] = 0xDC00 + ((c - 0x10000) & 0x3FF);
          units = 2;
        }
      for (k = 0; k < units; k++)
        {
          two[big] = (char) (unit[k] & 0xFF);
          two[!big] = (char) (unit[k] >> 8);
          sb_append (&u, two, 2);
        }
      i += (size_t) r;
    }
  sb_free (s);
  *s = u;
}

/* What iconv_model_keep_loaded opened: never closed, and kept where the
   leak checker sees them (at file scope, which no compiler takes for a
   variable set but not used).  */
static iconv_t kept_loaded[8];

void
iconv_model_keep_loaded (void)
{
  static char const *const names[] = {
    "CP1258", "CP932", "EUC-JP", "CP949", "BIG5", "GB18030", NULL
  };
  static bool done;
  size_t k;
  if (done)
    return;
  done = true;
  for (k = 0; names[k]; k++)
    kept_loaded[k] = iconv_open ("UTF-8", names[k]);
}
