/* The single-byte charsets of iconv(3) as tables (see iconv_table.c).  */

#ifndef UTF8CONV_ICONV_TABLE_H
#define UTF8CONV_ICONV_TABLE_H

#include <stdbool.h>

#include "../codec.h"

/* A byte that iconv(3) leaves undefined, in a decode table.  */
#define TABLE_UNDEFINED UINT32_C (0xFFFFFFFF)

/* The table codec of the charset NAME (uppercased, known to iconv(3)
   both ways), or NULL when its decoder is not one byte per character
   without state.  Each charset is probed once per process: asking again
   for the same name costs a look-up.  */
struct codec const *iconv_table_find (char const *name);

/* The decode table of C (256 values, TABLE_UNDEFINED where iconv(3)
   defines nothing), or NULL when C is not a table codec.  */
ucs4_t const *iconv_table_of (struct codec const *c);

struct enc_memo;

/* The encoder's memo of the table codec C (iconv_memo.h), or NULL when C
   is not a table codec: fast.c's path from UTF-8 reads it.  */
struct enc_memo const *iconv_table_memo (struct codec const *c);

#endif
