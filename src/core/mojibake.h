/* Mojibake repair (--fix-mojibake): the stage between the decoder and
   the line-ending stage that restores UTF-8 text which was read as
   CP1252 or Latin-1 and written again as UTF-8, once or twice.

   Each decoded character has a byte image when CP1252 or Latin-1 could
   have made it from one byte: U+0080..U+00FF are the bytes 80..FF, and
   CP1252's characters for 80..9F (the euro sign, the curly quotes...)
   are their bytes.  A run of characters whose images are one
   well-formed multi-byte UTF-8 sequence (utf8_sequence decides) is
   replaced by the character that sequence encodes, when that
   character is plausible text (mojibake_plausible); a C1 control is
   restored only when it is part of a character of the second level.  Anything else,
   including a character that cannot continue the run, ends the run
   unrepaired, and that character may start the next one.

   Text damaged twice is restored by a second level running the same
   rule on what the first gives out, where only characters that the
   first level restored have an image: so `ÃƒÂ©' is `Ã©' after the
   first level and `é' after the second, and characters the first level
   left alone are never joined by the second.

   The stage holds at most a few characters across calls, with their
   absolute offsets; the caller flushes them (unrepaired) at a decoding
   error and at the end of the file.  A repaired character stands at
   the offset of its first damaged input byte and for all their
   bytes.  */

#ifndef UTF8CONV_MOJIBAKE_H
#define UTF8CONV_MOJIBAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unicode/unicode.h"

enum
{
  /* The damaged characters one restored character can come from: four
     images at the second level, each from up to three characters.  */
  MOJI_BEFORE_MAX = 12,
  /* The values the stage may give out beyond what it is fed.  */
  MOJI_EXTRA = 8
};

/* One restored character.  */
struct moji_repair
{
  size_t index;                 /* In the stage's output.  */
  uint64_t offset;              /* Of its first damaged input byte.  */
  uint64_t line;                /* Set by the caller.  */
  ucs4_t after;
  unsigned int nbefore;
  ucs4_t before[MOJI_BEFORE_MAX];
};

/* What the stage gives out: values, their offsets relative to the base
   given to the call, and their input byte counts, as a pivot; and the
   repairs among them, in order.  */
struct moji_out
{
  ucs4_t *cp;
  int64_t *off;
  uint8_t *n;
  size_t len;
  struct moji_repair *repairs;
  size_t nrepairs;
};

struct mojibake;

/* A stage fed at most CAP values at a time.  */
struct mojibake *mojibake_new (size_t cap);
void mojibake_free (struct mojibake *);

/* Forget what is held: a new file starts.  */
void mojibake_reset (struct mojibake *);

/* Whether the stage holds characters back.  */
bool mojibake_holds (struct mojibake const *);

/* The ASCII character C went past the stage (a fast path took it).  */
void mojibake_passed (struct mojibake *, ucs4_t c);

/* Feed the decoded values CP[0..N), from OFF[i] + BASE, of N[i] input
   bytes each.  The output is valid until the next call.  */
struct moji_out const *mojibake_feed (struct mojibake *, ucs4_t const *cp,
                                      int64_t const *off, uint8_t const *n,
                                      size_t count, uint64_t base);

/* Give out everything held, unrepaired; offsets are absolute (base
   0).  */
struct moji_out const *mojibake_flush (struct mojibake *);

/* Whether C, restored from a sequence, is taken as text: not in
   U+0700..U+07FF (Syriac, Thaana, NKo: what an
   uppercase letter or `ß' followed by a quotation mark or another
   symbol makes, as in German `„Gruß“'), not a private-use character or
   a noncharacter.  */
bool mojibake_plausible (ucs4_t c);

#endif
