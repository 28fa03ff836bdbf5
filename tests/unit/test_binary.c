/* The binary test's byte scan and magic numbers (src/core/binary.c).

   The kernel of every set this machine has (src/simd/controls.c), and
   the reference, must find what a byte loop finds: every byte value,
   alone in text, at every position, in buffers of every length around
   the blocks of 16, 32 and 64 bytes, and of two control bytes the
   first.  The magic numbers are tested on a few
   real headers, and on text that starts like one of them.  */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binary.h"
#include "simd/kernels.h"
#include "tap.h"

/* The reference: a byte loop over the definition of SPEC §12.  */
static int64_t
reference (uint8_t const *buf, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (buf[i] < 0x20 && buf[i] != 0x08 && buf[i] != 0x09 && buf[i] != 0x0A
        && buf[i] != 0x0B && buf[i] != 0x0C && buf[i] != 0x0D
        && buf[i] != 0x1A && buf[i] != 0x1B)
      return (int64_t) i;
  return -1;
}

/* The text around the byte under test: letters, high bytes and text
   controls, so that every block of every set holds some.  */
static void
fill (uint8_t *buf, size_t n)
{
  static char const filler[] = "ab\tc\xE9\n\xFF\x1B d\r\x1A\x0C\x80\b\v ";
  size_t i;
  for (i = 0; i < n; i++)
    buf[i] = (uint8_t) filler[i % (sizeof filler - 1)];
}

/* In the kernel set NAME: every byte value B at every position of a
   buffer of 160 bytes (two blocks of 64 and a tail), and the bad bytes
   next to the text controls at every position of every length up to
   160.  */
static void
test_every_byte (char const *name)
{
  static uint8_t const edges[] = { 0x00, 0x07, 0x0E, 0x0F, 0x10, 0x19,
                                   0x1C, 0x1F };
  uint8_t buf[160];
  unsigned int b;
  size_t n, at, k, wrong = 0;

  fill (buf, sizeof buf);
  if (reference (buf, sizeof buf) != -1
      || binary_scan_bytes (buf, sizeof buf) != -1)
    wrong++;
  for (b = 0; b < 256; b++)
    for (at = 0; at < sizeof buf; at++)
      {
        uint8_t saved = buf[at];
        buf[at] = (uint8_t) b;
        if (binary_scan_bytes (buf, sizeof buf) != reference (buf, sizeof buf)
            && wrong++ < 5)
          diag ("byte %02X at %zu: %jd", b, at,
                (intmax_t) binary_scan_bytes (buf, sizeof buf));
        buf[at] = saved;
      }
  for (k = 0; k < sizeof edges; k++)
    for (n = 1; n <= sizeof buf; n++)
      for (at = 0; at < n; at++)
        {
          uint8_t saved = buf[at];
          buf[at] = edges[k];
          if (binary_scan_bytes (buf, n) != (int64_t) at && wrong++ < 5)
            diag ("byte %02X at %zu of %zu: %jd", edges[k], at, n,
                  (intmax_t) binary_scan_bytes (buf, n));
          buf[at] = saved;
        }
  ok (wrong == 0, "%s: the scan finds each byte value where a byte loop"
      " does, at every position", name);
}

/* Two control bytes: the first one is named, in the same block or
   not.  */
static void
test_first_wins (char const *name)
{
  uint8_t buf[150];
  size_t i, j, wrong = 0;

  for (i = 0; i < sizeof buf; i++)
    for (j = i + 1; j < sizeof buf; j++)
      {
        fill (buf, sizeof buf);
        buf[i] = 0x01;
        buf[j] = 0x00;
        wrong += binary_scan_bytes (buf, sizeof buf) != (int64_t) i;
      }
  ok (wrong == 0, "%s: of two control bytes, the first one is found", name);
}

static void
test_magic (void)
{
  static struct
  {
    char const *bytes;
    size_t len;
    char const *format;
  } const cases[] = {
    { "\x89PNG\r\n\x1A\n\0\0\0\rIHDR", 16, "PNG" },
    { "\xFF\xD8\xFF\xE0\0\x10JFIF", 10, "JPEG" },
    { "%PDF-1.4\n%\xE2\xE3\xCF\xD3", 14, "PDF" },
    { "BZh91AY&SY", 10, "bzip2" },
    { "RIFF\x24\x08\0\0WAVEfmt ", 16, "WAV" },
    { "\xDE\x12\x04\x95\0\0\0\0", 8, "gettext catalogue" },
    { "\x95\x04\x12\xDE\0\0\0\0", 8, "gettext catalogue" },
    { "\xCA\xFE\xBA\xBE\0\0\0\x3D", 8, "Java class" },
    { "SQLite format 3", 16, "SQLite" },
    /* Text that starts like a magic number.  */
    { "BZh9 is a block size", 20, NULL },
    { "RIFF is a riff", 14, NULL },
    { "MZ and more", 11, NULL },
    { "OTTO von Bismarck", 17, NULL },
    { "\xFF\xD8\xFF", 3, NULL },
    { "GIF is a format", 15, NULL },
  };
  size_t k;

  for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
    {
      char const *got = binary_magic ((uint8_t const *) cases[k].bytes,
                                      cases[k].len);
      ok (got == cases[k].format
          || (got && cases[k].format && strcmp (got, cases[k].format) == 0),
          "magic of case %zu: %s", k, got ? got : "none");
    }
}

/* A PE file: MZ, and at the offset that 0x3C holds, PE\0\0.  */
static void
test_pe (void)
{
  uint8_t buf[0x90];
  memset (buf, 0, sizeof buf);
  memcpy (buf, "MZ\x90", 3);
  buf[0x3C] = 0x80;
  ok (binary_magic (buf, sizeof buf) == NULL, "MZ without PE is not PE");
  memcpy (buf + 0x80, "PE\0\0", 4);
  ok (binary_magic (buf, sizeof buf)
      && strcmp (binary_magic (buf, sizeof buf), "PE executable") == 0,
      "MZ with its PE header is PE");
  buf[0x3C] = 0xFF;
  ok (binary_magic (buf, sizeof buf) == NULL,
      "a PE offset beyond the bytes read is not PE");
}

int
main (void)
{
  char const *const *names = kernels_available ();
  size_t k;

  setvbuf (stdout, NULL, _IOLBF, 0);
  /* Each kernel set this machine has, and the reference (no kernels).  */
  for (k = 0; names[k]; k++)
    {
      setenv ("UTF8CONV_IMPL", names[k], 1);
      ok (kernels_select (), "%s: selected", names[k]);
      test_every_byte (names[k]);
      test_first_wins (names[k]);
    }
  test_magic ();
  test_pe ();
  return done_testing ();
}
