/* The vocabulary every layer shares: a Unicode scalar value (or a lone
   surrogate) and the reasons why bytes are not well-formed text.  This
   folder is the bottom layer: it includes nothing of the others.  */

#ifndef UTF8CONV_UNICODE_H
#define UTF8CONV_UNICODE_H

#include <stdint.h>

typedef uint32_t ucs4_t;

/* Why a sequence is ill-formed, or why a character cannot be encoded.  */
enum err_kind
{
  ERR_NONE = 0,
  ERR_CONTINUATION,     /* A continuation byte where a character starts.  */
  ERR_TRUNCATED,        /* A sequence cut short.  */
  ERR_OVERLONG,         /* A longer form than the character needs.  */
  ERR_SURROGATE,        /* An encoded surrogate code point.  */
  ERR_TOO_BIG,          /* A value beyond U+10FFFF.  */
  ERR_INVALID_BYTE,     /* A byte that never occurs in the encoding.  */
  ERR_LONE_SURROGATE,   /* An unpaired UTF-16 surrogate unit.  */
  ERR_UNENCODABLE,      /* A character the output encoding cannot hold.  */
  ERR_UNDEFINED,        /* A byte that a legacy code page leaves undefined
                           (diagnostics name the code page).  */
  ERR_KIND_COUNT
};

#endif
