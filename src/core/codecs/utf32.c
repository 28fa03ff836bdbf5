/* UTF-32LE, UTF-32BE and UTF-32 (aliases UCS-4LE, UCS-4BE).

   Specification: Unicode 15, §3.9 (D90: UTF-32).  Each code unit is one
   scalar value: a unit above 10FFFF or in D800..DFFF is ill-formed, one
   error per 4-byte unit (surrogate units pass through when the decoder is
   told to, as for UTF-16).  An incomplete unit at the end of input is one
   error.  Unmarked "UTF-32" input is read by the decoder of unmarked.c,
   which chooses the byte order of each file (FF FE 00 00 or
   00 00 FE FF, else the first unit that is a scalar value in one byte
   order only, else big-endian); output is a BOM plus little-endian.  */

#include <config.h>

#include "codecs.h"
#include "step.h"

static inline ucs4_t
get32 (uint8_t const *s, enum endian e)
{
  if (e == ENDIAN_LITTLE)
    return s[0] | (ucs4_t) s[1] << 8 | (ucs4_t) s[2] << 16
           | (ucs4_t) s[3] << 24;
  return (ucs4_t) s[0] << 24 | (ucs4_t) s[1] << 16 | (ucs4_t) s[2] << 8
         | s[3];
}

static inline void
put32 (uint8_t *s, ucs4_t u, enum endian e)
{
  int k;
  for (k = 0; k < 4; k++)
    s[e == ENDIAN_LITTLE ? k : 3 - k] = (uint8_t) (u >> (8 * k));
}

static inline int
utf32_step (struct decoder *d, uint8_t const *s, size_t n, bool last,
            ucs4_t *cp, enum err_kind *kind)
{
  ucs4_t u;

  if (n < 4)
    {
      if (!last)
        return STEP_TOOFEW;
      *kind = ERR_TRUNCATED;
      return -(int) n;
    }
  u = get32 (s, d->endian);
  if (0x10FFFF < u)
    {
      *kind = ERR_TOO_BIG;
      return -4;
    }
  if (0xD800 <= u && u < 0xE000 && !d->lone_surrogates_ok)
    {
      *kind = ERR_SURROGATE;
      return -4;
    }
  *cp = u;
  return 4;
}

static inline int
utf32_encode_step (struct encoder *e, ucs4_t c, uint8_t *out)
{
  put32 (out, c, e->codec->endian);
  return 4;
}

static DEFINE_BATCH_DECODER (utf32_decode, utf32_step, 0)
static DEFINE_BATCH_ENCODER (utf32_encode, utf32_encode_step, 0)

static char const *const utf32le_aliases[] = { "UCS-4LE", "UTF32LE", NULL };
static char const *const utf32be_aliases[] = { "UCS-4BE", "UTF32BE", NULL };
static char const *const utf32_aliases[] = { "UTF32", NULL };

struct codec const codec_utf32le = {
  "UTF-32LE", utf32le_aliases, utf32_decode, utf32_encode, NULL,
  CODEC_UNICODE | CODEC_KEEPS_SURROGATES | CODEC_WIDE_UNITS | CODEC_UNITS_32,
  ENDIAN_LITTLE, NULL, NULL
};

struct codec const codec_utf32be = {
  "UTF-32BE", utf32be_aliases, utf32_decode, utf32_encode, NULL,
  CODEC_UNICODE | CODEC_KEEPS_SURROGATES | CODEC_WIDE_UNITS | CODEC_UNITS_32,
  ENDIAN_BIG, NULL, NULL
};

/* No byte order in the name: the decoder chooses one (unmarked.c);
   the output is a BOM and little-endian.  */
struct stateful_codec const codec_utf32_unmarked = {
  { "UTF-32", utf32_aliases, unmarked_decode, utf32_encode, NULL,
    CODEC_UNICODE | CODEC_KEEPS_SURROGATES | CODEC_WIDE_UNITS
    | CODEC_UNITS_32 | CODEC_BOM_ALWAYS | CODEC_STATEFUL | CODEC_WRAPPER,
    ENDIAN_LITTLE, &codec_utf32be, NULL },
  unmarked_open, unmarked_close, NULL, NULL, unmarked_holds_input,
  unmarked_detected, NULL
};
