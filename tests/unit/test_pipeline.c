/* Unit tests of the pipeline, end to end through files: policies, line
   and byte numbers in diagnostics, lone surrogates between decoder and
   encoder, byte order marks, two files into one output, and long inputs
   mixing text and errors; each at several block sizes and with each
   implementation of the fast paths.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec.h"
#include "cli/diag.h"
#include "helpers.h"
#include "pipeline.h"
#include "policy.h"
#include "progname.h"
#include "simd/kernels.h"
#include "tap.h"

/* ------------------------------------------------------------------ */
/* The pipeline, end to end through files.  */

static char tmpdir[256];

static int
temp_file (void)
{
  char name[300];
  int fd;
  snprintf (name, sizeof name, "%s/test_pipeline.XXXXXX", tmpdir);
  fd = mkstemp (name);
  if (fd < 0)
    {
      printf ("Bail out! mkstemp: %s\n", strerror (errno));
      exit (1);
    }
  unlink (name);
  return fd;
}

static void
write_all (int fd, uint8_t const *s, size_t n)
{
  while (n > 0)
    {
      ssize_t w = write (fd, s, n);
      if (w <= 0)
        {
          printf ("Bail out! write: %s\n", strerror (errno));
          exit (1);
        }
      s += w;
      n -= (size_t) w;
    }
}

static void
read_back (int fd, struct sb *b)
{
  char buf[4096];
  ssize_t r;
  lseek (fd, 0, SEEK_SET);
  sb_free (b);
  sb_printf (b, "%s", "");
  while ((r = read (fd, buf, sizeof buf)) > 0)
    {
      /* Bytes may hold NUL: store them as they are.  */
      if (b->len + (size_t) r + 1 > b->cap)
        {
          b->cap = 2 * (b->len + (size_t) r + 1);
          b->s = realloc (b->s, b->cap);
          if (!b->s)
            abort ();
        }
      memcpy (b->s + b->len, buf, (size_t) r);
      b->len += (size_t) r;
      b->s[b->len] = 0;
    }
}

struct conv
{
  char const *from, *to;
  enum policy policy;
  enum bom_mode bom;
};

struct conv_result
{
  struct sb out;
  struct sb err;                /* What went to stderr.  */
  enum file_result res[4];
};

/* Convert the inputs IN[0..NIN) (one file each, named "in", "in2", ...)
   with block size BS into one output.  */
static void
convert (struct conv const *cv, size_t bs, uint8_t const *const *in,
         size_t const *inlen, size_t nin, struct conv_result *r)
{
  struct run_config cfg;
  struct run *run;
  int out_fd = temp_file (), err_fd = temp_file (), saved_err;
  size_t k;

  memset (&cfg, 0, sizeof cfg);
  cfg.from = codec (cv->from);
  cfg.to = codec (cv->to);
  cfg.policy.policy = cv->policy;
  cfg.bom = cv->bom;
  cfg.block_size = bs;
  cfg.on_error = diag_stop;
  /* As the program does: unmarked output without a BOM is big-endian.  */
  if (cfg.bom == BOM_STRIP && cfg.to->unmarked)
    cfg.to = cfg.to->unmarked;

  fflush (stdout);
  fflush (stderr);
  saved_err = dup (STDERR_FILENO);
  dup2 (err_fd, STDERR_FILENO);
  run = pipeline_start (&cfg, out_fd);
  for (k = 0; k < nin; k++)
    {
      int in_fd = temp_file ();
      char name[32];
      write_all (in_fd, in[k], inlen[k]);
      lseek (in_fd, 0, SEEK_SET);
      if (k)
        snprintf (name, sizeof name, "in%zu", k + 1);
      else
        snprintf (name, sizeof name, "in");
      r->res[k] = pipeline_convert_fd (run, in_fd, name);
      {
        struct file_stats st;
        pipeline_file_stats (run, &st);
        diag_handled (name, &st, cfg.policy.policy);
      }
      close (in_fd);
      if (r->res[k] == FILE_STOPPED)
        break;
    }
  pipeline_finish (run);
  fflush (stderr);
  dup2 (saved_err, STDERR_FILENO);
  close (saved_err);

  memset (&r->out, 0, sizeof r->out);
  memset (&r->err, 0, sizeof r->err);
  read_back (out_fd, &r->out);
  read_back (err_fd, &r->err);
  close (out_fd);
  close (err_fd);
}

static char const *const result_names[] = {
  "FILE_OK", "FILE_DROPPED", "FILE_STOPPED", "FILE_READ_ERROR"
};

static size_t const block_sizes[] = { 1, 2, 3, 7, 65536 };

/* The kernels the fast paths use ("reference": no fast paths).  */
static char const *impl_name = "reference";

/* Convert IN (one file) under CV with every block size and compare with
   WANT, the file result and the diagnostics (NULL: not checked).  */
static void
check_conv (struct conv const *cv, uint8_t const *in, size_t n,
            uint8_t const *want, size_t wantlen, enum file_result want_res,
            char const *want_err, char const *desc)
{
  size_t k;
  for (k = 0; k < COUNT (block_sizes); k++)
    {
      struct conv_result r;
      bool good;
      convert (cv, block_sizes[k], &in, &n, 1, &r);
      good = r.out.len == wantlen
             && (wantlen == 0 || memcmp (r.out.s, want, wantlen) == 0)
             && r.res[0] == want_res
             && (!want_err || strcmp (r.err.s, want_err) == 0);
      if (!ok (good, "pipeline (%s) %s -> %s, %s, block size %zu: %s",
               impl_name, cv->from, cv->to, policy_name (cv->policy),
               block_sizes[k], desc))
        diag ("got  [%s] %s stderr: %s\nwant [%s] %s stderr: %s",
              hex ((uint8_t const *) r.out.s, r.out.len),
              result_names[r.res[0]], r.err.s, hex (want, wantlen),
              result_names[want_res], want_err ? want_err : "(any)");
      sb_free (&r.out);
      sb_free (&r.err);
    }
}

static void
check_conv2 (struct conv const *cv, uint8_t const *in1, size_t n1,
             uint8_t const *in2, size_t n2, uint8_t const *want,
             size_t wantlen, char const *desc)
{
  uint8_t const *in[2];
  size_t len[2];
  size_t k;

  in[0] = in1;
  in[1] = in2;
  len[0] = n1;
  len[1] = n2;
  for (k = 0; k < COUNT (block_sizes); k++)
    {
      struct conv_result r;
      convert (cv, block_sizes[k], in, len, 2, &r);
      if (!ok (r.out.len == wantlen
               && (wantlen == 0 || memcmp (r.out.s, want, wantlen) == 0)
               && r.res[0] == FILE_OK && r.res[1] == FILE_OK,
               "pipeline (%s) %s -> %s, two files, block size %zu: %s",
               impl_name, cv->from, cv->to, block_sizes[k], desc))
        diag ("got  [%s]\nwant [%s]",
              hex ((uint8_t const *) r.out.s, r.out.len),
              hex (want, wantlen));
      sb_free (&r.out);
      sb_free (&r.err);
    }
}

#define T38 0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, \
            0x80, 0xBF, 0x64
#define FFFD8 0xEF, 0xBF, 0xBD

/* Long inputs that mix ASCII runs (for the fast paths), other
   characters and errors, built from segments whose conversions are
   known.  Errors are chosen so that no segment can complete or extend
   its neighbour.  */
struct segment
{
  char const *u8;               /* UTF-8 input.  */
  char const *u8_rep;           /* Its conversion to UTF-8 under replace.  */
  /* UTF-16LE input and its conversion to UTF-16LE under replace, or NULL
     for ASCII segments (widened here).  */
  char const *u16, *u16_rep;
  size_t u16_len, u16_rep_len;
  char const *diag8, *diag16;   /* Bytes and reason of an error.  */
};

static struct segment const segments[] = {
  { "The quick brown fox jumps over the lazy dog. ", NULL, NULL, NULL, 0, 0,
    NULL, NULL },
  { "0123456789abcdefghijklmnopqrstuvwxyz\n", NULL, NULL, NULL, 0, 0, NULL,
    NULL },
  { "\xC3\xA9", "\xC3\xA9", "\xE9\0", "\xE9\0", 2, 2, NULL, NULL },
  { "\xE2\x82\xAC", "\xE2\x82\xAC", "\xAC\x20", "\xAC\x20", 2, 2, NULL,
    NULL },
  { "\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80", "\x3D\xD8\x00\xDE",
    "\x3D\xD8\x00\xDE", 4, 4, NULL, NULL },
  { "\xE1\x80", "\xEF\xBF\xBD", "\x00\xDC", "\xFD\xFF", 2, 2,
    "E1 80 (truncated sequence)", "00 DC (lone surrogate)" },
  { "\xF0\x9F\x98", "\xEF\xBF\xBD", "\xFF\xDF", "\xFD\xFF", 2, 2,
    "F0 9F 98 (truncated sequence)", "FF DF (lone surrogate)" },
  { "\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD", "\x80\xDC", "\xFD\xFF", 2, 2,
    "C0 (overlong encoding)", "80 DC (lone surrogate)" },
  { "\xFF", "\xEF\xBF\xBD", "\x01\xDD", "\xFD\xFF", 2, 2,
    "FF (invalid byte)", "01 DD (lone surrogate)" },
  { "\n", NULL, NULL, NULL, 0, 0, NULL, NULL },
  { "\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", "\x00\xDF",
    "\xFD\xFF", 2, 2, "ED (surrogate)", "00 DF (lone surrogate)" },
  { "\xE0\x9F\xBF", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", "\x00\xDE",
    "\xFD\xFF", 2, 2, "E0 (overlong encoding)", "00 DE (lone surrogate)" },
  { "\xF4\x90\x80\x80",
    "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", "\x10\xDC",
    "\xFD\xFF", 2, 2, "F4 (beyond U+10FFFF)", "10 DC (lone surrogate)" },
  { "\xF0\x8F\xBF\xBF",
    "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", "\xAB\xDC",
    "\xFD\xFF", 2, 2, "F0 (overlong encoding)", "AB DC (lone surrogate)" },
};

/* The segments that hold an error.  */
static unsigned char const error_segments[] = { 5, 6, 7, 8, 10, 11, 12, 13 };

/* Append the UTF-16LE form of the ASCII text S.  */
static void
sb_widen (struct sb *b, char const *s)
{
  for (; *s; s++)
    {
      sb_printf (b, "%c", *s);
      sb_printf (b, "%c", 0);
    }
}

/* Append segment G's UTF-16LE input to IN16, and to REP16_16 and
   REP8_16 the UTF-16LE output under replace of that input and of its
   UTF-8 input (whose UTF-8 output under replace is REP8).  */
static void
append_utf16 (struct segment const *g, char const *rep8, struct sb *in16,
              struct sb *rep8_16, struct sb *rep16_16)
{
  size_t k;

  if (!g->u16)
    {
      sb_widen (in16, g->u8);
      sb_widen (rep8_16, g->u8);
      sb_widen (rep16_16, g->u8);
      return;
    }
  sb_append (in16, g->u16, g->u16_len);
  sb_append (rep16_16, g->u16_rep, g->u16_rep_len);
  if (g->diag8)
    for (k = 0; k < strlen (rep8) / 3; k++)
      sb_append (rep8_16, "\xFD\xFF", 2);
  else
    sb_append (rep8_16, g->u16, g->u16_len);
}

#define CONV(f, t, p, b)                                                \
  (cv.from = (f), cv.to = (t), cv.policy = (p), cv.bom = (b), &cv)
#define U8(b) (uint8_t const *) (b).s, (b).len

static void
test_pipeline_mixed (void)
{
  /* Inputs; outputs under replace; outputs of a strict run.  */
  struct sb in8 = { 0 }, in16 = { 0 };
  struct sb rep8_8 = { 0 }, rep8_16 = { 0 }, rep16_16 = { 0 },
    rep16_8 = { 0 };
  struct sb strict8 = { 0 }, strict16 = { 0 };
  struct segment const *first8 = NULL, *first16 = NULL;
  size_t off8 = 0, off16 = 0, line = 1;
  char diag8[256], diag16[256];
  struct conv cv;
  uint32_t saved_rng = rng_state;

  rng_state = 0x9E3779B9u;
  while (in8.len < 6000)
    {
      uint32_t r = rng () % 100;
      struct segment const *g
        = &segments[r < 70 ? rng () % 5 : r < 85 ? 9
                    : error_segments[rng () % sizeof error_segments]];
      size_t reps = g->diag8 ? 1 : 1 + rng () % 8;
      while (reps--)
        {
          char const *rep8 = g->u8_rep ? g->u8_rep : g->u8;
          sb_printf (&in8, "%s", g->u8);
          sb_printf (&rep8_8, "%s", rep8);
          append_utf16 (g, rep8, &in16, &rep8_16, &rep16_16);
          /* A lone surrogate becomes one U+FFFD in UTF-8.  */
          sb_printf (&rep16_8, "%s", g->diag16 ? "\xEF\xBF\xBD" : rep8);
          if (!first8)
            {
              /* Both inputs have their first error in the same
                 segment.  */
              if (g->diag8)
                first8 = first16 = g;
              else
                {
                  sb_printf (&strict8, "%s", g->u8);
                  sb_printf (&strict16, "%s", g->u8);
                  off8 += strlen (g->u8);
                  off16 += g->u16 ? g->u16_len : 2 * strlen (g->u8);
                  line += strchr (g->u8, '\n') != NULL;
                }
            }
        }
    }
  if (!first8)
    abort ();
  snprintf (diag8, sizeof diag8, "utf8conv: in:%zu: byte %zu: invalid "
            "UTF-8: %s\n", line, off8, first8->diag8);
  snprintf (diag16, sizeof diag16, "utf8conv: in:%zu: byte %zu: invalid "
            "UTF-16LE: %s\n", line, off16, first16->diag16);

  check_conv (CONV ("UTF-8", "UTF-8", POLICY_REPLACE, BOM_AUTO), U8 (in8),
              U8 (rep8_8), FILE_OK, NULL, "6000 bytes of text and errors");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_REPLACE, BOM_AUTO),
              U8 (in8), U8 (rep8_16), FILE_OK, NULL,
              "6000 bytes of text and errors");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_SURROGATEESCAPE, BOM_AUTO),
              U8 (in8), U8 (in8), FILE_OK, NULL,
              "6000 bytes of text and errors: identity");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO), U8 (in8),
              U8 (strict8), FILE_STOPPED, diag8,
              "6000 bytes of text and errors: strict");
  check_conv (CONV ("UTF-16LE", "UTF-16LE", POLICY_REPLACE, BOM_AUTO),
              U8 (in16), U8 (rep16_16), FILE_OK, NULL,
              "text and lone surrogates");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_REPLACE, BOM_AUTO),
              U8 (in16), U8 (rep16_8), FILE_OK, NULL,
              "text and lone surrogates");
  check_conv (CONV ("UTF-16LE", "UTF-16LE", POLICY_SURROGATEESCAPE,
                    BOM_AUTO),
              U8 (in16), U8 (in16), FILE_OK, NULL,
              "text and lone surrogates: identity");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_STRICT, BOM_AUTO),
              U8 (in16), U8 (strict16), FILE_STOPPED, diag16,
              "text and lone surrogates: strict");

  sb_free (&in8);
  sb_free (&in16);
  sb_free (&rep8_8);
  sb_free (&rep8_16);
  sb_free (&rep16_16);
  sb_free (&rep16_8);
  sb_free (&strict8);
  sb_free (&strict16);
  rng_state = saved_rng;
}

/* Table 3-8 under each policy; lines and offsets in diagnostics.  */
static void
test_pipeline_policies (void)
{
  struct conv cv;
  struct sb big = { NULL, 0, 0 }, bigout = { NULL, 0, 0 };
  int k;

  check_conv (CONV ("UTF-8", "UTF-8", POLICY_REPLACE, BOM_AUTO),
              BYTES (T38),
              BYTES (0x61, FFFD8, FFFD8, FFFD8, 0x62, FFFD8, 0x63, FFFD8,
                     FFFD8, 0x64), FILE_OK,
              "utf8conv: in:1: byte 1: invalid UTF-8: F1 80 80 "
              "(truncated sequence); 6 errors replaced in this file\n",
              "Table 3-8, one U+FFFD per maximal subpart");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (T38), STR ("a"), FILE_STOPPED,
              "utf8conv: in:1: byte 1: invalid UTF-8: F1 80 80 "
              "(truncated sequence)\n",
              "Table 3-8 stops after 'a'");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_ESCAPE, BOM_AUTO),
              BYTES (T38),
              STR ("a\\xf1\\x80\\x80\\xe1\\x80\\xc2b\\x80c\\x80\\xbfd"),
              FILE_OK,
              "utf8conv: in:1: byte 1: invalid UTF-8: F1 80 80 "
              "(truncated sequence); 6 errors escaped in this file\n",
              "Table 3-8 escaped");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (T38), BYTES (T38), FILE_OK, NULL,
              "Table 3-8 survives surrogateescape");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_IGNORE, BOM_AUTO),
              BYTES (T38), STR ("abcd"), FILE_DROPPED,
              "utf8conv: in:1: byte 1: invalid UTF-8: F1 80 80 "
              "(truncated sequence); 6 errors dropped in this file\n",
              "Table 3-8 ignored");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_REPLACE, BOM_AUTO),
              BYTES (T38),
              BYTES (0x61, 0, 0xFD, 0xFF, 0xFD, 0xFF, 0xFD, 0xFF, 0x62, 0,
                     0xFD, 0xFF, 0x63, 0, 0xFD, 0xFF, 0xFD, 0xFF, 0x64, 0),
              FILE_OK, NULL, "Table 3-8 to UTF-16LE");
  check_conv (CONV ("UTF-8", "UTF-32BE", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (0x61, 0xF1, 0x80, 0x62),
              BYTES (0, 0, 0, 0x61, 0, 0, 0xDC, 0xF1, 0, 0, 0xDC, 0x80, 0, 0,
                     0, 0x62), FILE_OK, NULL,
              "surrogateescape to UTF-32BE writes DCxx units");

  /* Lines and offsets in diagnostics, across blocks and fast paths.  */
  for (k = 0; k < 100; k++)
    sb_printf (&big, "line %02d \xC3\xA9\n", k);
  sb_printf (&bigout, "%s", big.s);
  sb_printf (&big, "\xE1\x80x\xF0\x9F\x98\x80\n");
  sb_printf (&bigout, "\xEF\xBF\xBDx\xF0\x9F\x98\x80\n");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_REPLACE, BOM_AUTO),
              (uint8_t const *) big.s, big.len, (uint8_t const *) bigout.s,
              bigout.len, FILE_OK,
              "utf8conv: in:101: byte 1100: invalid UTF-8: E1 80 "
              "(truncated sequence); 1 error replaced in this file\n",
              "line and byte of an error after 100 lines");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
              (uint8_t const *) big.s, big.len, (uint8_t const *) big.s,
              1100, FILE_STOPPED,
              "utf8conv: in:101: byte 1100: invalid UTF-8: E1 80 "
              "(truncated sequence)\n",
              "strict: exactly the 1100 bytes before the error");
  sb_free (&big);
  sb_free (&bigout);

  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_AUTO),
              STR ("a\nb\n\xC3\xA9\xFF"),
              BYTES (0x61, 0, 0x0A, 0, 0x62, 0, 0x0A, 0, 0xE9, 0),
              FILE_STOPPED,
              "utf8conv: in:3: byte 6: invalid UTF-8: FF (invalid byte)\n",
              "strict stop to UTF-16LE");
}

/* Lone surrogates between decoder and encoder.  */
static void
test_pipeline_surrogates (void)
{
  struct conv cv;

  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_REPLACE, BOM_AUTO),
              BYTES (0x41, 0, 0x00, 0xD8, 0x42, 0),
              BYTES (0x41, FFFD8, 0x42), FILE_OK,
              "utf8conv: in:1: byte 2: invalid UTF-16LE: 00 D8 "
              "(lone surrogate); 1 error replaced in this file\n",
              "lone high replaced");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_ESCAPE, BOM_AUTO),
              BYTES (0x41, 0, 0x00, 0xD8, 0x42, 0),
              STR ("A\\x00\\xd8B"), FILE_OK, NULL,
              "lone high escaped byte by byte");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (0x41, 0, 0x00, 0xD8, 0x42, 0), STR ("A"), FILE_STOPPED,
              "utf8conv: in:1: byte 2: cannot encode U+D800 in UTF-8: 00 D8 "
              "(unencodable character)\n",
              "surrogateescape: lone D800 cannot go to UTF-8");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (0x41, 0, 0x80, 0xDC, 0xFF, 0xDC, 0x42, 0),
              BYTES (0x41, 0x80, 0xFF, 0x42), FILE_OK, "",
              "surrogateescape: DC80 DCFF become raw bytes, no warning");
  check_conv (CONV ("UTF-16LE", "UTF-16LE", POLICY_SURROGATEESCAPE,
                    BOM_AUTO),
              BYTES (0x00, 0xD8, 0x41, 0x00, 0x00, 0xDC, 0x00, 0xD8),
              BYTES (0x00, 0xD8, 0x41, 0x00, 0x00, 0xDC, 0x00, 0xD8),
              FILE_OK, "", "surrogateescape: UTF-16LE identity");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (0x41, 0x00, 0x42), STR ("A"), FILE_STOPPED,
              "utf8conv: in:1: byte 2: invalid UTF-16LE: 42 "
              "(truncated sequence)\n",
              "surrogateescape: odd byte 42 is handled as strict");
  check_conv (CONV ("UTF-32LE", "UTF-8", POLICY_ESCAPE, BOM_AUTO),
              BYTES (0x00, 0x00, 0x11, 0x00), STR ("\\x00\\x00\\x11\\x00"),
              FILE_OK, NULL, "UTF-32 unit above 10FFFF escaped");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (0x61, 0x80, 0x62), BYTES (0x61, 0, 0x80, 0xDC, 0x62, 0),
              FILE_OK, NULL, "surrogateescape to UTF-16LE: a DC80 unit");
}

/* Byte order marks: carried, stripped, added, and never alone.  */
static void
test_pipeline_bom (void)
{
  struct conv cv;

  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0xFF, 0xFE, 0x41, 0),
              FILE_OK, "", "a UTF-8 BOM is carried to UTF-16LE once");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_STRIP),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0x41, 0), FILE_OK, "",
              "--bom=strip removes it");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_ADD),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0xFF, 0xFE, 0x41, 0),
              FILE_OK, "", "--bom=add with a BOM: still one");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_ADD),
              STR ("A"), BYTES (0xFF, 0xFE, 0x41, 0), FILE_OK, "",
              "--bom=add without a BOM adds one");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_AUTO),
              STR ("A"), BYTES (0x41, 0), FILE_OK, "", "no BOM, none added");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_AUTO),
              STR ("A"), BYTES (0xFF, 0xFE, 0x41, 0), FILE_OK, "",
              "unmarked UTF-16 output gets FF FE");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0xFF, 0xFE, 0x41, 0),
              FILE_OK, "", "unmarked UTF-16 output with a BOM: one");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_STRIP),
              STR ("A"), BYTES (0, 0x41), FILE_OK, "",
              "unmarked UTF-16 with --bom=strip: big-endian, no BOM");
  check_conv (CONV ("UTF-8", "UTF-32", POLICY_STRICT, BOM_AUTO),
              STR ("A"), BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0), FILE_OK,
              "", "unmarked UTF-32 output gets FF FE 00 00");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0xEF, 0xBB, 0xBF, 0x41),
              FILE_OK, "", "UTF-8 BOM kept by default");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_STRIP),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), STR ("A"), FILE_OK, "",
              "UTF-8 BOM stripped");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_ADD),
              STR ("A"), BYTES (0xEF, 0xBB, 0xBF, 0x41), FILE_OK, "",
              "UTF-8 BOM added");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0x41, 0xEF, 0xBB, 0xBF), BYTES (0x41, 0xEF, 0xBB, 0xBF),
              FILE_OK, "", "U+FEFF not at the start is a character");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0xFF, 0xFE, 0x41, 0), STR ("A"),
              FILE_OK, "", "UTF-16LE BOM not carried to UTF-8 (as iconv)");
  check_conv (CONV ("UTF-16", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0xFE, 0xFF, 0, 0x41), STR ("A"),
              FILE_OK, "", "UTF-16 big-endian BOM not carried to UTF-8");
  check_conv (CONV ("UTF-32LE", "CESU-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0), STR ("A"),
              FILE_OK, "", "UTF-32LE BOM not carried to CESU-8");
  check_conv (CONV ("UTF-16LE", "WTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0xFF, 0xFE, 0x41, 0), BYTES (0xEF, 0xBB, 0xBF, 0x41),
              FILE_OK, "", "UTF-16LE BOM carried to WTF-8, for the round "
              "trip");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_STRICT, BOM_ADD),
              BYTES (0xFF, 0xFE, 0x41, 0), BYTES (0xEF, 0xBB, 0xBF, 0x41),
              FILE_OK, "", "UTF-16LE to UTF-8 with --bom=add: one BOM");
  check_conv (CONV ("UTF-16LE", "UTF-16LE", POLICY_STRICT, BOM_AUTO),
              BYTES (0xFF, 0xFE, 0x41, 0), BYTES (0xFF, 0xFE, 0x41, 0),
              FILE_OK, "", "UTF-16LE BOM carried to UTF-16LE");
  check_conv (CONV ("UTF-8", "UTF-32BE", POLICY_STRICT, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0, 0, 0xFE, 0xFF, 0, 0, 0,
                                                    0x41),
              FILE_OK, "", "UTF-8 BOM carried to UTF-32BE");
  check_conv (CONV ("UTF-16", "UTF-8", POLICY_STRICT, BOM_STRIP),
              BYTES (0xFF, 0xFE, 0x41, 0), STR ("A"), FILE_OK, "",
              "UTF-16 BOM stripped");
  check_conv (CONV ("UTF-32", "UTF-16BE", POLICY_STRICT, BOM_AUTO),
              BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0),
              BYTES (0xFE, 0xFF, 0, 0x41), FILE_OK, "",
              "UTF-32 BOM carried to UTF-16BE");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_ADD),
              STR (""), NULL, 0, FILE_OK, "",
              "empty input: empty output even with --bom=add");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_AUTO),
              STR (""), NULL, 0, FILE_OK, "",
              "empty input: empty unmarked UTF-16 output");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF), NULL, 0, FILE_OK, "",
              "a BOM alone gives empty output");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_ADD),
              BYTES (0xEF, 0xBB, 0xBF), NULL, 0, FILE_OK, "",
              "a BOM alone gives empty output with --bom=add");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_AUTO),
              BYTES (0x80, 0x41), NULL, 0, FILE_STOPPED,
              "utf8conv: in:1: byte 0: invalid UTF-8: 80 "
              "(unexpected continuation byte)\n",
              "a strict error first: no BOM alone");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_SURROGATEESCAPE, BOM_ADD),
              BYTES (0x00, 0xD8, 0x41, 0x00), NULL, 0, FILE_STOPPED,
              "utf8conv: in:1: byte 0: cannot encode U+D800 in UTF-8: 00 D8 "
              "(unencodable character)\n",
              "an encoding error first: the BOM is taken back");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_SURROGATEESCAPE, BOM_ADD),
              BYTES (0x80, 0xDC, 0x41, 0x00),
              BYTES (0xEF, 0xBB, 0xBF, 0x80, 0x41), FILE_OK, "",
              "a raw byte first keeps the BOM");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_IGNORE, BOM_AUTO),
              BYTES (0x80), NULL, 0, FILE_DROPPED, NULL,
              "everything dropped: no BOM alone");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_REPLACE, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF, 0x80),
              BYTES (0xFF, 0xFE, 0xFD, 0xFF), FILE_OK, NULL,
              "BOM then an error replaced");
}

/* Two files into one output: one BOM at most, endianness per file.  */
static void
test_pipeline_two_files (void)
{
  struct conv cv;

  check_conv2 (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
               BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0xEF, 0xBB, 0xBF, 0x42),
               BYTES (0xEF, 0xBB, 0xBF, 0x41, 0x42),
               "the second file's BOM is dropped");
  check_conv2 (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
               BYTES (0x41), BYTES (0xEF, 0xBB, 0xBF, 0x42),
               BYTES (0x41, 0x42), "the first file decides: no BOM");
  check_conv2 (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_AUTO),
               BYTES (0x41), BYTES (0x42),
               BYTES (0xFF, 0xFE, 0x41, 0, 0x42, 0),
               "unmarked UTF-16: one BOM for two files");
  check_conv2 (CONV ("UTF-16", "UTF-8", POLICY_STRICT, BOM_AUTO),
               BYTES (0xFF, 0xFE, 0x41, 0), BYTES (0, 0x42),
               BYTES (0x41, 0x42),
               "UTF-16 endianness is decided per file");
  check_conv2 (CONV ("UTF-16", "UTF-16BE", POLICY_STRICT, BOM_AUTO),
               BYTES (0x41, 0), BYTES (0, 0x42),
               BYTES (0, 0x41, 0, 0x42),
               "UTF-16 without BOM: each file's NUL pattern decides");
}

static void
test_pipeline (void)
{
  test_pipeline_policies ();
  test_pipeline_surrogates ();
  test_pipeline_bom ();
  test_pipeline_two_files ();
  test_pipeline_mixed ();
}
#undef CONV
#undef U8

int
main (void)
{
  char const *t = getenv ("TMPDIR");
  char const *const *names = kernels_available ();
  /* With UTF8CONV_IMPL set ("make check-impls"), that set alone; a
     copy, as the loop sets the variable.  */
  char const *env = getenv ("UTF8CONV_IMPL");
  char *want = env && *env ? strdup (env) : NULL;
  bool found = false;
  size_t i;

  set_program_name ("utf8conv");
  setvbuf (stdout, NULL, _IOLBF, 0);
  snprintf (tmpdir, sizeof tmpdir, "%s", t && *t ? t : "/tmp");

  /* The pipeline with each implementation of the fast paths.  */
  for (i = 0; names[i]; i++)
    {
      if (want && strcmp (want, names[i]) != 0)
        continue;
      found = true;
      setenv ("UTF8CONV_IMPL", names[i], 1);
      if (!ok (kernels_select (), "kernels_select (\"%s\")", names[i]))
        continue;
      impl_name = names[i];
      test_pipeline ();
    }
  unsetenv ("UTF8CONV_IMPL");
  if (want && !found)
    ok (false, "UTF8CONV_IMPL=%s is a kernel set of this machine", want);
  free (want);
  return done_testing ();
}
