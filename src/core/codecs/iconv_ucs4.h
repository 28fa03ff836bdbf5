/* Which UCS-4 the iconv(3) bridge and tables give iconv_open: glibc's
   own, WCHAR_T, where it reads and writes what UTF-32LE does for every
   value the bridge may meet (iconv_ucs4.c).  */

#ifndef UTF8CONV_ICONV_UCS4_H
#define UTF8CONV_ICONV_UCS4_H

#include <stdbool.h>

/* Whether iconv(3)'s WCHAR_T is UCS-4 in the machine's order (glibc's
   own form, one step where UTF-32LE is two: the probes of a charset
   open then take half the instructions).  */
bool memo_host_form (void);

/* The name to give iconv_open for UCS-4: "WCHAR_T" where memo_host_form
   holds on a little-endian machine, whose bytes are then UTF-32LE's for
   every Unicode scalar value; else "UTF-32LE".  glibc opens WCHAR_T as
   its own form, without loading its UTF-32 module (0.06 ms of every
   start here), and converts in one step where UTF-32LE takes two.  But
   WCHAR_T lets through what UTF-32LE refuses, surrogates and values
   above U+10FFFF: an encoder's input has neither (the pipeline stops
   them before), and a decoder uses it only where memo_ucs4_from says.  */
char const *memo_ucs4 (void);

/* The name of UCS-4 to decode FROMCODE into: memo_ucs4 (), unless its
   decoder gives a value outside Unicode's scalar values to WCHAR_T from
   one of a few witnesses (UTF-8's of five bytes or above U+10FFFF, a
   surrogate in UTF-8, UTF-7, UTF-7-IMAP, UTF-16 or UCS-4), where
   UTF-32LE stops it as iconv(1) does: glibc's UTF-8, UTF-7 and UCS-4
   under each of their names (tests/unit/test_iconv_reference.c checks
   every charset).  */
char const *memo_ucs4_from (char const *fromcode);

#endif
