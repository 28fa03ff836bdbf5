/* -f auto beyond CP1252: the legacy code page of text that is not
   well-formed UTF-8 (SPEC §13), chosen by language models.  */

#ifndef UTF8CONV_DETECT_SCORE_H
#define UTF8CONV_DETECT_SCORE_H

#include "codec.h"

/* The value of a byte that a code page leaves undefined.  */
#define LEGACY_UNDEFINED 0xFFFFFFFFu

/* Whether C decodes every byte alone, with bytes below 0x80 as ASCII
   (a single-byte, ASCII-compatible code page); if so, TABLE gets the
   values of the bytes 80..FF (LEGACY_UNDEFINED for a byte it leaves
   undefined).  */
bool legacy_single_byte (struct codec const *c, uint32_t table[128]);

/* What legacy_detect chose.  */
struct legacy_verdict
{
  struct codec const *codec;    /* The code page.  */
  bool multi_byte;              /* It decodes the whole file.  */
  enum legacy_how how;
  unsigned int confidence;      /* In hundredths, 0..100.  */
};

/* Choose the code page of the window WIN[0..N), which starts at the
   file's first byte above 0x7F and holds an ill-formed UTF-8 sequence;
   LAST when the file ends with it.  RELEASED is the set of ASCII bytes
   (bit B of RELEASED[B / 64]) that came before the window: a multi-byte
   candidate that does not read one of them as ASCII is left out.  */
void legacy_detect (uint8_t const *win, size_t n, bool last,
                    uint64_t const released[2], struct legacy_verdict *);

/* Add to RELEASED (bit B of RELEASED[B / 64]) the bytes of the ASCII
   text IN[0..N) that a multi-byte candidate reads as something else
   (glibc's SHIFT_JIS reads 5C as U+00A5): the only ones legacy_detect
   looks at.  */
void legacy_release (uint8_t const *in, size_t n, uint64_t released[2]);

/* Whether the window WIN[0..N) (from the file's first byte above 0x7F;
   LAST when the file ends with it), which holds an ill-formed UTF-8
   sequence, is mixed UTF-8 + X rather than legacy X, for the
   single-byte code page X whose values of the bytes 80..FF are TABLE:
   only when its well-formed multi-byte UTF-8 sequences are evidence of
   UTF-8: they are not a few among many bytes C2..DF that start
   ill-formed sequences (chance pairs of Greek, Cyrillic or Arabic legacy
   text), and the window read as mixed (those sequences as UTF-8, the
   other bytes as X) costs less in X's best language than read wholly
   as X.  */
bool legacy_reads_mixed (uint8_t const *win, size_t n, bool last,
                         struct codec const *x, uint32_t const table[128]);

#endif
