/* libFuzzer target: --fix-mojibake (src/core/mojibake.c) through the
   pipeline, UTF-8 to UTF-8, against invariants and a model of what
   double encoding does, written here.

   Input layout:

     byte 0    the block size of the second run (0: 1 byte)
     byte 1    bits 0-1: what is damaged (0: nothing, 1: all of it
               once, 2: segments, once or twice, chosen by the text's
               bytes, 3: the raw bytes after the header, not
               generated); bit 2: the policy for case 3 (replace or
               escape)
     the rest  the clean text, one character a byte (CHAR_OF below)

   The clean text is generated so that it holds no mojibake pattern: a
   character whose byte image (its CP1252 or Latin-1 byte) is a UTF-8
   lead C2..F4 is never followed by one whose image is a continuation
   byte 80..BF (a space is put between them), so no run of images is a
   well-formed multi-byte UTF-8 sequence.  To damage a character, its
   UTF-8 bytes are read as CP1252 (Latin-1's C1 control for the five
   bytes CP1252 leaves undefined) and written as UTF-8 again; twice for
   a twice-damaged segment.

   The properties:

     1. clean text comes out unchanged;
     2. damaged text comes out as the clean text when the model says
        that every damaged character is repaired: its character is
        plausible (mojibake.h: not U+0700..U+07FF, no private use, no
        noncharacter; the alphabet below has none of those) and none of
        its sequences has a shape that the stage may take for clean
        text (a two-byte sequence whose lead's image is C6..DE followed
        by punctuation that ends a word, or a three-byte one whose
        middle byte is A0; mojibake.c's judge); otherwise only 3 and 4
        are checked;
     3. the output does not depend on the block size (one buffer, the
        input's block size, 4093 bytes);
     4. the output is well-formed UTF-8, under replace and escape, for
        any bytes (case 3).  */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iconv_model.h"
#include "run_cache.h"
#include "unicode/utf8.h"

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);

enum { MAX_CHARS = 2048, MAX_BYTES = 4 * 3 * 3 * MAX_CHARS };

/* The characters CP1252 gives to 80..9F; 0 where it has none.  */
static uint32_t const cp1252_high[32] = {
  0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
  0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
  0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
  0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178
};

/* The character the byte B stands for: ASCII, Latin-1 letters and
   signs, CP1252's punctuation, Greek, Cyrillic, CJK, an emoji.  */
static uint32_t
char_of (uint8_t b)
{
  static uint32_t const other[] = {
    0x3B1, 0x3A9, 0x436, 0x42F, 0x4E2D, 0x6587, 0x1F600, 0x20AC, 0x2019,
    0x201C, 0x2014, 0x2026, 0x152, 0x161, 0x17E, 0x3042, 0xAC00, 0x5D0,
    0x627, 0x10D0, 0x1E9E, 0x2122, 0xFB01, 0x1F44D
  };
  if (b < 0x80)
    return b < 0x20 ? (b & 1 ? 0x0A : 0x20) : b;
  if (b < 0xC0)
    return 0xA0 + (b - 0x80);      /* Latin-1 signs and letters.  */
  if (b < 0xC0 + sizeof other / sizeof other[0])
    return other[b - 0xC0];
  return 0xE0 + (b & 0x1F);        /* Latin-1 small letters.  */
}

/* The byte image of C (its Latin-1 or CP1252 byte), or -1.  */
static int
image_of (uint32_t c)
{
  unsigned int k;
  if (0x80 <= c && c < 0x100)
    return (int) c;
  for (k = 0; k < 32; k++)
    if (cp1252_high[k] && cp1252_high[k] == c)
      return (int) (0x80 + k);
  return -1;
}

/* The character that CP1252 (or Latin-1, where CP1252 has none) reads
   the byte B as.  */
static uint32_t
cp1252_char (uint8_t b)
{
  if (0x80 <= b && b < 0xA0 && cp1252_high[b - 0x80])
    return cp1252_high[b - 0x80];
  return b;
}

/* Whether the stage may take the sequence S[0..N) (one character's
   UTF-8) for clean text by its shape (see property 2).  */
static bool
ambiguous (uint8_t const *s, size_t n)
{
  static uint8_t const marks[] = { 0xA0, 0x85, 0x91, 0x92, 0x93, 0x94,
                                   0x96, 0x97, 0xAB, 0xBB };
  if (n == 2 && 0xC6 <= s[0] && s[0] <= 0xDE)
    return memchr (marks, s[1], sizeof marks) != NULL;
  return n == 3 && s[1] == 0xA0;
}

/* Append the UTF-8 of C to OUT[*LEN], damaged LEVEL times; false when
   the model cannot say that the stage repairs it.  */
static bool
put_damaged (uint32_t c, unsigned int level, uint8_t *out, size_t *len)
{
  uint8_t a[4 * 3 * 3];
  size_t n = (size_t) utf8_put (c, a), k;
  bool sure = !ambiguous (a, n);
  unsigned int l;
  for (l = 0; l < level; l++)
    {
      uint8_t b[sizeof a];
      size_t m = 0;
      for (k = 0; k < n; k++)
        {
          uint8_t one[4];
          size_t w = (size_t) utf8_put (cp1252_char (a[k]), one);
          if (l + 1 < level && a[k] >= 0x80)
            sure = sure && !ambiguous (one, w);
          memcpy (b + m, one, w);
          m += w;
        }
      memcpy (a, b, m);
      n = m;
    }
  memcpy (out + *len, a, n);
  *len += n;
  return sure;
}

static void
fail (char const *what, size_t bs, uint8_t const *in, size_t n,
      uint8_t const *got, size_t glen, uint8_t const *want, size_t wlen)
{
  fprintf (stderr, "fuzz_mojibake: %s, block size %zu\ninput (%zu) %s\n",
           what, bs, n, hex (in, n));
  fprintf (stderr, "got  (%zu) %s\n", glen, hex (got, glen));
  if (want)
    fprintf (stderr, "want (%zu) %s\n", wlen, hex (want, wlen));
  abort ();
}

/* Make the clean text of DATA[0..N) in TEXT; its length.  */
static size_t
clean_text (uint8_t const *data, size_t n, uint32_t *text)
{
  size_t k, len = 0;
  for (k = 0; k < n && len + 1 < MAX_CHARS; k++)
    {
      uint32_t c = char_of (data[k]);
      int prev = len > 0 ? image_of (text[len - 1]) : -1;
      int img = image_of (c);
      if (prev >= 0xC2 && prev <= 0xF4 && img >= 0x80 && img <= 0xBF)
        text[len++] = 0x20;
      text[len++] = c;
    }
  return len;
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  static uint32_t text[MAX_CHARS];
  static uint8_t in[MAX_BYTES], want[MAX_BYTES];
  static FILE *tmp;
  struct run_config cfg;
  unsigned int how;
  size_t n, k, len = 0, wlen = 0, sizes[3];
  bool check = true;
  struct sb first;

  if (size < 2)
    return 0;
  how = data[1] & 3;
  sizes[0] = 65536;
  sizes[1] = data[0] ? data[0] : 1;
  sizes[2] = 4093;
  if (how == 3)
    {
      len = size - 2 < MAX_BYTES ? size - 2 : MAX_BYTES;
      memcpy (in, data + 2, len);
      check = false;
    }
  else
    {
      n = clean_text (data + 2, size - 2, text);
      for (k = 0; k < n; k++)
        {
          /* Segments: a character is damaged as the low bits of the
             byte after it say, so that runs of them are damaged alike
             only by chance; ASCII is never damaged.  */
          unsigned int level = how == 0 ? 0 : how == 1 ? 1
            : (k + 1 < n ? text[k + 1] : 0) % 3;
          wlen += (size_t) utf8_put (text[k], want + wlen);
          if (level == 0 || text[k] < 0x80)
            len += (size_t) utf8_put (text[k], in + len);
          else if (!put_damaged (text[k], level, in, &len))
            check = false;
        }
    }
  iconv_model_take_runs (fuzz_cached_run);
  if (!tmp && !(tmp = tmpfile ()))
    abort ();

  memset (&cfg, 0, sizeof cfg);
  cfg.from = codec ("UTF-8");
  cfg.to = cfg.from;
  cfg.policy.policy = how == 3 && (data[1] & 4) ? POLICY_ESCAPE
                      : POLICY_REPLACE;
  cfg.bom = BOM_STRIP;
  cfg.fix_mojibake = true;
  for (k = 0; k < 3; k++)
    {
      struct sb got;
      iconv_pipeline_config (fileno (tmp), &cfg, in, len, sizes[k], &got,
                             NULL);
      if (utf8_valid_len ((uint8_t const *) got.s, got.len) != got.len)
        fail ("the output is not well-formed UTF-8", sizes[k], in, len,
              (uint8_t const *) got.s, got.len, NULL, 0);
      if (check && (got.len != wlen || memcmp (got.s, want, wlen) != 0))
        fail (how == 0 ? "clean text was changed"
              : "damaged text was not repaired to the clean text",
              sizes[k], in, len, (uint8_t const *) got.s, got.len, want,
              wlen);
      if (k == 0)
        first = got;
      else
        {
          if (got.len != first.len || memcmp (got.s, first.s, got.len) != 0)
            fail ("the block size changed the output", sizes[k], in, len,
                  (uint8_t const *) got.s, got.len,
                  (uint8_t const *) first.s, first.len);
          sb_free (&got);
        }
    }
  sb_free (&first);
  return 0;
}
