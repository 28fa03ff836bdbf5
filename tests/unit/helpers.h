/* Helpers shared by the C unit tests (tests/unit/test_*.c).

     COUNT, BYTES, STR, VALS   arrays and byte strings as arguments;
     struct sb                 a growing string, NUL bytes allowed;
     hex                       bytes as "61 F1 80" for messages;
     codec                     a codec by name, or "Bail out!";
     rng                       the tests' xorshift32 generator;
     decode_cuts, decode_whole the decoding driver: an input fed in the
                               chunks of a split pattern, every value and
                               error written down as text (see below);
     splits_agree              the same input split at every byte, at
                               every pair of points, with empty chunks
                               and small pivots, gives the same text;
     covers_input              the values and errors of a whole decode
                               cover the input exactly.

   A decode is written down as text, items separated by spaces:

     value      "%X"          e.g. "61", or "61@0" with its input offset
     error      "!XX.YY@OFF:KIND", e.g. "!F1.80.80@1:TRUNC"

   A broken contract (input left unconsumed, bytes of an error that are
   not the input's, a partial sequence left in the decoder after the last
   buffer, ...) shows up as a "?what" item.

   Nothing here prints a TAP line: tap.h's counters are per program, and
   each test program owns its own.  */

#ifndef UTF8CONV_TEST_HELPERS_H
#define UTF8CONV_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"

#if defined __GNUC__
# define HELPERS_PRINTF(f, a) __attribute__ ((format (printf, f, a)))
#else
# define HELPERS_PRINTF(f, a)
#endif

#define COUNT(a) (sizeof (a) / sizeof (a)[0])

/* Byte strings and value arrays as arguments: pointer, length.  */
#define BYTES(...)                                                      \
  (uint8_t const[]) { __VA_ARGS__ },                                    \
  sizeof ((uint8_t const[]) { __VA_ARGS__ })
#define STR(s) (uint8_t const *) (s), sizeof (s) - 1
#define VALS(...)                                                       \
  (ucs4_t const[]) { __VA_ARGS__ },                                     \
  COUNT (((ucs4_t const[]) { __VA_ARGS__ }))

/* A growing string.  */
struct sb
{
  char *s;
  size_t len, cap;
};

void sb_printf (struct sb *b, char const *fmt, ...) HELPERS_PRINTF (2, 3);
/* Append the N bytes of S, NUL bytes included.  */
void sb_append (struct sb *b, char const *s, size_t n);
/* The text so far ("" when nothing was written).  */
char const *sb_str (struct sb *b);
void sb_free (struct sb *b);

/* S[0..N) as hex bytes separated by spaces, in one of four static
   buffers (so that one message can show a few).  */
char const *hex (uint8_t const *s, size_t n);

/* The codec called NAME in the registry; "Bail out!" if there is none.  */
struct codec const *codec (char const *name);

/* The state of rng; a program sets it to choose its sequence.  */
extern uint32_t rng_state;
/* The next value of a xorshift32 generator.  */
uint32_t rng (void);

/* Whether the program runs its quick form: UTF8CONV_QUICK is set and
   not empty.  CI sets it where a program runs some 20 to 50 times
   slower, under valgrind and under qemu-user (.ci/run, tests/check-ports
   --cli=some), and what counts there is that every path runs, not every
   case: the long loops then take every STEP-th case (quick_step (STEP)
   is STEP there, 1 elsewhere).  Every other run (plain, each kernel
   set, ASan) takes them all.  */
bool test_quick (void);
size_t quick_step (size_t step);

/* One decode, written down as text.  */
struct collect
{
  uint8_t const *in;            /* The whole input.  */
  size_t n;
  struct decoder dec;
  struct sb full;               /* Values with their offsets.  */
  struct sb plain;              /* Values without.  */
  int64_t next;                 /* Where the next item should start.  */
  size_t values, newlines;
};

/* Decode IN[0..N) with CD cut at CUTS[0..NCUTS) (nondecreasing offsets;
   equal ones make empty chunks), with LAST on the final chunk, or on an
   extra empty chunk when FINAL_EMPTY.  The pivot holds PCAP values.  */
void decode_cuts (struct collect *c, struct codec const *cd, bool lone_ok,
                  uint8_t const *in, size_t n, size_t const *cuts,
                  size_t ncuts, bool final_empty, size_t pcap);
/* The same, IN whole with a roomy pivot.  */
void decode_whole (struct collect *c, struct codec const *cd, bool lone_ok,
                   uint8_t const *in, size_t n);
void collect_free (struct collect *c);

/* Check that every split pattern of IN[0..N), N <= 64, gives REF (the
   whole decode, with offsets).  On a mismatch, describe it in WHY.  */
bool splits_agree (struct codec const *cd, bool lone_ok, uint8_t const *in,
                   size_t n, char const *ref, struct sb *why);

/* Check that the values and errors of the whole decode cover IN[0..N)
   exactly, in order, and that each value encodes back to its own bytes;
   on failure, say why in WHY.  */
bool covers_input (struct codec const *cd, bool lone_ok, uint8_t const *in,
                   size_t n, struct sb *why);

/* Whether iconv(3) knows each of the COUNT charsets NAMES.  musl's knows
   few, and glibc's under qemu-user only its built-in ones (Debian's
   cross libc packages ship no gconv modules): when one is missing, the
   test program's whole plan is printed as skipped, naming it, unless
   UTF8CONV_ICONV_COMPLETE says this iconv(3) must know them all
   (configure.ac), where "Bail out!" makes it a failure.  The caller then
   returns 0 at once.  */
bool iconv_has_all (char const *const *names, size_t count);

#endif
