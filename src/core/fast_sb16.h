/* The fast paths between UTF-16 and a single-byte code page (the
   built-in CP1252 and Latin-1, and the tables of iconv(3), EBCDIC
   included): a table of the byte of each character of the basic plane,
   by pages of 256, read a unit at a time without a branch but the one
   that ends the loop (a unit with no byte: a surrogate, a character the
   page lacks, or one only the encoders' memo knows); and the other
   way, a table of the unit of each byte (up to an undefined one).  */

#ifndef UTF8CONV_FAST_SB16_H
#define UTF8CONV_FAST_SB16_H

#include <stdint.h>

#include "fast_fn.h"

/* Make the table from those of the paths from UTF-8: LOW[C], the byte
   of C below U+0800 or -1; above, where INDEX[C >> 8] is K + 1 (0: no
   page), PAGE[K][C & 0xFF].  */
void fast_sb16_make (int16_t const low[0x800], uint8_t const index[256],
                     int16_t const (*page)[256]);

/* From UTF-16LE and UTF-16BE, through the table last made.  */
fast_fn fast_utf16le_to_sb, fast_utf16be_to_sb;

/* Make the table of the path to UTF-16 from that of the path to UTF-8:
   UTF8[B - FIRST], the UTF-8 form of the byte B (its length in the last
   byte, 0 where B is no character); the bytes below FIRST are ASCII.  */
void fast_sb16_make_decode (uint8_t const (*utf8)[4], unsigned int first);

/* To UTF-16LE and UTF-16BE, through the table last made.  */
fast_fn fast_sb_to_utf16le, fast_sb_to_utf16be;

#endif
