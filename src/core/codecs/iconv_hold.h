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
  HOLD_PLAIN,                   /* Gives its value at once, and gives a
                                   held letter out before it.  */
  HOLD_HELD,                    /* Held back as its value, and gives a
                                   held letter out.  */
  HOLD_MARK,                    /* As HOLD_PLAIN, but after a held letter
                                   gives what the two compose to, where
                                   they do (CP1258's marks).  */
  HOLD_STOP                     /* Anything else: iconv(3) decides.  The
                                   last two, for one test of both.  */
};

/* Marks a table may know; letters composed and held again (CP1255's
   shin with shin dot, until a dagesh may follow) it may know, and the
   marks that may lead to one from a held byte.  */
enum { HOLD_MARKS = 32, HOLD_COMPOSED = 64, HOLD_PATH = 4 };
enum { HOLD_STATES = 256 + HOLD_COMPOSED };

/* What a mark does after a held letter (hold_table.act): 0, give the
   letter and then its own value, as a HOLD_PLAIN byte; HOLD_GIVE and a
   value, give what the two compose to; HOLD_KEEP and a state, give
   nothing and hold what they compose to, the state's.  */
enum { HOLD_GIVE = 0x40000000, HOLD_KEEP = 0x20000000,
       HOLD_WHAT = 0x1FFFFF };

struct hold_table
{
  uint8_t cls[256];             /* enum hold_class.  */
  uint8_t mark[256];            /* A HOLD_MARK byte's row of ACT.  */
  ucs4_t value[256];
  /* What each state holds: a HOLD_HELD byte's value (states 0-255, by
     the byte), or a letter composed and held again (256 on).  */
  ucs4_t held[HOLD_STATES];
  uint32_t act[HOLD_MARKS][HOLD_STATES];
  unsigned int composed;        /* States from 256 on.  */
  /* The bytes that first led to each of those, from the initial state
     (for the checks of the table).  */
  uint8_t path[HOLD_COMPOSED][HOLD_PATH];
  uint8_t path_len[HOLD_COMPOSED];
  /* No byte that alone is HOLD_PLAIN is HOLD_STOP: for fast.c's path,
     which would stop at each such mark.  */
  bool fast;
  bool marks;                   /* Some byte is HOLD_MARK.  */
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
   Returns the bytes decoded, which end with a HOLD_PLAIN or HOLD_MARK
   byte, after which nothing is held.  */
size_t hold_decode (struct hold_table const *t, struct decoder *d,
                    uint8_t const *in, size_t n, int64_t rel,
                    struct pivot *p, size_t room);

/* hold_decode for the fast paths (fast.c): the values of the bytes
   decoded written as UTF-8 (FORM 0), UTF-16LE (1) or UTF-16BE (2) at
   OUT, of room CAP, their length into *PRODUCED and their line feeds
   into *NEWLINES.  */
size_t hold_decode_form (struct hold_table const *t, uint8_t const *in,
                         size_t n, uint8_t *out, size_t cap,
                         size_t *produced, uint64_t *newlines, int form);

#endif
