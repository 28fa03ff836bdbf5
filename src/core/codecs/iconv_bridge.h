/* The iconv(3) bridge: encodings that are not built in.  */

#ifndef UTF8CONV_ICONV_BRIDGE_H
#define UTF8CONV_ICONV_BRIDGE_H

#include <locale.h>
#include <stdbool.h>
#include <stdio.h>

#include "codec.h"

/* A codec that converts NAME through iconv(3), or NULL if iconv(3) cannot
   convert NAME in both directions.  With TRANSLIT, the encoder asks
   iconv(3) to transliterate (NAME//TRANSLIT); EXACT, if not NULL, is a
   built-in codec for NAME that is tried first for every character.  The
   codec lives until the program ends; asking again for the same name
   gives the same codec.  */
struct codec const *iconv_bridge_find (char const *name, bool translit,
                                       struct codec const *exact);

struct enc_memo;

/* The encoders' memo of the bridged codec C (iconv_memo.h), which the
   fast path from UTF-8 reads while its `stateful' is false, and lets
   learn ahead (enc_memo_learn_ahead); NULL when C is no bridge or its
   encoders never use one.  */
struct enc_memo *iconv_bridge_enc_memo (struct codec const *c);

/* Whether D is a bridged decoder for which iconv_bridge_decode_utf8
   may go on converting: one that reads with its memo what the memo
   knows (its state, if any, followed across shifts); one that holds
   letters back, with its table (iconv_hold.c) if that has no marks it
   stops at, or may yet have one; or
   one of UTF-7, which converts runs; or one of a Unicode form of fixed
   units (UCS-2, UCS-4), which reads its plain units once a run has
   shown their byte order.  False for good once it has been.  */
bool iconv_bridge_fast_lasts (struct decoder const *d);

/* For fast.c's path to UTF-8: decode a prefix of IN[0..N) with the
   memo of the bridged decoder D (and across shifts, iconv_shift.c), or
   its hold table, as its decode function would, into UTF-8 in
   OUT[0..CAP), up to what the memo does not know; or, for UTF-7, with iconv(3) a run per call, up
   to an error; or a form of fixed units' plain units.  Returns the bytes used; sets *PRODUCED to the
   bytes written and *NEWLINES to the U+000A decoded.  0 (and nothing
   written) while D may not read with its memo, as with bytes carried.  */
size_t iconv_bridge_decode_utf8 (struct decoder *d, uint8_t const *in,
                                 size_t n, uint8_t *out, size_t cap,
                                 size_t *produced, uint64_t *newlines);

/* The same into UTF-16 (big-endian if BIG), for a decoder that reads
   with its memo alone or its hold table (no shifts, runs or units):
   SIZE_MAX for the others, which go through UTF-8.  */
size_t iconv_bridge_decode_utf16 (struct decoder *d, uint8_t const *in,
                                  size_t n, uint8_t *out, size_t cap,
                                  size_t *produced, uint64_t *newlines,
                                  bool big);

/* Whether iconv(3) opens a conversion from FROMCODE to TOCODE.  */
bool iconv_bridge_opens (char const *tocode, char const *fromcode);

/* The locale whose transliteration rules //TRANSLIT follows: glibc's
   C.UTF-8 (LC_CTYPE only), made once; (locale_t) 0 when the machine
   lacks it.  */
locale_t iconv_translit_locale (void);

/* The codec flags of a bridged encoding called NAME (uppercased):
   CODEC_UNICODE for the Unicode forms, with CODEC_WIDE_UNITS for those
   of 16- and 32-bit units.  */
unsigned int iconv_bridge_flags (char const *name);

/* Print a heading saying where they come from, then the names iconv(3)
   offers for which KEEP (called with the name and ARG) is true, one a
   line (GNU libiconv: the names of one charset on one line).  Returns
   false, having printed the heading and a diagnostic, if they cannot be
   listed.  */
bool iconv_bridge_list (FILE *out, bool (*keep) (char const *name,
                                                 void *arg), void *arg);

/* Call FN with each name iconv(3) offers, and ARG.  Returns false,
   silently, if they cannot be listed.  */
bool iconv_bridge_names (void (*fn) (char const *name, void *arg),
                         void *arg);

#endif
