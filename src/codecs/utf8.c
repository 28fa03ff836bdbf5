/* UTF-8.

   Specification: RFC 3629 and Unicode 15, §3.9, Table 3-7 (well-formed
   UTF-8 byte sequences):

     U+0000..U+007F     00..7F
     U+0080..U+07FF     C2..DF  80..BF
     U+0800..U+0FFF     E0      A0..BF  80..BF
     U+1000..U+CFFF     E1..EC  80..BF  80..BF
     U+D000..U+D7FF     ED      80..9F  80..BF
     U+E000..U+FFFF     EE..EF  80..BF  80..BF
     U+10000..U+3FFFF   F0      90..BF  80..BF  80..BF
     U+40000..U+FFFFF   F1..F3  80..BF  80..BF  80..BF
     U+100000..U+10FFFF F4      80..8F  80..BF  80..BF

   No overlong forms, no surrogates, nothing above U+10FFFF.  An
   ill-formed sequence is reported as its maximal subpart: the longest
   prefix of a well-formed sequence, or one byte when there is none.  */

#include <config.h>

#include "step.h"

/* What a byte can start: the number of continuation bytes that follow,
   the range allowed for the first of them, and why a continuation byte
   outside that range breaks the sequence.  */
struct utf8_lead
{
  unsigned int more;            /* 0 for an ASCII byte or an error.  */
  uint8_t lo, hi;               /* Range of the first continuation.  */
  enum err_kind narrow;         /* A continuation outside LO..HI.  */
  enum err_kind bad;            /* The byte cannot start a character.  */
};

static inline struct utf8_lead
utf8_lead (uint8_t b)
{
  struct utf8_lead l = { 0, 0x80, 0xBF, ERR_TRUNCATED, ERR_NONE };
  if (b < 0x80)
    ;
  else if (b < 0xC0)
    l.bad = ERR_CONTINUATION;
  else if (b < 0xC2)
    l.bad = ERR_OVERLONG;       /* C0 and C1 only start overlong forms.  */
  else if (b < 0xE0)
    l.more = 1;
  else if (b < 0xF0)
    {
      l.more = 2;
      if (b == 0xE0)
        l.lo = 0xA0, l.narrow = ERR_OVERLONG;
      else if (b == 0xED)
        l.hi = 0x9F, l.narrow = ERR_SURROGATE;
    }
  else if (b < 0xF5)
    {
      l.more = 3;
      if (b == 0xF0)
        l.lo = 0x90, l.narrow = ERR_OVERLONG;
      else if (b == 0xF4)
        l.hi = 0x8F, l.narrow = ERR_TOO_BIG;
    }
  else if (b < 0xFE)
    l.bad = ERR_TOO_BIG;        /* Old 4- to 6-byte forms.  */
  else
    l.bad = ERR_INVALID_BYTE;
  return l;
}

static inline bool
is_continuation (uint8_t b)
{
  return (b & 0xC0) == 0x80;
}

static inline int
utf8_step (struct decoder *d, uint8_t const *s, size_t n, bool last,
           ucs4_t *cp, enum err_kind *kind)
{
  uint8_t b = s[0];
  struct utf8_lead l;
  ucs4_t c;
  unsigned int k;

  (void) d;
  if (b < 0x80)
    {
      *cp = b;
      return 1;
    }
  l = utf8_lead (b);
  if (l.more == 0)
    {
      *kind = l.bad;
      return -1;
    }
  c = b & (0x7F >> (l.more + 1));
  for (k = 1; k <= l.more; k++)
    {
      uint8_t lo = k == 1 ? l.lo : 0x80, hi = k == 1 ? l.hi : 0xBF;
      if (k >= n)
        {
          if (!last)
            return STEP_TOOFEW;
          *kind = ERR_TRUNCATED;
          return -(int) k;
        }
      if (s[k] < lo || hi < s[k])
        {
          *kind = k == 1 && is_continuation (s[k]) ? l.narrow : ERR_TRUNCATED;
          return -(int) k;
        }
      c = (c << 6) | (s[k] & 0x3F);
    }
  *cp = c;
  return (int) l.more + 1;
}

static inline int
utf8_encode_step (struct encoder *e, ucs4_t c, uint8_t *out)
{
  (void) e;
  if (c < 0x80)
    {
      out[0] = (uint8_t) c;
      return 1;
    }
  if (c < 0x800)
    {
      out[0] = (uint8_t) (0xC0 | (c >> 6));
      out[1] = (uint8_t) (0x80 | (c & 0x3F));
      return 2;
    }
  if (c < 0x10000)
    {
      if (0xD800 <= c && c < 0xE000)
        return STEP_UNENCODABLE;
      out[0] = (uint8_t) (0xE0 | (c >> 12));
      out[1] = (uint8_t) (0x80 | ((c >> 6) & 0x3F));
      out[2] = (uint8_t) (0x80 | (c & 0x3F));
      return 3;
    }
  out[0] = (uint8_t) (0xF0 | (c >> 18));
  out[1] = (uint8_t) (0x80 | ((c >> 12) & 0x3F));
  out[2] = (uint8_t) (0x80 | ((c >> 6) & 0x3F));
  out[3] = (uint8_t) (0x80 | (c & 0x3F));
  return 4;
}

static DEFINE_BATCH_DECODER (utf8_decode, utf8_step, 1)
static DEFINE_BATCH_ENCODER (utf8_encode, utf8_encode_step)

static char const *const utf8_aliases[] = { "UTF8", NULL };

struct codec const codec_utf8 = {
  "UTF-8", utf8_aliases, utf8_decode, utf8_encode, NULL,
  CODEC_UNICODE, ENDIAN_UNKNOWN, NULL
};
