/* The reference decoders and the pipeline model (see reference.h).

   Written for clarity: one loop per encoding form, the table of Unicode
   15 §3.9 Table 3-7 typed as it is printed (and one table like it per
   UTF-8 variant), no state carried between buffers (the reference always
   sees the whole input).

   The UTF-8 variants, from their definitions and the decisions the man
   page documents (ENCODINGS, ERROR POLICIES):

     CESU-8  UTR #26: UTF-8 up to U+FFFF, supplementary characters as a
             high and a low surrogate's 3-byte forms, no 4-byte forms (F0
             to F4 are invalid bytes).  A high surrogate not followed by a
             whole low one is one error of its three bytes ("truncated
             sequence" when the input ends where the low one could still
             have come, "surrogate" otherwise); a lone low one is its ED
             ("surrogate"), then each continuation byte.
     MUTF-8  Java's modified UTF-8: U+0000 as C0 80 or a raw 00, every
             surrogate as its 3-byte form (a high one directly followed by
             a low one is the pair), no 4-byte forms.
     WTF-8   UTF-8 plus every surrogate as its 3-byte form; a high one's
             form directly followed by a low one's keeps the high one as
             a value and makes the low one's three bytes one error
             ("surrogate"), since a pair must use the 4-byte form.

   The model writes lone surrogates as SPEC §3 says: as data from WTF-8
   and MUTF-8 input, and from UTF-16/UTF-32 input going to WTF-8 or
   MUTF-8 output; an encoding error in UTF-8 and CESU-8 output.  WTF-8
   output joins a high surrogate directly followed by a low one into the
   4-byte form, whatever the low one is: an escaped byte of
   surrogateescape (U+DC80..U+DCFF) included, which is what SPEC §3 says
   and what utf8conv does and documents (man page, ERROR POLICIES): a
   pair of 3-byte forms is ill-formed WTF-8, so the join wins over
   SPEC §3's "escaped bytes become a 3-byte form for WTF-8".  So the
   strict output of ED A0 80 FF, ED A0 80, is not a prefix of the
   surrogateescape output, F0 90 83 BF; harness.c's strict_is_prefix
   states property 4 for WTF-8 with that allowance.  */

#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nulpattern.h"

/* The texts of utf8conv's diagnostics for each kind of decoding error
   (the man page's DIAGNOSTICS; the same words as err_kind_text).  */
static char const k_continuation[] = "unexpected continuation byte";
static char const k_truncated[] = "truncated sequence";
static char const k_overlong[] = "overlong encoding";
static char const k_surrogate[] = "surrogate";
static char const k_too_big[] = "beyond U+10FFFF";
static char const k_invalid[] = "invalid byte";
static char const k_lone[] = "lone surrogate";

/* One row of a table of well-formed byte sequences: the range of the
   first byte, then the ranges of the bytes that follow it, and why a
   continuation byte (80..BF) outside the range of the second breaks the
   sequence.  Any other break is a truncated sequence.  */
struct row
{
  uint8_t first_lo, first_hi;
  unsigned int len;
  uint8_t lo[3], hi[3];
  char const *narrow;
};

/* Unicode 15, §3.9, Table 3-7: Well-Formed UTF-8 Byte Sequences, typed
   as it is printed.  */
static struct row const table_3_7[] = {
  /* U+0080..U+07FF */     { 0xC2, 0xDF, 2, { 0x80 }, { 0xBF }, NULL },
  /* U+0800..U+0FFF */     { 0xE0, 0xE0, 3, { 0xA0, 0x80 }, { 0xBF, 0xBF },
                             k_overlong },
  /* U+1000..U+CFFF */     { 0xE1, 0xEC, 3, { 0x80, 0x80 }, { 0xBF, 0xBF },
                             NULL },
  /* U+D000..U+D7FF */     { 0xED, 0xED, 3, { 0x80, 0x80 }, { 0x9F, 0xBF },
                             k_surrogate },
  /* U+E000..U+FFFF */     { 0xEE, 0xEF, 3, { 0x80, 0x80 }, { 0xBF, 0xBF },
                             NULL },
  /* U+10000..U+3FFFF */   { 0xF0, 0xF0, 4, { 0x90, 0x80, 0x80 },
                             { 0xBF, 0xBF, 0xBF }, k_overlong },
  /* U+40000..U+FFFFF */   { 0xF1, 0xF3, 4, { 0x80, 0x80, 0x80 },
                             { 0xBF, 0xBF, 0xBF }, NULL },
  /* U+100000..U+10FFFF */ { 0xF4, 0xF4, 4, { 0x80, 0x80, 0x80 },
                             { 0x8F, 0xBF, 0xBF }, k_too_big },
};

/* CESU-8 (UTR #26): U+0000..U+FFFF as in UTF-8, no 4-byte forms.  The
   ED row also admits the high surrogates ED A0..AF xx, which are only
   well-formed as the first half of a pair (decode_cesu8 pairs them); a
   low surrogate alone (ED B0..BF) breaks at its second byte.  */
static struct row const table_cesu8[] = {
  /* U+0080..U+07FF */     { 0xC2, 0xDF, 2, { 0x80 }, { 0xBF }, NULL },
  /* U+0800..U+0FFF */     { 0xE0, 0xE0, 3, { 0xA0, 0x80 }, { 0xBF, 0xBF },
                             k_overlong },
  /* U+1000..U+CFFF */     { 0xE1, 0xEC, 3, { 0x80, 0x80 }, { 0xBF, 0xBF },
                             NULL },
  /* U+D000..U+DBFF */     { 0xED, 0xED, 3, { 0x80, 0x80 }, { 0xAF, 0xBF },
                             k_surrogate },
  /* U+E000..U+FFFF */     { 0xEE, 0xEF, 3, { 0x80, 0x80 }, { 0xBF, 0xBF },
                             NULL },
};

/* MUTF-8 (java.io.DataInput, "Modified UTF-8"): U+0000 also as C0 80,
   every surrogate as a 3-byte form, no 4-byte forms.  A raw 00 byte is
   an ASCII byte like any other.  */
static struct row const table_mutf8[] = {
  /* U+0000 */             { 0xC0, 0xC0, 2, { 0x80 }, { 0x80 }, k_overlong },
  /* U+0080..U+07FF */     { 0xC2, 0xDF, 2, { 0x80 }, { 0xBF }, NULL },
  /* U+0800..U+0FFF */     { 0xE0, 0xE0, 3, { 0xA0, 0x80 }, { 0xBF, 0xBF },
                             k_overlong },
  /* U+1000..U+CFFF */     { 0xE1, 0xEC, 3, { 0x80, 0x80 }, { 0xBF, 0xBF },
                             NULL },
  /* U+D000..U+DFFF */     { 0xED, 0xED, 3, { 0x80, 0x80 }, { 0xBF, 0xBF },
                             NULL },
  /* U+E000..U+FFFF */     { 0xEE, 0xEF, 3, { 0x80, 0x80 }, { 0xBF, 0xBF },
                             NULL },
};

/* WTF-8: Table 3-7 with every surrogate as a 3-byte form (the pairing
   rule is in decode_wtf8).  */
static struct row const table_wtf8[] = {
  /* U+0080..U+07FF */     { 0xC2, 0xDF, 2, { 0x80 }, { 0xBF }, NULL },
  /* U+0800..U+0FFF */     { 0xE0, 0xE0, 3, { 0xA0, 0x80 }, { 0xBF, 0xBF },
                             k_overlong },
  /* U+1000..U+CFFF */     { 0xE1, 0xEC, 3, { 0x80, 0x80 }, { 0xBF, 0xBF },
                             NULL },
  /* U+D000..U+DFFF */     { 0xED, 0xED, 3, { 0x80, 0x80 }, { 0xBF, 0xBF },
                             NULL },
  /* U+E000..U+FFFF */     { 0xEE, 0xEF, 3, { 0x80, 0x80 }, { 0xBF, 0xBF },
                             NULL },
  /* U+10000..U+3FFFF */   { 0xF0, 0xF0, 4, { 0x90, 0x80, 0x80 },
                             { 0xBF, 0xBF, 0xBF }, k_overlong },
  /* U+40000..U+FFFFF */   { 0xF1, 0xF3, 4, { 0x80, 0x80, 0x80 },
                             { 0xBF, 0xBF, 0xBF }, NULL },
  /* U+100000..U+10FFFF */ { 0xF4, 0xF4, 4, { 0x80, 0x80, 0x80 },
                             { 0x8F, 0xBF, 0xBF }, k_too_big },
};

#define ROWS(table) (sizeof table / sizeof table[0])

/* Why byte B, which starts no row, cannot start a character.  */
static char const *
bad_lead (uint8_t b)
{
  if (b <= 0xBF)
    return k_continuation;
  if (b <= 0xC1)
    return k_overlong;          /* C0 and C1 start overlong 2-byte forms.  */
  if (b <= 0xF4)
    return k_invalid;           /* A 4-byte lead where there are none.  */
  if (b <= 0xFD)
    return k_too_big;           /* The 5- and 6-byte forms of RFC 2279.  */
  return k_invalid;             /* FE and FF.  */
}

/* The sequence at S[I] (I < N) by TABLE: a value, or its maximal
   subpart, the longest prefix of a row's sequence that the input holds
   (one byte when no row starts with S[I]).  */
static struct ref_item
sequence (struct row const *table, size_t rows, uint8_t const *s, size_t n,
          size_t i)
{
  struct ref_item it = { false, 0, i, 1, NULL };
  size_t r;
  unsigned int k, len;

  if (s[i] <= 0x7F)
    {
      it.cp = s[i];
      return it;
    }
  for (r = 0; r < rows; r++)
    if (table[r].first_lo <= s[i] && s[i] <= table[r].first_hi)
      break;
  if (r == rows)
    {
      it.error = true;
      it.kind = bad_lead (s[i]);
      return it;
    }
  len = table[r].len;
  k = 1;
  while (k < len && i + k < n
         && table[r].lo[k - 1] <= s[i + k] && s[i + k] <= table[r].hi[k - 1])
    k++;
  it.len = k;
  if (k < len)
    {
      it.error = true;
      /* A continuation byte outside the range of the second byte says
         why (E0 80 is overlong, ED A0 a surrogate in UTF-8, ...);
         anything else cuts the sequence short.  */
      if (k == 1 && i + 1 < n && 0x80 <= s[i + 1] && s[i + 1] <= 0xBF
          && table[r].narrow)
        it.kind = table[r].narrow;
      else
        it.kind = k_truncated;
      return it;
    }
  it.cp = s[i] & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  for (k = 1; k < len; k++)
    it.cp = it.cp << 6 | (s[i + k] & 0x3F);
  return it;
}

static bool
is_high (uint32_t c)
{
  return 0xD800 <= c && c <= 0xDBFF;
}

static bool
is_low (uint32_t c)
{
  return 0xDC00 <= c && c <= 0xDFFF;
}

/* How many bytes of a low surrogate's 3-byte form (ED B0..BF 80..BF)
   S[J..N) starts with: 3 when it holds a whole one.  */
static unsigned int
low_form (uint8_t const *s, size_t n, size_t j)
{
  if (j >= n || s[j] != 0xED)
    return 0;
  if (j + 1 >= n || s[j + 1] < 0xB0 || s[j + 1] > 0xBF)
    return 1;
  if (j + 2 >= n || s[j + 2] < 0x80 || s[j + 2] > 0xBF)
    return 2;
  return 3;
}

/* The value of the surrogate pair HIGH, LOW.  */
static uint32_t
pair (uint32_t high, uint32_t low)
{
  return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
}

/* The value of the low surrogate form at S[J] (low_form () == 3).  */
static uint32_t
low_value (uint8_t const *s, size_t j)
{
  return 0xD000 | (uint32_t) (s[j + 1] & 0x3F) << 6 | (s[j + 2] & 0x3F);
}

static size_t
decode_utf8 (uint8_t const *s, size_t n, struct ref_item *items)
{
  size_t i = 0, count = 0;
  while (i < n)
    {
      items[count] = sequence (table_3_7, ROWS (table_3_7), s, n, i);
      i += items[count++].len;
    }
  return count;
}

/* CESU-8: a high surrogate must be followed by a whole low one, and the
   pair is one character of 6 bytes.  Otherwise the high surrogate's
   three bytes are one error (utf8conv's rule, as ICU's: reading further
   would swallow an ED that may start a character), "truncated" when the
   input ends inside what could still have been the low one.  */
static size_t
decode_cesu8 (uint8_t const *s, size_t n, struct ref_item *items)
{
  size_t i = 0, count = 0;
  while (i < n)
    {
      struct ref_item it = sequence (table_cesu8, ROWS (table_cesu8), s, n,
                                     i);
      if (!it.error && is_high (it.cp))
        {
          unsigned int got = low_form (s, n, i + 3);
          if (got == 3)
            {
              it.cp = pair (it.cp, low_value (s, i + 3));
              it.len = 6;
            }
          else
            {
              it.error = true;
              it.kind = i + 3 + got == n ? k_truncated : k_surrogate;
            }
        }
      items[count++] = it;
      i += it.len;
    }
  return count;
}

/* MUTF-8: a high surrogate directly followed by a low one is the
   supplementary character; any other surrogate is itself.  */
static size_t
decode_mutf8 (uint8_t const *s, size_t n, struct ref_item *items)
{
  size_t i = 0, count = 0;
  while (i < n)
    {
      struct ref_item it = sequence (table_mutf8, ROWS (table_mutf8), s, n,
                                     i);
      if (!it.error && is_high (it.cp) && low_form (s, n, i + 3) == 3)
        {
          it.cp = pair (it.cp, low_value (s, i + 3));
          it.len = 6;
        }
      items[count++] = it;
      i += it.len;
    }
  return count;
}

/* WTF-8: surrogates are values, but a pair must be the 4-byte form: a
   high surrogate's 3-byte form directly followed by a low one's keeps
   the high one and makes the low one's three bytes one error.  */
static size_t
decode_wtf8 (uint8_t const *s, size_t n, struct ref_item *items)
{
  size_t i = 0, count = 0;
  while (i < n)
    {
      struct ref_item it = sequence (table_wtf8, ROWS (table_wtf8), s, n, i);
      items[count++] = it;
      i += it.len;
      if (!it.error && is_high (it.cp) && low_form (s, n, i) == 3)
        {
          struct ref_item bad = { true, 0, i, 3, k_surrogate };
          items[count++] = bad;
          i += 3;
        }
    }
  return count;
}

static unsigned int
unit16 (uint8_t const *s, bool big)
{
  return big ? (unsigned int) s[0] << 8 | s[1]
             : (unsigned int) s[1] << 8 | s[0];
}

static uint32_t
unit32 (uint8_t const *s, bool big)
{
  return big ? (uint32_t) s[0] << 24 | (uint32_t) s[1] << 16
               | (uint32_t) s[2] << 8 | s[3]
             : (uint32_t) s[3] << 24 | (uint32_t) s[2] << 16
               | (uint32_t) s[1] << 8 | s[0];
}

/* Unicode §3.9 D91 (UTF-16) with Python's error units: one error per lone
   surrogate unit; an incomplete tail at the end (an odd byte, or a high
   surrogate with no room for a partner) is one error.  */
static size_t
decode_utf16 (uint8_t const *s, size_t n, bool big, bool lone_ok,
              struct ref_item *items)
{
  size_t i = 0, count = 0;
  while (i < n)
    {
      struct ref_item it = { false, 0, i, 2, NULL };
      unsigned int u;
      if (n - i < 2)
        {
          it.error = true;
          it.kind = k_truncated;
          it.len = (unsigned int) (n - i);
          items[count++] = it;
          break;
        }
      u = unit16 (s + i, big);
      it.cp = u;
      if (0xD800 <= u && u <= 0xDBFF)
        {
          if (n - i >= 4 && 0xDC00 <= unit16 (s + i + 2, big)
              && unit16 (s + i + 2, big) <= 0xDFFF)
            {
              it.cp = 0x10000 + ((u - 0xD800) << 10)
                      + (unit16 (s + i + 2, big) - 0xDC00);
              it.len = 4;
            }
          else if (lone_ok)
            ;
          else if (n - i < 4)
            {
              it.error = true;
              it.kind = k_truncated;
              it.len = (unsigned int) (n - i);
            }
          else
            {
              it.error = true;
              it.kind = k_lone;
            }
        }
      else if (0xDC00 <= u && u <= 0xDFFF && !lone_ok)
        {
          it.error = true;
          it.kind = k_lone;
        }
      items[count++] = it;
      i += it.len;
    }
  return count;
}

/* Unicode §3.9 D90 (UTF-32): one error per 4-byte unit that is not a
   scalar value; an incomplete unit at the end is one error.  */
static size_t
decode_utf32 (uint8_t const *s, size_t n, bool big, bool lone_ok,
              struct ref_item *items)
{
  size_t i = 0, count = 0;
  while (i < n)
    {
      struct ref_item it = { false, 0, i, 4, NULL };
      if (n - i < 4)
        {
          it.error = true;
          it.kind = k_truncated;
          it.len = (unsigned int) (n - i);
          items[count++] = it;
          break;
        }
      it.cp = unit32 (s + i, big);
      if (it.cp > 0x10FFFF)
        {
          it.error = true;
          it.kind = k_too_big;
        }
      else if (0xD800 <= it.cp && it.cp <= 0xDFFF && !lone_ok)
        {
          /* A surrogate code point in a 32-bit unit: an encoded
             surrogate, as ED A0 80 is in UTF-8, not a UTF-16 unit
             without its partner.  */
          it.error = true;
          it.kind = k_surrogate;
        }
      items[count++] = it;
      i += 4;
    }
  return count;
}

enum ref_form
ref_form_by_name (char const *name)
{
  static char const *const names[] = {
    "UTF-8", "UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE",
    "UTF-32", "CESU-8", "MUTF-8", "WTF-8"
  };
  int i;
  for (i = 0; i < REF_NONE; i++)
    if (strcasecmp (name, names[i]) == 0)
      return (enum ref_form) i;
  return REF_NONE;
}

/* Whether unmarked UTF-16 (UNIT 2) or UTF-32 (UNIT 4) input S[0..N) is
   big-endian (SPEC §6): its BOM says; without one, in its first 256
   bytes, UTF-16 is little-endian when more than half of the byte pairs
   have a NUL second byte and at most an eighth a NUL first byte, and
   big-endian the other way round, else as the script rule says; UTF-32
   takes the order of its first unit that is at most 10FFFF in one order
   only.  Big-endian when nothing decides (RFC 2781 §4.3).  */
static bool
unmarked_big (uint8_t const *s, size_t n, size_t unit)
{
  size_t w = n < 256 ? n : 256, i, pairs = w / 2, z_first = 0, z_second = 0;
  if (unit == 2 && n >= 2 && s[0] == 0xFF && s[1] == 0xFE)
    return false;
  if (unit == 2 && n >= 2 && s[0] == 0xFE && s[1] == 0xFF)
    return true;
  if (unit == 4 && n >= 4 && s[0] == 0xFF && s[1] == 0xFE && s[2] == 0
      && s[3] == 0)
    return false;
  if (unit == 4 && n >= 4 && s[0] == 0 && s[1] == 0 && s[2] == 0xFE
      && s[3] == 0xFF)
    return true;
  if (unit == 4)
    {
      for (i = 0; i + 4 <= w; i += 4)
        {
          bool le = s[i + 3] == 0 && s[i + 2] <= 0x10;
          bool be = s[i] == 0 && s[i + 1] <= 0x10;
          if (le != be)
            return be;
        }
      return true;
    }
  for (i = 0; i < pairs; i++)
    {
      z_first += s[2 * i] == 0;
      z_second += s[2 * i + 1] == 0;
    }
  if (2 * z_second > pairs && 8 * z_first <= pairs)
    return false;
  if (2 * z_first > pairs && 8 * z_second <= pairs)
    return true;
  /* Where the NULs do not decide, the script rule may (SPEC §6: units
     of one script in one byte order only, where the window holds a
     control byte).  This model takes it from nulpattern.c rather than
     repeat its tables: auto.bats and binary.bats test it on text.  */
  return nul_pattern_find (s, w, true) != NUL_PATTERN_LE;
}

size_t
ref_decode (enum ref_form form, uint8_t const *s, size_t n, bool lone_ok,
            struct ref_item *items)
{
  switch (form)
    {
    case REF_UTF8:
      return decode_utf8 (s, n, items);
    case REF_CESU8:
      return decode_cesu8 (s, n, items);
    case REF_MUTF8:
      return decode_mutf8 (s, n, items);
    case REF_WTF8:
      return decode_wtf8 (s, n, items);
    case REF_UTF16LE:
      return decode_utf16 (s, n, false, lone_ok, items);
    case REF_UTF16BE:
      return decode_utf16 (s, n, true, lone_ok, items);
    case REF_UTF16:
      return decode_utf16 (s, n, unmarked_big (s, n, 2), lone_ok, items);
    case REF_UTF32LE:
      return decode_utf32 (s, n, false, lone_ok, items);
    case REF_UTF32BE:
      return decode_utf32 (s, n, true, lone_ok, items);
    case REF_UTF32:
      return decode_utf32 (s, n, unmarked_big (s, n, 4), lone_ok, items);
    default:
      abort ();
    }
}

bool
ref_well_formed (enum ref_form form, uint8_t const *s, size_t n,
                 bool lone_ok)
{
  struct ref_item *items = malloc ((n + 1) * sizeof *items);
  size_t i, count = ref_decode (form, s, n, lone_ok, items);
  bool ok = true;
  for (i = 0; i < count; i++)
    if (items[i].error)
      ok = false;
  free (items);
  return ok;
}

/* Write C in the UTF-8 scheme at OUT, surrogates included (they take
   the 3-byte form of their value, as in WTF-8); return the length.  */
static int
utf8_form (uint32_t c, uint8_t *out)
{
  if (c < 0x80)
    {
      out[0] = (uint8_t) c;
      return 1;
    }
  if (c < 0x800)
    {
      out[0] = (uint8_t) (0xC0 | c >> 6);
      out[1] = (uint8_t) (0x80 | (c & 0x3F));
      return 2;
    }
  if (c < 0x10000)
    {
      out[0] = (uint8_t) (0xE0 | c >> 12);
      out[1] = (uint8_t) (0x80 | (c >> 6 & 0x3F));
      out[2] = (uint8_t) (0x80 | (c & 0x3F));
      return 3;
    }
  out[0] = (uint8_t) (0xF0 | c >> 18);
  out[1] = (uint8_t) (0x80 | (c >> 12 & 0x3F));
  out[2] = (uint8_t) (0x80 | (c >> 6 & 0x3F));
  out[3] = (uint8_t) (0x80 | (c & 0x3F));
  return 4;
}

/* Write the supplementary character C as its UTF-16 surrogate pair, each
   unit in its 3-byte form (CESU-8, MUTF-8); return the length, 6.  */
static int
pair_form (uint32_t c, uint8_t *out)
{
  uint32_t v = c - 0x10000;
  utf8_form (0xD800 + (v >> 10), out);
  utf8_form (0xDC00 + (v & 0x3FF), out + 3);
  return 6;
}

/* Encode C in FORM (UTF-16 and UTF-32 unmarked: little-endian) at OUT
   (room for 6 bytes); return the length, or -1 if FORM cannot hold C.
   WTF-8's joining of a high surrogate with the low one after it is
   put_char's business: it needs to know what came before.  */
static int
encode (enum ref_form form, uint32_t c, uint8_t *out)
{
  int k;
  bool big = form == REF_UTF16BE || form == REF_UTF32BE;
  bool surrogate = 0xD800 <= c && c <= 0xDFFF;
  switch (form)
    {
    case REF_UTF8:
      if (surrogate)
        return -1;
      return utf8_form (c, out);
    case REF_CESU8:
      /* UTR #26: no lone surrogates, supplementary characters as
         pairs.  */
      if (surrogate)
        return -1;
      return c < 0x10000 ? utf8_form (c, out) : pair_form (c, out);
    case REF_MUTF8:
      /* Java: U+0000 as C0 80 (never a raw 00), supplementary characters
         as pairs, lone surrogates as they are.  */
      if (c == 0)
        {
          out[0] = 0xC0;
          out[1] = 0x80;
          return 2;
        }
      return c < 0x10000 ? utf8_form (c, out) : pair_form (c, out);
    case REF_WTF8:
      return utf8_form (c, out);
    case REF_UTF16LE:
    case REF_UTF16BE:
    case REF_UTF16:
      if (c >= 0x10000)
        {
          uint32_t v = c - 0x10000;
          encode (form, 0xD800 + (v >> 10), out);
          encode (form, 0xDC00 + (v & 0x3FF), out + 2);
          return 4;
        }
      out[big ? 0 : 1] = (uint8_t) (c >> 8);
      out[big ? 1 : 0] = (uint8_t) c;
      return 2;
    case REF_UTF32LE:
    case REF_UTF32BE:
    case REF_UTF32:
      for (k = 0; k < 4; k++)
        out[big ? 3 - k : k] = (uint8_t) (c >> (8 * k));
      return 4;
    default:
      abort ();
    }
}

/* The conversion in progress.  */
struct model
{
  enum ref_form to;
  enum ref_policy policy;
  bool bom_wanted;
  struct ref_result *r;
  size_t cap;
  /* The high surrogate whose 3-byte WTF-8 form ends the output, or 0:
     a low surrogate right after it joins it into the 4-byte form.  */
  uint32_t high_at_end;
};

static void
put_bytes (struct model *m, uint8_t const *b, size_t len)
{
  struct ref_result *r = m->r;
  m->high_at_end = 0;
  /* A BOM goes out with the first output, never alone (SPEC §10).  */
  if (m->bom_wanted)
    {
      uint8_t bom[8];
      m->bom_wanted = false;
      put_bytes (m, bom, (size_t) encode (m->to, 0xFEFF, bom));
    }
  if (r->outlen + len > m->cap)
    {
      m->cap = 2 * (r->outlen + len) + 64;
      r->out = realloc (r->out, m->cap);
    }
  memcpy (r->out + r->outlen, b, len);
  r->outlen += len;
}

static void
stop (struct model *m, uint64_t offset, uint64_t line)
{
  m->r->stopped = true;
  m->r->stop_offset = offset;
  m->r->stop_line = line;
}

static void
count_error (struct model *m, uint64_t offset, uint64_t line)
{
  if (m->r->errors++ == 0)
    {
      m->r->first_offset = offset;
      m->r->first_line = line;
    }
}

static void
put_text (struct model *m, char const *text)
{
  uint8_t buf[4];
  for (; *text; text++)
    put_bytes (m, buf, (size_t) encode (m->to, (unsigned char) *text, buf));
}

/* Write C, from the input at OFFSET and LINE; false after a stop.  */
static bool
put_char (struct model *m, uint32_t c, uint64_t offset, uint64_t line)
{
  uint8_t buf[8];
  char text[16];
  int len;

  /* WTF-8 writes a surrogate pair in its 4-byte form only: a low
     surrogate directly after a high one (data, or an escaped byte of
     surrogateescape) replaces the high one's 3-byte form with the
     4-byte form of the pair (SPEC §3).  */
  if (m->to == REF_WTF8 && m->high_at_end != 0 && is_low (c))
    {
      uint32_t high = m->high_at_end;
      m->r->outlen -= 3;
      len = utf8_form (pair (high, c), buf);
      put_bytes (m, buf, (size_t) len);
      return true;
    }
  len = encode (m->to, c, buf);
  if (len >= 0)
    {
      put_bytes (m, buf, (size_t) len);
      if (m->to == REF_WTF8 && is_high (c))
        m->high_at_end = c;
      return true;
    }
  /* C cannot be encoded: a lone surrogate going to UTF-8 or CESU-8.  */
  switch (m->policy)
    {
    case REF_STRICT:
      stop (m, offset, line);
      return false;
    case REF_REPLACE:
      count_error (m, offset, line);
      return put_char (m, 0xFFFD, offset, line);
    case REF_ESCAPE:
      count_error (m, offset, line);
      snprintf (text, sizeof text, c < 0x100 ? "\\x%02x"
                : c < 0x10000 ? "\\u%04x" : "\\U%08x", (unsigned int) c);
      put_text (m, text);
      return true;
    case REF_SURROGATEESCAPE:
      /* PEP 383: U+DC80..U+DCFF go back to the byte they came from, in a
         byte-oriented output that cannot hold them (the outputs that can,
         UTF-16, UTF-32, WTF-8 and MUTF-8, wrote them above); anything
         else is handled as strict.  */
      if ((m->to == REF_UTF8 || m->to == REF_CESU8)
          && 0xDC80 <= c && c <= 0xDCFF)
        {
          buf[0] = (uint8_t) (c - 0xDC00);
          put_bytes (m, buf, 1);
          return true;
        }
      stop (m, offset, line);
      return false;
    case REF_IGNORE:
      count_error (m, offset, line);
      m->r->dropped = true;
      return true;
    }
  abort ();
}

/* Whether FORM has code units of 2 or 4 bytes.  */
static bool
wide (enum ref_form form)
{
  return (form == REF_UTF16LE || form == REF_UTF16BE || form == REF_UTF16
          || form == REF_UTF32LE || form == REF_UTF32BE || form == REF_UTF32);
}

void
ref_convert (enum ref_form from, enum ref_form to, enum ref_policy policy,
             enum ref_bom bom, uint8_t const *s, size_t n,
             struct ref_result *r)
{
  struct ref_item *items = malloc ((n + 1) * sizeof *items);
  size_t count, i = 0, k;
  uint64_t line = 1;
  struct model m;

  memset (r, 0, sizeof *r);
  /* Lone surrogate units of UTF-16/UTF-32 input are data under
     surrogateescape, and when the output is WTF-8 or MUTF-8, which carry
     them (SPEC §3); WTF-8 and MUTF-8 input always carry them, and the
     reference's UTF-8 and CESU-8 decoders never pass them.  */
  count = ref_decode (from, s, n,
                      policy == REF_SURROGATEESCAPE
                      || to == REF_WTF8 || to == REF_MUTF8, items);

  /* --bom=strip: unmarked UTF-16/UTF-32 output is big-endian.  */
  if (bom == REF_BOM_STRIP && to == REF_UTF16)
    to = REF_UTF16BE;
  if (bom == REF_BOM_STRIP && to == REF_UTF32)
    to = REF_UTF32BE;
  m.to = to;
  m.policy = policy;
  m.r = r;
  m.cap = 64;
  m.high_at_end = 0;
  r->out = malloc (m.cap);
  /* A leading U+FEFF is a signature (SPEC §6, §10).  */
  if (count > 0 && !items[0].error && items[0].cp == 0xFEFF)
    i = 1;
  /* A UTF-16/UTF-32 signature is not carried into UTF-8 or CESU-8
     (SPEC §6); the wide forms carry any, and so do WTF-8 and MUTF-8,
     for UTF-16's round trip through them (SPEC §3).  */
  m.bom_wanted = (bom == REF_BOM_ADD || to == REF_UTF16 || to == REF_UTF32
                  || (bom == REF_BOM_AUTO && i == 1
                      && (wide (to) || to == REF_WTF8 || to == REF_MUTF8
                          || !wide (from))));

  for (; i < count; i++)
    {
      struct ref_item const *it = &items[i];
      char text[8];
      if (!it->error)
        {
          if (!put_char (&m, it->cp, it->offset, line))
            break;
          line += it->cp == 0x0A;
          continue;
        }
      if (policy == REF_STRICT)
        {
          stop (&m, it->offset, line);
          break;
        }
      if (policy == REF_SURROGATEESCAPE)
        {
          bool ascii = false;
          for (k = 0; k < it->len; k++)
            ascii |= s[it->offset + k] < 0x80;
          if (ascii)
            {
              stop (&m, it->offset, line);
              break;
            }
        }
      count_error (&m, it->offset, line);
      switch (policy)
        {
        case REF_REPLACE:
          put_char (&m, 0xFFFD, it->offset, line);
          break;
        case REF_ESCAPE:
          for (k = 0; k < it->len; k++)
            {
              snprintf (text, sizeof text, "\\x%02x", s[it->offset + k]);
              put_text (&m, text);
            }
          break;
        case REF_SURROGATEESCAPE:
          for (k = 0; k < it->len; k++)
            if (!put_char (&m, 0xDC00 + s[it->offset + k], it->offset, line))
              break;
          break;
        case REF_IGNORE:
          r->dropped = true;
          break;
        default:
          abort ();
        }
      if (r->stopped)
        break;
    }
  free (items);
}
