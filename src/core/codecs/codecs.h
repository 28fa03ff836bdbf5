/* Every built-in codec, declared once.  Each is defined by the file of
   its family: utf8.c (UTF-8 and its variants), utf16.c, utf32.c and
   single_byte.c; -f auto's is in detect.c.  */

#ifndef UTF8CONV_CODECS_H
#define UTF8CONV_CODECS_H

#include "codec.h"

extern struct codec const codec_utf8;
extern struct codec const codec_cesu8, codec_mutf8, codec_wtf8;
extern struct codec const codec_utf16, codec_utf16le, codec_utf16be;
extern struct codec const codec_utf32, codec_utf32le, codec_utf32be;
extern struct codec const codec_latin1, codec_ascii, codec_cp1252;

#endif
