/* Unit tests of the iconv(3) bridge: per-value offsets, errors, and
   input split at every byte (the carry of an incomplete character);
   what a decoder holds back comes out before an error, and a stateful
   decoder keeps its state after one (SPEC §10).  */

#include <config.h>

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "codecs/iconv_bridge.h"
#include "codecs/iconv_encode.h"
#include "codecs/iconv_memo.h"
#include "codecs/iconv_shift.h"
#include "helpers.h"
#include "registry.h"
#include "tap.h"
#include "xalloc.h"

#ifndef ICONV_CONST
# define ICONV_CONST
#endif

enum { MAX_VALUES = 64 };

/* A decoded stream: values, their absolute offsets, and the errors as
   "offset:len:kind" entries, values and errors in order.  */
struct result
{
  long item[MAX_VALUES];        /* Value, or -1000 - error index.  */
  int64_t off[MAX_VALUES];
  size_t n;
  char errors[256];
  char order[512];              /* Values and errors' bytes, in order.  */
};

/* Decode IN[0..N) with C, fed in two chunks split at SPLIT.  */
static void
decode_split (struct codec const *c, uint8_t const *in, size_t n,
              size_t split, struct result *r)
{
  struct decoder d;
  ucs4_t cp[MAX_VALUES];
  int64_t off[MAX_VALUES];
  uint8_t nb[MAX_VALUES];
  size_t bounds[3] = { 0, split, n }, k;
  int chunk;

  memset (r, 0, sizeof *r);
  decoder_init (&d, c);
  for (chunk = 0; chunk < 2; chunk++)
    {
      size_t pos = bounds[chunk], end = bounds[chunk + 1];
      bool last = chunk == 1;
      for (;;)
        {
          struct pivot p = { cp, off, nb, 0, 3 };
          size_t len = end - pos;
          enum decode_status st = c->decode (&d, in + pos, &len, last, &p);
          for (k = 0; k < p.len && r->n < MAX_VALUES; k++, r->n++)
            {
              size_t l = strlen (r->order);
              r->item[r->n] = (long) cp[k];
              r->off[r->n] = (int64_t) pos + off[k];
              snprintf (r->order + l, sizeof r->order - l, "%s%lX",
                        l ? " " : "", (unsigned long) cp[k]);
            }
          if (st == DECODE_MALFORMED)
            {
              size_t l = strlen (r->errors);
              snprintf (r->errors + l, sizeof r->errors - l, "%lld:%u:%d ",
                        (long long) ((int64_t) pos + d.error.rel_offset),
                        d.error.len, (int) d.error.kind);
              l = strlen (r->order);
              snprintf (r->order + l, sizeof r->order - l, "%s!%s",
                        l ? " " : "", hex (d.error.bytes, d.error.len));
            }
          pos += len;
          if (st == DECODE_INPUT_EMPTY && pos == end)
            break;
        }
    }
  decoder_release (&d);
}

static bool
same (struct result const *a, struct result const *b)
{
  size_t k;
  if (a->n != b->n || strcmp (a->errors, b->errors) != 0
      || strcmp (a->order, b->order) != 0)
    return false;
  for (k = 0; k < a->n; k++)
    if (a->item[k] != b->item[k] || a->off[k] != b->off[k])
      return false;
  return true;
}

static struct codec const *
lookup (char const *name)
{
  struct codec const *c = registry_lookup (name);
  if (!c)
    {
      printf ("Bail out! iconv(3) does not know %s\n", name);
      exit (1);
    }
  return c;
}

static void
test_split (char const *name, uint8_t const *in, size_t n,
            long const *values, int64_t const *offs, size_t nvalues,
            char const *errors)
{
  struct codec const *c = lookup (name);
  struct result whole, part;
  size_t split, k;
  bool good;

  decode_split (c, in, n, n, &whole);
  good = whole.n == nvalues && strcmp (whole.errors, errors) == 0;
  for (k = 0; good && k < nvalues; k++)
    good = whole.item[k] == values[k] && whole.off[k] == offs[k];
  if (!ok (good, "%s: values, offsets and errors", name))
    {
      for (k = 0; k < whole.n; k++)
        diag ("U+%04lX at %lld", whole.item[k], (long long) whole.off[k]);
      diag ("errors: %s", whole.errors);
    }
  good = true;
  for (split = 0; split <= n; split++)
    {
      decode_split (c, in, n, split, &part);
      if (!same (&whole, &part))
        {
          diag ("split at %zu differs", split);
          good = false;
        }
    }
  ok (good, "%s: the same split at every byte", name);
}

/* The values and errors of IN[0..N) in NAME, in order, must be WANT
   ("61 !81 62": values in hex, errors as "!" and their bytes), fed
   whole and split at every byte, which also give the same offsets.  */
static void
test_order (char const *name, uint8_t const *in, size_t n,
            char const *want, char const *desc)
{
  struct codec const *c = lookup (name);
  struct result whole, part;
  size_t split;
  bool good = true;

  decode_split (c, in, n, n, &whole);
  if (!ok (strcmp (whole.order, want) == 0, "%s: %s", name, desc))
    diag ("got  %s\nwant %s", whole.order, want);
  for (split = 0; split <= n; split++)
    {
      decode_split (c, in, n, split, &part);
      if (!same (&whole, &part))
        {
          diag ("split at %zu: %s", split, part.order);
          good = false;
        }
    }
  ok (good, "%s: %s, the same split at every byte", name, desc);
}

/* ------------------------------------------------------------------ */
/* The memo (see the top of iconv_bridge.c): long text in which
   characters repeat, so that the memo reads most of them, against a
   model that calls iconv(3) one character at a time as the bridge does
   without it.  Each value is written "U+HEX@OFFSET+LENGTH" and each
   error "!BYTES@OFFSET:KIND", in order.  */

enum { LONG_TEXT = 6000 };

/* Append to B the value C from the LEN bytes at OFF.  */
static void
put_value (struct sb *b, ucs4_t c, int64_t off, unsigned int len)
{
  sb_printf (b, "U+%04lX@%lld+%u ", (unsigned long) c, (long long) off,
             len);
}

static void
put_error (struct sb *b, uint8_t const *bytes, unsigned int len,
           int64_t off, enum err_kind kind)
{
  sb_printf (b, "!%s@%lld:%d ", hex (bytes, len), (long long) off,
             (int) kind);
}

/* What the bridge gives for IN[0..N) in the charset NAME, with one
   iconv() call for each character (the shortest prefix that iconv()
   does something with), into B.  Bytes consumed without a value (the
   SO and SI of IBM930) belong to the next value, as its offset and
   length say; an error forgets them.  */
static void
model_stateless (char const *name, uint8_t const *in, size_t n,
                 struct sb *b)
{
  iconv_t cd = iconv_open ("UTF-32LE", name);
  size_t a = 0, pre = 0;

  sb_printf (b, "%s", "");
  while (a < n)
    {
      uint8_t out[64];
      size_t k, used, bytes, j;
      int err;
      for (k = 1;; k++)
        {
          ICONV_CONST char *ip = (ICONV_CONST char *) in + a;
          char *op = (char *) out;
          size_t il = k, ol = sizeof out;
          err = iconv (cd, &ip, &il, &op, &ol) == (size_t) -1 ? errno : 0;
          used = k - il;
          bytes = sizeof out - ol;
          if (!(used == 0 && bytes == 0 && err == EINVAL && a + k < n))
            break;
        }
      if (bytes > 0)
        {
          for (j = 0; j + 4 <= bytes; j += 4)
            put_value (b, (ucs4_t) (out[j] | out[j + 1] << 8
                                    | out[j + 2] << 16
                                    | (ucs4_t) out[j + 3] << 24),
                       (int64_t) (a - pre),
                       j ? 0 : (unsigned int) (used + pre));
          pre = 0;
        }
      else if (used > 0)
        pre += used;
      else
        {
          pre = 0;
          /* At the end, an incomplete character (one error of its
             bytes); anywhere, an illegal byte.  */
          used = (err == EINVAL ? (k < MAX_ERROR_BYTES ? k : MAX_ERROR_BYTES)
                  : 1);
          put_error (b, in + a, (unsigned int) used, (int64_t) a,
                     err == EINVAL ? ERR_TRUNCATED : ERR_INVALID_BYTE);
        }
      a += used;
    }
  iconv_close (cd);
}

/* Decode IN[0..N) with C into B, in chunks of BLOCK bytes (random
   lengths of 1 to 64 when 0), each copied to a buffer of its size (so
   that ASan sees a read past it), with a pivot of CAP values.  */
static void
bridge_chunks (struct codec const *c, uint8_t const *in, size_t n,
               size_t block, size_t cap, struct sb *b)
{
  static ucs4_t cp[4096];
  static int64_t off[4096];
  static uint8_t nb[4096];
  struct decoder d;
  size_t pos = 0, k;

  sb_printf (b, "%s", "");
  decoder_init (&d, c);
  do
    {
      size_t len = block ? block : 1 + rng () % 64, end, at;
      uint8_t *chunk;
      end = n - pos < len ? n : pos + len;
      chunk = malloc (end - pos);
      if (!chunk)
        abort ();
      memcpy (chunk, in + pos, end - pos);
      at = pos;
      for (;;)
        {
          struct pivot p = { cp, off, nb, 0, cap };
          size_t used = end - at;
          enum decode_status st = c->decode (&d, chunk + (at - pos), &used,
                                             end == n, &p);
          for (k = 0; k < p.len; k++)
            put_value (b, cp[k], (int64_t) at + off[k], nb[k]);
          if (st == DECODE_MALFORMED)
            put_error (b, d.error.bytes, d.error.len,
                       (int64_t) at + d.error.rel_offset, d.error.kind);
          at += used;
          if (st == DECODE_INPUT_EMPTY && at == end)
            break;
        }
      free (chunk);
      pos = end;
    }
  while (pos < n);
  decoder_release (&d);
}

/* Append to T[*N..) the character C in NAME, if NAME has it.  */
static void
put_char (iconv_t cd, ucs4_t c, uint8_t *t, size_t *n)
{
  uint8_t u[4] = { (uint8_t) c, (uint8_t) (c >> 8), (uint8_t) (c >> 16),
                   (uint8_t) (c >> 24) };
  ICONV_CONST char *ip = (ICONV_CONST char *) u;
  char *op = (char *) t + *n;
  size_t il = 4, ol = LONG_TEXT + 64 - *n;
  if (iconv (cd, &ip, &il, &op, &ol) != (size_t) -1)
    *n = (size_t) ((uint8_t *) op - t);
}

/* Text in NAME into T, about LONG_TEXT bytes: lines of the characters
   of TEXT (UTF-32, so that they repeat), with random characters from
   the range C0..C1 (met once or twice: the memo has to learn them, and
   the decoder goes back and forth between it and iconv()) and, when
   BAD, illegal bytes and characters cut short in the middle, and a lead
   byte LEAD cut short at the end.  Returns its length.  */
static size_t
make_long (char const *name, ucs4_t const *text, size_t ntext,
           ucs4_t c0, ucs4_t c1, bool bad, uint8_t lead, uint8_t *t)
{
  iconv_t cd = iconv_open (name, "UTF-32LE");
  size_t n = 0, k;
  while (n < LONG_TEXT - 64)
    {
      for (k = 0; k < ntext && n < LONG_TEXT - 64; k++)
        {
          put_char (cd, text[k], t, &n);
          if (rng () % 4 == 0)
            put_char (cd, c0 + rng () % (c1 - c0 + 1), t, &n);
          if (bad && rng () % 16 == 0)
            t[n++] = (uint8_t) (rng () % 2 ? 0xFF : 0x80);
          if (bad && rng () % 16 == 0)
            {
              t[n++] = lead;    /* A lead byte, then a newline.  */
              t[n++] = '\n';
            }
        }
      put_char (cd, '\n', t, &n);
    }
  if (bad)
    t[n++] = lead;
  iconv_close (cd);
  return n;
}

/* The first place where A and B differ, for a diagnostic.  */
static char const *
differ (char const *a, char const *b)
{
  static char buf[200];
  size_t k = 0;
  while (a[k] && a[k] == b[k])
    k++;
  while (k > 0 && a[k - 1] != ' ')
    k--;
  snprintf (buf, sizeof buf, "got  %.80s\nwant %.80s", a + k, b + k);
  return buf;
}

/* The bridge with its memo on long text in the charset NAME (stateless,
   or of SO and SI) gives what one call per character gives, at every
   block size.  */
static void
test_memo (char const *name, ucs4_t const *text, size_t ntext, ucs4_t c0,
           ucs4_t c1, uint8_t lead)
{
  static size_t const blocks[] = { 0, 1, 2, 3, 7, 0, 0 };
  static uint8_t t[LONG_TEXT + 64];
  struct codec const *c = lookup (name);
  int bad;
  size_t k;

  for (bad = 0; bad < 2; bad++)
    {
      struct sb want = { NULL, 0, 0 }, got = { NULL, 0, 0 };
      size_t n = make_long (name, text, ntext, c0, c1, bad, lead, t);
      bool good = true;
      model_stateless (name, t, n, &want);
      for (k = 0; k < COUNT (blocks) + 2; k++)
        {
          /* The whole input, with a pivot of 4096, 3 and 9 values, then
             each block size.  */
          size_t block = k < 3 ? n : blocks[k - 2];
          size_t cap = k == 1 ? 3 : k == 2 ? 9 : 4096;
          sb_free (&got);
          bridge_chunks (c, t, n, block, cap, &got);
          if (strcmp (sb_str (&got), sb_str (&want)) != 0)
            {
              if (good)
                diag ("%s, block %zu, pivot %zu:\n%s", name, block, cap,
                      differ (sb_str (&got), sb_str (&want)));
              good = false;
            }
        }
      ok (good && want.len > 4 * LONG_TEXT,
          "%s: long text%s, as one call per character gives: values, "
          "offsets, lengths, errors, whole and in blocks of 1, 2, 3, 7 "
          "and random", name,
          bad ? " with illegal bytes and a cut character at the end" : "");
      sb_free (&got);
      sb_free (&want);
    }
}

/* The probe of each charset and the check of each character, which
   decide whether the memo is used (iconv_memo.c).  */
static void
test_memo_probes (void)
{
  static char const *const suit[] = { "SHIFT_JIS", "EUC-JP", "GB18030",
                                      "BIG5", "EUC-KR", "KOI8-R" };
  static char const *const unsuited[] = { "IBM930", "CP1255", "CP1258",
                                          "TSCII", "IBM1390", "IBM933" };
  struct memo_charset cs;
  size_t k;
  bool good = true;
  iconv_t cd;

  for (k = 0; k < COUNT (suit); k++)
    {
      memset (&cs, 0, sizeof cs);
      shift_probe_charset (&cs, suit[k]);
      if (!cs.decided || !cs.suits || cs.sentinel_len != MEMO_SENTINEL)
        good = false, diag ("%s does not suit", suit[k]);
    }
  for (k = 0; k < COUNT (unsuited); k++)
    {
      memset (&cs, 0, sizeof cs);
      shift_probe_charset (&cs, unsuited[k]);
      if (!cs.decided || cs.suits)
        good = false, diag ("%s suits", unsuited[k]);
      /* Those of SO and SI have a memo per shift state.  */
      if (cs.shifting != (k == 0 || k >= 4)
          || (cs.shifting && (cs.so != 0x0E || cs.si != 0x0F
                              || cs.wide_len != MEMO_SENTINEL)))
        good = false, diag ("%s: shifting %d", unsuited[k], cs.shifting);
    }
  for (k = 0; k < COUNT (suit); k++)
    {
      memset (&cs, 0, sizeof cs);
      shift_probe_charset (&cs, suit[k]);
      good = good && !cs.shifting;
    }
  ok (good, "the memo suits stateless code pages, not IBM930 (a shift "
      "byte), CP1255, CP1258 (held letters) or TSCII (several values); "
      "IBM930, IBM933 and IBM1390 have one per shift state, with SO 0E "
      "and SI 0F");

  /* ESC $ B F | is one character that changes how the next bytes
     read; 93 FA in SHIFT_JIS is one that does not.  */
  memset (&cs, 0, sizeof cs);
  shift_probe_charset (&cs, "ISO-2022-JP");
  cd = iconv_open ("UTF-32LE", "ISO-2022-JP");
  ok (cs.suits && memo_check (cd, false, &cs, STR ("F"), 'F')
      && !memo_check (cd, false, &cs, STR ("\x1b$BF|"), 0x65E5),
      "the check: a character that shifts is not used");
  iconv_close (cd);
  memset (&cs, 0, sizeof cs);
  shift_probe_charset (&cs, "SHIFT_JIS");
  cd = iconv_open ("UTF-32LE", "SHIFT_JIS");
  ok (memo_check (cd, false, &cs, STR ("\x93\xfa"), 0x65E5)
      && !memo_check (cd, false, &cs, STR ("\x93\xfa"), 0x65E6)
      && !memo_check (cd, false, &cs, STR ("\x93"), 0x65E5),
      "the check: the value, and the whole character");
  iconv_close (cd);
#if defined __GLIBC__
  /* glibc's WCHAR_T is UCS-4 in the machine's order, which the probe
     reads where it reads the sentinel so (iconv_bridge.c).  */
  cd = iconv_open ("WCHAR_T", "SHIFT_JIS");
  ok (cd != (iconv_t) -1
      && memo_check (cd, true, &cs, STR ("\x93\xfa"), 0x65E5)
      && !memo_check (cd, true, &cs, STR ("\x93\xfa"), 0x65E6)
      && !memo_check (cd, true, &cs, STR ("\x93"), 0x65E5)
      && memo_check (cd, false, &cs, STR ("\x93\xfa"), 0x65E5)
         == (memcmp (&(uint32_t) { 1 }, "\1\0\0", 4) == 0),
      "the check through WCHAR_T: values in the machine's order (read "
      "as UTF-32LE, right only on a little-endian machine)");
  if (cd != (iconv_t) -1)
    iconv_close (cd);
#endif

  /* A sequence consumed without a value that changes nothing the memos
     know keeps them: ISO-2022-KR's header; in ISO-2022-CN, glibc reads
     SO as GB2312 until told otherwise, so ESC $ ) A keeps them and
     ESC $ ) G (CNS 11643 plane 1) changes what SO reads.  */
  {
    struct shift_track t;
    struct memo m = { NULL, 0, 0 };
    bool kr, cn;
    memset (&t, 0, sizeof t);
    memset (&cs, 0, sizeof cs);
    kr = shift_note (&t, &m, &cs, "ISO-2022-KR", STR ("\x1b$)C"), 0);
    shift_free (&t);
    memset (&t, 0, sizeof t);
    memset (&cs, 0, sizeof cs);
    cn = shift_note (&t, &m, &cs, "ISO-2022-CN", STR ("\x1b$)G"), 0);
    shift_free (&t);
    ok (kr && !cn, "ISO-2022-KR's header ESC $ ) C keeps the memo; "
        "ISO-2022-CN's ESC $ ) G does not");
  }
}

/* memo_learn_around, after the first sight of the character S[0..LEN)
   of the charset NAME: every character of its length that differs in
   the last byte and that the memo now reads is what iconv(3) makes of
   it alone; and at least WANT of them are read.  */
static void
test_learn_around (char const *name, uint8_t const *s, size_t len,
                   size_t want)
{
  struct memo_charset cs;
  struct memo m = { NULL, 0, 0 };
  struct decoder d;
  ucs4_t cp[8];
  int64_t off[8];
  uint8_t nb[8], u[MEMO_DEPTH], out[4 * PIVOT_MIN_ROOM];
  struct pivot p = { cp, off, nb, 0, 8 };
  iconv_t cd = iconv_open ("UTF-32LE", name), probe;
  size_t known = 0, wrong = 0, used, bytes, last;
  unsigned int t;
  int err;

  memset (&cs, 0, sizeof cs);
  memset (&d, 0, sizeof d);
  shift_probe_charset (&cs, name);
  probe = iconv_open ("UTF-32LE", name);
  bytes = bridge_convert (cd, s, len, out, sizeof out, &used, &err);
  memo_note (&m, s, len, get32le (out));
  memo_learn_around (&m, probe, false, &cs, s, len);
  memcpy (u, s, len);
  for (t = 0; t < 256; t++)
    {
      u[len - 1] = (uint8_t) t;
      p.len = 0;
      if (memo_decode (&m, &d, u, len, 0, &p, 1, &last) == 0)
        continue;
      known++;
      iconv (cd, NULL, NULL, NULL, NULL);
      bytes = bridge_convert (cd, u, len, out, sizeof out, &used, &err);
      if (p.len != 1 || err != 0 || used != len || bytes != 4
          || get32le (out) != cp[0] || off[0] != 0 || nb[0] != len)
        wrong++, diag ("%s: %s read as U+%04X", name, hex (u, len),
                       (unsigned int) cp[0]);
    }
  ok (wrong == 0 && known >= want && cs.suits,
      "%s: the characters learnt around %s are iconv(3)'s (%zu of them)",
      name, hex (s, len), known);
  memo_free (&m);
  iconv_close (probe);
  iconv_close (cd);
}

/* The charsets the tests below need from iconv(3).  */
/* Decode the text IN of NAME (a form read in runs: UTF-7) to UTF-8
   through iconv_bridge_decode_utf8 alone, with a few bytes more room
   than a run needs in each call, CAP of them from 32 on: runs stop
   inside base64, whose letters after them are base64 still, not text
   to read without iconv(3) (iconv_units.h's RUN_ENDS); the text after
   a '-' or a space is.  */
static void
test_runs_utf8 (char const *name, char const *in1, char const *want1)
{
  enum { TIMES = 64 };          /* Enough for the probe of the runs.  */
  struct codec const *c = lookup (name);
  size_t n, cap, bad = 0, k;
  char *in = xmalloc (TIMES * strlen (in1) + 1);
  char *want = xmalloc (TIMES * strlen (want1) + 1);
  in[0] = want[0] = 0;
  for (k = 0; k < TIMES; k++)
    {
      strcat (in, in1);
      strcat (want, want1);
    }
  n = strlen (in);
  for (cap = 4 * PIVOT_MIN_ROOM; cap < 4 * PIVOT_MIN_ROOM + 24; cap++)
    {
      struct decoder d;
      uint8_t out[TIMES * 128];
      size_t i = 0, o = 0;
      decoder_init (&d, c);
      while (i < n && o + cap <= sizeof out)
        {
          size_t produced, used;
          uint64_t nl;
          used = iconv_bridge_decode_utf8 (&d, (uint8_t const *) in + i,
                                           n - i, out + o, cap, &produced,
                                           &nl);
          if (used == 0)
            break;
          i += used;
          o += produced;
        }
      if (i != n || o != strlen (want) || memcmp (out, want, o) != 0)
        bad = bad ? bad : cap;
      decoder_release (&d);
    }
  ok (bad == 0, "%s: runs with little room (first wrong: %zu bytes)", name,
      bad);
  free (in);
  free (want);
}

/* Encode the text IN (UTF-8) to NAME (a form encoded in runs: UTF-7)
   through iconv_bridge_encode_utf8 alone, then the flush, with CAP
   bytes of room from 32 on in each call, against iconv(3) in one call:
   runs stop inside base64, after which the characters that are their
   own bytes are not (RUN_ENDS, enc_base).  */
static void
test_runs_encode_utf8 (char const *name, char const *in1)
{
  enum { TIMES = 64 };
  struct codec const *c = lookup (name);
  iconv_t cd = iconv_open (name, "UTF-8");
  size_t n, cap, bad = 0, k, wn;
  char *in = xmalloc (TIMES * strlen (in1) + 1);
  char *want = xmalloc (8 * TIMES * strlen (in1) + 64);
  ICONV_CONST char *ip = in;
  char *op = want;
  size_t il, ol = 8 * TIMES * strlen (in1) + 64;
  in[0] = 0;
  for (k = 0; k < TIMES; k++)
    strcat (in, in1);
  n = il = strlen (in);
  iconv (cd, &ip, &il, &op, &ol);
  iconv (cd, NULL, NULL, &op, &ol);
  iconv_close (cd);
  wn = (size_t) (op - want);
  for (cap = 32; cap < 56; cap++)
    {
      struct encoder e;
      uint8_t *out = xmalloc (wn + 64);
      size_t i = 0, o = 0;
      encoder_init (&e, c);
      while (i < n && o + cap <= wn + 64)
        {
          size_t used, w = 0;
          uint64_t nl;
          used = iconv_bridge_encode_utf8 (&e, (uint8_t const *) in + i,
                                           n - i, out + o, &w, cap, &nl);
          if (used == 0)
            break;
          i += used;
          o += w;
        }
      o += c->flush (&e, out + o);
      if (i != n || o != wn || memcmp (out, want, o) != 0)
        bad = bad ? bad : cap;
      encoder_release (&e);
      free (out);
    }
  ok (bad == 0, "%s: encoding runs with little room (first wrong: %zu "
      "bytes)", name, bad);
  free (in);
  free (want);
}

static char const *const needed[] = {
  "SHIFT_JIS", "ISO-2022-JP", "CP1258", "CP1255", "UTF-7",
  "ISO-2022-CN-EXT", "EUC-JP", "GB18030", "BIG5", "EUC-KR", "CP949",
  "KOI8-R", "SHIFT_JISX0213", "IBM930", "TSCII", "IBM933", "IBM1390",
  "ISO-2022-KR", "ISO-2022-CN"
};

int
main (void)
{
  /* Shift_JIS: "a日" 80 (invalid) "本" then a truncated lead byte.  */
  static uint8_t const sjis[] = { 'a', 0x93, 0xFA, 0x80, 0x96, 0x7B, 0x93 };
  static long const sjis_v[] = { 'a', 0x65E5, 0x672C };
  static int64_t const sjis_o[] = { 0, 1, 4 };
  /* ISO-2022-JP: "a" ESC $ B "日本" ESC ( B "b": the shift sequences
     belong to the next character.  */
  static uint8_t const jis[] = { 'a', 0x1B, '$', 'B', 0x46, 0x7C, 0x4B,
                                 0x5C, 0x1B, '(', 'B', 'b' };
  static long const jis_v[] = { 'a', 0x65E5, 0x672C, 'b' };
  static int64_t const jis_o[] = { 0, 1, 6, 8 };
  struct codec const *c;

  if (!iconv_has_all (needed, sizeof needed / sizeof needed[0]))
    {
      char const *complete = getenv ("UTF8CONV_ICONV_COMPLETE");
      return complete && strcmp (complete, "yes") == 0;
    }
  test_split ("SHIFT_JIS", sjis, sizeof sjis, sjis_v, sjis_o, 3,
              "3:1:6 6:1:2 ");
  test_split ("ISO-2022-JP", jis, sizeof jis, jis_v, jis_o, 4, "");

  /* glibc's CP1258 holds each letter back (a tone mark may follow), and
     CP1255 each Hebrew letter (a point may follow): at an error the
     held letter comes first, and is not composed with a mark after the
     error.  */
  test_order ("CP1258", STR ("abc\x81"), "61 62 63 !81",
              "a held letter comes out before the error");
  test_order ("CP1258", STR ("A\x81\x81" "B"), "41 !81 !81 42",
              "errors in a row, the letters in order");
  test_order ("CP1255", STR ("\xfa\xfb"), "5EA !FB",
              "a held letter at the end, before the error");
  test_order ("CP1255", STR ("\xf9\xd1"), "FB2A",
              "shin and shin dot compose");
  test_order ("CP1255", STR ("\xf9\xfb\xd1"), "5E9 !FB 5C1",
              "but not across an error");
  /* ISO-2022-JP: after ESC $ B, invalid bytes, then more kanji, which
     still decode as kanji; UTF-7 stays in base64 after an error.  */
  test_order ("ISO-2022-JP", STR ("a\x1b$BF|\x80\x80K\\\x1b(Bb"),
              "61 65E5 !80 !80 672C 62", "the shift state survives errors");
  test_order ("UTF-7", STR ("+ZeV\x80nLA-"), "65E5 !80 672C",
              "base64 survives an error");
  /* U+65E5 U+672C three times, between text.  */
  test_runs_utf8 ("UTF-7", "abc +ZeVnLGXlZyxl5Wcs-and then some text, "
                  "long enough.\n+ZeVnLGXlZyxl5Wcs text\n",
                  "abc \346\227\245\346\234\254\346\227\245\346\234\254"
                  "\346\227\245\346\234\254and then some text, long enough.\n"
                  "\346\227\245\346\234\254\346\227\245\346\234\254"
                  "\346\227\245\346\234\254 text\n");
  if (iconv_bridge_opens ("UTF-32LE", "UTF-7-IMAP"))
    test_runs_utf8 ("UTF-7-IMAP", "abc &ZeVnLGXlZyxl5Wcs-and then some "
                    "text, long enough. &ZeVnLGXlZyxl5Wcs- text",
                    "abc \346\227\245\346\234\254\346\227\245\346\234\254"
                    "\346\227\245\346\234\254and then some text, long enough. "
                    "\346\227\245\346\234\254\346\227\245\346\234\254"
                    "\346\227\245\346\234\254 text");
  else
    diag ("no UTF-7-IMAP in this iconv(3): its runs are not tried");
  test_runs_encode_utf8 ("UTF-7", "abc caf\303\251 \346\227\245\346\234\254"
                         "\350\252\236 and then some plain words to read, "
                         "long enough.\n");
  if (iconv_bridge_opens ("UTF-7-IMAP", "UTF-32LE"))
    test_runs_encode_utf8 ("UTF-7-IMAP", "abc caf\303\251 \346\227\245"
                           "\346\234\254\350\252\236 and then some plain "
                           "words to read, long enough. ");
  /* glibc's ISO-2022-CN-EXT consumes a SO that no designation came
     before, then blames the next byte: the error is where it says, or
     the SO itself at the end of the input.  */
  test_order ("ISO-2022-CN-EXT", STR ("a\x0e" "b"), "61 !62",
              "the byte iconv(3) blames");
  test_order ("ISO-2022-CN-EXT", STR ("a\x0e"), "61 !0E",
              "the blamed byte at the end of the input");
  /* Shown ESC SO as its shortest prefix, it writes the ESC and blames
     the byte after the SO in the same call: that byte is the error
     still, not the start of the next character (fuzz_bridge's finding,
     tests/README: a '.' came out where iconv(3) gives U+FFFD).  */
  test_order ("ISO-2022-CN-EXT",
              STR ("\x1b\x0e\x0e\x0e.\x0e\x0e\x0e" "deW\x1c"),
              "1B !0E !2E !0E !64 65 57 1C",
              "a byte blamed by a call that also gave a value");
  test_order ("ISO-2022-CN-EXT", STR ("\x1b\x0e"), "1B !0E",
              "a byte blamed after a value, at the end of the input");
  /* TSCII gives out the letter it holds (A6) at the illegal byte A0
     and consumes nothing: no byte before it is blamed (UBSan found
     the bridge reading one).  */
  test_order ("TSCII", STR ("\xa6\xa0"), "BC6 !A0",
              "a held letter given out at an illegal byte");

  /* The memo: stateless code pages of one to four bytes a character,
     and one of one byte.  */
  {
    static ucs4_t const ja[] = {
      0x65E5, 0x672C, 0x8A9E, 0x306E, 0x30C6, 0x30AD, 0x30B9, 0x30C8,
      0x3001, 0x30AB, 0x30BF, 0x30AB, 0x30CA, 0x3068, 0x3072, 0x3089,
      0x304C, 0x306A, 0x3002, 0xFF21, 0xFF22, 0x534A, 0x89D2, 0xFF76,
      0xFF80, 0xFF85, 0x20, 'a', 'b', 'c', 0x20, '1', '2', '3'
    };
    static ucs4_t const zh_cn[] = {
      0x4E2D, 0x6587, 0x6587, 0x672C, 0xFF0C, 0x6C49, 0x5B57, 0x4E0E,
      0x6807, 0x70B9, 0x3002, 0x20AC, 0xE9, 0xC0, 0x1F600, 0x20, 'a'
    };
    static ucs4_t const zh_tw[] = {
      0x4E2D, 0x6587, 0x7E41, 0x9AD4, 0x5B57, 0x8207, 0x6A19, 0x9EDE,
      0x3002, 0x20, 'x', 'y'
    };
    static ucs4_t const ko[] = {
      0xD55C, 0xAD6D, 0xC5B4, 0x20, 0xD14D, 0xC2A4, 0xD2B8, 0xC785,
      0xB2C8, 0xB2E4, 0x2E, 0xB620
    };
    static ucs4_t const ru[] = {
      0x41F, 0x440, 0x438, 0x432, 0x435, 0x442, 0x2C, 0x20, 0x43C, 0x438,
      0x440
    };
    test_memo ("SHIFT_JIS", ja, COUNT (ja), 0x4E00, 0x9FA5, 0x93);
    test_memo ("EUC-JP", ja, COUNT (ja), 0x4E00, 0x9FA5, 0xA4);
    /* GB18030's four-byte characters: CJK Extension A.  */
    test_memo ("GB18030", zh_cn, COUNT (zh_cn), 0x3400, 0x4DB5, 0x81);
    test_memo ("BIG5", zh_tw, COUNT (zh_tw), 0x4E00, 0x9FA5, 0xA4);
    test_memo ("EUC-KR", ko, COUNT (ko), 0xAC00, 0xD7A3, 0xB0);
    test_memo ("CP949", ko, COUNT (ko), 0xAC00, 0xD7A3, 0xB0);
    test_memo ("KOI8-R", ru, COUNT (ru), 0x410, 0x44F, 0xC1);
    /* SO and SI between the kanji and the rest; 44 begins a pair after
       SO, and is a letter before it.  */
    test_memo ("IBM930", ja, COUNT (ja), 0x4E00, 0x9FA5, 0x44);
    test_memo ("IBM933", ko, COUNT (ko), 0xAC00, 0xD7A3, 0x88);
    test_memo ("IBM1390", ja, COUNT (ja), 0x4E00, 0x9FA5, 0xEC);
  }
  test_memo_probes ();
  /* The character seen is not read yet (seen once); the others around
     it are: BIG5's A4 A2-FE (learning stops at the gap below A4 A1,
     before A4 40-7E), GB18030's four-byte 81 30 81 31-39, EUC-JP's
     three-byte 8F B0 A2-FE (JIS X 0212), SHIFT_JIS's 93 40-FC but 93
     7F and 93 FA.  */
  test_learn_around ("BIG5", STR ("\xa4\xa1"), 93);
  test_learn_around ("GB18030", STR ("\x81\x30\x81\x30"), 9);
  test_learn_around ("EUC-JP", STR ("\x8f\xb0\xa1"), 93);
  test_learn_around ("SHIFT_JIS", STR ("\x93\xfa"), 187);
  /* A decoder that shows state stops using its memo: ASCII after
     ESC $ B is kanji (0x61 0x61 is U+7601, and the memo knows "a" by
     the second kanji), and letters after a held one come out in
     order.  */
  test_order ("ISO-2022-JP", STR ("aaaa\x1b$Baaaa\x1b(Baa"),
              "61 61 61 61 7601 7601 61 61", "the same bytes after a shift");
  test_order ("SHIFT_JISX0213",
              STR ("aaa\x82\xa9\x82\xa9" "a\x82\xa9\x80" "a"),
              "61 61 61 304B 304B 61 304B !80 61",
              "a letter held back, after the memo has learned");

  /* A single-byte charset is a table now (test_iconv_table.c).  */
  c = lookup ("SHIFT_JIS");
  ok (strcmp (c->name, "SHIFT_JIS") == 0 && (c->flags & CODEC_STATEFUL)
      && !(c->flags & CODEC_UNICODE) && lookup ("shift_jis") == c,
      "a bridged codec: uppercased name, legacy, made once");
  ok (registry_find ("KOI8-R") == NULL && registry_lookup ("NO-SUCH") == NULL
      && registry_lookup ("") == NULL,
      "registry_find knows only the built-ins; unknown names are NULL");

  /* Encoding: one value per call; the unencodable one is named; the
     flush writes the shift reset.  */
  {
    struct encoder e;
    ucs4_t const text[] = { 'a', 0x65E5, 0x20AC };
    uint8_t out[64];
    size_t n = 3, len = 0;
    enum encode_status st;
    c = lookup ("ISO-2022-JP");
    encoder_init (&e, c);
    st = c->encode (&e, text, &n, out, &len, sizeof out);
    len += c->flush (&e, out + len);
    encoder_release (&e);
    ok (st == ENCODE_UNENCODABLE && n == 2 && len == 9
        && memcmp (out, "a\x1b$BF|\x1b(B", 9) == 0,
        "ISO-2022-JP: stops at U+20AC; the flush returns to ASCII");
  }
  {
    struct encoder e;
    ucs4_t const text[] = { 0xD800 };
    uint8_t out[64];
    size_t n = 1, len = 0;
    c = lookup ("UTF-7");
    encoder_init (&e, c);
    ok (c->encode (&e, text, &n, out, &len, sizeof out) == ENCODE_UNENCODABLE
        && n == 0 && len == 0 && (c->flags & CODEC_UNICODE),
        "UTF-7: a Unicode form; a lone surrogate is never encodable");
    encoder_release (&e);
  }
  return done_testing ();
}
