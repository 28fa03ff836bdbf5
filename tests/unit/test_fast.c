/* The fast kernels agree with the state machine, for every implementation
   this machine has.

   Inputs of every length 0..300 at every alignment 0..31, mostly
   well-formed text with a few broken bytes, plus Kuhn's stress file when
   it is there.  The reference is the scalar decoder and encoders of
   src/codecs/, which the other unit tests check against Unicode.  Output
   buffers have exactly the documented size, so that ASan sees any
   overrun.  */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "registry.h"
#include "simd/kernels.h"
#include "tap.h"

static uint32_t rng = 2463534242u;

/* A test that cannot run here: "ok N # SKIP reason".  */
static void
skip_test (char const *reason)
{
  tap_count++;
  printf ("ok %d # SKIP %s\n", tap_count, reason);
}

static uint32_t
next_random (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
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
    "abcdefghijklmnopqrstuvwxyz0123456789"
  };
  static uint8_t const bad[] = { 0x80, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF0,
                                 0xF4, 0xF5, 0xFF, 0xC3, 0xE2 };
  size_t i = 0;
  while (i < n)
    {
      char const *p = pieces[next_random () % (sizeof pieces
                                               / sizeof pieces[0])];
      size_t len = strlen (p);
      if (len > n - i)
        len = n - i;
      memcpy (s + i, p, len);
      i += len;
    }
  for (i = 0; n > 0 && i < breakage; i++)
    s[next_random () % n] = bad[next_random () % sizeof bad];
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
  struct pivot p = { cp, off, 0, 512 };
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
  struct codec const *f = registry_find (from), *t = registry_find (to);
  struct decoder d;
  struct encoder e;
  ucs4_t *cp = malloc ((n + 1) * sizeof *cp);
  int64_t *off = malloc ((n + 1) * sizeof *off);
  struct pivot p = { cp, off, 0, n + 1 };
  uint8_t *out = malloc (4 * n + MAX_ENCODED);
  size_t len = n, count, o = 0;

  decoder_init (&d, f);
  d.lone_surrogates_ok = false;
  f->decode (&d, s, &len, true, &p);
  encoder_init (&e, t);
  count = p.len;
  t->encode (&e, cp, &count, out, &o, 4 * n + MAX_ENCODED);
  free (cp);
  free (off);
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
          used = kernels->utf16_to_utf8 (ref, rlen / 2, back, &produced, big);
          if (used != rlen / 2 || produced != got
              || memcmp (back, s, got) != 0)
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
  struct pivot p = { cp, off, 0, 700 };
  size_t len = 2 * units, want, used, produced, rlen;
  uint8_t *out = malloc (3 * units + 1), *ref;
  bool good;

  decoder_init (&d, c);
  if (c->decode (&d, s, &len, true, &p) == DECODE_MALFORMED)
    want = (size_t) d.error.rel_offset / 2;
  else
    want = units;
  used = kernels->utf16_to_utf8 (s, units, out, &produced, big);
  ref = reference_convert (s, 2 * used, big ? "UTF-16BE" : "UTF-16LE",
                           "UTF-8", &rlen);
  good = used == want && produced == rlen && memcmp (out, ref, rlen) == 0;
  free (out);
  free (ref);
  return good;
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
    for (n = 0; n <= 300; n++)
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
  for (n = 0; n <= 150; n++)
    for (a = 0; a < 32; a += 5)
      {
        uint8_t *s = buf + a;
        size_t k;
        static unsigned int const units[] = { 0x41, 0x0A, 0xE9, 0x20AC,
                                              0xD83D, 0xDE00, 0xD800,
                                              0xDC00, 0xFFFF, 0x7FF, 0x800 };
        for (k = 0; k < n; k++)
          {
            unsigned int u = units[next_random () % (sizeof units
                                                     / sizeof units[0])];
            /* Mostly proper pairs.  */
            if (u == 0xD83D && k + 1 < n && next_random () % 4)
              {
                s[2 * k] = 0x3D, s[2 * k + 1] = 0xD8;
                k++;
                u = 0xDE00;
              }
            s[2 * k] = (uint8_t) u;
            s[2 * k + 1] = (uint8_t) (u >> 8);
          }
        cases++;
        if (!check_utf16_kernel (s, n, false))
          {
            if (failures++ < 5)
              diag ("%s: UTF-16 kernel disagrees, %zu units", name, n);
          }
      }
  ok (failures == 0, "%s: UTF-16 kernel agrees on %zu inputs", name, cases);
  free (buf);
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
  for (step = 1; step <= 64; step++)
    for (i = 0; i < n; i += step)
      if (!check_utf8_kernels (data + i, n - i < 4 * step ? n - i : 4 * step))
        failures++;
  ok (failures == 0, "%s: kernels agree on UTF-8-test.txt", name);
}

int
main (void)
{
  char const *const *names = kernels_available ();
  size_t i;

  for (i = 0; names[i]; i++)
    if (strcmp (names[i], "reference") != 0)
      {
        test_implementation (names[i]);
        test_kuhn (names[i]);
      }
  return done_testing ();
}
