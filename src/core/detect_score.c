/* -f auto beyond CP1252: which legacy code page a window of text that
   is not well-formed UTF-8 is written in.

   Specification: SPEC §13 of the project; the man page's DETECTION
   section is the user's description of the same rules.

   Each candidate code page decodes the window: a single-byte one reads
   it both ways and counts the cheaper one (single_byte_cost): every
   byte by the code page (legacy), or the well-formed UTF-8 sequences as
   UTF-8 and the other bytes by the code page (mixed); a multi-byte one
   decodes the whole window and is left out if it finds an error in it.  The decoded text
   is scored by the language models of the languages written in that
   code page (detect_model.h, made by tools/gen-detect-model.py): the sum
   of the costs -ln P(B | A) of each pair of neighbouring characters
   that holds one above U+007F, after the folding the generator applies,
   with an upper-case letter above U+007F next to an ASCII capital read
   as its lower-case one (pair_char; an unseen pair costs its second
   character's own cost plus BACKOFF).
   A pair is looked up by its hash and a check value (model_cost), so
   that a pair the language never showed is never taken for another one
   that shares its bucket.  A byte that the code page leaves undefined
   costs MODEL_UNSEEN twice more, and so does, once, each upper-case
   letter right after a lower-case one and each double quotation mark,
   ellipsis, guillemet or euro sign glued to letters (text_cost).  A candidate's cost is that
   of its best language.

   Before that, a window with the shape of Western text (western_shape:
   high bytes alone between ASCII letters, not in runs of high bytes)
   leaves out the
   candidates whose letters are all high bytes (Cyrillic, Greek, Hebrew,
   Arabic), and the Western code pages are scored with one more model,
   `west', pooled from the Western languages that have none of their
   own: so Italian or Danish text stays Western (SPEC §13).

   The cheapest candidate wins, ties going to the first in the list
   below (so CP1252 wins every tie), but a candidate other than CP1252
   must be cheaper than CP1252 by MARGIN and by a fifth of CP1252's
   cost by its own languages (not `west'): otherwise the evidence is
   weak and the answer stays CP1252.
   The confidence is m / (m + SOFT), where m is how much cheaper the
   winner is than the best candidate that reads the window differently
   (0 when it is not cheaper).  All of it is integer arithmetic on the
   bytes of the window: the same bytes always give the same answer.  */

#include <config.h>

#include "detect_score.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#include "codecs/codecs.h"
#include "codecs/iconv_bridge.h"
#include "codecs/iconv_table.h"
#include "unicode/utf8.h"

#include "detect_model.h"

/* The languages of the model, in the generator's order.  */
enum detect_lang
{
  L_DE, L_FR, L_ES, L_CS, L_PL, L_HU, L_RU, L_UK, L_EL, L_TR, L_HE, L_AR,
  L_LT, L_LV, L_ET, L_JA, L_ZH_CN, L_ZH_TW, L_KO,
  /* The Western languages without a model of their own, pooled.  */
  L_WEST,
  /* The languages of SPEC §13 added after the first twenty.  */
  L_RO, L_SK, L_SL, L_HR, L_BG, L_SR, L_MK, L_BE, L_FI, L_IS, L_GA, L_SQ,
  L_FA, L_VI, L_TH, L_IT, L_NL,
  L_NONE = -1
};

enum
{
  MAX_LANGS = 10,
  /* In the model's units (quarters of a nat).  */
  MARGIN = 12 * MODEL_SCALE,
  SOFT = 10 * MODEL_SCALE,
  /* An unseen pair costs its second character's own cost (ASCII_COST
     for ASCII) plus BACKOFF.  */
  BACKOFF = 6 * MODEL_SCALE,
  ASCII_COST = 2 * MODEL_SCALE
};

/* The candidates, CP1252 first; the earlier one wins a tie.  */
static struct candidate
{
  char const *name;
  bool multi_byte;
  /* Whether the letters of its languages are all bytes above 7F, so
     that a word is a run of them: Cyrillic, Greek, Hebrew, Arabic.  */
  bool high_words;
  short langs[MAX_LANGS];
} const candidates[] = {
  { "CP1252", false, false,
    { L_DE, L_FR, L_ES, L_WEST, L_FI, L_IS, L_GA, L_SQ, L_IT, L_NL } },
  { "CP1250", false, false,
    { L_CS, L_PL, L_HU, L_SK, L_SL, L_HR, L_RO, L_NONE } },
  { "CP1251", false, true,
    { L_RU, L_UK, L_BG, L_SR, L_MK, L_BE, L_NONE, L_NONE } },
  /* KOI8-R lacks the letters of Ukrainian, Belarusian, Serbian and
     Macedonian (і, ў, ђ, ѓ), KOI8-U those of the last three.  */
  { "KOI8-R", false, true, { L_RU, L_BG, L_NONE, L_NONE } },
  { "KOI8-U", false, true, { L_UK, L_RU, L_BG, L_NONE } },
  { "ISO-8859-5", false, true,
    { L_RU, L_UK, L_BG, L_SR, L_MK, L_BE, L_NONE, L_NONE } },
  { "CP866", false, true, { L_RU, L_UK, L_BG, L_NONE } },
  { "CP1253", false, true, { L_EL, L_NONE, L_NONE, L_NONE } },
  { "ISO-8859-7", false, true, { L_EL, L_NONE, L_NONE, L_NONE } },
  /* ISO-8859-9 is CP1254 without the characters of 80..9F (C1
     controls there, which text_cost counts as undefined): a window
     without those bytes reads alike in both, and the standard, first,
     wins the tie; one with them is CP1254's.  */
  { "ISO-8859-9", false, false, { L_TR, L_NONE, L_NONE, L_NONE } },
  { "CP1254", false, false, { L_TR, L_NONE, L_NONE, L_NONE } },
  { "CP1255", false, true, { L_HE, L_NONE, L_NONE, L_NONE } },
  { "CP1256", false, true, { L_AR, L_FA, L_NONE, L_NONE } },
  /* ISO-8859-13 differs from CP1257 where the Windows code page has
     punctuation (80..9F) and in its quotation marks: where they read
     the window alike, the Windows code page wins the tie.  */
  { "CP1257", false, false, { L_LT, L_LV, L_ET, L_NONE } },
  { "ISO-8859-13", false, false, { L_LT, L_LV, L_ET, L_NONE } },
  { "ISO-8859-2", false, false,
    { L_CS, L_PL, L_HU, L_SK, L_SL, L_HR, L_RO, L_NONE } },
  /* Romanian with its own ș and ț (comma below).  */
  { "ISO-8859-16", false, false, { L_RO, L_NONE, L_NONE, L_NONE } },
  { "ISO-8859-15", false, false,
    { L_DE, L_FR, L_ES, L_WEST, L_FI, L_IS, L_GA, L_SQ, L_IT, L_NL } },
  { "CP850", false, false,
    { L_DE, L_FR, L_ES, L_WEST, L_FI, L_IS, L_GA, L_SQ } },
  { "CP437", false, false, { L_DE, L_FR, L_ES, L_WEST, L_NONE } },
  { "MACINTOSH", false, false,
    { L_DE, L_FR, L_ES, L_WEST, L_FI, L_IS, L_GA, L_SQ } },
  /* Thai (TIS-620 and its Windows superset): letters all high bytes.  */
  { "CP874", false, true, { L_TH, L_NONE, L_NONE, L_NONE } },
  /* CP1258 writes Vietnamese tones as combining marks after the
     letter, which its decoder composes: decoded as a whole, as a
     multi-byte code page is, so that the model sees the composed
     letters it was trained on.  */
  { "CP1258", true, false, { L_VI, L_NONE, L_NONE, L_NONE } },
  /* The Windows supersets of Shift_JIS and EUC-KR, not the standards:
     where they disagree (①, ㈱, Ⅰ, № are CP932's alone) the superset
     is the answer (SPEC §13).  */
  { "CP932", true, false, { L_JA, L_NONE, L_NONE, L_NONE } },
  { "EUC-JP", true, false, { L_JA, L_NONE, L_NONE, L_NONE } },
  { "CP949", true, false, { L_KO, L_NONE, L_NONE, L_NONE } },
  { "BIG5", true, false, { L_ZH_TW, L_NONE, L_NONE, L_NONE } },
  /* Last: it reads most of what the others read.  */
  { "GB18030", true, false, { L_ZH_CN, L_ZH_TW, L_NONE, L_NONE } },
};

enum { CANDIDATES = sizeof candidates / sizeof candidates[0] };

/* The codec of a candidate: CP1252 is built in, the others come
   through iconv(3); NULL when iconv(3) does not have it.  */
static struct codec const *
candidate_codec (struct candidate const *c)
{
  return (c == &candidates[0] ? &codec_cp1252
          : iconv_bridge_find (c->name, false, NULL));
}

/* Decode IN[0..N) with a fresh decoder of C into CP (room for
   N + PIVOT_MIN_ROOM values).  Returns the number of values, or -1 at an
   error (a sequence cut by the end of IN is no error unless LAST).  */
static ptrdiff_t
decode_all (struct codec const *c, uint8_t const *in, size_t n, bool last,
            ucs4_t *cp)
{
  struct decoder d;
  int64_t *off = xnmalloc (n + PIVOT_MIN_ROOM, sizeof *off);
  uint8_t *nb = xmalloc (n + PIVOT_MIN_ROOM);
  struct pivot p = { cp, off, nb, 0, n + PIVOT_MIN_ROOM };
  size_t len = n;
  enum decode_status st;

  decoder_init (&d, c);
  st = c->decode (&d, in, &len, last, &p);
  decoder_release (&d);
  free (off);
  free (nb);
  return st == DECODE_INPUT_EMPTY && len == n ? (ptrdiff_t) p.len : -1;
}

/* Whether C decodes every byte alone (see legacy_single_byte), found
   by decoding each byte with a fresh decoder: 256 decoders, each an
   iconv_open for a bridged code page.  */
static bool
probe_single_byte (struct codec const *c, uint32_t table[128])
{
  unsigned int b;
  for (b = 0; b < 256; b++)
    {
      uint8_t byte = (uint8_t) b;
      /* One value, and the room a decoder may want after it.  */
      ucs4_t cp[1 + PIVOT_MIN_ROOM];
      struct decoder d;
      int64_t off[1 + PIVOT_MIN_ROOM];
      uint8_t nb[1 + PIVOT_MIN_ROOM];
      struct pivot p = { cp, off, nb, 0, 1 + PIVOT_MIN_ROOM };
      size_t len = 1;
      enum decode_status st;

      decoder_init (&d, c);
      st = c->decode (&d, &byte, &len, true, &p);
      decoder_release (&d);
      /* A lead byte that more bytes should follow (a truncated
         character) makes a multi-byte encoding: musl's SHIFT_JIS, whose
         bytes below 0x80 are ASCII, told apart only by that.  */
      if (st == DECODE_MALFORMED && d.error.len == 1 && b >= 0x80
          && d.error.kind != ERR_TRUNCATED)
        table[b - 0x80] = LEGACY_UNDEFINED;
      else if (st != DECODE_INPUT_EMPTY || p.len != 1
               || (b < 0x80 && cp[0] != b))
        return false;
      else if (b >= 0x80)
        table[b - 0x80] = cp[0];
    }
  return true;
}

/* What probe_single_byte found for the bridged code pages probed so
   far: the same codec always gives the same answer, and -f auto asks
   about every candidate for every file (it was a quarter of a
   detection's time).  Conversion runs on one thread.  */
enum { PROBED_MAX = 32 };
static struct
{
  struct codec const *codec;
  bool single;
  uint32_t table[128];
} probed[PROBED_MAX];
static size_t nprobed;

bool
legacy_single_byte (struct codec const *c, uint32_t table[128])
{
  unsigned int b;
  ucs4_t const *t = iconv_table_of (c);
  size_t k;
  bool single;

  if (c->flags & (CODEC_WIDE_UNITS | CODEC_WRAPPER))
    return false;
  /* A code page of iconv(3) that is a table (iconv_table.c): read it.  */
  if (t)
    {
      for (b = 0; b < 0x80; b++)
        if (t[b] != b)
          return false;
      for (b = 0x80; b < 256; b++)
        table[b - 0x80] = t[b] == TABLE_UNDEFINED ? LEGACY_UNDEFINED : t[b];
      return true;
    }
  for (k = 0; k < nprobed; k++)
    if (probed[k].codec == c)
      {
        if (probed[k].single)
          memcpy (table, probed[k].table, sizeof probed[k].table);
        return probed[k].single;
      }
  single = probe_single_byte (c, table);
  if (nprobed < PROBED_MAX)
    {
      probed[nprobed].codec = c;
      probed[nprobed].single = single;
      if (single)
        memcpy (probed[nprobed].table, table, sizeof probed[nprobed].table);
      nprobed++;
    }
  return single;
}

/* 1 for an upper-case letter, -1 for a lower-case one, 0 otherwise:
   for ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic.  */
static int
letter_case (ucs4_t c)
{
  if (c < 0x80)
    return ('A' <= c && c <= 'Z') - ('a' <= c && c <= 'z');
  if (0xC0 <= c && c <= 0xFF)
    return c == 0xD7 || c == 0xF7 ? 0 : c < 0xDF ? 1 : -1;
  if (0x100 <= c && c <= 0x17F)
    {
      if (c == 0x138 || c == 0x149 || c == 0x17F)
        return -1;
      if (c == 0x178)
        return 1;
      /* Ĺ..ň and Ź..ž pair odd with even, the rest even with odd.  */
      return ((0x139 <= c && c <= 0x148) || 0x179 <= c) == (c & 1)
             ? 1 : -1;
    }
  if ((0x388 <= c && c <= 0x3AB && c != 0x390) || c == 0x386)
    return 1;
  if ((0x3AC <= c && c <= 0x3CE) || c == 0x390)
    return -1;
  if (0x400 <= c && c <= 0x45F)
    return c < 0x430 ? 1 : -1;
  return 0;
}

/* The lower-case letter of the upper-case letter C (letter_case (C)
   > 0) above U+007F.  */
static ucs4_t
lower_high (ucs4_t c)
{
  if (c <= 0xDE)
    return c + 0x20;
  if (c == 0x178)
    return 0xFF;
  if (c <= 0x17F)
    return c + 1;
  if (c == 0x386)
    return 0x3AC;
  if (c <= 0x38A)
    return c + 0x25;
  if (c == 0x38C)
    return 0x3CC;
  if (c <= 0x38F)
    return c + 0x3F;
  if (c <= 0x3AB)
    return c + 0x20;
  return c < 0x410 ? c + 0x50 : c + 0x20;
}

/* The model's folding of a character (see tools/gen-detect-model.py).  */
static inline ucs4_t
fold (ucs4_t c)
{
  switch (c)
    {
    case 0xA0: case 0xAB: case 0xBB: case 0x2013: case 0x2014:
    case 0x201C: case 0x201D: case 0x201E: case 0x2026: case 0x20AC:
      return 0x20;
    /* Romanian's ş ţ (CP1250's) are its ș ț (ISO-8859-16's).  */
    case 0x15E: case 0x15F:
      return c + (0x218 - 0x15E);
    case 0x162: case 0x163:
      return c + (0x21A - 0x162);
    /* Persian's yeh, which CP1256 writes as Arabic's.  */
    case 0x6CC:
      return 0x64A;
    }
  if (c < 0x80)
    return ('A' <= c && c <= 'Z' ? c + 0x20
            : 'a' <= c && c <= 'z' ? c : 0x20);
  return c;
}

/* Whether C is an ASCII capital letter.  */
static inline bool
ascii_capital (ucs4_t c)
{
  return 'A' <= c && c <= 'Z';
}

/* The character pair_cost reads for CP[I] of CP[0..N): its folding,
   and an upper-case letter above ASCII next to an ASCII capital read
   as its lower-case letter, which the model knows best (it counts them
   apart, and capitals are rare in its text): a word in capitals
   (`BŪSENA', `SKAIČIUS') then costs what the word does.  Only next to
   an ASCII capital, so that a run of capitals above ASCII (a wrong
   reading's, or CP1251's alphabet) does not read as common lower-case
   text.  İ stays: its lower-case letter is ASCII.  */
static inline ucs4_t
pair_char (ucs4_t const *cp, size_t n, size_t i)
{
  ucs4_t c = fold (cp[i] == LEGACY_UNDEFINED ? 0xFFFD : cp[i]);
  if (c >= 0xC0 && c != 0x130 && letter_case (c) > 0
      && ((i > 0 && ascii_capital (cp[i - 1]))
          || (i + 1 < n && ascii_capital (cp[i + 1]))))
    return lower_high (c);
  return c;
}

/* The hash of the pair (A, B) in the model.  */
static inline uint32_t
pair_hash (ucs4_t a, ucs4_t b)
{
  uint32_t h = a * UINT32_C (0x9E3779B1) + b;
  h *= UINT32_C (0x85EBCA77);
  return h ^ h >> 15;
}

/* The check value of bucket K of the language LANG.  */
static inline unsigned int
model_check (int lang, unsigned int k)
{
  char const *row = model_checks[lang * 2 * MODEL_ROWS + (k >> 10)];
  unsigned int hi = model_digit[(unsigned char) row[2 * (k & 1023)]];
  unsigned int lo = model_digit[(unsigned char) row[2 * (k & 1023) + 1]];
  return hi << MODEL_CHECK_BITS / 2 | lo;
}

/* The model's cost of the pair (A, B) in the language LANG: the cost of
   the first bucket from the pair's own on that holds the pair's check
   value, or MODEL_UNSEEN at the first empty bucket (linear probing; the
   generator leaves a quarter of the buckets empty at least).  */
static inline unsigned int
model_cost (int lang, ucs4_t a, ucs4_t b)
{
  uint32_t h = pair_hash (a, b);
  unsigned int k = h >> (32 - MODEL_BITS);
  unsigned int check = (h * UINT32_C (0xC2B2AE3D)) >> (32 - MODEL_CHECK_BITS);

  for (;; k = (k + 1) & ((1u << MODEL_BITS) - 1))
    {
      char c = model_costs[lang * MODEL_ROWS + (k >> 11)][k & 2047];
      unsigned int q = model_digit[(unsigned char) c];
      if (q == MODEL_UNSEEN || model_check (lang, k) == check)
        return q;
    }
}

/* Whether C, between BEFORE and AFTER, is punctuation that the model
   folds to a space standing where text does not put it: an opening „
   right after a letter, or “ ” … « » € between two letters.  Wrong
   readings put them there: CP1252 reads CP850's ä, ö and à as „ ” …
   (`K„se'), MacRoman reads ă and ã as „ (`Factur„'), and Lithuanian's
   Ū and Č (ISO-8859-13's DB, C8) as € and » (`B€SENA', `SKAI»IUS').
   Dashes are not counted: `word—word' is how American English writes
   them.  */
static bool
glued_mark (ucs4_t c, ucs4_t before, ucs4_t after)
{
  if (c != 0x201E && c != 0x201C && c != 0x201D && c != 0x2026
      && c != 0xAB && c != 0xBB && c != 0x20AC)
    return false;
  return (letter_case (before) != 0
          && (c == 0x201E || letter_case (after) != 0));
}

/* The part of text_cost that is the same in every language: an
   undefined byte costs MODEL_UNSEEN twice; an upper-case letter above
   U+007F right after a lower-case letter costs MODEL_UNSEEN: text
   seldom holds one (a word does not change case in its middle), while
   a wrong reading of Western text does (MacRoman reads ç and ã as Á
   and Ë); so does punctuation glued to letters (glued_mark).  */
static uint64_t
text_penalty (ucs4_t const *cp, size_t n)
{
  uint64_t sum = 0;
  ucs4_t before = 0x20;
  size_t i;

  for (i = 0; i < n; i++)
    {
      ucs4_t c = cp[i];
      /* A C1 control is no text either: it is how ISO-8859-x reads the
         punctuation of the Windows code page (80..9F).  */
      if (c == LEGACY_UNDEFINED || (0x80 <= c && c < 0xA0))
        {
          sum += 2 * MODEL_UNSEEN;
          c = 0xFFFD;
        }
      if (c >= 0x80 && letter_case (c) > 0 && letter_case (before) < 0)
        sum += MODEL_UNSEEN;
      if (glued_mark (c, before, i + 1 < n ? cp[i + 1] : 0x20))
        sum += MODEL_UNSEEN;
      before = c;
    }
  return sum;
}

/* The cost of the pairs of neighbouring characters of CP[0..N) that
   hold one above U+007F, in the language LANG: the part of text_cost
   that depends on the language, so that a text scored in several
   languages pays text_penalty once.  */
static uint64_t
pair_cost (ucs4_t const *cp, size_t n, int lang)
{
  uint64_t sum = 0;
  ucs4_t prev = 0x20;
  size_t i;

  for (i = 0; i < n; i++)
    {
      ucs4_t c = pair_char (cp, n, i);
      if (c >= 0x80 || prev >= 0x80)
        {
          unsigned int q = model_cost (lang, prev, c);
          if (q == MODEL_UNSEEN)
            {
              /* Back off to the character alone.  */
              q = (c >= 0x80 ? model_cost (lang, 0, c) : ASCII_COST) + BACKOFF;
              if (q > MODEL_UNSEEN)
                q = MODEL_UNSEEN;
            }
          sum += q;
        }
      prev = c;
    }
  return sum;
}

/* Whether pair_cost reads C as a character above ASCII.  */
static inline bool
high_folded (ucs4_t c)
{
  /* fold keeps ASCII in ASCII.  */
  return c >= 0x80 && fold (c == LEGACY_UNDEFINED ? 0xFFFD : c) >= 0x80;
}

/* Keep of CP[0..N), in place, only what pair_cost reads: the characters
   above ASCII once folded, and the ones next to them.  Each run kept
   starts and ends with an ASCII character (but at the ends of CP), so
   that two runs meet in a pair of ASCII characters, which pair_cost
   skips: the cost of what is kept is that of CP, for every language,
   and text that is mostly ASCII is read once instead of once a
   language.  Returns how many are kept.  */
static size_t
keep_for_pairs (ucs4_t *cp, size_t n)
{
  size_t i, m = 0;
  bool prev_high = false, high = n > 0 && high_folded (cp[0]);

  for (i = 0; i < n; i++)
    {
      bool next_high = i + 1 < n && high_folded (cp[i + 1]);
      if (high || prev_high || next_high)
        cp[m++] = cp[i];
      prev_high = high;
      high = next_high;
    }
  return m;
}

/* The cost of the text CP[0..N) in the language LANG.  */
static uint64_t
text_cost (ucs4_t const *cp, size_t n, int lang)
{
  return text_penalty (cp, n) + pair_cost (cp, n, lang);
}

/* The cost of CP[0..N) for candidate C: that of its best language;
   into *OWN, that of its best language other than the pooled L_WEST.  */
static uint64_t
candidate_cost (struct candidate const *c, ucs4_t *cp, size_t n,
                uint64_t *own)
{
  uint64_t best = UINT64_MAX, pen = text_penalty (cp, n);
  int k;
  *own = UINT64_MAX;
  n = keep_for_pairs (cp, n);
  for (k = 0; k < MAX_LANGS && c->langs[k] != L_NONE; k++)
    {
      uint64_t cost = pen + pair_cost (cp, n, c->langs[k]);
      if (cost < best)
        best = cost;
      if (c->langs[k] != L_WEST && cost < *own)
        *own = cost;
    }
  return best;
}

/* A byte of a window read by a single-byte code page (its values of
   80..FF in TABLE).  */
static inline ucs4_t
byte_value (uint8_t b, uint32_t const table[128])
{
  return b < 0x80 ? b : table[b - 0x80];
}

/* The runs of well-formed multi-byte UTF-8 sequences in a window, each
   from AT[2 * K] to AT[2 * K + 1]: the only bytes that -f auto's mixed
   reading (UTF-8, with the bytes of ill-formed sequences read by a
   code page) reads otherwise than the legacy one (every byte read by
   the code page).  */
struct runs
{
  size_t *at;
  size_t n;
  size_t chars;                 /* The characters of the runs.  */
  size_t ill_leads;             /* Bytes C2..DF that start no
                                   well-formed sequence.  */
  size_t end;                   /* Where the scan stopped: N, or the
                                   start of a sequence cut by the end
                                   of a window that is not the last.  */
};

/* Mixed needs at least one well-formed multi-byte character for each
   MIXED_RATE - 1 bytes C2..DF that start an ill-formed sequence: in
   Greek, Cyrillic or Arabic legacy text, whose letters are those lead
   bytes, a few pairs are well-formed UTF-8 by chance and decode to
   letters of the same script (CP1253 CE B1 is UTF-8 alpha); a file that
   mixes UTF-8 and legacy text holds far more of them.  */
enum { MIXED_RATE = 8 };

/* Find the runs of WIN[0..N) (LAST: the file ends with it) into R, whose
   AT has room for N + 2 offsets.  */
static void
find_runs (uint8_t const *win, size_t n, bool last, struct runs *r)
{
  size_t i = 0;
  r->n = r->chars = r->ill_leads = 0;
  while (i < n)
    {
      ucs4_t c;
      enum err_kind kind;
      int len;
      if (win[i] < 0x80)
        {
          i++;
          continue;
        }
      len = utf8_sequence (&utf8_form, win + i, n - i, last, &c, &kind);
      if (len == UTF8_TOOFEW)
        break;
      if (len < 0)
        {
          r->ill_leads += 0xC2 <= win[i] && win[i] <= 0xDF;
          i += (size_t) -len;
          continue;
        }
      r->chars++;
      if (r->n > 0 && r->at[2 * r->n - 1] == i)
        r->at[2 * r->n - 1] = i + (size_t) len;
      else
        {
          r->at[2 * r->n] = i;
          r->at[2 * r->n + 1] = i + (size_t) len;
          r->n++;
        }
      i += (size_t) len;
    }
  r->end = i < n ? i : n;
}

/* How much more the mixed reading of the window WIN[0..N), with the
   runs R, costs in the language LANG than its legacy reading with
   TABLE (negative when less).  Only the pairs in and around each run
   differ; BUF has room for N + 2 values.  */
static int64_t
mixed_delta (uint8_t const *win, size_t n, struct runs const *r,
             uint32_t const table[128], int lang, ucs4_t *buf)
{
  int64_t delta = 0;
  size_t k;

  for (k = 0; k < r->n; k++)
    {
      size_t a = r->at[2 * k], b = r->at[2 * k + 1], i, m = 0;
      ucs4_t c = 0;
      enum err_kind kind;
      uint64_t legacy;

      /* The neighbours read alike; the pair of the space before the
         first one is counted in both.  */
      buf[m++] = a > 0 ? byte_value (win[a - 1], table) : 0x20;
      for (i = a; i < b; i++)
        buf[m++] = byte_value (win[i], table);
      if (b < n)
        buf[m++] = byte_value (win[b], table);
      legacy = text_cost (buf, m, lang);
      /* The run holds well-formed sequences only.  */
      for (m = 1, i = a; i < b; m++)
        {
          int len = utf8_sequence (&utf8_form, win + i, b - i, true, &c,
                                   &kind);
          buf[m] = c;
          i += (size_t) len;
        }
      if (b < n)
        buf[m++] = byte_value (win[b], table);
      delta += (int64_t) text_cost (buf, m, lang) - (int64_t) legacy;
      /* A character the language never showed (CJK in Macedonian
         CP1251 text, whose ејќ is E5 BC 9D) is no evidence of UTF-8:
         it costs as an undefined byte.  Punctuation that the model
         folds to a space (» « and the no-break space of a file whose
         UTF-8 lines hold only those) is not counted: the model holds
         no character below U+0080 at all.  */
      for (i = 1; i + (b < n) < m; i++)
        {
          ucs4_t f = fold (buf[i]);
          if (f >= 0x80 && model_cost (lang, 0, f) == MODEL_UNSEEN)
            delta += 2 * MODEL_UNSEEN;
        }
    }
  return delta;
}

/* The cost of the window WIN[0..N) read by the single-byte candidate C
   with TABLE, in its best language and its better reading, legacy or
   mixed, so that a legacy file's pairs that happen to be well-formed
   UTF-8 count as its own characters, and a mixed file's UTF-8 as UTF-8.
   TEXT and BUF have room for N + 2 values.  Into *OWN, the same by its
   best language other than the pooled L_WEST.  */
static uint64_t
single_byte_cost (struct candidate const *c, uint8_t const *win, size_t n,
                  struct runs const *r, uint32_t const table[128],
                  ucs4_t *text, ucs4_t *buf, uint64_t *own)
{
  uint64_t best = UINT64_MAX, pen;
  size_t i, kept;
  int k;

  *own = UINT64_MAX;
  for (i = 0; i < n; i++)
    text[i] = byte_value (win[i], table);
  pen = text_penalty (text, n);
  kept = keep_for_pairs (text, n);
  for (k = 0; k < MAX_LANGS && c->langs[k] != L_NONE; k++)
    {
      uint64_t legacy = pen + pair_cost (text, kept, c->langs[k]);
      int64_t delta = mixed_delta (win, n, r, table, c->langs[k], buf);
      uint64_t cost = delta < 0 ? legacy - (uint64_t) -delta : legacy;
      if (cost < best)
        best = cost;
      if (c->langs[k] != L_WEST && cost < *own)
        *own = cost;
    }
  return best;
}

/* Whether the multi-byte codec C reads the bytes of RELEASED as
   ASCII.  */
static bool
reads_ascii (struct codec const *c, uint64_t const released[2])
{
  unsigned int b;
  for (b = 0; b < 128; b++)
    if (released[b / 64] >> (b % 64) & 1)
      {
        uint8_t byte = (uint8_t) b;
        ucs4_t cp[1 + PIVOT_MIN_ROOM];
        if (decode_all (c, &byte, 1, true, cp) != 1 || cp[0] != b)
          return false;
      }
  return true;
}

/* Whether the byte B is an ASCII letter.  */
static inline bool
ascii_letter (uint8_t b)
{
  return ('a' <= (b | 0x20) && (b | 0x20) <= 'z');
}

/* Whether the window WIN, with the runs R, has the shape of Western
   text rather than that of a script whose letters are all high bytes:
   in Cyrillic, Greek, Hebrew or Arabic text a high byte sits in a run
   of them (a word) and seldom touches an ASCII letter, while in Western
   text most accented letters sit alone between ASCII letters.  The
   bytes counted are the high bytes outside the runs (the bytes of
   ill-formed UTF-8 sequences); a character of a run touches neither an
   ASCII letter nor such a byte.  The window is Western when more than a
   tenth of those bytes touch an ASCII letter, or when fewer than half
   of them touch another.  Measured on bench/detect's samples (catalogue
   text): in the 1,300 Cyrillic, Greek, Hebrew and Arabic ones with at
   least ten high bytes, at most 4.6 % of them touch an ASCII letter and
   at least 89 % touch another (the one Western window among them holds
   one high byte, and reads as CP1252 anyway); 5,399 of the 5,400
   samples of 19 Latin-script languages in 10 code pages are Western
   (the other: four high bytes in two pairs), Italian included, whose è
   stands alone.  */
static bool
western_shape (uint8_t const *win, struct runs const *r)
{
  size_t i, k = 0, high = 0, touch_ascii = 0, touch_high = 0;
  for (i = 0; i < r->end; i++)
    {
      bool run_before, run_after, ascii_near, high_near;
      /* K: the first run that starts after I.  */
      while (k < r->n && r->at[2 * k] <= i)
        k++;
      if (win[i] < 0x80 || (k > 0 && i < r->at[2 * k - 1]))
        continue;
      run_before = k > 0 && r->at[2 * k - 1] == i;
      run_after = k < r->n && r->at[2 * k] == i + 1;
      ascii_near = ((i > 0 && !run_before && ascii_letter (win[i - 1]))
                    || (i + 1 < r->end && !run_after
                        && ascii_letter (win[i + 1])));
      high_near = ((i > 0 && !run_before && win[i - 1] >= 0x80)
                   || (i + 1 < r->end && !run_after && win[i + 1] >= 0x80));
      high++;
      touch_ascii += ascii_near;
      touch_high += high_near;
    }
  return 10 * touch_ascii > high || 2 * touch_high < high;
}

/* The ASCII bytes that a multi-byte candidate reads as something else,
   found once a process (bit B of TRAPS[B / 64]).  */
static void
ascii_traps (uint64_t traps[2])
{
  static uint64_t known[2];
  static bool done;
  size_t i;
  unsigned int b;

  if (!done)
    {
      uint8_t all[128];
      ucs4_t cp[128 + PIVOT_MIN_ROOM];
      for (b = 0; b < 128; b++)
        all[b] = (uint8_t) b;
      for (i = 0; i < CANDIDATES; i++)
        {
          struct codec const *c = candidate_codec (&candidates[i]);
          if (!candidates[i].multi_byte || !c)
            continue;
          /* All 128 bytes in one decoder; byte by byte when they do not
             come out as 128 values.  */
          if (decode_all (c, all, 128, true, cp) == 128)
            {
              for (b = 0; b < 128; b++)
                if (cp[b] != b)
                  known[b / 64] |= UINT64_C (1) << (b % 64);
            }
          else
            for (b = 0; b < 128; b++)
              {
                uint64_t one[2] = { 0, 0 };
                one[b / 64] = UINT64_C (1) << (b % 64);
                if (!reads_ascii (c, one))
                  known[b / 64] |= one[b / 64];
              }
        }
      done = true;
    }
  traps[0] = known[0];
  traps[1] = known[1];
}

void
legacy_release (uint8_t const *in, size_t n, uint64_t released[2])
{
  uint64_t traps[2];
  unsigned int b;

  if (n == 0)
    return;
  ascii_traps (traps);
  for (b = 0; b < 128; b++)
    if ((traps[b / 64] >> (b % 64) & 1)
        && !(released[b / 64] >> (b % 64) & 1) && memchr (in, (int) b, n))
      released[b / 64] |= UINT64_C (1) << (b % 64);
}

/* The cost of each candidate (UINT64_MAX when left out) into COST, and
   CP1252's by its own languages (without L_WEST) into *OWN0.  A
   candidate whose letters are all high bytes is left out when the
   window has the shape of Western text: a Latin-script language that
   the model does not know (Italian, Danish...) is then not forced into
   another script.  */
static void
score_all (uint8_t const *win, size_t n, bool last,
           uint64_t const released[2], uint64_t *cost, uint64_t *own0)
{
  ucs4_t *text = xnmalloc (n + PIVOT_MIN_ROOM + 2, sizeof *text);
  ucs4_t *buf = xnmalloc (n + 2, sizeof *buf);
  struct runs r;
  size_t i;
  bool western;

  r.at = xnmalloc (n + 2, sizeof *r.at);
  find_runs (win, n, last, &r);
  western = western_shape (win, &r);
  for (i = 0; i < CANDIDATES; i++)
    {
      struct candidate const *c = &candidates[i];
      struct codec const *codec = candidate_codec (c);
      uint32_t table[128];
      uint64_t own = UINT64_MAX;
      cost[i] = UINT64_MAX;
      if (!codec || (c->high_words && western))
        continue;
      if (!c->multi_byte)
        {
          if (legacy_single_byte (codec, table))
            cost[i] = single_byte_cost (c, win, n, &r, table, text, buf,
                                        &own);
        }
      else if (reads_ascii (codec, released))
        {
          /* A character cut by the end of the window or of a sample is
             no evidence against the code page.  */
          ptrdiff_t m = decode_all (codec, win, n, false, text);
          if (m >= 0)
            cost[i] = candidate_cost (c, text, (size_t) m, &own);
        }
      if (i == 0)
        *own0 = own;
    }
  free (r.at);
  free (buf);
  free (text);
}

/* The languages to score a reading in the code page X with: those of
   its candidate, or all languages when X is no candidate (--fallback);
   into LANGS (room for L_COUNT).  Returns how many.  */
static size_t
languages_of (struct codec const *x, int *langs)
{
  size_t i, k = 0;
  int l;
  for (i = 0; i < CANDIDATES; i++)
    if (candidate_codec (&candidates[i]) == x)
      {
        for (l = 0; l < MAX_LANGS && candidates[i].langs[l] != L_NONE; l++)
          langs[k++] = candidates[i].langs[l];
        return k;
      }
  for (l = 0; l < MODEL_LANGS; l++)
    langs[k++] = l;
  return k;
}

bool
legacy_reads_mixed (uint8_t const *win, size_t n, bool last,
                    struct codec const *x, uint32_t const table[128])
{
  ucs4_t *text = xnmalloc (n + 2, sizeof *text);
  ucs4_t *buf = xnmalloc (n + 2, sizeof *buf);
  int langs[MODEL_LANGS];
  size_t nl = languages_of (x, langs), l, i;
  uint64_t best = UINT64_MAX;
  bool verdict = false;
  struct runs r;

  r.at = xnmalloc (n + 2, sizeof *r.at);
  find_runs (win, n, last, &r);
  for (i = 0; i < n; i++)
    text[i] = byte_value (win[i], table);
  /* Without a well-formed multi-byte sequence, both read alike; with
     only a few, they are chance.  */
  if (r.chars * (MIXED_RATE - 1) < r.ill_leads)
    r.n = 0;
  for (l = 0; r.n > 0 && l < nl; l++)
    {
      uint64_t legacy = text_cost (text, n, langs[l]);
      int64_t delta = mixed_delta (win, n, &r, table, langs[l], buf);
      uint64_t low = delta < 0 ? legacy - (uint64_t) -delta : legacy;
      if (low < best)
        {
          best = low;
          verdict = delta < 0;
        }
    }
  free (r.at);
  free (buf);
  free (text);
  return verdict;
}

void
legacy_detect (uint8_t const *win, size_t n, bool last,
               uint64_t const released[2], struct legacy_verdict *v)
{
  uint64_t cost[CANDIDATES], own0 = UINT64_MAX, runner = UINT64_MAX, m;
  size_t i, best = 0;

  score_all (win, n, last, released, cost, &own0);
  for (i = 1; i < CANDIDATES; i++)
    if (cost[i] < cost[best])
      best = i;
  v->how = LEGACY_MODEL;
  /* The margin is measured against CP1252's reading by the languages
     it has models of: the pooled model makes CP1252 the answer where it
     makes its reading the cheapest, and nowhere else.  */
  if (best != 0 && cost[0] != UINT64_MAX
      && (own0 - cost[best] < MARGIN || 5 * cost[best] > 4 * own0))
    {
      best = 0;
      v->how = LEGACY_WEAK;
    }
  /* The runner-up: the cheapest other candidate whose cost differs (an
     equal cost almost always means the same reading of the window).  */
  for (i = 0; i < CANDIDATES; i++)
    if (i != best && cost[i] != cost[best] && cost[i] < runner)
      runner = cost[i];
  m = runner == UINT64_MAX ? 4 * SOFT
      : runner > cost[best] ? runner - cost[best] : 0;
  v->confidence = (unsigned int) (100 * m / (m + SOFT));
  v->codec = candidate_codec (&candidates[best]);
  v->multi_byte = candidates[best].multi_byte;
  if (!v->codec)
    {
      v->codec = &codec_cp1252;
      v->multi_byte = false;
    }
}
