/* The iconv(3) bridge's decoding of single-byte charsets whose decoder
   holds a letter back until the next byte shows that no mark composes
   with it (glibc's CP1255, CP1258, TCVN): what their bytes do, found
   out once per charset, so that text without marks is decoded without
   iconv(3), with the values, offsets and lengths that the bridge's
   one-byte-per-call decoding gives (see iconv_hold.c).  */

#ifndef UTF8CONV_ICONV_HOLD_H
#define UTF8CONV_ICONV_HOLD_H

#include <stddef.h>
#include <stdint.h>

#include "../codec.h"

/* What a byte does, from the initial state and after a held letter.  */
enum hold_class
{
  HOLD_STOP,                    /* Anything else: iconv(3) decides.  */
  HOLD_PLAIN,                   /* Gives its value at once, and gives a
                                   held letter out before it.  */
  HOLD_HELD                     /* Held back as its value, and gives a
                                   held letter out.  */
};

struct hold_table
{
  uint8_t cls[256];             /* enum hold_class.  */
  ucs4_t value[256];
};

struct memo_charset;

/* Bytes consumed without a value before the table is made.  */
enum { HOLD_AFTER = 64 };

/* The table of the charset FROMCODE, whose probe results are CS, or
   NULL when iconv(3) cannot open it or no byte is held back: made once,
   at the HOLD_AFTER-th call (a byte consumed without a value; NULL
   before), kept in CS.  */
struct hold_table const *hold_table_of (struct memo_charset *cs,
                                        char const *fromcode);

/* Decode IN[0..N), at offset REL of the buffer, into P as the bridge's
   calls would, from the initial state (nothing held, nothing consumed
   without a value), while P has room for ROOM values after each value;
   stop where the bytes since the last HOLD_PLAIN one could not be
   decoded so (a HOLD_STOP byte, the end of IN, or P full), and take
   back what those gave: the bridge decodes them again with iconv(3).
   Returns the bytes decoded, which end with a HOLD_PLAIN byte, after
   which nothing is held.  */
size_t hold_decode (struct hold_table const *t, struct decoder *d,
                    uint8_t const *in, size_t n, int64_t rel,
                    struct pivot *p, size_t room);

#endif
