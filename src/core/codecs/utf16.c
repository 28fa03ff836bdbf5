/* UTF-16LE, UTF-16BE and UTF-16.

   Specification: Unicode 15, §3.9 (D91: UTF-16) and RFC 2781.  A code
   unit D800..DBFF must be followed by one in DC00..DFFF; the pair encodes
   U+10000..U+10FFFF.  An unpaired surrogate unit is ill-formed, one error
   per unit, unless the decoder is told to pass lone surrogates through
   (surrogateescape, or WTF-8/MUTF-8 output).  An incomplete tail at the
   end of input (an odd byte, or a high surrogate without room for its
   partner) is one error, as in Python's codecs.

   Unmarked "UTF-16" input is read by the decoder of unmarked.c, which
   chooses the byte order of each file (a BOM, the NUL pattern, else
   big-endian) and then runs the decoder below for it; the BOM itself is
   decoded as U+FEFF and treated as a signature by the pipeline.
   Unmarked output is a BOM plus little-endian.  The byte order is a
   parameter, not a copy of the code.  */

#include <config.h>

#include "codecs.h"
#include "step.h"

static inline unsigned int
get16 (uint8_t const *s, enum endian e)
{
  return e == ENDIAN_LITTLE ? s[0] | (unsigned int) s[1] << 8
                            : (unsigned int) s[0] << 8 | s[1];
}

static inline void
put16 (uint8_t *s, unsigned int u, enum endian e)
{
  uint8_t hi = (uint8_t) (u >> 8), lo = (uint8_t) u;
  s[e == ENDIAN_LITTLE] = hi;
  s[e != ENDIAN_LITTLE] = lo;
}

static inline int
utf16_step (struct decoder *d, uint8_t const *s, size_t n, bool last,
            ucs4_t *cp, enum err_kind *kind)
{
  unsigned int u, u2;

  if (n < 2)
    goto short_input;
  u = get16 (s, d->endian);
  if (u < 0xD800 || 0xE000 <= u)
    {
      *cp = u;
      return 2;
    }
  if (u < 0xDC00)
    {
      if (n < 4)
        {
          if (d->lone_surrogates_ok && last)
            goto lone;
          goto short_input;
        }
      u2 = get16 (s + 2, d->endian);
      if (0xDC00 <= u2 && u2 < 0xE000)
        {
          *cp = 0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00);
          return 4;
        }
    }
 lone:
  if (d->lone_surrogates_ok)
    {
      *cp = u;
      return 2;
    }
  *kind = ERR_LONE_SURROGATE;
  return -2;

 short_input:
  if (!last)
    return STEP_TOOFEW;
  *kind = ERR_TRUNCATED;
  return -(int) n;
}

static inline int
utf16_encode_step (struct encoder *e, ucs4_t c, uint8_t *out)
{
  enum endian en = e->codec->endian;
  if (c < 0x10000)
    {
      put16 (out, c, en);
      return 2;
    }
  c -= 0x10000;
  put16 (out, 0xD800 + (c >> 10), en);
  put16 (out + 2, 0xDC00 + (c & 0x3FF), en);
  return 4;
}

static DEFINE_BATCH_DECODER (utf16_decode, utf16_step, 0)
static DEFINE_BATCH_ENCODER (utf16_encode, utf16_encode_step, 0)

static char const *const utf16le_aliases[] = { "UTF16LE", NULL };
static char const *const utf16be_aliases[] = { "UTF16BE", NULL };
static char const *const utf16_aliases[] = { "UTF16", NULL };

struct codec const codec_utf16le = {
  "UTF-16LE", utf16le_aliases, utf16_decode, utf16_encode, NULL,
  CODEC_UNICODE | CODEC_KEEPS_SURROGATES | CODEC_WIDE_UNITS,
  ENDIAN_LITTLE, NULL, NULL
};

struct codec const codec_utf16be = {
  "UTF-16BE", utf16be_aliases, utf16_decode, utf16_encode, NULL,
  CODEC_UNICODE | CODEC_KEEPS_SURROGATES | CODEC_WIDE_UNITS,
  ENDIAN_BIG, NULL, NULL
};

/* No byte order in the name: the decoder chooses one (unmarked.c);
   the output is a BOM and little-endian.  */
struct stateful_codec const codec_utf16_unmarked = {
  { "UTF-16", utf16_aliases, unmarked_decode, utf16_encode, NULL,
    CODEC_UNICODE | CODEC_KEEPS_SURROGATES | CODEC_WIDE_UNITS
    | CODEC_BOM_ALWAYS | CODEC_STATEFUL | CODEC_WRAPPER,
    ENDIAN_LITTLE, &codec_utf16be, NULL },
  unmarked_open, unmarked_close, NULL, NULL, unmarked_holds_input,
  unmarked_detected, NULL
};

