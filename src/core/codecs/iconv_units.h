/* The iconv(3) bridge's runs of code units: the Unicode forms of fixed
   code units (UCS-2, UCS-4, UNICODE and their other names), converted a
   run per iconv() call instead of a character per call (see
   iconv_units.c for when that is exact).  */

#ifndef UTF8CONV_ICONV_UNITS_H
#define UTF8CONV_ICONV_UNITS_H

#include <iconv.h>
#include <stddef.h>
#include <stdint.h>

#include "../codec.h"

/* The code unit of the charset NAME in bytes, 2 or 4, when iconv(3)
   converts it as a Unicode form of fixed units both ways (as a probe
   finds out, never from the name); 0 otherwise.  */
unsigned int units_probe (char const *name);

/* A decoder's byte order, as far as a run has shown it.  */
enum { UNITS_UNKNOWN = -1, UNITS_LITTLE, UNITS_BIG };

/* Decode with CD, whose code unit is UNIT, a run of IN[0..N) into P (at
   most MAX values), from where no character is begun; REL is the
   offset of IN[0] in the buffer.  The run stops before a unit that
   reads as a byte order mark in either order, and where iconv() stops
   (an error, an incomplete character): those are the bridge's, one
   character per call.  Once a run has shown the decoder's byte order
   (*ORDER, UNITS_UNKNOWN until then; the caller sets it back whenever
   the bridge converts something itself), the plain units (no
   surrogate, no byte order mark) are read without iconv().  Returns the bytes consumed, all of them given to
   the values pushed, and sets *LAST to the offset in IN of the last
   one.  Sets *EXACT to false if the values' lengths did not add up to
   the bytes consumed (never seen: the decoder should then stop using
   runs).  */
size_t units_decode (iconv_t cd, unsigned int unit, int *order,
                     struct decoder *d, uint8_t const *in, size_t n, int64_t rel,
                     struct pivot *p, size_t max, size_t *last,
                     bool *exact);

/* For fast.c's path to UTF-8: decode to UTF-8 in OUT[0..CAP) the plain
   units (as units_decode reads without iconv(): no surrogate, nothing
   that reads as a byte order mark) at the start of IN[0..N), of UNIT
   bytes in the byte order ORDER, once known.  Returns the bytes used
   (0 while ORDER is UNITS_UNKNOWN); sets *PRODUCED and *NEWLINES.  */
size_t units_decode_utf8 (unsigned int unit, int order, uint8_t const *in,
                          size_t n, uint8_t *out, size_t cap,
                          size_t *produced, uint64_t *newlines);

/* Encode with CD, whose code unit is UNIT, a run of CP[0..COUNT) into
   OUT from *O on (CAP bytes in all), leaving room for the bridge's own
   next character; only values that every such form encodes to one
   unit, or to one UCS-4 unit.  Returns the values encoded (CP[return]
   is where the bridge takes over) and moves *O on.  Sets *EXACT to
   false when iconv() said it converted something irreversibly, which
   the run cannot tell apart (never seen without //TRANSLIT).  Once a
   run has shown the byte order (*ORDER, as for units_decode; the caller
   sets it back whenever iconv() is called otherwise, or flushed), the
   plain values are written without iconv().  */
size_t units_encode (iconv_t cd, unsigned int unit, int *order,
                     ucs4_t const *cp, size_t count, uint8_t *out,
                     size_t *o, size_t cap, bool *exact);

/* What the decoder of a Unicode form without fixed units (UTF-7,
   UTF-7-IMAP) does with each ASCII byte, found by a probe from FROMCODE
   into CLASS[0..128), as bits:
   - RUN_DIRECT: from the initial state, the byte alone gives its own
     value and leaves the decoder where letters still read as
     themselves;
   - RUN_ENDS: consumed after a shift into base64 and 0, 1, 2 or 3
     UTF-16 units of zero bits (where no bits of the next are pending),
     and in the initial state, it leaves the decoder in a state where
     letters read as themselves: base64 is over.
   A byte of neither is for iconv() alone.  CLASS is all 0 when the
   charset is not such a form.  Returns the byte that shifts into
   base64 (and with '-' after it gives itself), or -1 when none does,
   and then no byte is of RUN_ENDS.  */
enum { RUN_DIRECT = 1, RUN_ENDS = 2 };
int units_probe_runs (char const *fromcode, uint8_t class[128]);

/* For the decoder's runs (iconv_bridge.c) and the encoder's
   (iconv_encode.c): the fewest bytes of text given at once for which
   the probe is asked (fewer for the fuzzer's short inputs, at most 4
   KiB), and the bytes or characters of RUN_DIRECT in a row after one
   of RUN_ENDS that end a run of iconv() there.  */
#ifdef UTF8CONV_FUZZING
enum { RUN_PROBE_MIN = 16 };
#else
enum { RUN_PROBE_MIN = 4096 };
#endif
enum { RUN_DIRECT_MIN = 16 };

/* The same for the encoder of such a form to TOCODE: RUN_DIRECT, the
   character from the initial state is written as its byte and leaves
   the encoder where it was; RUN_ENDS, after 1 to 3 characters that
   need base64 (U+00E9), it is written as its byte too, with the
   letters after it as theirs: base64 is over.  */
void units_probe_enc_runs (char const *tocode, uint8_t class[128]);

#endif
