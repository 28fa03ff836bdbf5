/* Every kernel set's UTF-8 validator agrees with the portable one on
   every pair of bytes, and every lead byte of 3 or 4 bytes with every
   second byte and a set of third and fourth bytes, set in ASCII where
   they cross a 16-byte lane or a 64-byte block.  The vector validators hold Table 3-7 of
   Unicode as nibble tables; random text (test_fast) may miss one entry
   of them, these cases reach each.  */

#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simd/kernels.h"
#include "tap.h"

enum { LEN = 160 };

/* Whether the validator of the set in use stops where the portable one
   does, or a little before it but never on well-formed input, with the
   bytes SEQ[0..N) at AT in ASCII.  */
static bool
agrees (uint8_t *buf, size_t at, uint8_t const *seq, size_t n)
{
  size_t want, got;
  memset (buf, 'a', LEN);
  memcpy (buf + at, seq, n);
  want = scalar_utf8_valid_len (buf, LEN);
  got = kernels->utf8_valid_len (buf, LEN);
  return got <= want && (want < LEN || got == LEN)
         && scalar_utf8_valid_len (buf, got) == got;
}

/* The bytes that tell the classes of a third or fourth byte apart.  */
static uint8_t const later[] = { 0x41, 0x80, 0x8F, 0x90, 0xA0, 0xBF, 0xC2 };
enum { LATER = sizeof later };

static void
test_set (char const *name)
{
  /* Across a lane (14..17) and across the first 64-byte block.  */
  static size_t const at[] = { 14, 62 };
  uint8_t buf[LEN], seq[4];
  size_t failures = 0, cases = 0, p;
  unsigned int b0, b1, k;

  setenv ("UTF8CONV_IMPL", name, 1);
  ok (kernels_select () && kernels && strcmp (kernels->name, name) == 0,
      "%s: selected", name);
  for (p = 0; p < 2; p++)
    for (b0 = 0; b0 < 256; b0++)
      for (b1 = 0; b1 < 256; b1++)
        {
          seq[0] = (uint8_t) b0;
          seq[1] = (uint8_t) b1;
          cases++;
          if (!agrees (buf, at[p], seq, 2) && failures++ < 5)
            diag ("%s: %02X %02X at %zu", name, b0, b1, at[p]);
          /* A lead of 3 or 4 bytes: the later bytes too, at one of the
             two places (by the second byte), to keep the test short.  */
          for (k = 0; b0 >= 0xE0 && (b1 & 1) == p && k < LATER * LATER; k++)
            {
              seq[2] = later[k % LATER];
              seq[3] = later[k / LATER];
              if (b0 < 0xF0 && k >= LATER)
                break;
              cases++;
              if (!agrees (buf, at[p], seq, b0 < 0xF0 ? 3 : 4)
                  && failures++ < 5)
                diag ("%s: %02X %02X %02X %02X at %zu", name, b0, b1,
                      seq[2], seq[3], at[p]);
            }
        }
  ok (failures == 0, "%s: the validator agrees with the portable one on "
      "%zu sequences", name, cases);
}

int
main (void)
{
  char const *const *names = kernels_available ();
  char const *want = getenv ("UTF8CONV_IMPL");
  size_t i;

  if (want && !*want)
    want = NULL;
  for (i = 0; names[i]; i++)
    if (strcmp (names[i], "reference") != 0
        && (!want || strcmp (want, names[i]) == 0))
      test_set (names[i]);
  if (tap_count == 0)
    {
      tap_count++;
      printf ("ok 1 # SKIP no kernel set to test here\n");
    }
  return done_testing ();
}
