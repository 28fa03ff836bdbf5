/* UTF-8 and its variants CESU-8, MUTF-8 and WTF-8.

   The four differ only in a form of unicode/utf8.h: a table saying what
   each lead byte may start (the number of continuation bytes, the range
   of the first one, and the error kind when that range is violated),
   computed by macros from a few flags, plus the flags themselves.  One
   decoding step (utf8_sequence, plus the surrogate rules below) and one
   encoding step read it; each variant instantiates the batch loops of
   step.h with it.

   An ill-formed sequence is reported as its maximal subpart (Unicode 15,
   §3.9): the longest prefix of a sequence that is well-formed in that
   variant, or one byte when there is none.  The byte that broke the
   sequence is read again as the possible start of the next one.

   UTF-8.  Specification: RFC 3629 and Unicode 15, §3.9, Table 3-7, which
   unicode/utf8.h quotes and its table holds.
   No overlong forms, no surrogates, nothing above U+10FFFF.  Error kinds:
   C0 and C1 are overlong leads, 80..BF where a character starts an
   unexpected continuation, E0 80..9F and F0 80..8F overlong, ED A0..BF a
   surrogate, F4 90..BF and F5..FD beyond U+10FFFF, FE and FF invalid
   bytes, and a sequence cut short (also by the end of input) truncated.

   CESU-8.  Specification: Unicode Technical Report #26.  U+0000..U+FFFF
   as in UTF-8 (so no surrogate code point alone); U+10000..U+10FFFF only
   as the UTF-16 surrogate pair, each unit in a 3-byte form:

     ED A0..AF 80..BF ED B0..BF 80..BF

   Decisions: 4-byte forms are ill-formed, and F0..F4 are reported as
   invalid bytes (they never occur in CESU-8), one byte each; their
   continuation bytes follow as unexpected continuations.  A lone
   surrogate is ill-formed: a lone low surrogate (ED B0..BF) is the lead
   ED alone, as a surrogate, and its continuation bytes follow as
   unexpected continuations; a high surrogate not followed by a complete
   low one is one error of its own three bytes (a surrogate, or a
   truncated sequence when the input ends before the pair is complete),
   and decoding resumes after them.  So ED A0 80 41 is one error then
   'A'; ED A0 80 ED 9F BF is one error then U+D7FF; ED A0 80 ED A0 80 ED
   B0 80 is one error then U+10000.  Strictly, ED A0 80 ED is a prefix
   of the 6-byte form, but taking it as one maximal subpart would
   swallow an ED that can start a character, which the replacement of
   maximal subparts exists to avoid; ICU's CESU-8 converter decides the
   same.  A supplementary character is never encoded in 4
   bytes; a lone surrogate cannot be encoded.

   MUTF-8 (Java's "modified UTF-8").  Specification: the Java SE API,
   java.io.DataInput, "Modified UTF-8", and JVMS §4.4.7.  U+0000 is
   C0 80, the only overlong form accepted; a raw 00 byte is accepted on
   input (as DataInput.readUTF does) but never written.  Supplementary
   characters are surrogate pairs of 3-byte forms as in CESU-8, and 4-byte
   forms are ill-formed (F0..F4 are invalid bytes).  Lone surrogates are
   data in both directions, since Java strings may hold them: a high
   surrogate's 3-byte form followed by a low one's decodes to the
   supplementary character, any other surrogate form to the surrogate
   itself, so that any string of UTF-16 code units survives a round
   trip.  C0 not followed by 80 is a 1-byte error: overlong before a
   continuation byte, truncated before anything else.

   WTF-8.  Specification: Simon Sapin, "The WTF-8 encoding"
   (https://simonsapin.github.io/wtf-8/).  UTF-8 plus lone surrogates as
   3-byte forms (ED A0..BF 80..BF), decoded as the surrogate values
   themselves.  A surrogate pair must use the 4-byte form, so a high
   surrogate's 3-byte form directly followed by a low one's is
   ill-formed: the high one is kept as data and the low one's three bytes
   are one error of kind "surrogate".  The encoder writes lone
   surrogates as 3-byte forms and joins a high surrogate directly
   followed by a low one into the 4-byte form: it holds a high surrogate
   back until the next value or the flush at the end of the input.  */

#include <config.h>

#include "codecs.h"
#include "unicode/utf8.h"
#include "step.h"

static inline bool
in_range (uint8_t b, uint8_t lo, uint8_t hi)
{
  return lo <= b && b <= hi;
}

static inline bool
is_continuation (uint8_t b)
{
  return (b & 0xC0) == 0x80;
}

/* S[0..3) is the 3-byte form of the surrogate C, in a variant that has
   surrogate forms.  Decide what it is, looking at the 3-byte form that
   may follow a high surrogate.  Returns as a step function does.

   A high surrogate whose following bytes may still turn out to be a low
   one's form is held back (STEP_TOOFEW: the batch loop keeps it in the
   decoder's carry) until they are known.  WTF-8 then returns the high
   one as data and remembers, in the decoder, that the low one's form
   comes next: the very next step reads it as an error, whether it is in
   the same buffer or the next.  Nothing else can come between, since
   the low one's form starts with ED, which the ASCII loop leaves
   alone.  */
static inline int
surrogate_step (struct utf8_form const *v, struct decoder *d,
                uint8_t const *s, size_t n, bool last, ucs4_t c,
                ucs4_t *cp, enum err_kind *kind)
{
  unsigned int k;

  if (0xDC00 <= c)
    {
      /* A low surrogate: the lead table lets it through only with
         UTF8_LONE.  */
      if (d->low_after_high)
        {
          d->low_after_high = false;
          *kind = ERR_SURROGATE;
          return -3;
        }
      *cp = c;
      return 3;
    }

  if (v->flags & (UTF8_PAIRS | UTF8_JOIN))
    {
      /* Is the next thing a low surrogate's 3-byte form?  */
      for (k = 3; k < 6; k++)
        {
          if (k >= n)
            {
              if (!last)
                return STEP_TOOFEW;
              break;
            }
          if (!(k == 3 ? s[k] == 0xED
                : k == 4 ? in_range (s[k], 0xB0, 0xBF)
                : is_continuation (s[k])))
            break;
        }
      if (k == 6)
        {
          ucs4_t low = 0xD000 | (ucs4_t) (s[4] & 0x3F) << 6 | (s[5] & 0x3F);
          if (v->flags & UTF8_PAIRS)
            {
              *cp = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
              return 6;
            }
          /* WTF-8: the high one is data, the low one an error.  */
          d->low_after_high = true;
        }
      else if (!(v->flags & UTF8_LONE))
        {
          /* CESU-8: a high surrogate without its low one.  The error is
             the high one's three bytes alone, even when S[0..K) is a
             longer prefix of the 6-byte form: byte 3 is then ED, which
             may start a character of its own (ED 80..9F xx), and replace
             must not swallow it.  At the end of the input the pair was
             cut short; otherwise the surrogate stands alone.  */
          *kind = k >= n ? ERR_TRUNCATED : ERR_SURROGATE;
          return -3;
        }
    }
  *cp = c;
  return 3;
}

/* Always inlined: the batch decoder calls it for every sequence that
   is not ASCII, and for every error.  */
static inline __attribute__ ((always_inline)) int
variant_step (struct utf8_form const *v, struct decoder *d,
              uint8_t const *s, size_t n, bool last, ucs4_t *cp,
              enum err_kind *kind)
{
  int r = utf8_sequence (v, s, n, last, cp, kind);

  if (r == 3 && (v->flags & (UTF8_PAIRS | UTF8_LONE))
      && (*cp & 0xFFFFF800) == 0xD800)
    return surrogate_step (v, d, s, n, last, *cp, cp, kind);
  return r;
}

static inline int
put3 (uint8_t *out, ucs4_t c)
{
  out[0] = (uint8_t) (0xE0 | (c >> 12));
  out[1] = (uint8_t) (0x80 | ((c >> 6) & 0x3F));
  out[2] = (uint8_t) (0x80 | (c & 0x3F));
  return 3;
}

static inline int
put4 (uint8_t *out, ucs4_t c)
{
  out[0] = (uint8_t) (0xF0 | (c >> 18));
  out[1] = (uint8_t) (0x80 | ((c >> 12) & 0x3F));
  out[2] = (uint8_t) (0x80 | ((c >> 6) & 0x3F));
  out[3] = (uint8_t) (0x80 | (c & 0x3F));
  return 4;
}

static inline bool
is_high (ucs4_t c)
{
  return 0xD800 <= c && c < 0xDC00;
}

static inline bool
is_low (ucs4_t c)
{
  return 0xDC00 <= c && c < 0xE000;
}

static inline int
variant_encode_step (struct utf8_form const *v, struct encoder *e,
                     ucs4_t c, uint8_t *out)
{
  int k = 0;

  if (v->flags & UTF8_JOIN)
    {
      /* Hold a high surrogate back, in case a low one follows.  */
      if (e->pending != 0)
        {
          ucs4_t high = e->pending;
          e->pending = 0;
          if (is_low (c))
            return put4 (out, 0x10000 + ((high - 0xD800) << 10)
                         + (c - 0xDC00));
          k = put3 (out, high);
        }
      if (is_high (c))
        {
          e->pending = c;
          return k;
        }
    }
  out += k;
  if (c < 0x80)
    {
      if (c == 0 && (v->flags & UTF8_NUL_C080))
        {
          out[0] = 0xC0;
          out[1] = 0x80;
          return k + 2;
        }
      out[0] = (uint8_t) c;
      return k + 1;
    }
  if (c < 0x800)
    {
      out[0] = (uint8_t) (0xC0 | (c >> 6));
      out[1] = (uint8_t) (0x80 | (c & 0x3F));
      return k + 2;
    }
  if (c < 0x10000)
    {
      /* Only UTF8_JOIN writes anything before this point, and it accepts
         every surrogate.  */
      if (0xD800 <= c && c < 0xE000 && !(v->flags & UTF8_LONE))
        return STEP_UNENCODABLE;
      return k + put3 (out, c);
    }
  if (v->flags & UTF8_PAIRS)
    {
      c -= 0x10000;
      put3 (out, 0xD800 + (c >> 10));
      put3 (out + 3, 0xDC00 + (c & 0x3FF));
      return k + 6;
    }
  return k + put4 (out, c);
}

/* Write out the high surrogate the WTF-8 encoder holds back.  */
static size_t
wtf8_flush (struct encoder *e, uint8_t *out)
{
  ucs4_t high = e->pending;
  if (high == 0)
    return 0;
  e->pending = 0;
  return (size_t) put3 (out, high);
}

/* Define the step functions, batch loops and codec of one variant.
   ASCII_OUT says whether every value below 0x80 is written as that byte
   (not in MUTF-8, which writes U+0000 as C0 80, nor in WTF-8, which may
   hold a high surrogate back).  */
#define DEFINE_VARIANT_DECODER(V)                                        \
  static int                                                             \
  V##_step (struct decoder *d, uint8_t const *s, size_t n, bool last,    \
            ucs4_t *cp, enum err_kind *kind)                             \
  {                                                                      \
    return variant_step (&V##_form, d, s, n, last, cp, kind);         \
  }                                                                      \
  static DEFINE_BATCH_DECODER (V##_decode, V##_step, 1)
#define DEFINE_VARIANT(V, ASCII_OUT)                                     \
  DEFINE_VARIANT_DECODER (V)                                             \
  static int                                                             \
  V##_encode_step (struct encoder *e, ucs4_t c, uint8_t *out)            \
  {                                                                      \
    return variant_encode_step (&V##_form, e, c, out);                \
  }                                                                      \
  static DEFINE_BATCH_ENCODER (V##_encode, V##_encode_step, ASCII_OUT)

/* UTF-8 itself encodes as variant_encode_step does without a flag,
   which the compiler cannot see through utf8_form (a constant of
   another file): this step is what the bridged decoders' values, and
   any other pivot, go through on their way to UTF-8.  */
static int
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
    return 0xD800 <= c && c < 0xE000 ? STEP_UNENCODABLE : put3 (out, c);
  return put4 (out, c);
}

/* UTF-8 itself reads a well-formed sequence of two or three bytes here
   (Table 3-7: no overlong form, no surrogate), without the variants'
   flags, which the compiler cannot see through utf8_form; anything
   else as variant_step does (out of line, so that this step is inlined
   in the loop).  What a bridged or table encoder is given from UTF-8
   comes through this step.  */
static __attribute__ ((noinline)) int
utf8_other_step (struct decoder *d, uint8_t const *s, size_t n, bool last,
                 ucs4_t *cp, enum err_kind *kind)
{
  return variant_step (&utf8_form, d, s, n, last, cp, kind);
}

static inline int
utf8_decode_step (struct decoder *d, uint8_t const *s, size_t n, bool last,
                  ucs4_t *cp, enum err_kind *kind)
{
  uint8_t b = s[0];
  if (0xC2 <= b && b < 0xE0 && n >= 2 && (s[1] & 0xC0) == 0x80)
    {
      *cp = (ucs4_t) (b & 0x1F) << 6 | (s[1] & 0x3F);
      return 2;
    }
  if ((b & 0xF0) == 0xE0 && n >= 3 && (s[1] & 0xC0) == 0x80
      && (s[2] & 0xC0) == 0x80)
    {
      ucs4_t v = ((ucs4_t) (b & 0x0F) << 12 | (ucs4_t) (s[1] & 0x3F) << 6
                  | (s[2] & 0x3F));
      if (v >= 0x800 && (v < 0xD800 || 0xE000 <= v))
        {
          *cp = v;
          return 3;
        }
    }
  return utf8_other_step (d, s, n, last, cp, kind);
}

static DEFINE_BATCH_DECODER (utf8_decode, utf8_decode_step, 1)
static DEFINE_BATCH_ENCODER (utf8_encode, utf8_encode_step, 1)
DEFINE_VARIANT (cesu8, 1)
DEFINE_VARIANT (mutf8, 0)
DEFINE_VARIANT (wtf8, 0)

static char const *const utf8_aliases[] = {
  "UTF8", "ISO-10646/UTF-8", "ISO-10646/UTF8", NULL
};
static char const *const cesu8_aliases[] = { "CESU8", NULL };
static char const *const mutf8_aliases[] = {
  "MODIFIED-UTF-8", "JAVA", "MUTF8", NULL
};
static char const *const wtf8_aliases[] = { "WTF8", NULL };

struct codec const codec_utf8 = {
  "UTF-8", utf8_aliases, utf8_decode, utf8_encode, NULL,
  CODEC_UNICODE | CODEC_ASCII_BYTES, ENDIAN_UNKNOWN, NULL, NULL
};

struct codec const codec_cesu8 = {
  "CESU-8", cesu8_aliases, cesu8_decode, cesu8_encode, NULL,
  CODEC_UNICODE | CODEC_ASCII_BYTES, ENDIAN_UNKNOWN, NULL, NULL
};

struct codec const codec_mutf8 = {
  "MUTF-8", mutf8_aliases, mutf8_decode, mutf8_encode, NULL,
  CODEC_UNICODE | CODEC_KEEPS_SURROGATES | CODEC_SURROGATE_CARRIER,
  ENDIAN_UNKNOWN, NULL, NULL
};

struct codec const codec_wtf8 = {
  "WTF-8", wtf8_aliases, wtf8_decode, wtf8_encode, wtf8_flush,
  CODEC_UNICODE | CODEC_KEEPS_SURROGATES | CODEC_SURROGATE_CARRIER,
  ENDIAN_UNKNOWN, NULL, NULL
};
