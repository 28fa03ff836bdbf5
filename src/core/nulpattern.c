/* BOM-less UTF-16 by its NUL pattern (see nulpattern.h).  */

#include <config.h>

#include "nulpattern.h"

#include <string.h>

/* What a 16-bit unit is to the script rule: one of the NUL_SCRIPTS
   scripts, neither (NEUTRAL: ASCII, spaces and punctuation that any
   script uses, combining marks), or what text never holds (BAD).  */
enum { NEUTRAL = -1, BAD = -2 };

enum
{
  LATIN, GREEK, CYRILLIC, ARMENIAN, HEBREW, ARABIC, INDIC, THAI,
  GEORGIAN, HANGUL, CJK, OTHER
};

static struct
{
  uint16_t lo, hi;
  signed char script;
} const ranges[] = {
  /* The controls that the binary test takes for text are neutral.  */
  { 0x0000, 0x0007, BAD }, { 0x0008, 0x000D, NEUTRAL },
  { 0x000E, 0x0019, BAD }, { 0x001A, 0x001B, NEUTRAL },
  { 0x001C, 0x001F, BAD }, { 0x0020, 0x007E, NEUTRAL },
  { 0x007F, 0x009F, BAD }, { 0x00A0, 0x00BF, NEUTRAL },
  { 0x00C0, 0x024F, LATIN }, { 0x0250, 0x02FF, OTHER },
  { 0x0300, 0x036F, NEUTRAL }, { 0x0370, 0x03FF, GREEK },
  { 0x0400, 0x052F, CYRILLIC }, { 0x0530, 0x058F, ARMENIAN },
  { 0x0590, 0x05FF, HEBREW }, { 0x0600, 0x06FF, ARABIC },
  { 0x0750, 0x077F, ARABIC }, { 0x0900, 0x0DFF, INDIC },
  { 0x0E00, 0x0EFF, THAI }, { 0x10A0, 0x10FF, GEORGIAN },
  { 0x1100, 0x11FF, HANGUL }, { 0x1E00, 0x1EFF, LATIN },
  { 0x1F00, 0x1FFF, GREEK }, { 0x2000, 0x206F, NEUTRAL },
  { 0x20A0, 0x20CF, NEUTRAL }, { 0x2100, 0x214F, NEUTRAL },
  { 0x3000, 0x303F, NEUTRAL }, { 0x3040, 0x30FF, CJK },
  { 0x3130, 0x318F, HANGUL }, { 0x3400, 0x4DBF, CJK },
  { 0x4E00, 0x9FFF, CJK }, { 0xAC00, 0xD7AF, HANGUL },
  { 0xE000, 0xF8FF, BAD }, { 0xF900, 0xFAFF, CJK },
  { 0xFB50, 0xFDCF, ARABIC }, { 0xFDD0, 0xFDEF, BAD },
  { 0xFDF0, 0xFDFF, ARABIC }, { 0xFE70, 0xFEFE, ARABIC },
  { 0xFEFF, 0xFEFF, NEUTRAL }, { 0xFF00, 0xFFEF, CJK },
  { 0xFFFE, 0xFFFF, BAD }
};

static int
unit_script (unsigned int u)
{
  size_t k;
  for (k = 0; k < sizeof ranges / sizeof ranges[0]; k++)
    if (u <= ranges[k].hi)
      return u >= ranges[k].lo ? ranges[k].script : OTHER;
  return OTHER;
}

/* Count the unit U of one byte order (surrogates by their pairs).  */
static void
script_add (struct nul_script *s, unsigned int u)
{
  int script;
  bool high = s->high;

  s->high = false;
  if (u >= 0xD800 && u <= 0xDFFF)
    {
      if (u <= 0xDBFF)
        {
          s->bad += high;
          s->high = true;
        }
      else
        s->bad += !high;
      return;
    }
  s->bad += high;
  script = unit_script (u);
  if (script == BAD)
    s->bad++;
  else if (script != NEUTRAL)
    {
      s->letters++;
      s->script[script]++;
      s->low[u & 0xFF]++;
      s->highs[u >> 11] |= (uint8_t) (1u << (u >> 8 & 7));
    }
}

/* A byte that the binary test takes for a control (binary.h).  */
static bool
control_byte (uint8_t b)
{
  return b < 0x20 && !(b >= 0x08 && b <= 0x0D) && b != 0x1A && b != 0x1B;
}

/* Whether the 32-bit unit U is a character that text never holds.  */
static bool
bad_unit32 (uint32_t u)
{
  if (u < 0x10000)
    return (u >= 0xD800 && u <= 0xDFFF) || unit_script (u) == BAD;
  /* Noncharacters; the planes with nothing assigned (4 to 13), and the
     private use planes 15 and 16.  */
  return ((u & 0xFFFE) == 0xFFFE || (u >= 0x40000 && u < 0xE0000)
          || u >= 0xF0000);
}

/* Count the unit of COUNT->quad, read in each byte order.  */
static void
quad_add (struct nul_count *count)
{
  uint8_t const *q = count->quad;
  uint32_t le = (uint32_t) q[3] << 24 | (uint32_t) q[2] << 16
                | (uint32_t) q[1] << 8 | q[0];
  uint32_t be = (uint32_t) q[0] << 24 | (uint32_t) q[1] << 16
                | (uint32_t) q[2] << 8 | q[3];
  count->bad32_le += bad_unit32 (le);
  count->bad32_be += bad_unit32 (be);
}

void
nul_pattern_add (struct nul_count *count, uint8_t const *buf, size_t n)
{
  size_t i;
  /* A byte at an even offset counts once its pair is complete.  */
  for (i = 0; i < n && count->bytes < NUL_PATTERN_WINDOW; i++, count->bytes++)
    {
      count->controls += control_byte (buf[i]);
      count->quad[count->bytes & 3] = buf[i];
      if ((count->bytes & 3) == 3)
        quad_add (count);
      if (count->bytes & 1)
        {
          count->z_even += count->even_nul;
          count->z_odd += buf[i] == 0;
          script_add (&count->le, (unsigned int) buf[i] << 8 | count->even);
          script_add (&count->be, (unsigned int) count->even << 8 | buf[i]);
        }
      else
        {
          count->even_nul = buf[i] == 0;
          count->even = buf[i];
        }
    }
}

/* Whether the units of one byte order are text of one script (Chinese,
   Japanese and Korean count as one: Korean text holds Hanja, and
   Japanese text is read in two of these blocks), whose letters do not
   mostly share their low byte.  OTHER is no script.  */
static bool
script_text (struct nul_script const *s)
{
  size_t k, most = 0, shared = 0;
  size_t east = s->script[CJK] + s->script[HANGUL];
  if (s->bad > 0 || s->letters < 8)
    return false;
  for (k = 0; k < OTHER; k++)
    if (most < s->script[k])
      most = s->script[k];
  if (most < east)
    most = east;
  if (10 * most < 9 * s->letters || (most == east && s->letters < 32))
    return false;
  for (k = 0; k < 256; k++)
    {
      if (2 * s->low[k] > s->letters)
        return false;
      if (s->highs[k >> 3] >> (k & 7) & 1)
        shared += s->low[k];
    }
  return 3 * shared <= s->letters;
}

/* The script rule (nul_pattern_verdict) on the final COUNT.  */
static enum nul_pattern
script_verdict (struct nul_count const *count)
{
  bool le, be;
  if (count->controls == 0)
    return NUL_PATTERN_NONE;
  le = script_text (&count->le);
  be = script_text (&count->be);
  return le == be ? NUL_PATTERN_NONE : le ? NUL_PATTERN_LE : NUL_PATTERN_BE;
}

enum nul_pattern
nul_pattern_verdict (struct nul_count const *count, bool final)
{
  size_t pairs = count->bytes / 2;
  size_t z_odd = count->z_odd, z_even = count->z_even;

  if (final || count->bytes >= NUL_PATTERN_WINDOW)
    {
      if (2 * z_odd > pairs && 8 * z_even <= pairs)
        return NUL_PATTERN_LE;
      if (2 * z_even > pairs && 8 * z_odd <= pairs)
        return NUL_PATTERN_BE;
      return script_verdict (count);
    }

  /* Counts only grow with more bytes, and the window holds at most
     NUL_PATTERN_WINDOW / 2 pairs: a test that fails at that size with
     today's counts fails for every window to come.  */
  {
    size_t max_pairs = NUL_PATTERN_WINDOW / 2;
    size_t nonzero_odd = pairs - z_odd, nonzero_even = pairs - z_even;
    bool le_possible = 2 * nonzero_odd < max_pairs && 8 * z_even <= max_pairs;
    bool be_possible = 2 * nonzero_even < max_pairs && 8 * z_odd <= max_pairs;
    /* The script rule, until a bad unit rules out each byte order.  */
    bool script_possible = count->le.bad == 0 || count->be.bad == 0;
    return le_possible || be_possible || script_possible
           ? NUL_PATTERN_UNDECIDED : NUL_PATTERN_NONE;
  }
}

enum nul_pattern
nul_pattern_verdict32 (struct nul_count const *count, bool final)
{
  bool le = count->bad32_le == 0, be = count->bad32_be == 0;

  if (!le && !be)
    return NUL_PATTERN_NONE;
  if (!final && count->bytes < NUL_PATTERN_WINDOW)
    return NUL_PATTERN_UNDECIDED;
  if (le == be || count->bytes < 8
      || (count->bytes < NUL_PATTERN_WINDOW && count->bytes % 4 != 0))
    return NUL_PATTERN_NONE;
  return le ? NUL_PATTERN_LE : NUL_PATTERN_BE;
}

enum nul_pattern
nul_pattern_find (uint8_t const *buf, size_t n, bool complete)
{
  struct nul_count count;
  memset (&count, 0, sizeof count);
  nul_pattern_add (&count, buf, n);
  return nul_pattern_verdict (&count, complete);
}

enum nul_pattern
nul_pattern_find32 (uint8_t const *buf, size_t n, bool complete)
{
  size_t i;
  if (NUL_PATTERN_WINDOW < n)
    n = NUL_PATTERN_WINDOW;
  for (i = 0; i + 4 <= n; i += 4)
    {
      uint8_t const *u = buf + i;
      bool le = u[3] == 0 && u[2] <= 0x10, be = u[0] == 0 && u[1] <= 0x10;
      if (le != be)
        return le ? NUL_PATTERN_LE : NUL_PATTERN_BE;
    }
  return complete || n == NUL_PATTERN_WINDOW ? NUL_PATTERN_NONE
         : NUL_PATTERN_UNDECIDED;
}
