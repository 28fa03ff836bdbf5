/* The tables of utf8.h, computed by macros from the flags of each form,
   so that no entry is typed by hand.  */

#include <config.h>

#include "utf8.h"

/* The lead table entry of byte B in the form with flags F.  */
#define LEAD_MORE(F, b)                                                 \
  ((b) < 0xC0 ? 0                                                       \
   : (b) < 0xC2 ? ((b) == 0xC0 && ((F) & UTF8_NUL_C080) ? 1 : 0)        \
   : (b) < 0xE0 ? 1                                                     \
   : (b) < 0xF0 ? 2                                                     \
   : (b) < 0xF5 && !((F) & UTF8_PAIRS) ? 3 : 0)
#define LEAD_LO(F, b) ((b) == 0xE0 ? 0xA0 : (b) == 0xF0 ? 0x90 : 0x80)
/* ED A0..AF starts a high surrogate, ED B0..BF a low one.  */
#define LEAD_HI(F, b)                                                   \
  ((b) == 0xC0 ? 0x80                                                   \
   : (b) == 0xED ? ((F) & UTF8_LONE ? 0xBF                              \
                    : (F) & UTF8_PAIRS ? 0xAF : 0x9F)                   \
   : (b) == 0xF4 ? 0x8F : 0xBF)
#define LEAD_NARROW(F, b)                                               \
  ((b) == 0xC0 || (b) == 0xE0 || (b) == 0xF0 ? ERR_OVERLONG             \
   : (b) == 0xED ? ERR_SURROGATE                                        \
   : (b) == 0xF4 ? ERR_TOO_BIG : ERR_TRUNCATED)
#define LEAD_BAD(F, b)                                                  \
  ((b) < 0x80 || LEAD_MORE (F, b) > 0 ? ERR_NONE                        \
   : (b) < 0xC0 ? ERR_CONTINUATION                                      \
   : (b) < 0xC2 ? ERR_OVERLONG     /* C0 and C1 start overlong forms.  */ \
   : (b) < 0xF5 ? ERR_INVALID_BYTE /* 4-byte forms with UTF8_PAIRS.  */ \
   : (b) < 0xFE ? ERR_TOO_BIG      /* Old 4- to 6-byte forms.  */       \
   : ERR_INVALID_BYTE)

#define LEAD(F, b)                                                      \
  { LEAD_MORE (F, b), LEAD_LO (F, b), LEAD_HI (F, b),                   \
    LEAD_NARROW (F, b), LEAD_BAD (F, b) },
#define LEADS4(F, b)                                                    \
  LEAD (F, b) LEAD (F, (b) + 1) LEAD (F, (b) + 2) LEAD (F, (b) + 3)
#define LEADS16(F, b)                                                   \
  LEADS4 (F, b) LEADS4 (F, (b) + 4) LEADS4 (F, (b) + 8)                 \
  LEADS4 (F, (b) + 12)
#define LEADS64(F, b)                                                   \
  LEADS16 (F, b) LEADS16 (F, (b) + 16) LEADS16 (F, (b) + 32)            \
  LEADS16 (F, (b) + 48)
#define FORM(F)                                                         \
  { F, { LEADS64 (F, 0) LEADS64 (F, 64) LEADS64 (F, 128)                \
         LEADS64 (F, 192) } }

struct utf8_form const utf8_form = FORM (0);
struct utf8_form const cesu8_form = FORM (UTF8_PAIRS);
struct utf8_form const mutf8_form
  = FORM (UTF8_PAIRS | UTF8_LONE | UTF8_NUL_C080);
struct utf8_form const wtf8_form = FORM (UTF8_LONE | UTF8_JOIN);

size_t
utf8_valid_len (uint8_t const *s, size_t n)
{
  size_t i = 0;
  while (i < n)
    {
      ucs4_t c;
      enum err_kind kind;
      int r = utf8_sequence (&utf8_form, s + i, n - i, true, &c, &kind);
      if (r <= 0)
        break;
      i += (size_t) r;
    }
  return i;
}
