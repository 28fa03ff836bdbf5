/* -f auto: detect the input form, file by file.

   Specification: SPEC §5 and §10 of the project, in this order:

   1. A byte order mark selects the form: EF BB BF UTF-8, FF FE 00 00
      UTF-32LE (tested before UTF-16LE, whose BOM it starts with),
      00 00 FE FF UTF-32BE, FF FE UTF-16LE, FE FF UTF-16BE.  The BOM is
      then decoded as U+FEFF, which the pipeline treats as a signature.

   2. Without one, the NUL pattern of the first DETECT_LOOKAHEAD bytes
      (or of all the input when it is shorter) recognises BOM-less UTF-16
      in Latin scripts.  Over the P complete pairs of bytes in that
      window, with Z_ODD the NUL bytes at odd offsets and Z_EVEN those at
      even offsets:
        UTF-16LE  when 2 * Z_ODD > P and 8 * Z_EVEN <= P;
        UTF-16BE  when 2 * Z_EVEN > P and 8 * Z_ODD <= P.
      So "more than half of the pairs hold a NUL in one place and at most
      an eighth in the other".  The answer depends on those bytes only,
      never on how the input was split into reads.

   3. Otherwise the window decides (SPEC §5, §13): the bytes from the
      file's first byte above 0x7F on, DETECT_WINDOW of them (the ASCII
      before it reads alike in every candidate and is decoded at once,
      so a long ASCII head does not use the window up).  The file is
      ASCII (no byte above 0x7F at all), UTF-8 (the window is
      well-formed UTF-8, or its first UTF8_ENOUGH multi-byte characters
      are), legacy X (every byte read by X's own decoder), or mixed
      UTF-8 + X (well-formed UTF-8 read as UTF-8, the bytes of each
      ill-formed maximal subpart as X).  X is chosen by detect_score.c
      (or named by --fallback); mixed is chosen over legacy X only when
      the window's well-formed multi-byte sequences read as better text
      as UTF-8 than as X (legacy_reads_mixed).  UTF-8 files read later
      ill-formed bytes as X (CP1252 unless --fallback names another):
      they are then mixed.  After a UTF-8 BOM the file is UTF-8 or
      mixed.  After a UTF-16 or UTF-32 BOM, or the NUL pattern, the
      decoder of that form runs as it is and the -e policy handles its
      errors.

   -f auto is a codec of its own that wraps the decoder of the form it
   detects: its decoder owns that inner decoder and the detection state
   (struct auto_state, in the decoder's `impl'), so that no other
   decoder carries any of it.  Until it has decided, the decoder keeps
   the bytes it has seen in its state (at most DETECT_LOOKAHEAD - 1 of
   them) and decodes nothing; then it replays them through the inner
   decoder, with their offsets, before it goes on with the input.  The decision is
   taken as early as the bytes allow: at a BOM, or once neither UTF-16
   test can pass whatever follows (after about 130 bytes of text without
   NULs), or at the end of the input.  The same bytes give the same
   decision whatever the reads are: the window is always the same bytes
   of the file.  */

#include <config.h>

#include "detect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

#include "codecs/codecs.h"
#include "detect_score.h"
#include "nulpattern.h"
#include "unicode/utf8.h"

enum
{
  /* Well-formed multi-byte UTF-8 characters that, met before any
     ill-formed sequence, make the file UTF-8 before the window ends.  */
  UTF8_ENOUGH = 16,
  NO_HIGH = DETECT_WINDOW + 1
};

/* The -f auto codec, with the code page --fallback names (NULL: detect
   it) and --if-unsure=skip's threshold (0: convert every file).  */
struct auto_codec
{
  struct stateful_codec sc;
  struct codec const *fixed;
  unsigned int unsure_below;
};

/* The state of an -f auto decoder.  */
struct auto_state
{
  struct decoder inner;         /* The detected form's, once decided.  */
  struct auto_codec const *options;
  enum detect_how how;
  enum detect_kind kind;
  unsigned int look_len;        /* Bytes held in LOOK.  */
  unsigned int look_pos;        /* Of which replayed already.  */
  uint8_t *look;                /* DETECT_LOOKAHEAD + DETECT_WINDOW
                                   bytes: the first bytes of the file, or
                                   from its first byte above 0x7F on.  */
  /* UTF-8: while PENDING, the decision is not taken yet; the window is
     classified up to SCAN: the index in LOOK of the file's first byte
     above 0x7F (NO_HIGH for none yet), the well-formed multi-byte
     characters before any ill-formed sequence, whether one was met, and
     the ASCII bytes before FIRST_HIGH (already decoded, as every code
     page reads them).  */
  bool pending;
  unsigned int scan, first_high, good;
  bool ill;
  uint64_t released[2];
  struct codec const *legacy;   /* The chosen code page.  */
  enum legacy_how legacy_how;
  unsigned int confidence;
  bool legacy_inner;            /* INNER is the single-byte LEGACY.  */
  bool skip;                    /* Unsure, and --if-unsure=skip.  */
  uint32_t table[128];          /* LEGACY's values of bytes 80..FF.  */
  uint64_t fallback_seqs;       /* Ill-formed UTF-8 read as LEGACY.  */
  uint64_t fallback_bytes;
};

/* The confidence of well-formed UTF-8 that holds multi-byte characters:
   legacy text is seldom well-formed UTF-8, but it can be.  */
enum { UTF8_CONFIDENCE = 99 };

/* Byte I of the window made of LOOK[0..LOOK_LEN) followed by IN.  */
static inline uint8_t
window_byte (struct auto_state const *s, uint8_t const *in, size_t i)
{
  return i < s->look_len ? s->look[i] : in[i - s->look_len];
}

/* Whether the first N bytes of the window are a prefix of BOM[0..LEN).  */
static bool
window_starts (struct auto_state const *s, uint8_t const *in, size_t n,
               char const *bom, size_t len)
{
  size_t i;
  for (i = 0; i < n && i < len; i++)
    if (window_byte (s, in, i) != (uint8_t) bom[i])
      return false;
  return true;
}

/* What find_bom and find_nul_pattern return when more bytes could still
   change their answer.  */
static struct codec const undecided_marker;
#define UNDECIDED (&undecided_marker)

/* The byte order mark that starts the window of TOTAL bytes: its codec,
   NULL for none, or UNDECIDED when more bytes could still make one (never
   when LAST).  */

static struct codec const *
find_bom (struct auto_state const *s, uint8_t const *in, size_t total,
          bool last)
{
  static struct
  {
    char const *bytes;
    size_t len;
    struct codec const *codec;
  } const boms[] = {
    { "\xEF\xBB\xBF", 3, &codec_utf8 },
    { "\xFF\xFE\0\0", 4, &codec_utf32le },
    { "\x00\x00\xFE\xFF", 4, &codec_utf32be },
    { "\xFF\xFE", 2, &codec_utf16le },
    { "\xFE\xFF", 2, &codec_utf16be },
  };
  size_t k;

  /* The first BOM of the list that the window starts with wins; a
     longer one that the window is still a prefix of must wait.  */
  for (k = 0; k < sizeof boms / sizeof boms[0]; k++)
    if (window_starts (s, in, total, boms[k].bytes, boms[k].len))
      {
        if (boms[k].len <= total)
          return boms[k].codec;
        if (!last)
          return UNDECIDED;
      }
  return NULL;
}

/* The NUL-pattern test (nulpattern.h) on the window of TOTAL bytes.
   Returns the UTF-16 or UTF-32 codec it finds, NULL for none, or
   UNDECIDED when more bytes could still change the answer (only when
   TOTAL < NUL_PATTERN_WINDOW and not LAST).  */
static struct codec const *
find_nul_pattern (struct auto_state const *s, uint8_t const *in,
                  size_t total, bool last)
{
  struct nul_count count;
  size_t held = s->look_len < total ? s->look_len : total;
  struct codec const *c;
  bool undecided;

  memset (&count, 0, sizeof count);
  nul_pattern_add (&count, s->look, held);
  nul_pattern_add (&count, in, total - held);
  c = nul_pattern_codec (&count, last, &undecided);
  return undecided ? UNDECIDED : c;
}

/* Read the values of the bytes 80..FF of the code page C from its
   codec, so that the fallback cannot disagree with -f C.  */
static void
load_table (struct auto_state *s, struct codec const *c)
{
  unsigned int b;
  s->legacy = c;
  if (!legacy_single_byte (c, s->table))
    /* The CLI and the detector only choose single-byte code pages; a
       codec that says otherwise is a bug that the tests catch.  Latin-1
       keeps the conversion going meanwhile.  */
    for (b = 0; b < 128; b++)
      s->table[b] = 0x80 + b;
}

/* Try to decide with the window LOOK + IN[0..N); once decided, the inner
   decoder is ready for the form found, with D's settings.  */
static bool
decide (struct decoder *d, struct auto_state *s, uint8_t const *in,
        size_t n, bool last)
{
  size_t total = s->look_len + n;
  struct codec const *c;

  c = find_bom (s, in, total, last);
  if (c == UNDECIDED)
    return false;
  if (c)
    s->how = DETECT_BOM;
  else
    {
      c = find_nul_pattern (s, in, total, last);
      if (c == UNDECIDED)
        return false;
      if (c)
        s->how = DETECT_NUL_PATTERN;
      else
        {
          c = &codec_utf8;
          s->how = DETECT_DEFAULT;
        }
    }
  decoder_init (&s->inner, c);
  s->inner.lone_surrogates_ok = d->lone_surrogates_ok;
  /* Only a BOM leaves nothing else possible.  UTF-8 without one is
     decided by its window (choose_legacy).  */
  s->confidence = s->how == DETECT_BOM ? 100 : 99;
  s->kind = (s->how == DETECT_BOM ? KIND_BOM
             : s->how == DETECT_NUL_PATTERN ? KIND_NUL_PATTERN : KIND_NONE);
  if (c == &codec_utf8)
    {
      /* The window decides, also after a UTF-8 BOM (UTF-8 or mixed).  */
      s->pending = true;
      s->first_high = NO_HIGH;
    }
  return true;
}

/* UTF-8 with the legacy fallback: decode with the UTF-8 decoder, and
   turn each ill-formed subpart it reports into characters of the legacy
   code page, one for each byte.  A subpart that holds a byte the code
   page leaves undefined stays an error, for the -e policy.  */
static enum decode_status
decode_utf8_fallback (struct auto_state *s, uint8_t const *in,
                      size_t *inlen, bool last, struct pivot *p)
{
  struct decoder *d = &s->inner;
  size_t n = *inlen, i = 0, cap = p->cap;
  enum decode_status st;

  /* Keep room for the characters of one subpart.  */
  if (cap - p->len <= MAX_ERROR_BYTES)
    {
      *inlen = 0;
      return DECODE_OUTPUT_FULL;
    }
  p->cap = cap - MAX_ERROR_BYTES;
  for (;;)
    {
      size_t len = n - i;
      unsigned int k;
      st = codec_utf8.decode (d, in + i, &len, last, p);
      if (st != DECODE_MALFORMED)
        {
          i += len;
          break;
        }
      for (k = 0; k < d->error.len; k++)
        if (s->table[d->error.bytes[k] - 0x80] == LEGACY_UNDEFINED)
          break;
      if (k < d->error.len)
        {
          /* The subpart stays an error, for the -e policy; it says
             that the code page leaves a byte of it undefined (a
             subpart of more bytes is rare: the code page's lead bytes
             of UTF-8 before an undefined byte).  */
          d->error.kind = ERR_UNDEFINED;
          i += len;
          break;
        }
      for (k = 0; k < d->error.len; k++)
        {
          p->cp[p->len] = s->table[d->error.bytes[k] - 0x80];
          p->off[p->len] = (int64_t) i + d->error.rel_offset + k;
          p->n[p->len] = 1;
          p->len++;
        }
      s->fallback_seqs++;
      s->fallback_bytes += d->error.len;
      i += len;
      /* The UTF-8 decoder wants LEN <= CAP.  */
      if (p->cap <= p->len)
        {
          st = DECODE_OUTPUT_FULL;
          break;
        }
    }
  p->cap = cap;
  *inlen = i;
  return st;
}

/* Decode IN[0..*INLEN) with the inner decoder: what it decodes goes to
   P, its newlines and its error to D.  */
static enum decode_status
decode_inner (struct decoder *d, struct auto_state *s, uint8_t const *in,
              size_t *inlen, bool last, struct pivot *p)
{
  uint64_t before = s->inner.newlines;
  enum decode_status st;

  /* An unsure file under --if-unsure=skip: nothing more of it.  */
  if (s->skip)
    return DECODE_INPUT_EMPTY;
  if (s->inner.codec == &codec_utf8)
    st = decode_utf8_fallback (s, in, inlen, last, p);
  else
    st = s->inner.codec->decode (&s->inner, in, inlen, last, p);
  /* A fallback value U+000A is impossible: LF is never ill-formed.  */
  d->newlines += s->inner.newlines - before;
  if (st == DECODE_MALFORMED)
    {
      d->error = s->inner.error;
      /* A single-byte code page's invalid byte is one it leaves
         undefined.  */
      if (s->legacy_inner && d->error.kind == ERR_INVALID_BYTE)
        d->error.kind = ERR_UNDEFINED;
    }
  return st;
}

/* Classify the window held in LOOK from S->SCAN on (END: no more bytes
   will come into it).  */
static void
scan_window (struct auto_state *s, bool end)
{
  while (s->scan < s->look_len && !s->ill && s->good < UTF8_ENOUGH)
    {
      uint8_t b = s->look[s->scan];
      ucs4_t c;
      enum err_kind kind;
      int r;

      if (b < 0x80)
        {
          if (s->first_high == NO_HIGH)
            s->released[b / 64] |= UINT64_C (1) << (b % 64);
          s->scan++;
          continue;
        }
      if (s->first_high == NO_HIGH)
        s->first_high = s->scan;
      r = utf8_sequence (&utf8_form, s->look + s->scan,
                         s->look_len - s->scan, end, &c, &kind);
      if (r == UTF8_TOOFEW)
        break;
      if (r < 0)
        s->ill = true;
      else
        {
          s->good++;
          s->scan += (unsigned int) r;
        }
    }
}

/* Read the file from now on with the codec C instead of UTF-8, with D's
   settings.  */
static void
switch_inner (struct decoder const *d, struct auto_state *s,
              struct codec const *c)
{
  decoder_release (&s->inner);
  decoder_init (&s->inner, c);
  s->inner.lone_surrogates_ok = d->lone_surrogates_ok;
}

/* Decide what the UTF-8 file of the decoder D is, from its window (EOI:
   the file ends with it).  */
static void
choose_legacy (struct decoder const *d, struct auto_state *s, bool eoi)
{
  struct codec const *fixed = s->options->fixed;
  struct legacy_verdict v = { fixed ? fixed : &codec_cp1252, false,
                              fixed ? LEGACY_OPTION : LEGACY_UTF8, 100 };
  uint8_t const *win = s->look + (s->first_high == NO_HIGH ? 0
                                   : s->first_high);
  size_t n = s->look_len - (size_t) (win - s->look);

  s->pending = false;
  if (s->first_high == NO_HIGH)
    s->kind = KIND_ASCII;
  else if (!s->ill)
    {
      if (s->kind != KIND_BOM)
        {
          s->kind = KIND_UTF8;
          v.confidence = UTF8_CONFIDENCE;
        }
    }
  else
    {
      if (!fixed)
        legacy_detect (win, n, eoi, s->released, &v);
      /* After a UTF-8 BOM the file is UTF-8 or mixed (SPEC §10).  */
      if (v.multi_byte && s->kind == KIND_BOM)
        v = (struct legacy_verdict) { &codec_cp1252, false, LEGACY_WEAK, 0 };
      if (v.multi_byte)
        {
          s->kind = KIND_LEGACY;
          s->how = DETECT_MODEL;
          s->legacy = v.codec;
          switch_inner (d, s, v.codec);
        }
      else
        {
          load_table (s, v.codec);
          if (s->kind == KIND_BOM
              || legacy_reads_mixed (win, n, eoi, v.codec, s->table))
            s->kind = KIND_MIXED;
          else
            {
              s->kind = KIND_LEGACY;
              s->how = DETECT_MODEL;
              s->legacy_inner = true;
              switch_inner (d, s, v.codec);
            }
        }
    }
  if (!s->legacy)
    load_table (s, v.codec);
  s->legacy_how = v.how;
  s->confidence = v.confidence;
  s->skip = s->confidence < s->options->unsure_below;
}

/* Add what fits of IN[0..N) to the window, and decide once the window
   has told enough.  Returns the bytes taken.  */
static size_t
hold (struct decoder const *d, struct auto_state *s, uint8_t const *in,
      size_t n, bool last)
{
  size_t room = s->first_high + DETECT_WINDOW - s->look_len;
  size_t take = n < room ? n : room;
  unsigned int before = s->look_len;
  bool end;

  memcpy (s->look + s->look_len, in, take);
  s->look_len += (unsigned int) take;
  end = s->look_len == s->first_high + DETECT_WINDOW || (last && take == n);
  scan_window (s, end);
  if (!s->ill && s->good >= UTF8_ENOUGH && s->scan >= before)
    {
      /* Well-formed UTF-8: the bytes of IN after the scan go back to
         the caller, who may read them with a fast path.  */
      take -= s->look_len - s->scan;
      s->look_len = s->scan;
      choose_legacy (d, s, false);
    }
  else if (end || (!s->ill && s->good >= UTF8_ENOUGH))
    choose_legacy (d, s, last && take == n);
  return take;
}

/* Mark the ASCII bytes of IN[0..N) as released, up to the first byte
   above 0x7F.  Returns how many there are.  */
static size_t
ascii_run (struct auto_state *s, uint8_t const *in, size_t n)
{
  size_t i;
  for (i = 0; i < n && in[i] < 0x80; i++)
    s->released[in[i] / 64] |= UINT64_C (1) << (in[i] % 64);
  return i;
}

/* Decode LOOK[LOOK_POS..UPTO); the look-ahead ends TOOK bytes into IN:
   what comes out gets offsets relative to IN.  */
static enum decode_status
replay (struct decoder *d, struct auto_state *s, size_t upto, size_t took,
        bool last, struct pivot *p)
{
  bool skip = s->skip, head = false;
  size_t before = p->len, len, k;
  int64_t shift = ((int64_t) s->look_pos - (int64_t) s->look_len
                   + (int64_t) took);
  enum decode_status st;

  /* Under --if-unsure=skip the ASCII before the first byte above 0x7F
     is written all the same, whenever the decision came: it is no part
     of it, and every reading agrees on it.  */
  if (skip && s->first_high != NO_HIGH && s->look_pos < s->first_high
      && s->first_high < upto)
    {
      upto = s->first_high;
      s->skip = false;
      head = true;
    }
  len = upto - s->look_pos;
  st = decode_inner (d, s, s->look + s->look_pos, &len, last && !head, p);
  s->skip = skip;
  for (k = before; k < p->len; k++)
    p->off[k] += shift;
  if (st == DECODE_MALFORMED)
    d->error.rel_offset += shift;
  s->look_pos += (unsigned int) len;
  /* The rest of the look-ahead is not decoded.  */
  if (head && s->look_pos == upto && st == DECODE_INPUT_EMPTY)
    s->look_pos = s->look_len;
  if (s->look_pos == s->look_len && !s->pending)
    s->look_pos = s->look_len = 0;
  return st;
}

/* Before the file's first byte above 0x7F: decode the ASCII held in the
   look-ahead and at the start of IN[0..*INLEN) at once, as every
   reading agrees on it, and keep none of it, so that the window starts
   at the first byte above 0x7F (SPEC §13: the window counts evidence,
   not bytes).  Returns true with *ST and *INLEN set when this call is
   done; false when the look-ahead or IN holds the first byte above 0x7F,
   for hold to take.  */
static bool
release_ascii (struct decoder *d, struct auto_state *s, uint8_t const *in,
               size_t *inlen, bool last, struct pivot *p,
               enum decode_status *st)
{
  size_t n = *inlen, room = p->cap - p->len, a, len;

  s->scan += (unsigned int) ascii_run (s, s->look + s->scan,
                                       s->look_len - s->scan);
  if (s->scan < s->look_len)
    {
      s->first_high = s->scan;
      return false;
    }
  if (s->look_pos < s->look_len)
    {
      *st = replay (d, s, s->look_len, 0, false, p);
      if (s->look_pos < s->look_len || *st != DECODE_INPUT_EMPTY)
        {
          *inlen = 0;
          return true;
        }
    }
  s->look_pos = s->look_len = s->scan = 0;
  if (n > 0 && in[0] >= 0x80)
    {
      s->first_high = 0;
      return false;
    }
  /* No further than the pivot holds, so that a long run is not
     scanned again at each call.  */
  a = ascii_run (s, in, n < room ? n : room);
  len = a;
  *st = decode_inner (d, s, in, &len, last && a == n, p);
  *inlen = len;
  if (last && len == n && *st == DECODE_INPUT_EMPTY)
    choose_legacy (d, s, true);
  return true;
}

static enum decode_status
auto_decode (struct decoder *d, uint8_t const *in, size_t *inlen, bool last,
             struct pivot *p)
{
  struct auto_state *s = d->impl;
  size_t n = *inlen, took = 0;

  if (s->how == DETECT_UNDECIDED && !decide (d, s, in, n, last))
    {
      /* Not decided: the window is shorter than DETECT_LOOKAHEAD.  */
      memcpy (s->look + s->look_len, in, n);
      s->look_len += (unsigned int) n;
      return DECODE_INPUT_EMPTY;
    }

  if (s->pending && s->first_high == NO_HIGH)
    {
      enum decode_status st;
      if (release_ascii (d, s, in, inlen, last, p, &st))
        return st;
    }
  if (s->pending)
    {
      took = hold (d, s, in, n, last);
      if (s->pending)
        {
          /* Decode the ASCII bytes before the first byte above 0x7F
             now: every code page reads them alike.  */
          enum decode_status st = DECODE_INPUT_EMPTY;
          if (s->look_pos < s->first_high)
            st = replay (d, s, s->first_high, took, false, p);
          *inlen = took;
          return st == DECODE_MALFORMED ? st : DECODE_INPUT_EMPTY;
        }
    }

  /* Replay the look-ahead, which came before IN + TOOK.  */
  if (s->look_pos < s->look_len)
    {
      enum decode_status st
        = replay (d, s, s->look_len, took, last && took == n, p);
      if (s->look_pos < s->look_len || st != DECODE_INPUT_EMPTY)
        {
          *inlen = took;
          return st;
        }
    }

  if (took == 0)
    return decode_inner (d, s, in, inlen, last, p);
  if (took < n)
    {
      /* The code page was chosen in this call: stop here, so that the
         caller can read the rest with the fast path of what was
         chosen.  */
      *inlen = took;
      return DECODE_OUTPUT_FULL;
    }
  {
    size_t len = n - took, before = p->len, k;
    enum decode_status st = decode_inner (d, s, in + took, &len, last, p);
    for (k = before; k < p->len; k++)
      p->off[k] += (int64_t) took;
    if (st == DECODE_MALFORMED)
      d->error.rel_offset += (int64_t) took;
    *inlen = took + len;
    return st;
  }
}

static void
auto_open (struct decoder *d)
{
  struct auto_state *s = xzalloc (sizeof *s);
  s->look = xmalloc (DETECT_LOOKAHEAD + DETECT_WINDOW);
  s->options = (struct auto_codec const *) d->codec;
  d->impl = s;
}

static void
auto_close (struct decoder *d)
{
  struct auto_state *s = d->impl;
  decoder_release (&s->inner);
  free (s->look);
  free (s);
}

/* Until the decision is taken, every byte goes through the decoder
   (the fast paths must wait), but for the ASCII before the file's
   first byte above 0x7F once nothing is held (auto_ascii_passed).  */
static bool
auto_holds_input (struct decoder const *d)
{
  struct auto_state const *s = d->impl;
  if (s->pending && s->how != DETECT_UNDECIDED && s->first_high == NO_HIGH
      && s->look_len == 0 && !s->skip)
    return false;
  return (s->look_pos < s->look_len || s->pending || s->skip
          || (s->how != DETECT_UNDECIDED && decoder_holds_input (&s->inner)));
}

static bool
auto_detected (struct decoder const *d, struct detection *det)
{
  struct auto_state const *s = d->impl;
  if (s->how == DETECT_UNDECIDED || s->pending)
    return false;
  det->codec = s->inner.codec;
  det->how = s->how;
  det->kind = s->kind;
  /* UTF-8 whose ill-formed bytes came after the window is mixed.  */
  if (s->fallback_seqs > 0 && s->kind != KIND_LEGACY)
    det->kind = KIND_MIXED;
  det->legacy = s->legacy;
  det->legacy_how = s->legacy_how;
  det->confidence = s->confidence;
  det->skipped = s->skip;
  det->fallback_seqs = s->fallback_seqs;
  det->fallback_bytes = s->fallback_bytes;
  return true;
}

/* The pipeline's fast path converted the ASCII text IN[0..N) before
   the file's first byte above 0x7F (auto_holds_input let it): of those
   bytes, only the ones that a multi-byte candidate reads otherwise are
   kept in mind.  */
static void
auto_ascii_passed (struct decoder *d, uint8_t const *in, size_t n)
{
  struct auto_state *s = d->impl;
  /* Once decided, the fast path is the detected form's.  */
  if (s->pending)
    legacy_release (in, n, s->released);
}

char const *
detect_kind_text (enum detect_kind kind)
{
  static char const *const text[] = {
    "undecided", "ASCII", "UTF-8", "BOM", "NUL pattern", "legacy", "mixed",
    "binary"
  };
  return text[kind];
}

void
detect_encoding_name (struct detection const *d, char *buf, size_t size)
{
  if (d->kind == KIND_ASCII)
    snprintf (buf, size, "ASCII");
  else if (d->kind == KIND_MIXED && d->legacy)
    snprintf (buf, size, "%s + %s", d->codec->name, d->legacy->name);
  else
    snprintf (buf, size, "%s", d->codec ? d->codec->name : "unknown");
}

char const *
detect_how_text (enum detect_how how)
{
  switch (how)
    {
    case DETECT_BOM:
      return "BOM";
    case DETECT_NUL_PATTERN:
      return "NUL pattern";
    case DETECT_DEFAULT:
      return "no BOM";
    case DETECT_MODEL:
      return "model";
    default:
      return "undecided";
    }
}

char const *
legacy_how_text (enum legacy_how how)
{
  switch (how)
    {
    case LEGACY_OPTION:
      return "--fallback";
    case LEGACY_UTF8:
      return "UTF-8 window";
    case LEGACY_WEAK:
      return "weak evidence";
    case LEGACY_MODEL:
      return "model";
    default:
      return "none";
    }
}

static char const *const auto_aliases[] = { NULL };

/* Only an input encoding: it has no encoder.  */
static struct auto_codec const auto_codec = {
  { { "auto", auto_aliases, auto_decode, NULL, NULL,
      CODEC_STATEFUL | CODEC_WRAPPER, ENDIAN_UNKNOWN, NULL, NULL },
    auto_open, auto_close, NULL, NULL, auto_holds_input, auto_detected,
    auto_ascii_passed },
  NULL, 0
};

struct codec const *const codec_auto = &auto_codec.sc.codec;

/* The -f auto of --fallback and --if-unsure: one a process, so that it
   needs no freeing.  */
static struct auto_codec configured_codec;

struct codec const *
detect_configure (struct codec const *fixed, unsigned int unsure_below)
{
  configured_codec = auto_codec;
  configured_codec.fixed = fixed;
  configured_codec.unsure_below = unsure_below;
  return &configured_codec.sc.codec;
}
