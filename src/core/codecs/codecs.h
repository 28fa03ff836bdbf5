/* Every built-in codec, declared once.  Each is defined by the file of
   its family: utf8.c (UTF-8 and its variants), utf16.c, utf32.c and
   single_byte.c; -f auto's is in detect.c.  The decoder of UTF-16 and
   UTF-32 without a byte order in the name is in unmarked.c.  */

#ifndef UTF8CONV_CODECS_H
#define UTF8CONV_CODECS_H

#include "codec.h"

extern struct codec const codec_utf8;
extern struct codec const codec_cesu8, codec_mutf8, codec_wtf8;
extern struct codec const codec_utf16le, codec_utf16be;
extern struct codec const codec_utf32le, codec_utf32be;

/* UTF-16 and UTF-32 are stateful codecs (their decoder wraps the
   decoder of the byte order it chooses); their struct codec is a
   member.  */
extern struct stateful_codec const codec_utf16_unmarked;
extern struct stateful_codec const codec_utf32_unmarked;
#define codec_utf16 (codec_utf16_unmarked.codec)
#define codec_utf32 (codec_utf32_unmarked.codec)

/* The decoder of UTF-16 and UTF-32 without a byte order in the name
   (unmarked.c), for either, as its flags say (CODEC_UNITS_32).  */
decode_fn unmarked_decode;
void unmarked_open (struct decoder *);
void unmarked_close (struct decoder *);
bool unmarked_holds_input (struct decoder const *);
bool unmarked_detected (struct decoder const *, struct detection *);

/* The BOM-less form that COUNT shows by the two rules of nulpattern.h
   (in unmarked.c, where the codecs are known): UTF-16LE or BE by the
   NUL pattern, else UTF-32LE or BE by nul_pattern_verdict32, else
   NULL; *UNDECIDED (and NULL) while more bytes could still change the
   answer (never when FINAL).  */
struct nul_count;
struct codec const *nul_pattern_codec (struct nul_count const *count,
                                       bool final, bool *undecided);

/* nul_pattern_codec for the window BUF[0..N): NULL also while
   undecided (N is all there is when COMPLETE, else at least
   NUL_PATTERN_WINDOW bytes).  */
struct codec const *nul_pattern_form (uint8_t const *buf, size_t n,
                                      bool complete);

extern struct codec const codec_latin1, codec_ascii, codec_cp1252;

#endif
