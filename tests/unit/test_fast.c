/* The fast kernels agree with the state machine, for every implementation
   this machine has.

   Inputs of every length 0..300 at every alignment 0..31, mostly
   well-formed text with a few broken bytes, plus Kuhn's stress file when
   it is there.  The reference is the scalar decoder and encoders of
   src/core/codecs/, which the other unit tests check against Unicode.  Output
   buffers have exactly the documented size, so that ASan sees any
   overrun.  */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "codecs/iconv_table.h"
#include "fast.h"
#include "helpers.h"
#include "registry.h"
#include "simd/kernels.h"
#include "tap.h"
#include "unicode/utf8.h"

/* A test that cannot run here: "ok N # SKIP reason".  */
static void
skip_test (char const *reason)
{
  tap_count++;
  printf ("ok %d # SKIP %s\n", tap_count, reason);
}

/* Fill S[0..N) with text: ASCII stretches, characters of every length,
   newlines, and now and then a byte that breaks the UTF-8.  */
static void
random_text (uint8_t *s, size_t n, unsigned int breakage)
{
  static char const *const pieces[] = {
    "a", "the ", "\n", "\xC3\xA9", "\xE2\x82\xAC", "\xE4\xB8\xAD",
    "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF", "\xEF\xBF\xBF", "\x7F",
    "\xC2\x80", "\xE0\xA0\x80", "\xED\x9F\xBF", "\xEE\x80\x80",
    "abcdefghijklmnopqrstuvwxyz0123456789",
    /* Runs of 3-byte, 4-byte and 2-byte characters.  */
    "\xE4\xB8\xAD\xE6\x96\x87\xE5\xAD\x97\xE7\xAC\xA6\xE6\xB5\x8B\xE8\xAF\x95"
    "\xE6\xB1\x89\xE5\xAD\x97\xE7\xBC\x96\xE7\xA0\x81\xE8\xBD\xAC\xE6\x8D\xA2",
    "\xF0\x9F\x98\x80\xF0\x9F\x98\x81\xF0\x9F\x8E\x89",
    "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82 "
    "\xD0\xBC\xD0\xB8\xD1\x80"
  };
  static uint8_t const bad[] = { 0x80, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF0,
                                 0xF4, 0xF5, 0xFF, 0xC3, 0xE2 };
  size_t i = 0;
  while (i < n)
    {
      char const *p = pieces[rng () % (sizeof pieces
                                               / sizeof pieces[0])];
      size_t len = strlen (p);
      if (len > n - i)
        len = n - i;
      memcpy (s + i, p, len);
      i += len;
    }
  for (i = 0; n > 0 && i < breakage; i++)
    s[rng () % n] = bad[rng () % sizeof bad];
}

/* The longest prefix of S[0..N) that the reference decoder reads without
   an error and that ends on a character boundary.  */
static size_t
reference_valid_len (uint8_t const *s, size_t n)
{
  struct codec const *u8 = registry_find ("UTF-8");
  struct decoder d;
  ucs4_t cp[512];
  int64_t off[512];
  uint8_t nb[512];
  struct pivot p = { cp, off, nb, 0, 512 };
  size_t len = n;
  enum decode_status st;

  decoder_init (&d, u8);
  st = u8->decode (&d, s, &len, true, &p);
  if (st == DECODE_MALFORMED)
    return (size_t) d.error.rel_offset;
  return p.len ? n : 0;
}

/* Encode the UTF-8 S[0..N) (well-formed) with the reference codecs into
   the target TO; return a malloc'd buffer and its length.  */
static uint8_t *
reference_convert (uint8_t const *s, size_t n, char const *from,
                   char const *to, size_t *outlen)
{
  struct codec const *f = registry_lookup (from), *t = registry_lookup (to);
  struct decoder d;
  struct encoder e;
  ucs4_t *cp = malloc ((n + 1) * sizeof *cp);
  int64_t *off = malloc ((n + 1) * sizeof *off);
  uint8_t *nb = malloc (n + 1);
  struct pivot p = { cp, off, nb, 0, n + 1 };
  uint8_t *out = malloc (4 * n + MAX_ENCODED);
  size_t len = n, count, o = 0;

  decoder_init (&d, f);
  d.lone_surrogates_ok = false;
  f->decode (&d, s, &len, true, &p);
  encoder_init (&e, t);
  count = p.len;
  t->encode (&e, cp, &count, out, &o, 4 * n + MAX_ENCODED);
  encoder_release (&e);
  decoder_release (&d);
  free (cp);
  free (off);
  free (nb);
  *outlen = o;
  return out;
}

static size_t
count_nl (uint8_t const *s, size_t n)
{
  size_t i, c = 0;
  for (i = 0; i < n; i++)
    c += s[i] == '\n';
  return c;
}

static bool
check_utf8_kernels (uint8_t const *s, size_t n)
{
  size_t want = reference_valid_len (s, n), got, ascii = 0, o, k;
  bool good = true;

  got = kernels->utf8_valid_len (s, n);
  /* A kernel may stop a little early, never late; on well-formed input it
     must not stop at all.  */
  if (got > want || reference_valid_len (s, got) != got
      || (want == n && got != n))
    good = false;
  while (ascii < n && s[ascii] < 0x80)
    ascii++;
  if (kernels->ascii_len (s, n) != ascii)
    good = false;
  if (kernels->count_newlines (s, n) != count_nl (s, n))
    good = false;
  /* The validator that also counts newlines and copies stops where the
     plain one does.  */
  {
    uint8_t *copy = malloc (n + 1);
    uint64_t nl = 0, nl2 = 0;
    if (kernels->utf8_valid_copy (s, n, copy, &nl) != got
        || memcmp (copy, s, got) != 0 || nl != count_nl (s, got)
        || kernels->utf8_valid_copy (s, n, NULL, &nl2) != got
        || nl2 != nl)
      good = false;
    free (copy);
  }

  for (k = 0; k < 4 && good; k++)
    {
      static char const *const targets[]
        = { "UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE" };
      int width = k < 2 ? 2 : 4;
      bool big = k & 1;
      size_t rlen;
      uint8_t *ref = reference_convert (s, got, "UTF-8", targets[k], &rlen);
      uint8_t *out = malloc ((size_t) width * got + 1);
      o = (width == 2 ? kernels->utf8_to_utf16 (s, got, out, big)
           : kernels->utf8_to_utf32 (s, got, out, big));
      if (o != rlen || memcmp (out, ref, rlen) != 0)
        good = false;
      /* And back from UTF-16.  */
      if (good && width == 2)
        {
          uint8_t *back = malloc (3 * (rlen / 2) + 1);
          size_t produced, used;
          uint64_t nl;
          used = kernels->utf16_to_utf8 (ref, rlen / 2, back, &produced,
                                         &nl, big);
          if (used != rlen / 2 || produced != got
              || memcmp (back, s, got) != 0 || nl != count_nl (s, got))
            good = false;
          free (back);
        }
      free (ref);
      free (out);
    }
  return good;
}

/* UTF-16 with lone surrogates: the kernel stops exactly before the first
   unit the reference decoder rejects.  */
static bool
check_utf16_kernel (uint8_t const *s, size_t units, bool big)
{
  struct codec const *c = registry_find (big ? "UTF-16BE" : "UTF-16LE");
  struct decoder d;
  ucs4_t cp[700];
  int64_t off[700];
  uint8_t nb[700];
  struct pivot p = { cp, off, nb, 0, 700 };
  size_t len = 2 * units, want, used, produced, rlen;
  uint64_t nl;
  uint8_t *out = malloc (3 * units + 1), *ref;
  bool good;

  decoder_init (&d, c);
  if (c->decode (&d, s, &len, true, &p) == DECODE_MALFORMED)
    want = (size_t) d.error.rel_offset / 2;
  else
    want = units;
  used = kernels->utf16_to_utf8 (s, units, out, &produced, &nl, big);
  ref = reference_convert (s, 2 * used, big ? "UTF-16BE" : "UTF-16LE",
                           "UTF-8", &rlen);
  good = (used == want && produced == rlen && memcmp (out, ref, rlen) == 0
          && nl == count_nl (ref, rlen));
  free (out);
  free (ref);
  return good;
}

/* Fill S[0..N) with text that a single-byte encoding mostly has: ASCII,
   newlines and 2-byte characters (as UTF-8 when UTF8, else as bytes from
   0x80 up), in runs, and with BREAKAGE other things (3-byte characters,
   broken or cut sequences, or any byte).  */
static void
random_latin (uint8_t *s, size_t n, unsigned int breakage, bool utf8)
{
  static uint8_t const odd[] = { 0xE2, 0x82, 0xAC, 0xC5, 0x92, 0xC2, 0xC0,
                                 0xBF, 0xF0, 0xFF, 0x81, 0x8D, 0x9D };
  size_t i = 0;
  unsigned int k;
  while (i < n)
    {
      uint32_t r = rng ();
      if (r % 8 == 0)
        s[i++] = '\n';
      else if (r % 8 < 6 || i + 2 > n)
        {
          size_t run = 1 + (r >> 8) % 40;
          for (; run > 0 && i < n; run--)
            s[i++] = (uint8_t) (' ' + rng () % 95);
        }
      else if (utf8)
        {
          unsigned int c = 0x80 + (r >> 8) % 0x80;
          s[i++] = (uint8_t) (0xC0 | c >> 6);
          s[i++] = (uint8_t) (0x80 | (c & 0x3F));
        }
      else
        s[i++] = (uint8_t) (0x80 + (r >> 8) % 0x80);
    }
  for (k = 0; n > 0 && k < breakage; k++)
    s[rng () % n] = odd[rng () % sizeof odd];
}

/* Fill S[0..N) with text like Latin or Cyrillic prose: ASCII runs,
   newlines and runs of 2-byte characters from all of U+0080..U+07FF, so
   that whole blocks of ASCII and 2-byte characters come up, and with
   BREAKAGE other things (3- and 4-byte characters, broken bytes).  */
static void
random_two_byte (uint8_t *s, size_t n, unsigned int breakage)
{
  static uint8_t const odd[] = { 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80,
                                 0xC0, 0xC1, 0xDF, 0xBF, 0xFF, 0xED };
  size_t i = 0;
  unsigned int k;
  while (i < n)
    {
      uint32_t r = rng ();
      size_t run = 1 + (r >> 8) % 24;
      if (r % 8 == 0)
        s[i++] = '\n';
      else if (r % 8 < 4 || i + 2 > n)
        for (; run > 0 && i < n; run--)
          s[i++] = (uint8_t) (' ' + rng () % 95);
      else
        {
          unsigned int base = 0x80 + rng () % 0x780;
          for (; run > 0 && i + 2 <= n; run--)
            {
              unsigned int c = base + rng () % 0x40;
              if (c > 0x7FF)
                c = 0x7FF;
              s[i++] = (uint8_t) (0xC0 | c >> 6);
              s[i++] = (uint8_t) (0x80 | (c & 0x3F));
            }
        }
    }
  for (k = 0; n > 0 && k < breakage; k++)
    s[rng () % n] = odd[rng () % sizeof odd];
}

/* Fill S[0..N) with Thai text (U+0E01..U+0E3A, three bytes each in
   UTF-8, which the single-byte kernel leaves to the encoders' memo of a
   table of iconv(3)), with ASCII words and newlines between, and
   BREAKAGE broken bytes.  */
static void
random_thai (uint8_t *s, size_t n, unsigned int breakage)
{
  size_t i = 0;
  unsigned int k;
  while (i < n)
    {
      uint32_t r = rng ();
      if (r % 16 == 0)
        s[i++] = '\n';
      else if (r % 16 < 5 || i + 3 > n)
        s[i++] = (uint8_t) " ab."[(r >> 8) % 4];
      else
        {
          unsigned int c = 0xE01 + (r >> 8) % 0x3A;
          s[i++] = 0xE0;
          s[i++] = (uint8_t) (0x80 | c >> 6);
          s[i++] = (uint8_t) (0x80 | (c & 0x3F));
        }
    }
  for (k = 0; n > 0 && k < breakage; k++)
    s[rng () % n] = (uint8_t) (0x80 | rng ());
}

/* Fill S[0..N) with text like Russian prose: words of U+0410..U+044F
   (and now and then U+0401, U+0451 or U+00AB), spaces, punctuation and
   newlines, with BREAKAGE other things (U+20AC, which CP1251 has and
   KOI8-R lacks, other 2- and 3-byte characters, broken bytes).  */
static void
random_cyrillic (uint8_t *s, size_t n, unsigned int breakage)
{
  static uint8_t const odd[] = { 0xE2, 0x82, 0xAC, 0xC2, 0xAB, 0xCE, 0xB1,
                                 0xC3, 0xA9, 0xDF, 0xBF, 0xFF };
  size_t i = 0;
  unsigned int k;
  while (i < n)
    {
      uint32_t r = rng ();
      if (r % 16 == 0)
        s[i++] = '\n';
      else if (r % 16 < 4 || i + 2 > n)
        s[i++] = (uint8_t) " .,;"[(r >> 8) % 4];
      else
        {
          unsigned int c = 0x410 + (r >> 8) % 0x40;
          if ((r >> 16) % 32 == 0)
            c = (r >> 21) % 3 == 0 ? 0x401 : (r >> 21) % 3 == 1 ? 0x451 : 0xAB;
          s[i++] = (uint8_t) (0xC0 | c >> 6);
          s[i++] = (uint8_t) (0x80 | (c & 0x3F));
        }
    }
  for (k = 0; n > 0 && k < breakage; k++)
    s[rng () % n] = odd[rng () % sizeof odd];
}

/* How far the fast path from FROM to TO must get into S[0..N) with room
   CAP: up to the first character it does not take (see fast.c).  */
static size_t
fast_want (struct codec const *from, struct codec const *to,
           uint8_t const *s, size_t n, size_t cap)
{
  size_t i = 0;
  if (from->flags & CODEC_SINGLE_BYTE)
    {
      /* To UTF-8, room for 3 bytes a byte; to UTF-16, 2.  */
      size_t per = strncmp (to->name, "UTF-16", 6) == 0 ? 2 : 3;
      size_t m = n < cap / per ? n : cap / per;
      for (; i < m; i++)
        {
          struct decoder d;
          ucs4_t cp[4];
          int64_t off[4];
          uint8_t nb[4];
          struct pivot p = { cp, off, nb, 0, 4 };
          size_t len = 1;
          decoder_init (&d, from);
          if (from->decode (&d, s + i, &len, true, &p) != DECODE_INPUT_EMPTY
              || p.len != 1)
            break;
        }
      return i;
    }
  if (to->flags & CODEC_SINGLE_BYTE)
    {
      size_t m = n < cap ? n : cap;
      while (i < m)
        {
          struct encoder e;
          uint8_t buf[MAX_ENCODED];
          size_t one = 1, olen = 0;
          ucs4_t c;
          if (s[i] < 0x80)
            {
              i++;
              continue;
            }
          if (s[i] < 0xC2 || 0xE0 <= s[i] || i + 1 >= m
              || (s[i + 1] & 0xC0) != 0x80)
            break;
          c = (ucs4_t) (s[i] & 0x1F) << 6 | (s[i + 1] & 0x3F);
          encoder_init (&e, to);
          if (to->encode (&e, &c, &one, buf, &olen, sizeof buf)
              != ENCODE_INPUT_EMPTY || olen != 1)
            break;
          i += 2;
        }
      return i;
    }
  return 0;
}

/* How far into the UTF-16 S[0..N) a fast path from the codec F to the
   code page T may get: the bytes of the characters that the reference
   decoder reads without an error and T's reference encoder takes, up
   to the first it does not.  */
static size_t
reference_prefix16 (struct codec const *f, struct codec const *t,
                    uint8_t const *s, size_t n)
{
  struct decoder d;
  struct encoder e;
  ucs4_t cp[300];
  int64_t off[300];
  uint8_t nb[300], out[4 * 300 + MAX_ENCODED];
  struct pivot p = { cp, off, nb, 0, 300 };
  size_t len = n, count, o = 0, want;

  decoder_init (&d, f);
  d.lone_surrogates_ok = false;
  want = (f->decode (&d, s, &len, true, &p) == DECODE_MALFORMED
          ? (size_t) d.error.rel_offset : n & ~(size_t) 1);
  /* Up to a lone surrogate, which the decoder gives as a value for the
     policy to take, or a pair that N cuts short, an error.  */
  for (count = 0; count < p.len; count++)
    if ((size_t) off[count] >= want || (cp[count] & 0xFFFFF800) == 0xD800)
      break;
  if (count < p.len && (size_t) off[count] < want)
    want = (size_t) off[count];
  p.len = count;
  encoder_init (&e, t);
  t->encode (&e, cp, &count, out, &o, sizeof out);
  encoder_release (&e);
  decoder_release (&d);
  return count < p.len ? (size_t) off[count] : want;
}

/* Whether ERR, which the fast path from the codec F reported where it
   stopped, at S[0..N), is the error F's decoder reports there when more
   input follows; an empty ERR says that the decoder reads no error
   there first (a fast path need not say).  */
static bool
same_error (struct codec const *f, uint8_t const *s, size_t n,
            struct codec_error const *err)
{
  struct decoder d;
  ucs4_t cp[8];
  int64_t off[8];
  uint8_t nb[8];
  struct pivot p = { cp, off, nb, 0, 1 };
  size_t len = n;
  enum decode_status st;

  if (err->len == 0)
    return true;
  decoder_init (&d, f);
  st = f->decode (&d, s, &len, false, &p);
  return (st == DECODE_MALFORMED && p.len == 0 && len == err->len
          && d.error.len == err->len && d.error.kind == err->kind
          && d.error.rel_offset == 0 && err->rel_offset == 0
          && memcmp (d.error.bytes, err->bytes, err->len) == 0
          && memcmp (err->bytes, s, err->len) == 0);
}

/* Run the fast path from FROM to TO on S[0..N) with an output buffer of
   exactly CAP bytes: what it takes must convert as the reference does,
   with the right count of newlines, and an error it reports where it
   stopped must be the decoder's.  Single-byte paths must get exactly
   as far as fast_want says; the others no further than the reference
   decoder reads without an error, and all the way on well-formed input
   when the room allows.  */
static bool
check_fast_path (char const *from, char const *to, uint8_t const *s,
                 size_t n, size_t cap)
{
  struct codec const *f = registry_lookup (from), *t = registry_lookup (to);
  fast_fn *fast = fast_select (f, t);
  uint8_t *out = malloc (cap + 1), *ref;
  size_t used, produced, rlen, k;
  uint64_t newlines;
  struct codec_error err;
  bool good = true;

  bool u16_legacy = strncmp (from, "UTF-16", 6) == 0 && strncmp (to, "UTF", 3);
  size_t want16 = 0;

  if (!fast)
    {
      free (out);
      return false;
    }
  /* First, since a bridge's encoder teaches its memo, which has nothing
     before its first character, where the path from UTF-16 would then
     take nothing.  */
  if (u16_legacy)
    want16 = reference_prefix16 (f, t, s, n);
  memset (&err, 0xA5, sizeof err);
  used = fast (s, n, out, cap, &produced, &newlines, &err);
  if (used > n || err.len > MAX_ERROR_BYTES
      || (err.len > 0 && !same_error (f, s + used, n - used, &err)))
    good = false;
  else if (u16_legacy)
    /* UTF-16 to a code page: no further than the reference goes, and as
       far with room to spare (a memo's path needs room for a run through
       its learner, some 8 KiB).  */
    good = used <= want16 && (cap < 4 * n + 16384 || used == want16);
  else if (t->flags & CODEC_SINGLE_BYTE)
    /* A single-byte encoder goes on where the kernel stops with its
       characters of three bytes (and the ASCII between them, while
       there is room for their bytes), and a table of iconv(3) with
       what its encoders' memo knows, which depends on what they have
       met: at least as far as the kernel, and the bytes the reference
       gives (below).  */
    good = used >= fast_want (f, t, s, n, cap) && produced <= cap;
  else if ((f->flags & CODEC_SINGLE_BYTE) || (t->flags & CODEC_SINGLE_BYTE))
    good = used == fast_want (f, t, s, n, cap);
  else if (strcmp (from, "UTF-8") == 0)
    {
      size_t want = reference_valid_len (s, n);
      size_t room = cap / (strncmp (to, "UTF-32", 6) == 0 ? 4
                           : strncmp (to, "UTF-16", 6) == 0 ? 2 : 1);
      good = (used <= want && reference_valid_len (s, used) == used
              && (want != n || room < n || used == n));
    }
  else if (cap >= 3 * (n / 2))
    {
      /* UTF-16: up to the first unit the reference decoder rejects.  */
      struct decoder d;
      ucs4_t cp[300];
      int64_t off[300];
      uint8_t nb[300];
      struct pivot p = { cp, off, nb, 0, 300 };
      size_t len = n, want = n;
      decoder_init (&d, f);
      if (f->decode (&d, s, &len, true, &p) == DECODE_MALFORMED)
        want = (size_t) d.error.rel_offset;
      good = used == (want & ~(size_t) 1);
    }
  if (good)
    {
      /* The reference on what was taken; UTF-16 was checked to be
         well-formed there by the kernel tests.  */
      uint8_t const *nl = s;
      size_t width = strncmp (from, "UTF-16", 6) == 0 ? 2 : 1;
      ref = reference_convert (s, used, from, to, &rlen);
      if (produced != rlen || memcmp (out, ref, rlen) != 0)
        good = false;
      free (ref);
      /* A newline is the byte 0x0A, or the unit 0x000A.  */
      for (k = 0; k + width <= used; k += width)
        if (width == 1 ? nl[k] == '\n'
            : (strcmp (from, "UTF-16BE") == 0
               ? nl[k] == 0 && nl[k + 1] == '\n'
               : nl[k] == '\n' && nl[k + 1] == 0))
          newlines--;
      if (newlines != 0)
        good = false;
    }
  free (out);
  return good;
}

/* The fast paths of fast.c on inputs of every length 0..300 at every
   alignment 0..31, with output room to spare and with room that runs
   out.  */
static void
test_fast_paths (char const *name)
{
  /* The third column: text of ASCII and 2-byte characters.  */
  static char const *const pairs[][3] = {
    { "CP1252", "UTF-8", "" }, { "ISO-8859-1", "UTF-8", "" },
    { "UTF-8", "ISO-8859-1", "" }, { "UTF-8", "CP1252", "" },
    { "US-ASCII", "UTF-8", "" }, { "UTF-8", "US-ASCII", "" },
    { "UTF-8", "UTF-8", "" }, { "UTF-8", "UTF-16LE", "" },
    { "UTF-8", "UTF-32BE", "" },
    { "UTF-8", "UTF-16LE", "2-byte text" },
    { "UTF-8", "UTF-16BE", "2-byte text" },
    { "UTF-8", "UTF-32LE", "2-byte text" },
    { "UTF-8", "UTF-32BE", "2-byte text" },
    { "UTF-16LE", "UTF-8", "" }, { "UTF-16BE", "UTF-8", "" },
    /* Code pages of iconv(3) made tables (iconv_table.c).  */
    { "KOI8-R", "UTF-8", "" }, { "UTF-8", "KOI8-R", "Cyrillic text" },
    { "UTF-8", "CP1251", "Cyrillic text" }, { "UTF-8", "CP874", "Thai text" },
    { "UTF-8", "ISO-8859-7", "2-byte text" },
    /* From UTF-16 to code pages (fast_via.c, fast_memo.c).  */
    { "UTF-16LE", "CP1251", "Cyrillic text" },
    { "UTF-16BE", "KOI8-R", "Cyrillic text" },
    { "UTF-16LE", "CP1252", "" }, { "UTF-16BE", "ISO-8859-1", "" },
    { "UTF-16LE", "IBM037", "" }, { "UTF-16LE", "GB18030", "" },
    { "UTF-16BE", "GB18030", "" }, { "UTF-16LE", "BIG5", "" },
    /* From single-byte code pages to UTF-16 (fast_sb16.c).  */
    { "KOI8-R", "UTF-16LE", "" }, { "CP1252", "UTF-16BE", "" },
    { "ISO-8859-1", "UTF-16LE", "" }
  };
  uint8_t *buf = malloc (300 + 32);
  size_t k, n, a, failures, cases;
  unsigned int breakage;

  for (k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
    {
      char const *from = pairs[k][0], *to = pairs[k][1];
      bool sb_from = strcmp (to, "UTF-8") == 0 && strncmp (from, "UTF", 3);
      bool sb_to = strncmp (to, "UTF", 3) != 0;
      bool u16 = strncmp (from, "UTF-16", 6) == 0;
      bool two = *pairs[k][2] != '\0';
      bool cyr = strcmp (pairs[k][2], "Cyrillic text") == 0;
      bool thai = strcmp (pairs[k][2], "Thai text") == 0;
      if (!registry_lookup (from) || !registry_lookup (to))
        {
          /* musl's iconv(3), or glibc's under qemu-user without its
             gconv modules, has no KOI8-R or CP1251 to make a table of.  */
          char reason[128];
          snprintf (reason, sizeof reason, "%s: iconv(3) has no %s", name,
                    registry_lookup (from) ? to : from);
          skip_test (reason);
          continue;
        }
      failures = cases = 0;
      for (breakage = 0; breakage < 3; breakage++)
        for (n = 0; n <= 300; n += quick_step (7))
          for (a = 0; a < 32; a += breakage ? 7 : 1)
            {
              uint8_t *s = buf + a;
              size_t cap;
              if (u16)
                {
                  /* UTF-8 text made UTF-16 by the reference, cut to N
                     bytes (perhaps in a pair, or in a unit).  */
                  uint8_t text[301];
                  size_t len, v;
                  uint8_t *w;
                  if (cyr)
                    random_cyrillic (text, n, 0);
                  else
                    random_text (text, n, 0);
                  v = reference_valid_len (text, n);
                  w = reference_convert (text, v, "UTF-8", from, &len);
                  memcpy (s, w, len < n ? len : n);
                  free (w);
                  memset (s + len, 'x', len < n ? n - len : 0);
                  if (breakage && n >= 2)
                    s[rng () % n | 1] = 0xD8;
                }
              else if (cyr)
                random_cyrillic (s, n, breakage);
              else if (thai)
                random_thai (s, n, breakage);
              else if (two)
                random_two_byte (s, n, breakage);
              else if (sb_from || sb_to)
                random_latin (s, n, breakage, sb_to);
              else
                random_text (s, n, breakage);
              cap = (u16 && sb_to ? 4 * n + 16384
                     : (u16 || sb_from ? 3 : 4) * n);
              /* Now and then too little room.  */
              if (rng () % 4 == 0)
                cap = rng () % (cap + 1);
              cases++;
              if (!check_fast_path (from, to, s, n, cap))
                {
                  if (failures++ < 5)
                    diag ("%s: fast path %s to %s disagrees, length %zu, "
                          "align %zu", name, from, to, n, a);
                }
            }
      ok (failures == 0, "%s: fast path %s to %s agrees on %zu inputs%s%s",
          name, from, to, cases, two ? ", " : "", pairs[k][2]);
    }
  free (buf);
}

static void
test_implementation (char const *name)
{
  uint8_t *buf = malloc (300 + 32);
  size_t n, a, failures = 0, cases = 0;
  unsigned int breakage;

  setenv ("UTF8CONV_IMPL", name, 1);
  ok (kernels_select () && kernels && strcmp (kernels->name, name) == 0,
      "%s: selected", name);

  for (breakage = 0; breakage < 3; breakage++)
    for (n = 0; n <= 300; n += quick_step (7))
      for (a = 0; a < 32; a += breakage ? 7 : 1)
        {
          uint8_t *s = buf + a;
          random_text (s, n, breakage);
          cases++;
          if (!check_utf8_kernels (s, n))
            {
              if (failures++ < 5)
                diag ("%s: UTF-8 kernels disagree, length %zu, align %zu",
                      name, n, a);
            }
        }
  ok (failures == 0, "%s: UTF-8 kernels agree on %zu inputs", name, cases);

  failures = cases = 0;
  for (breakage = 0; breakage < 3; breakage++)
    for (n = 0; n <= 300; n += quick_step (7))
      for (a = 0; a < 32; a += breakage ? 7 : 1)
        {
          uint8_t *s = buf + a;
          random_two_byte (s, n, breakage);
          cases++;
          if (!check_utf8_kernels (s, n))
            {
              if (failures++ < 5)
                diag ("%s: UTF-8 kernels disagree on 2-byte text, length "
                      "%zu, align %zu", name, n, a);
            }
        }
  ok (failures == 0, "%s: UTF-8 kernels agree on %zu inputs of 2-byte text",
      name, cases);

  failures = cases = 0;
  for (n = 0; n <= 150; n += quick_step (7))
    for (a = 0; a < 32; a++)
      {
        uint8_t *s = buf + a;
        size_t k, run = 0;
        bool big = a & 1;
        static unsigned int const units[] = { 0x41, 0x0A, 0xE9, 0x20AC,
                                              0xD83D, 0xDE00, 0xD800,
                                              0xDC00, 0xFFFF, 0x7FF, 0x800 };
        unsigned int u = 0;
        for (k = 0; k < n; k++)
          {
            /* Runs of one unit, so that whole vectors of ASCII or of
               3-byte characters come up.  */
            if (run == 0)
              {
                u = units[rng () % (sizeof units / sizeof units[0])];
                run = 1 + rng () % 12;
              }
            run--;
            /* Mostly proper pairs.  */
            if (u == 0xD83D && k + 1 < n && rng () % 4)
              {
                s[2 * k + big] = 0x3D, s[2 * k + !big] = 0xD8;
                k++;
                s[2 * k + big] = 0x00, s[2 * k + !big] = 0xDE;
                continue;
              }
            s[2 * k + big] = (uint8_t) u;
            s[2 * k + !big] = (uint8_t) (u >> 8);
          }
        cases++;
        if (!check_utf16_kernel (s, n, big))
          {
            if (failures++ < 5)
              diag ("%s: UTF-16 kernel disagrees, %zu units", name, n);
          }
      }
  ok (failures == 0, "%s: UTF-16 kernel agrees on %zu inputs", name, cases);
  free (buf);
}

/* The length of the maximal subpart of the ill-formed sequence at
   S[0..N), as the decoder sees it with more input to follow; 0 if none
   starts there.  */
static size_t
error_len (uint8_t const *s, size_t n)
{
  ucs4_t c;
  enum err_kind kind;
  int r = n ? utf8_sequence (&utf8_form, s, n, false, &c, &kind) : 1;
  return r < 0 ? (size_t) -r : 0;
}

/* Walk S[0..N) as the pipeline does after errors: validate, step over
   the ill-formed sequence where the validator stopped, and go on, with
   utf8_valid_copy_resume (its *RS carried from call to call) and with
   the fast path of fast_select_resume.  Each call must return exactly
   what utf8_valid_copy and the plain fast path return on the same
   bytes (the same length, copy, newlines and error), and every stop
   before an error must be exactly the reference decoder's.  Every
   other run of errors is stepped over with utf8_resume_move instead of
   a call.  Returns the number of errors stepped over, or -1 on a
   disagreement.  */
static int
check_resume_walk (uint8_t const *s, size_t n)
{
  struct codec const *u8 = registry_find ("UTF-8");
  fast_fn *plain = fast_select (u8, u8);
  fast_resume_fn *resume = fast_select_resume (u8, u8);
  struct utf8_resume rs = { NULL, NULL, 0, 0 }, frs = rs;
  uint8_t *out = malloc (n + 1), *want = malloc (n + 1);
  size_t pos = 0, fpos = 0;
  int errors = 0;
  bool good = true;

  /* The kernel.  */
  while (good)
    {
      uint64_t nl = 0, wnl = 0;
      size_t v, w, len;
      if (errors % 2 && error_len (s + pos, n - pos) > 0)
        {
          utf8_resume_move (&rs, s + pos);
          v = 0;
        }
      else
        {
          v = kernels->utf8_valid_copy_resume (s + pos, n - pos, out, &nl,
                                               &rs);
          w = kernels->utf8_valid_copy (s + pos, n - pos, want, &wnl);
          if (v != w || memcmp (out, want, v) != 0 || nl != wnl
              || nl != count_nl (s + pos, v))
            good = false;
        }
      len = error_len (s + pos + v, n - pos - v);
      if (len > 0 && reference_valid_len (s + pos, n - pos) != v)
        good = false;
      if (len == 0)
        break;
      pos += v + len;
      errors++;
    }
  /* The fast path.  */
  while (good)
    {
      size_t used, produced, wused, wproduced;
      uint64_t nl, wnl;
      struct codec_error err, werr;
      used = resume (s + fpos, n - fpos, out, n - fpos, &produced, &nl, &err,
                     &frs);
      wused = plain (s + fpos, n - fpos, want, n - fpos, &wproduced, &wnl,
                     &werr);
      if (used != wused || produced != wproduced || nl != wnl
          || memcmp (out, want, produced) != 0 || err.len != werr.len
          || (err.len > 0 && (err.kind != werr.kind
                              || memcmp (err.bytes, werr.bytes, err.len))))
        good = false;
      if (err.len == 0)
        break;
      fpos += used + err.len;
    }
  free (out);
  free (want);
  return good && fpos == pos ? errors : -1;
}

/* utf8_valid_copy_resume of the set NAME (kernels.h), and the fast path
   made from it, on text with ill-formed sequences at every offset of
   two 64-byte blocks (the ends of blocks and of 32-byte halves among
   them), several in one block, runs of them, and in the last three
   bytes, at several alignments.  */
static void
test_resume (char const *name)
{
  static char const *const bad[] = {
    "\x80", "\xBF", "\xC0", "\xFF", "\xC3", "\xE2\x82", "\xF0\x9F\x98",
    "\xED\xA0\x80", "\xE0\x80", "\xF4\x90\x80\x80", "\xC3\xC3", "\x9F\x9F\x9F"
  };
  enum { NB = sizeof bad / sizeof bad[0], LEN = 300 };
  struct codec const *u8 = registry_find ("UTF-8");
  uint8_t *buf = malloc (LEN + 64), *text = malloc (LEN);
  size_t failures = 0, cases = 0, k, d, a, b, n;
  long total = 0;

  setenv ("UTF8CONV_IMPL", name, 1);
  kernels_select ();
  if (!kernels->utf8_valid_copy_resume)
    {
      ok (fast_select_resume (u8, u8) == NULL,
          "%s: no utf8_valid_copy_resume, and no fast path made from it",
          name);
      free (buf);
      free (text);
      return;
    }
  for (k = 0; k < 160; k += quick_step (9))
    for (d = 0; d < 12; d++)
      for (b = 0; b < NB; b++)
        {
          /* One error at K, another D bytes after its end (none for D
             0), a third at the end of the block after; plain text,
             or text with 2-, 3- and 4-byte characters.  */
          size_t len = strlen (bad[b]);
          a = (k + d + b) % 32;
          n = LEN - (k * 7 + d) % 5;
          if (b % 2)
            random_text (text, LEN, 0);
          else
            memset (text, 'a' + (int) (k % 26), LEN);
          memcpy (text + k, bad[b], len);
          if (d > 0)
            memcpy (text + k + len + d, bad[(b + d) % NB],
                    strlen (bad[(b + d) % NB]));
          text[(k / 64 + 1) * 64 + 64 - 1 - d] = 0x80;
          /* And at the end: in the last three bytes.  */
          if (d < 3)
            text[n - 1 - d] = (uint8_t) (d == 0 ? 0xE2 : 0xFF);
          memcpy (buf + a, text, n);
          cases++;
          {
            int e = check_resume_walk (buf + a, n);
            if (e < 0)
              {
                if (failures++ < 5)
                  diag ("%s: resume disagrees: error %zu at %zu, gap %zu, "
                        "length %zu, align %zu", name, b, k, d, n, a);
              }
            else
              total += e;
          }
        }
  /* Random text, broken in many places.  */
  for (n = 0; n <= LEN; n += quick_step (7))
    for (a = 0; a < 32; a += 5)
      {
        random_text (buf + a, n, (unsigned int) (n / 8));
        cases++;
        if (check_resume_walk (buf + a, n) < 0 && failures++ < 5)
          diag ("%s: resume disagrees on random text, length %zu, align %zu",
                name, n, a);
      }
  ok (failures == 0 && total > (long) cases,
      "%s: utf8_valid_copy_resume agrees on %zu inputs (%ld errors)", name,
      cases, total);
  free (buf);
  free (text);
}

/* Kuhn's stress test, read in pieces of every size up to 64.  */
static void
test_kuhn (char const *name)
{
  char const *dir = getenv ("UTF8CONV_TESTDATA");
  char path[4096];
  FILE *f;
  uint8_t data[32768];
  size_t n, i, step, failures = 0;

  if (!dir)
    dir = "../shared/testdata";
  snprintf (path, sizeof path, "%s/UTF-8-test.txt", dir);
  f = fopen (path, "rb");
  if (!f)
    {
      char reason[4200];
      snprintf (reason, sizeof reason, "%s: no %s", name, path);
      skip_test (reason);
      return;
    }
  n = fread (data, 1, sizeof data, f);
  fclose (f);
  setenv ("UTF8CONV_IMPL", name, 1);
  kernels_select ();
  for (step = 1; step <= 64; step += quick_step (9))
    for (i = 0; i < n; i += step)
      if (!check_utf8_kernels (data + i, n - i < 4 * step ? n - i : 4 * step))
        failures++;
  ok (failures == 0, "%s: kernels agree on UTF-8-test.txt", name);
}

/* drop_crlf of the set NAME against a byte-at-a-time model, on random
   text rich in CR and LF (pairs, lone ones, CR at the end), at every
   length up to 300 and offset up to 64, so that vector blocks hold
   0, 1 and 2 pairs in each half.  */
static void
test_drop_crlf (char const *name)
{
  static uint8_t const alphabet[] = { '\r', '\n', 'a', 'b', 0xC3, '\r' };
  uint8_t in[400], out[400], want[400];
  unsigned int seed = 7;
  size_t trial, failures = 0, lone = 0;

  setenv ("UTF8CONV_IMPL", name, 1);
  kernels_select ();
  for (trial = 0; trial < 20000; trial += quick_step (10))
    {
      size_t n = trial % 301, off = trial % 64, i, r = 0, w = 0, used, got;
      /* Every other trial has no lone CR but perhaps at the end.  */
      bool pairs_only = trial & 1;
      for (i = 0; i < n; i++)
        {
          seed = seed * 1103515245u + 12345u;
          in[off + i] = alphabet[(seed >> 16) % sizeof alphabet];
          if (pairs_only && i > 0 && in[off + i - 1] == '\r')
            in[off + i] = '\n';
        }
      /* The model.  */
      while (r < n && !(in[off + r] == '\r'
                        && (r + 1 == n || in[off + r + 1] != '\n')))
        {
          if (in[off + r] != '\r')
            want[w++] = in[off + r];
          r++;
        }
      lone += r < n;
      used = kernels->drop_crlf (in + off, n, out, &got);
      if (used != r || got != w || memcmp (out, want, w) != 0)
        {
          if (failures++ == 0)
            diag ("%s: drop_crlf on %zu bytes at offset %zu: used %zu, "
                  "wrote %zu; want %zu, %zu", name, n, off, used, got, r,
                  w);
        }
    }
  ok (failures == 0 && lone > 1000 / quick_step (10),
      "%s: drop_crlf agrees with the model (%zu trials stopped at a CR)",
      name, lone);
}

int
main (void)
{
  char const *const *names = kernels_available ();
  /* With UTF8CONV_IMPL set ("make check-impls"), that set alone.  */
  char const *want = getenv ("UTF8CONV_IMPL");
  bool found = false;
  size_t i;

  if (want && !*want)
    want = NULL;
  for (i = 0; names[i]; i++)
    if (!want || strcmp (want, names[i]) == 0)
      {
        found = true;
        if (strcmp (names[i], "reference") == 0)
          continue;
        /* The quick form: the set chosen by default (the first: best
           first) and the portable one.  */
        if (!want && test_quick () && i > 0
            && strcmp (names[i], "scalar") != 0)
          continue;
        test_implementation (names[i]);
        test_fast_paths (names[i]);
        test_kuhn (names[i]);
        test_drop_crlf (names[i]);
        test_resume (names[i]);
      }
  if (want && strcmp (want, "reference") == 0)
    skip_test ("UTF8CONV_IMPL=reference: no kernels to compare");
  else if (want && !found)
    ok (false, "UTF8CONV_IMPL=%s is a kernel set of this machine", want);
  return done_testing ();
}
