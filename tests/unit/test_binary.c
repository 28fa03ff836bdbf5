/* The binary test's byte scan and magic numbers (src/core/binary.c).

   The word-at-a-time scan must find what a byte loop finds: every byte
   value, alone in text, at every position of buffers of every length
   around the 8-byte words and 32-byte rounds, and two control bytes
   where the first one wins.  The magic numbers are tested on a few
   real headers, and on text that starts like one of them.  */

#include <config.h>

#include <stdio.h>
#include <string.h>

#include "binary.h"
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

/* Every byte value B at every position of every length up to 80, in
   text of letters, high bytes and text controls.  */
static void
test_every_byte (void)
{
  static char const filler[] = "ab\tc\xE9\n\xFF\x1B d\r\x1A\x0C\x80 ";
  uint8_t buf[80];
  unsigned int b;
  size_t n, at, wrong = 0;

  for (n = 0; n < sizeof buf; n++)
    buf[n] = (uint8_t) filler[n % (sizeof filler - 1)];
  if (reference (buf, sizeof buf) != -1)
    wrong++;
  for (b = 0; b < 256; b++)
    for (n = 1; n <= sizeof buf; n++)
      for (at = 0; at < n; at++)
        {
          uint8_t saved = buf[at];
          buf[at] = (uint8_t) b;
          if (binary_scan_bytes (buf, n) != reference (buf, n))
            {
              if (wrong++ < 5)
                diag ("byte %02X at %zu of %zu: %jd, not %jd", b, at, n,
                      (intmax_t) binary_scan_bytes (buf, n),
                      (intmax_t) reference (buf, n));
            }
          buf[at] = saved;
        }
  ok (wrong == 0, "the word scan finds each byte value where a byte loop"
      " does, at every position of every length to 80");
}

/* Two control bytes: the first one is named, in the same word or not.  */
static void
test_first_wins (void)
{
  uint8_t buf[64];
  size_t i, j, wrong = 0;

  for (i = 0; i < sizeof buf; i++)
    for (j = i + 1; j < sizeof buf; j++)
      {
        memset (buf, 'x', sizeof buf);
        buf[i] = 0x01;
        buf[j] = 0x00;
        wrong += binary_scan_bytes (buf, sizeof buf) != (int64_t) i;
      }
  ok (wrong == 0, "of two control bytes, the first one is found");
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
  setvbuf (stdout, NULL, _IOLBF, 0);
  test_every_byte ();
  test_first_wins ();
  test_magic ();
  test_pe ();
  return done_testing ();
}
