/* The iconv(3) bridge and tables against iconv(3) itself (SPEC §4, §10,
   §14), both ways.

   For every charset that `iconv --list' names and that iconv(3) opens in
   both directions, random inputs with invalid bytes in them go through
   the pipeline, to UTF-8, under each of the five policies, and the
   output must be what a model built on iconv(3), called directly on the
   same bytes, gives.

   The model (iconv_model.h) converts the whole input with one iconv_t
   and one call, which stops at an error.  Some inputs go to UTF-16LE and
   UTF-16BE too, where the model's output is made UTF-16.

   The inputs are built per charset from a fixed seed: random text (from
   a pool of scripts, and from what random bytes decode to in that
   charset) encoded by iconv(3), so that shift sequences and characters
   held back occur, with bytes inserted that are often invalid; and
   plain random bytes; and inputs made of some of them, each twice, so
   that characters repeat.

   The other way, random UTF-8 text, mostly of characters the charset
   holds, goes from UTF-8 to it under each policy, and must be what
   iconv(3) gives from UTF-8 with the policy applied at each character
   it cannot encode (iconv_model.h); again with texts that repeat, at
   one buffer and at a small block size; and some of them from UTF-16LE
   and UTF-16BE.

   One buffer and block size 3 take the fast paths, as utf8conv does
   (fast.c: the tables' kernels, the memos' paths, UTF-7's runs); block
   sizes 1 and 2 the state machines alone.  */

#include <config.h>

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codecs/iconv_bridge.h"
#include "codecs/iconv_memo.h"
#include "helpers.h"
#include "iconv_model.h"
#include "tap.h"

#ifndef ICONV_CONST
# define ICONV_CONST
#endif

enum
{
  MAX_INPUT = 2048,             /* Bytes of one input.  */
  SAMPLE = 512,                 /* Values a charset's random bytes give.  */
  POLICIES = 5,
  INPUTS = 20,                  /* Inputs per charset.  */
  ENC_INPUTS = 6,               /* Texts to encode per charset.  */
  SHOWN = 8                     /* Mismatches described in full.  */
};

static int in_fd;

static enum policy const policies[POLICIES] = {
  POLICY_STRICT, POLICY_REPLACE, POLICY_ESCAPE, POLICY_SURROGATEESCAPE,
  POLICY_IGNORE
};

/* ------------------------------------------------------------------ */
/* The inputs.  */

/* Ranges of code points for random text: scripts, marks that compose
   (Hebrew points, Vietnamese tones, kana's handakuten), symbols.  */
static ucs4_t const pool[][2] = {
  { 0x20, 0x7E }, { 0x0A, 0x0A }, { 0xA0, 0xFF }, { 0x100, 0x17F },
  { 0x300, 0x309 }, { 0x323, 0x323 }, { 0x391, 0x3C9 }, { 0x401, 0x44F },
  { 0x5B0, 0x5C4 }, { 0x5D0, 0x5EA }, { 0x621, 0x64A }, { 0x905, 0x94D },
  { 0xB85, 0xBCD }, { 0xE01, 0xE3A }, { 0x1EA0, 0x1EF9 },
  { 0x2018, 0x201E }, { 0x20AC, 0x20AC }, { 0x2500, 0x254B },
  { 0x3041, 0x3093 }, { 0x309A, 0x309A }, { 0x30A1, 0x30F6 },
  { 0x4E00, 0x4FFF }, { 0xAC00, 0xAC40 }, { 0xFF01, 0xFF5E },
  { 0xFF61, 0xFF9F }, { 0x2E5, 0x2E9 }, { 0x1F600, 0x1F64F }
};

/* Bytes to insert: often invalid, or the start of something.  */
static uint8_t const inserts[] = {
  0x80, 0x81, 0x8D, 0x8E, 0x8F, 0x90, 0x9D, 0xA0, 0xC0, 0xFB, 0xFE, 0xFF,
  0x1B, 0x0E, 0x0F, 0x2B, 0x00, 0xD1
};

/* What the inputs of a charset are made of.  */
struct material
{
  ucs4_t sample[SAMPLE];        /* Values its characters decode to.  */
  size_t nsample;
  uint8_t bad[256];             /* Bytes that are illegal on their own.  */
  size_t nbad;
};

/* Fill M for the charset NAME from what random bytes decode to.  */
static void
sample_values (char const *name, struct material *m)
{
  iconv_t cd = iconv_open ("UTF-32LE", name);
  size_t count = 0, t;
  m->nbad = 0;
  for (t = 0; t < 256 + 400 && count < SAMPLE; t++)
    {
      uint8_t in[4], out[64];
      size_t len = t < 256 ? 1 : 2 + rng () % 3, k;
      ICONV_CONST char *ip = (ICONV_CONST char *) in;
      char *op = (char *) out;
      size_t il = len, ol = sizeof out;
      in[0] = (uint8_t) (t < 256 ? t : 0x80 | rng ());
      for (k = 1; k < len; k++)
        in[k] = (uint8_t) rng ();
      iconv (cd, NULL, NULL, NULL, NULL);
      if (iconv (cd, &ip, &il, &op, &ol) == (size_t) -1)
        {
          if (errno == EILSEQ && len == 1)
            m->bad[m->nbad++] = in[0];
          continue;
        }
      iconv (cd, NULL, NULL, &op, &ol);
      for (k = 0; k + 4 <= sizeof out - ol && count < SAMPLE; k += 4)
        m->sample[count++] = (out[k] | (ucs4_t) out[k + 1] << 8
                              | (ucs4_t) out[k + 2] << 16
                              | (ucs4_t) out[k + 3] << 24);
    }
  iconv_close (cd);
  m->nsample = count;
}

/* Random text in NAME, made of M, with bytes inserted, into IN; its
   length.  */
static size_t
make_text (char const *name, struct material const *m, uint8_t *in)
{
  iconv_t cd = iconv_open (name, "UTF-32LE");
  uint8_t text[MAX_INPUT];
  size_t len = 0, n, chars, k, at;
  char *op;

  for (chars = 0; chars < 24 && len + 32 < sizeof text; chars++)
    {
      uint8_t u[4];
      ICONV_CONST char *ip = (ICONV_CONST char *) u;
      size_t il = 4, ol = sizeof text - len;
      ucs4_t c;
      if (m->nsample > 0 && rng () % 2)
        c = m->sample[rng () % m->nsample];
      else
        {
          ucs4_t const *r = pool[rng () % COUNT (pool)];
          c = r[0] + rng () % (r[1] - r[0] + 1);
        }
      u[0] = (uint8_t) c, u[1] = (uint8_t) (c >> 8);
      u[2] = (uint8_t) (c >> 16), u[3] = (uint8_t) (c >> 24);
      op = (char *) text + len;
      /* A character NAME cannot hold is left out.  */
      if (iconv (cd, &ip, &il, &op, &ol) != (size_t) -1)
        len = (size_t) ((uint8_t *) op - text);
    }
  op = (char *) text + len;
  {
    size_t ol = sizeof text - len;
    iconv (cd, NULL, NULL, &op, &ol);
    len = (size_t) ((uint8_t *) op - text);
  }
  iconv_close (cd);

  /* TEXT with 1 to 4 bytes inserted at random places.  */
  memcpy (in, text, len);
  n = len;
  for (k = 1 + rng () % 4; k > 0; k--)
    {
      at = rng () % (n + 1);
      memmove (in + at + 1, in + at, n - at);
      if (m->nbad > 0 && rng () % 2)
        in[at] = m->bad[rng () % m->nbad];
      else
        in[at] = (rng () % 4 ? inserts[rng () % COUNT (inserts)]
                  : (uint8_t) rng ());
      n++;
    }
  return n;
}

/* Append the value C to OUT[*LEN] as UTF-8.  */
static void
put_utf8 (uint8_t *out, size_t *len, ucs4_t c)
{
  uint8_t *o = out + *len;
  if (c < 0x80)
    o[0] = (uint8_t) c, *len += 1;
  else if (c < 0x800)
    o[0] = (uint8_t) (0xC0 | c >> 6), o[1] = (uint8_t) (0x80 | (c & 0x3F)),
      *len += 2;
  else if (c < 0x10000)
    o[0] = (uint8_t) (0xE0 | c >> 12),
      o[1] = (uint8_t) (0x80 | (c >> 6 & 0x3F)),
      o[2] = (uint8_t) (0x80 | (c & 0x3F)), *len += 3;
  else
    o[0] = (uint8_t) (0xF0 | c >> 18),
      o[1] = (uint8_t) (0x80 | (c >> 12 & 0x3F)),
      o[2] = (uint8_t) (0x80 | (c >> 6 & 0x3F)),
      o[3] = (uint8_t) (0x80 | (c & 0x3F)), *len += 4;
}

/* Random UTF-8 text to encode, made of M and of the pool (so that some
   characters cannot be encoded), into IN; its length.  */
static size_t
make_utf8 (struct material const *m, uint8_t *in)
{
  size_t len = 0, chars;
  for (chars = 0; chars < 32; chars++)
    {
      ucs4_t c;
      if (m->nsample > 0 && rng () % 4 != 0)
        c = m->sample[rng () % m->nsample];
      else
        {
          ucs4_t const *r = pool[rng () % COUNT (pool)];
          c = r[0] + rng () % (r[1] - r[0] + 1);
        }
      /* Well-formed text, without a signature.  */
      if ((0xD800 <= c && c < 0xE000) || c == 0xFEFF || 0x10FFFF < c)
        continue;
      put_utf8 (in, &len, c);
    }
  return len;
}

/* ------------------------------------------------------------------ */
/* The comparison.  */

struct tally
{
  size_t charsets, skipped, compared[POLICIES], failed[POLICIES], shown;
  size_t enc_compared[POLICIES], enc_failed[POLICIES];
};

static char const *const result_names[] = {
  "FILE_OK", "FILE_DROPPED", "FILE_STOPPED", "FILE_READ_ERROR",
  "FILE_WRITE_ERROR"
};

/* Compare the pipeline and the model on IN[0..N) of the codec C, NAME,
   under every policy, with the block size BS; into UTF-8 (FORM 0), or
   UTF-16LE (1) or UTF-16BE (2), where the model's output is made so.  */
static void
compare_to (struct tally *t, struct codec const *c, char const *name,
            uint8_t const *in, size_t n, size_t bs, unsigned int form)
{
  static char const *const to[] = { "", " to UTF-16LE", " to UTF-16BE" };
  size_t k;
  iconv_model_fast_paths (bs != 1 && bs != 2);
  for (k = 0; k < POLICIES; k++)
    {
      struct sb want, got;
      enum file_result want_res, got_res;
      /* The model's UTF-8 under surrogateescape does not say which of its
         bytes were escaped (D6 90 may be two, or U+0590): not to UTF-16,
         whose units do.  */
      if (form != 0 && policies[k] == POLICY_SURROGATEESCAPE)
        continue;
      want_res = iconv_model_run (name, policies[k], in, n, &want);
      got_res
        = (form == 0
           ? iconv_pipeline_run (in_fd, c, policies[k], in, n, bs, &got)
           : iconv_pipeline_run_utf16 (in_fd, c, form == 2, policies[k],
                                       in, n, bs, &got));
      if (form != 0)
        iconv_model_utf16 (&want, form == 2);
      t->compared[k]++;
      if (got_res != want_res || got.len != want.len
          || memcmp (got.s, want.s, got.len) != 0)
        {
          t->failed[k]++;
          if (t->shown++ < SHOWN)
            diag ("%s%s, %s, block size %zu, input (%zu) %s\n"
                  "got  %s %s\nwant %s %s", name, to[form],
                  policy_name (policies[k]), bs, n, hex (in, n),
                  hex ((uint8_t const *) got.s, got.len),
                  result_names[got_res],
                  hex ((uint8_t const *) want.s, want.len),
                  result_names[want_res]);
        }
      sb_free (&got);
      sb_free (&want);
    }
}

static void
compare (struct tally *t, struct codec const *c, char const *name,
         uint8_t const *in, size_t n, size_t bs)
{
  compare_to (t, c, name, in, n, bs, 0);
}

/* Compare the pipeline and the model encoding the UTF-8 text IN[0..N)
   to the codec C, NAME, under every policy, with the block size BS;
   from UTF-8 (FORM 0), or from the same text made UTF-16LE (1) or
   UTF-16BE (2), whose output is the same.  */
static void
compare_encode_from (struct tally *t, struct codec const *c,
                     char const *name, uint8_t const *in, size_t n, size_t bs,
                     unsigned int form)
{
  static char const *const from[] = { "", " from UTF-16LE",
                                      " from UTF-16BE" };
  size_t k;
  iconv_model_fast_paths (bs != 1 && bs != 2);
  for (k = 0; k < POLICIES; k++)
    {
      struct sb want, got;
      enum file_result want_res
        = iconv_model_encode (name, c->flags, policies[k], in, n, &want);
      enum file_result got_res
        = (form == 0
           ? iconv_pipeline_encode (in_fd, c, policies[k], in, n, bs, &got)
           : iconv_pipeline_encode_utf16 (in_fd, c, form == 2, policies[k],
                                          in, n, bs, &got));
      t->enc_compared[k]++;
      if (got_res != want_res || got.len != want.len
          || memcmp (got.s, want.s, got.len) != 0)
        {
          t->enc_failed[k]++;
          if (t->shown++ < SHOWN)
            diag ("to %s%s, %s, block size %zu, input (%zu) %s\n"
                  "got  %s %s\nwant %s %s", name, from[form],
                  policy_name (policies[k]), bs, n, hex (in, n),
                  hex ((uint8_t const *) got.s, got.len),
                  result_names[got_res],
                  hex ((uint8_t const *) want.s, want.len),
                  result_names[want_res]);
        }
      sb_free (&got);
      sb_free (&want);
    }
}

static void
compare_encode (struct tally *t, struct codec const *c, char const *name,
                uint8_t const *in, size_t n, size_t bs)
{
  compare_encode_from (t, c, name, in, n, bs, 0);
}

/* The sequences of two characters that JIS X 0213 encodes as one,
   which glibc's IBM1390 and IBM1399 compose only when one call gives
   both (iconv_compose.h), and others of the same characters: a first
   with a mark it does not take, two marks, a mark alone.  */
static ucs4_t const pairs[][2] = {
  { 0x00E6, 0x0300 }, { 0x0254, 0x0300 }, { 0x0254, 0x0301 },
  { 0x0259, 0x0300 }, { 0x0259, 0x0301 }, { 0x025A, 0x0300 },
  { 0x025A, 0x0301 }, { 0x028C, 0x0300 }, { 0x028C, 0x0301 },
  { 0x02E5, 0x02E9 }, { 0x02E9, 0x02E5 }, { 0x304B, 0x309A },
  { 0x304D, 0x309A }, { 0x304F, 0x309A }, { 0x3051, 0x309A },
  { 0x3053, 0x309A }, { 0x30AB, 0x309A }, { 0x30AD, 0x309A },
  { 0x30AF, 0x309A }, { 0x30B1, 0x309A }, { 0x30B3, 0x309A },
  { 0x30BB, 0x309A }, { 0x30C4, 0x309A }, { 0x30C8, 0x309A },
  { 0x31F7, 0x309A }, { 0x304B, 0x0301 }, { 0x00E6, 0x309A },
  { 0x02E5, 0x02E5 }, { 0x309A, 0x309A }, { 0x304B, 0x304B }
};

/* UTF-8 text of those pairs and of characters of M into IN, the pairs
   often one after the other and a first of one last; its length.  */
static size_t
make_pairs (struct material const *m, uint8_t *in)
{
  size_t len = 0, k;
  for (k = 0; k < 40; k++)
    {
      unsigned int r = rng () % 4;
      ucs4_t const *p = pairs[rng () % COUNT (pairs)];
      if (r == 0 && m->nsample > 0)
        {
          ucs4_t c = m->sample[rng () % m->nsample];
          if (!((0xD800 <= c && c < 0xE000) || c == 0xFEFF || 0x10FFFF < c))
            put_utf8 (in, &len, c);
        }
      else if (r == 1)
        put_utf8 (in, &len, 0x20 + rng () % 0x5F);
      put_utf8 (in, &len, p[0]);
      put_utf8 (in, &len, p[1]);
    }
  put_utf8 (in, &len, pairs[rng () % COUNT (pairs)][0]);
  return len;
}

/* The encoding direction of the test of NAME, whose codec is C: texts
   of its characters and others, then three of them each twice, since
   the encoders keep what they have learned (iconv_memo.h); and text of
   the pairs above, whole and at a block size that cuts them.  */
static void
test_encoder (struct tally *t, struct codec const *c, char const *name,
              struct material const *m)
{
  uint8_t in[MAX_INPUT], one[MAX_INPUT];
  size_t i, n = 0, len;
  for (i = 0; i < ENC_INPUTS; i += quick_step (ENC_INPUTS - 1))
    {
      len = make_utf8 (m, one);
      compare_encode (t, c, name, one, len, 65536);
      if (i == 0)
        {
          compare_encode (t, c, name, one, len, 1 + rng () % 7);
          /* From UTF-16: its own fast paths (fast_memo.c, fast_sb16.c,
             fast_via.c).  */
          compare_encode_from (t, c, name, one, len, 65536, 1);
          compare_encode_from (t, c, name, one, len, 1 + rng () % 7, 2);
        }
    }
  for (i = 0; i < 3; i++)
    {
      len = make_utf8 (m, one);
      memcpy (in + n, one, len);
      memcpy (in + n + len, one, len);
      n += 2 * len;
    }
  compare_encode (t, c, name, in, n, 65536);
  compare_encode (t, c, name, in, n, 1 + rng () % 7);
  compare_encode_from (t, c, name, in, n, 65536, 1 + rng () % 2);
  len = make_pairs (m, one);
  compare_encode (t, c, name, one, len, 65536);
  compare_encode (t, c, name, one, len, 1 + rng () % 5);
}

/* ------------------------------------------------------------------ */
/* The Unicode forms of fixed units, converted a run per iconv() call
   (iconv_units.c): runs longer than the one that learns the byte order,
   cut by byte order marks of either order, surrogates (UCS-2 rejects
   them, UTF-16 pairs them), an odd byte, and the end; at block sizes 1,
   2 and 3 too.  */

/* Append the N bytes of the value C, big-endian if BIG, to OUT[*LEN].  */
static void
put_unit (uint8_t *out, size_t *len, ucs4_t c, unsigned int n, bool big)
{
  unsigned int k;
  for (k = 0; k < n; k++)
    out[*len + k] = (uint8_t) (c >> 8 * (big ? n - 1 - k : k));
  *len += n;
}

/* Units of UNIT bytes in one byte order, many of them plain, with
   marks, surrogates and line breaks among them, into IN; its length.  */
static size_t
make_units (uint8_t *in, unsigned int unit, bool big, bool bom)
{
  static ucs4_t const odd[] = { 0xFEFF, 0xFFFE, 0xD800, 0xDC00, 0x0A,
                                0xFFFF, 0x10000, 0x1F600 };
  size_t len = 0, k;
  if (bom)
    put_unit (in, &len, 0xFEFF, unit, big);
  for (k = 0; len + 2 * unit + 1 < MAX_INPUT - 8; k++)
    {
      ucs4_t c = (k % 97 == 96 ? odd[rng () % COUNT (odd)]
                  : k % 3 ? 0x4E00 + rng () % 0x5000 : 0x20 + rng () % 0x5F);
      if (c > 0xFFFF && unit == 2)
        {
          put_unit (in, &len, 0xD800 + ((c - 0x10000) >> 10), 2, big);
          c = 0xDC00 + ((c - 0x10000) & 0x3FF);
        }
      put_unit (in, &len, c, unit, big);
    }
  if (rng () % 2)
    in[len++] = 0xD8;
  return len;
}

static void
test_units (struct tally *t)
{
  /* The names of 2-byte units, then those of 4-byte units.  */
  static char const *const names[] = {
    "UCS-2", "UCS-2LE", "UCS-2BE", "UNICODE", "UNICODELITTLE", "UNICODEBIG",
    "ISO-10646/UCS2", "CSUNICODE", "OSF00010100", "OSF00010101",
    "OSF00010102", "UTF-16", "UCS-4", "UCS-4LE", "UCS-4BE", "UTF-32"
  };
  size_t const first4 = 12;
  static size_t const sizes[] = { 65536, 1, 2, 3 };
  size_t k, i, s;

  rng_state = 19;
  for (k = 0; k < COUNT (names); k++)
    {
      struct codec const *c = iconv_bridge_find (names[k], false, NULL);
      unsigned int unit = k < first4 ? 2 : 4;
      if (!c)
        continue;
      for (i = 0; i < 4; i++)
        {
          uint8_t in[MAX_INPUT], u8[MAX_INPUT];
          size_t n = make_units (in, unit, i % 2, i >= 2), len = 0;
          for (s = 0; s < COUNT (sizes); s++)
            compare (t, c, names[k], in, n, sizes[s]);
          while (len + 8 < sizeof u8)
            put_utf8 (u8, &len, rng () % 50 == 0 ? 0x1F600
                      : rng () % 40 == 0 ? 0x0A : 0x4E00 + rng () % 0x5000);
          for (s = 0; s < COUNT (sizes); s++)
            compare_encode (t, c, names[k], u8, len, sizes[s]);
        }
    }
}

/* ------------------------------------------------------------------ */
/* The charsets of SO and SI, whose bridge keeps a memo per shift state
   (iconv_shift.c): text in which a few characters of each state repeat
   and shifts come often: SO and SI mid-buffer and twice in a row,
   characters of two bytes after SO and of one after SI, in the wrong
   state too, illegal pairs, pairs that give two values (IBM1390's and
   IBM1399's), any byte; twice over; with a lone SO, or SO and one byte,
   at the end; whole and at block sizes 1, 2 and 3.  */

/* The pieces of such text.  */
struct pieces
{
  uint8_t single[8], wide[12][2], odd[4][2];
  size_t nsingle, nwide, nodd;
};

/* What CD, from its initial state, makes of IN[0..N): the bytes used,
   and the values' bytes in *BYTES.  */
static size_t
convert_alone (iconv_t cd, uint8_t const *in, size_t n, size_t *bytes)
{
  uint8_t out[64];
  ICONV_CONST char *ip = (ICONV_CONST char *) in;
  char *op = (char *) out;
  size_t il = n, ol = sizeof out;
  iconv (cd, NULL, NULL, NULL, NULL);
  iconv (cd, &ip, &il, &op, &ol);
  *bytes = sizeof out - ol;
  return n - il;
}

/* Fill PC from what the decoder CD makes of single bytes, and of pairs
   after SO: characters of one value, and pairs that are illegal or give
   two values (row EC holds IBM1390's).  */
static void
find_pieces (iconv_t cd, struct pieces *pc)
{
  unsigned int j;
  size_t bytes;
  pc->nsingle = pc->nwide = pc->nodd = 0;
  for (j = 0x40; j < 0x100 && pc->nsingle < 8; j += 7)
    {
      uint8_t b = (uint8_t) j;
      if (convert_alone (cd, &b, 1, &bytes) == 1 && bytes == 4)
        pc->single[pc->nsingle++] = b;
    }
  for (j = 0; j < 600 && (pc->nwide < 12 || pc->nodd < 4); j++)
    {
      uint8_t in[3] = { 0x0E, (uint8_t) (j < 192 ? 0xEC : 0x40 + rng () % 0xBF),
                        (uint8_t) (j < 192 ? 0x40 + j : 0x40 + rng () % 0xBF) };
      size_t used = convert_alone (cd, in, 3, &bytes);
      if (used == 3 && bytes == 4 && pc->nwide < 12 && j >= 192)
        memcpy (pc->wide[pc->nwide++], in + 1, 2);
      else if (((used == 3 && bytes == 8) || (used == 1 && j >= 192))
               && pc->nodd < 4)
        memcpy (pc->odd[pc->nodd++], in + 1, 2);
    }
}

/* Text of the pieces PC into IN, about LEN bytes; its length.  */
static size_t
make_shifting (struct pieces const *pc, uint8_t *in, size_t len)
{
  size_t n = 0;
  bool wide = false;
  while (n + 4 < len)
    {
      unsigned int r = rng () % 24;
      if (r < 3 || r == 4)
        {
          in[n++] = 0x0E;
          if (r == 4)
            in[n++] = 0x0E;
          wide = true;
        }
      else if (r < 6)
        {
          in[n++] = 0x0F;
          if (r == 5)
            in[n++] = 0x0F;
          wide = false;
        }
      else if (r == 6 && pc->nodd > 0)
        {
          memcpy (in + n, pc->odd[rng () % pc->nodd], 2);
          n += 2;
        }
      else if (r == 7)
        in[n++] = (uint8_t) rng ();
      else if ((wide != (r == 8)) && pc->nwide > 0)
        {
          memcpy (in + n, pc->wide[rng () % pc->nwide], 2);
          n += 2;
        }
      else if (pc->nsingle > 0)
        in[n++] = pc->single[rng () % pc->nsingle];
    }
  return n;
}

/* The other way: UTF-8 text of the characters of PC, of both states,
   so that the encoder shifts often and they repeat, with some that
   NAME cannot encode, and the pairs of values its pieces give; whole
   and at block sizes 1, 2 and 3.  */
static void
test_shifting_encoder (struct tally *t, struct codec const *c,
                       char const *name, struct pieces const *pc)
{
  static size_t const sizes[] = { 65536, 1, 2, 3 };
  iconv_t cd = iconv_open ("UTF-32LE", name);
  ucs4_t v[20], two[4][2];
  size_t nv = 0, ntwo = 0, k, len = 0;
  uint8_t u8[MAX_INPUT];

  for (k = 0; k < pc->nsingle + pc->nwide; k++)
    {
      uint8_t in[3] = { 0x0E, 0, 0 }, out[64];
      ICONV_CONST char *ip = (ICONV_CONST char *) in;
      char *op = (char *) out;
      size_t il, ol = sizeof out;
      if (k < pc->nsingle)
        in[0] = pc->single[k], il = 1;
      else
        memcpy (in + 1, pc->wide[k - pc->nsingle], 2), il = 3;
      iconv (cd, NULL, NULL, NULL, NULL);
      if (iconv (cd, &ip, &il, &op, &ol) != (size_t) -1
          && sizeof out - ol == 4 && nv < COUNT (v))
        v[nv++] = out[0] | out[1] << 8 | (ucs4_t) out[2] << 16;
    }
  /* The pieces that give two values (IBM1390's kana and U+309A), which
     the encoder must give back as one.  */
  for (k = 0; k < pc->nodd; k++)
    {
      uint8_t in[3] = { 0x0E, pc->odd[k][0], pc->odd[k][1] }, out[64];
      ICONV_CONST char *ip = (ICONV_CONST char *) in;
      char *op = (char *) out;
      size_t il = 3, ol = sizeof out;
      iconv (cd, NULL, NULL, NULL, NULL);
      if (iconv (cd, &ip, &il, &op, &ol) != (size_t) -1
          && sizeof out - ol == 8)
        {
          two[ntwo][0] = out[0] | out[1] << 8 | (ucs4_t) out[2] << 16;
          two[ntwo++][1] = out[4] | out[5] << 8 | (ucs4_t) out[6] << 16;
        }
    }
  iconv_close (cd);
  while (nv > 0 && len + 8 < 600)
    if (ntwo > 0 && rng () % 6 == 0)
      {
        ucs4_t const *p = two[rng () % ntwo];
        put_utf8 (u8, &len, p[0]);
        put_utf8 (u8, &len, p[1]);
      }
    else
      put_utf8 (u8, &len, rng () % 40 == 0 ? 0x1F600 : v[rng () % nv]);
  for (k = 0; k < COUNT (sizes) && nv > 0; k++)
    compare_encode (t, c, name, u8, len, sizes[k]);
}

static void
test_shifting (struct tally *t)
{
  static char const *const names[] = {
    "IBM930", "IBM933", "IBM935", "IBM937", "IBM939", "IBM1364", "IBM1371",
    "IBM1388", "IBM1390", "IBM1399", "CP930", "CSIBM939"
  };
  static size_t const sizes[] = { 65536, 1, 2, 3 };
  size_t k, i, s;

  rng_state = 930;
  for (k = 0; k < COUNT (names); k += quick_step (3))
    {
      struct codec const *c = iconv_bridge_find (names[k], false, NULL);
      iconv_t cd = iconv_open ("UTF-32LE", names[k]);
      struct pieces pc;
      if (!c || cd == (iconv_t) -1)
        {
          if (cd != (iconv_t) -1)
            iconv_close (cd);
          continue;
        }
      find_pieces (cd, &pc);
      iconv_close (cd);
      for (i = 0; i < 4; i++)
        {
          uint8_t in[MAX_INPUT];
          size_t n = 0;
          if (i == 0 && pc.nwide > 0 && pc.nsingle > 2)
            {
              /* The memo's loop reads SO, a character, SI, then stops
                 at a single byte it does not know, which iconv(3) must
                 read after SI too.  */
              uint8_t const one[] = { pc.single[0], 0x0E, pc.wide[0][0],
                                      pc.wide[0][1], 0x0F, pc.single[1] };
              memcpy (in, one, sizeof one);
              memcpy (in + sizeof one, one, sizeof one);
              n = 2 * sizeof one;
              in[n++] = pc.single[2];
              in[n++] = 0x0E;
              in[n++] = pc.wide[0][0];
              in[n++] = pc.wide[0][1];
            }
          else
            n = make_shifting (&pc, in, 300);
          if (i >= 2)
            {
              /* Twice over, then a lone SO, or SO and one byte.  */
              memcpy (in + n, in, n);
              n *= 2;
              in[n++] = 0x0E;
              if (i == 3 && pc.nwide > 0)
                in[n++] = pc.wide[0][0];
            }
          for (s = 0; s < COUNT (sizes); s++)
            compare (t, c, names[k], in, n, sizes[s]);
        }
      test_shifting_encoder (t, c, names[k], &pc);
    }
}

/* Whether iconv(3) converts a character that the target charset lacks
   (é to ASCII) without an error: musl's writes '*' for it, glibc's and
   GNU libiconv's say EILSEQ.  */
static bool
iconv_substitutes (void)
{
  static int answer = -1;
  if (answer < 0)
    {
      iconv_t cd = iconv_open ("ASCII", "UTF-8");
      char in[] = "\xc3\xa9", out[8];
      char *ip = in, *op = out;
      size_t il = 2, ol = sizeof out;
      answer = 0;
      if (cd != (iconv_t) -1)
        {
          answer = iconv (cd, (ICONV_CONST char **) &ip, &il, &op, &ol)
                   != (size_t) -1;
          iconv_close (cd);
        }
    }
  return answer;
}

/* What test_ucs4 counts: the charsets whose decoder gives WCHAR_T a
   value outside Unicode's scalar values, and of them those that
   memo_ucs4_from would decode into WCHAR_T all the same.  */
struct outside
{
  size_t charsets, outside, wrong;
};

/* Whether CD (to WCHAR_T, UCS-4 in the machine's order) decodes some of
   IN[0..N), each byte it refuses skipped, to a surrogate or a value
   above U+10FFFF.  */
static bool
gives_outside (iconv_t cd, uint8_t const *in, size_t n)
{
  size_t i = 0;
  while (i < n)
    {
      uint32_t out[256];
      ICONV_CONST char *ip = (ICONV_CONST char *) (in + i);
      char *op = (char *) out;
      size_t il = n - i, ol = sizeof out, k;
      int err = iconv (cd, &ip, &il, &op, &ol) == (size_t) -1 ? errno : 0;
      for (k = 0; k < (sizeof out - ol) / 4; k++)
        if ((0xD800 <= out[k] && out[k] < 0xE000) || 0x10FFFF < out[k])
          return true;
      i = n - il;
      if (err == EILSEQ)
        i++;
      else if (err != E2BIG)
        break;
    }
  return false;
}

/* The check of memo_ucs4_from for one charset NAME (iconv_bridge_names'
   callback): random bytes decoded to WCHAR_T, a third of them any byte,
   a third half from the alphabets of UTF-7's base64 (and IMAP's), a
   third half from 80..BF.  */
static void
test_ucs4_charset (char const *name, void *arg)
{
  enum { THIRD = 1 << 14 };
  static uint8_t in[3 * THIRD];
  static char const b64[] = "+-&,ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                            "abcdefghijklmnopqrstuvwxyz0123456789/";
  struct outside *o = arg;
  iconv_t cd = iconv_open ("WCHAR_T", name);
  size_t k;

  if (cd == (iconv_t) -1)
    return;
  o->charsets++;
  rng_state = 12345;
  for (k = 0; k < sizeof in; k++)
    {
      uint32_t r = rng ();
      in[k] = (uint8_t) (r >> 8);
      if (r & 1 && THIRD <= k)
        in[k] = (k < 2 * THIRD ? (uint8_t) b64[(r >> 1) % (sizeof b64 - 1)]
                 : (uint8_t) (0x80 + (r >> 1) % 64));
    }
  if (gives_outside (cd, in, sizeof in))
    {
      o->outside++;
      if (getenv ("UTF8CONV_TEST_VERBOSE"))
        diag ("%s decodes to values outside Unicode", name);
      if (strcmp (memo_ucs4_from (name), "UTF-32LE") != 0)
        {
          o->wrong++;
          diag ("%s decodes to values outside Unicode, but memo_ucs4_from "
                "chose %s", name, memo_ucs4_from (name));
        }
    }
  iconv_close (cd);
}

/* Decoders read iconv(3)'s WCHAR_T where it is UTF-32LE's bytes, but
   only those that give nothing that UTF-32LE refuses: every charset
   listed whose decoder does is found by memo_ucs4_from's witnesses.  */
static void
test_ucs4 (void)
{
  struct outside o;
  memset (&o, 0, sizeof o);
  if (strcmp (memo_ucs4 (), "WCHAR_T") != 0)
    {
      tap_count++;
      printf ("ok %d # SKIP iconv(3)'s WCHAR_T is not UTF-32LE's bytes "
              "here: decoders read UTF-32LE\n", tap_count);
      return;
    }
  iconv_bridge_names (test_ucs4_charset, &o);
  diag ("%zu of %zu charsets decode to values outside Unicode's scalar "
        "values", o.outside, o.charsets);
  ok (o.wrong == 0 && o.charsets > 0,
      "memo_ucs4_from reads UTF-32LE from every charset that decodes to "
      "values outside Unicode (%zu of %zu do not)", o.wrong, o.outside);
}

/* The test of one charset NAME (iconv_bridge_names' callback).  */
static void
test_charset (char const *name, void *arg)
{
  struct tally *t = arg;
  struct codec const *c;
  static struct material m;
  static size_t listed;
  size_t k, i;
  uint32_t seed = 2166136261u;

  /* The quick form takes every 8th charset of the list.  */
  if (listed++ % quick_step (8) != 0)
    return;
  c = iconv_bridge_find (name, false, NULL);
  if (!c)
    {
      t->skipped++;
      return;
    }
  t->charsets++;
  /* Each charset has its own sequence, whatever the list holds.  */
  for (k = 0; name[k]; k++)
    seed = (seed ^ (uint8_t) name[k]) * 16777619u;
  rng_state = seed | 1;
  sample_values (name, &m);
  for (i = 0; i < INPUTS; i += quick_step (INPUTS - 1))
    {
      uint8_t in[MAX_INPUT];
      size_t n;
      if (i + 1 < INPUTS)
        n = make_text (name, &m, in);
      else
        for (n = 0; n < 24; n++)
          in[n] = (uint8_t) rng ();
      compare (t, c, name, in, n, 65536);
      /* The carry of an incomplete character between buffers too; and
         into UTF-16 (its fast paths: fast_via.c, the memo's own).  */
      if (i == 0)
        {
          compare (t, c, name, in, n, 1 + rng () % 3);
          compare_to (t, c, name, in, n, 65536, 1);
          compare_to (t, c, name, in, n, 1 + rng () % 3, 2);
        }
    }
  /* Characters that repeat, which the bridge's memo reads again
     (iconv_bridge.c): three inputs, each twice.  */
  {
    uint8_t in[MAX_INPUT], one[MAX_INPUT];
    size_t n = 0, len;
    for (i = 0; i < 3; i++)
      {
        len = make_text (name, &m, one);
        if (n + 2 * len > sizeof in)
          break;
        memcpy (in + n, one, len);
        memcpy (in + n + len, one, len);
        n += 2 * len;
      }
    compare (t, c, name, in, n, 65536);
    compare (t, c, name, in, n, 1 + rng () % 3);
    compare_to (t, c, name, in, n, 65536, 1 + rng () % 2);
  }
  test_encoder (t, c, name, &m);
}

int
main (void)
{
  struct tally t;
  FILE *tmp = tmpfile ();
  size_t k;

  if (!tmp)
    {
      printf ("Bail out! tmpfile: %s\n", strerror (errno));
      return 1;
    }
  in_fd = fileno (tmp);
  memset (&t, 0, sizeof t);
  if (!iconv_bridge_names (test_charset, &t) || t.charsets == 0)
    {
      printf ("1..0 # SKIP iconv(3) lists no charsets\n");
      return 0;
    }
  test_units (&t);
  test_shifting (&t);
  test_ucs4 ();
  diag ("%zu charsets compared, %zu that iconv(3) cannot open both ways "
        "skipped", t.charsets, t.skipped);
  for (k = 0; k < POLICIES; k++)
    ok (t.failed[k] == 0,
        "the bridge gives what iconv(3) gives, under %s (%zu of %zu "
        "conversions differ)", policy_name (policies[k]), t.failed[k],
        t.compared[k]);
  for (k = 0; k < POLICIES; k++)
    if (iconv_substitutes ())
      {
        tap_count++;
        printf ("ok %d # SKIP iconv(3) writes a character it cannot encode "
                "as '*' (musl's does), where utf8conv reports it: the "
                "encoders are not compared under %s\n", tap_count,
                policy_name (policies[k]));
      }
    else
      ok (t.enc_failed[k] == 0,
          "the encoders give what iconv(3) gives from UTF-8 (and UTF-16), "
          "under %s (%zu of %zu conversions differ)",
          policy_name (policies[k]),
          t.enc_failed[k], t.enc_compared[k]);
  fclose (tmp);
  return done_testing ();
}
