/* Fast paths for common pairs of encodings (see fast.h).

   Each one takes a well-formed run and converts it with the kernels of
   src/simd/.  From UTF-8 to UTF-8, UTF-16 or UTF-32, the run is validated
   first (copied and its newlines counted in the same pass), and then
   converted without checks; a kernel set may do both in one pass
   (utf8_to_wide_checked).  The other paths check as they convert: the
   UTF-16 kernel stops before a lone surrogate, the single-byte ones
   before a byte or a character that has no counterpart, and they count
   the newlines they convert.  The iconv(3) bridge's paths read its
   memos: from UTF-8 the encoders', to UTF-8 the decoder's own.  */

#include <config.h>

#include "fast.h"

#include "fast_memo.h"
#include "fast_sb16.h"
#include "fast_stop.h"
#include "fast_via.h"
#include "codecs/codecs.h"
#include "codecs/iconv_bridge.h"
#include "codecs/iconv_encode.h"
#include "codecs/iconv_memo.h"
#include "codecs/iconv_table.h"
#include "codecs/iconv_units.h"

#include <string.h>

#include "simd/kernels.h"
#include "unicode/utf8.h"

static size_t
min (size_t a, size_t b)
{
  return a < b ? a : b;
}

/* FIRST and SECOND, two loops of a fast path, in turns from IN, as long
   as either gets on: FIRST (until the end, or an ill-formed sequence it
   stops at), then SECOND where FIRST stopped, until it stops too.
   Returns the bytes used, as a fast path from UTF-8 (UTF8) or UTF-16
   does.  */
static inline size_t
in_turns (fast_fn *first, fast_fn *second, uint8_t const *in, size_t n,
          uint8_t *out, size_t cap, size_t *produced, uint64_t *newlines,
          struct codec_error *err, bool utf8)
{
  size_t i = 0, o = 0;
  uint64_t nl = 0;
  err->len = 0;
  while (i < n)
    {
      size_t p, u;
      uint64_t l;
      u = first (in + i, n - i, out + o, cap - o, &p, &l, err);
      i += u, o += p, nl += l;
      if (i == n || err->len > 0)
        break;
      u = second (in + i, n - i, out + o, cap - o, &p, &l, err);
      i += u, o += p, nl += l;
      if (u == 0)
        break;
    }
  *produced = o;
  *newlines = nl;
  return utf8 ? utf8_stop (in, i, n, err) : i;
}

static size_t
utf8_to_utf8 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
              size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  size_t v = kernels->utf8_valid_copy (in, min (n, cap), out, newlines);
  *produced = v;
  return utf8_stop (in, v, n, err);
}

/* utf8_to_utf8 after an error, carrying *RS from call to call.  Another
   ill-formed sequence right at IN (a run of them) costs no call of the
   kernel: it would stop there at once, and RS->stop may move there
   (kernels.h).  */
static size_t
utf8_to_utf8_resume (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
                     size_t *produced, uint64_t *newlines,
                     struct codec_error *err, struct utf8_resume *rs)
{
  size_t v;
  if (utf8_stop (in, 0, n, err), err->len > 0)
    {
      utf8_resume_move (rs, in);
      *produced = 0;
      *newlines = 0;
      return 0;
    }
  v = kernels->utf8_valid_copy_resume (in, min (n, cap), out, newlines, rs);
  *produced = v;
  return utf8_stop (in, v, n, err);
}

/* UTF-8 to UTF-16 (WIDTH 2) or UTF-32 (WIDTH 4), in the byte order BIG.  */
static inline size_t
utf8_to_wide (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
              size_t *produced, uint64_t *newlines, struct codec_error *err,
              int width, bool big)
{
  /* Every UTF-8 byte becomes at most WIDTH output bytes.  */
  size_t v, m = min (n, cap / (size_t) width);
  if (kernels->utf8_to_wide_checked)
    v = kernels->utf8_to_wide_checked (in, m, out, width, big, produced,
                                       newlines);
  else
    {
      v = kernels->utf8_valid_copy (in, m, NULL, newlines);
      *produced = (width == 2 ? kernels->utf8_to_utf16 (in, v, out, big)
                   : kernels->utf8_to_utf32 (in, v, out, big));
    }
  return utf8_stop (in, v, n, err);
}

#define UTF8_TO_WIDE(NAME, WIDTH, BIG)                                     \
  static size_t                                                            \
  NAME (uint8_t const *in, size_t n, uint8_t *out, size_t cap,             \
        size_t *produced, uint64_t *newlines, struct codec_error *err)     \
  {                                                                        \
    return utf8_to_wide (in, n, out, cap, produced, newlines, err, WIDTH,  \
                         BIG);                                             \
  }

UTF8_TO_WIDE (utf8_to_utf16le, 2, false)
UTF8_TO_WIDE (utf8_to_utf16be, 2, true)
UTF8_TO_WIDE (utf8_to_utf32le, 4, false)
UTF8_TO_WIDE (utf8_to_utf32be, 4, true)

/* UTF-16 in the byte order BIG to UTF-8.  */
static inline size_t
utf16_to_utf8 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
               size_t *produced, uint64_t *newlines, bool big)
{
  /* A unit becomes at most 3 bytes (a pair of units, 4).  */
  size_t used = kernels->utf16_to_utf8 (in, min (n / 2, cap / 3), out,
                                        produced, newlines, big);
  return 2 * used;
}

static size_t
utf16le_to_utf8 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
                 size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  err->len = 0;
  return utf16_to_utf8 (in, n, out, cap, produced, newlines, false);
}

static size_t
utf16be_to_utf8 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
                 size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  err->len = 0;
  return utf16_to_utf8 (in, n, out, cap, produced, newlines, true);
}

/* UTF-32 in either byte order to UTF-8: the values up to U+10FFFF that
   are no surrogate, nor U+FEFF or U+FFFE (which the state machine takes,
   as it does errors), as the bridge's runs of UCS-4 read them
   (iconv_units.h).  */
#define UTF32_TO_UTF8(NAME, ORDER)                                         \
  static size_t                                                            \
  NAME (uint8_t const *in, size_t n, uint8_t *out, size_t cap,             \
        size_t *produced, uint64_t *newlines, struct codec_error *err)     \
  {                                                                        \
    err->len = 0;                                                          \
    return units_decode_utf8 (4, ORDER, in, n, out, cap, produced,         \
                              newlines);                                   \
  }

UTF32_TO_UTF8 (utf32le_to_utf8, UNITS_LITTLE)
UTF32_TO_UTF8 (utf32be_to_utf8, UNITS_BIG)

/* Single-byte encodings to UTF-8, through a table made at start-up from
   the codec itself: the UTF-8 form of each byte from 0x80 up, and its
   length in the last byte, 0 where the byte is not a character.  */
static uint8_t sb_to_utf8[128][4];

static size_t
single_byte_to_utf8 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
                     size_t *produced, uint64_t *newlines,
                     struct codec_error *err)
{
  err->len = 0;
  return kernels->sb_to_utf8 (in, min (n, cap / 3), out, sb_to_utf8,
                              produced, newlines);
}

/* UTF-8 to a single-byte encoding: ASCII is copied, and two-byte
   characters (U+0080..U+07FF) are looked up (the kernel); three-byte
   ones, such as the euro sign, through the pages below; anything else
   is left to the state machine.  */
static int16_t utf8_to_sb[0x800];

/* The characters of three bytes of UTF-8 (U+0800..U+FFFF) that the
   bytes of a single-byte encoding decode to and that its encoder writes
   as those bytes (CP1252's euro sign and quotation marks, KOI8-R's box
   drawing): pages of 256 by the character's upper byte, through
   SB3_INDEX (0 where the page has none, else its number in SB3_PAGE
   plus one), each entry the byte or -1.  There are at most 128 such
   characters, but a page for each is too many only in theory: a page
   that finds no room is left out, for the state machine.  */
enum { SB3_PAGES = 16 };
static uint8_t sb3_index[256];
static int16_t sb3_page[SB3_PAGES][256];

/* The byte that SB3_PAGE gives the character of three bytes of UTF-8 at
   IN (IN[0] is E0..EF), or -1 where it gives none, or the bytes are no
   such character.  */
#if defined __GNUC__
__attribute__ ((always_inline))
#endif
static inline int16_t
sb3_byte (uint8_t const *in)
{
  /* Continuation bytes are 00..3F once flipped: both at once.  */
  ucs4_t c1 = in[1] ^ 0x80u, c2 = in[2] ^ 0x80u;
  ucs4_t c = (ucs4_t) (in[0] & 0x0F) << 12 | c1 << 6 | c2;
  unsigned int page;
  if ((c1 | c2) >= 0x40 || c < 0x800 || c - 0xD800 < 0x800
      || (page = sb3_index[c >> 8]) == 0)
    return -1;
  return sb3_page[page - 1][c & 0xFF];
}

/* Encode what it can of the UTF-8 at IN[0..N) into OUT[0..CAP), where
   the kernel stopped: characters of three bytes through SB3_PAGE, and
   of ASCII between them, up to one that it does not know, of two or
   four bytes, or the 9th of ASCII in a row, which the kernel takes
   again.  Returns the bytes used; sets *PRODUCED and *NEWLINES.  */
static size_t
utf8_to_sb3 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
             size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  size_t i = 0, o = 0;
  unsigned int ascii = 0;
  uint64_t nl = 0;
  while (i < n && o < cap)
    {
      ucs4_t c = in[i];
      int16_t v;
      if (c < 0x80)
        {
          if (++ascii > 8 || (v = utf8_to_sb[c]) < 0)
            break;
          out[o++] = (uint8_t) v;
          nl += c == 0x0A;
          i++;
          continue;
        }
      if ((c & 0xF0) != 0xE0 || n - i < 3 || (v = sb3_byte (in + i)) < 0)
        break;
      out[o++] = (uint8_t) v;
      i += 3;
      ascii = 0;
    }
  err->len = 0;
  *produced = o;
  *newlines = nl;
  return i;
}

/* Note in SB3_PAGE that C is written as the byte B.  */
static void
sb3_note (ucs4_t c, uint8_t b)
{
  unsigned int page = sb3_index[c >> 8], used = 0, k;
  if (c < 0x800 || c > 0xFFFF)
    return;
  if (page == 0)
    {
      for (k = 0; k < 256; k++)
        used += sb3_index[k] != 0;
      if (used == SB3_PAGES)
        return;
      page = used + 1;
      sb3_index[c >> 8] = (uint8_t) page;
      for (k = 0; k < 256; k++)
        sb3_page[page - 1][k] = -1;
    }
  sb3_page[page - 1][c & 0xFF] = b;
}

/* The kernel of UTF-8 to a single-byte encoding alone.  */
static size_t
utf8_to_sb_kernel (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
                   size_t *produced, uint64_t *newlines,
                   struct codec_error *err)
{
  err->len = 0;
  return kernels->utf8_to_sb (in, min (n, cap), out, utf8_to_sb, produced,
                              newlines);
}

/* The kernel, and where it stops at a character of three bytes that
   SB3_PAGE knows, utf8_to_sb3, in turns: CP1252's euro sign and
   quotation marks need no state machine.  */
static size_t
utf8_to_single_byte (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
                     size_t *produced, uint64_t *newlines,
                     struct codec_error *err)
{
  return in_turns (utf8_to_sb_kernel, utf8_to_sb3, in, n, out, cap,
                   produced, newlines, err, true);
}

/* UTF-8 to a table code page of iconv(3) whose bytes 00..7F are ASCII:
   the kernel of utf8_to_single_byte, and where it stops at a character
   of three or four bytes (Thai, box drawing, the euro sign), the
   encoders' memo, in turns, as long as either gets on; what neither
   knows is the state machine's.  */
static size_t
utf8_to_table (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
               size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  return in_turns (utf8_to_single_byte, fast_utf8_to_memo, in, n, out,
                   cap, produced, newlines, err, true);
}

/* UTF-8 to a table code page of iconv(3) whose bytes 00..7F are not
   ASCII (EBCDIC, some ISO 646 variants and IBM PC pages), which
   utf8_to_single_byte's kernels cannot copy: characters of one and two
   bytes (U+0000..U+07FF) through a table from its encoders' memo, the
   byte of each that the memo knew when the path was chosen (the
   characters of the page's bytes), -1 for the others; fast_utf8_to_memo
   takes those (and learns them), and what the memo does not know
   either, in turns with this loop, as utf8_to_table does.  */
static int16_t utf8_to_byte[0x800];

static size_t
utf8_to_bytes (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
               size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  /* A byte out for each character, of one to three bytes: O is at most
     I.  */
  size_t i = 0, o = 0, stop = min (n, cap);
  uint64_t nl = 0;
  while (i < stop)
    {
      ucs4_t c = in[i];
      int16_t v;
      if (c < 0x80)
        {
          if ((v = utf8_to_byte[c]) < 0)
            break;
          out[o++] = (uint8_t) v;
          nl += c == 0x0A;
          i++;
          continue;
        }
      if (c >= 0xE0)
        {
          /* Three bytes, through SB3_PAGE.  */
          if (c >= 0xF0 || n - i < 3 || (v = sb3_byte (in + i)) < 0)
            break;
          out[o++] = (uint8_t) v;
          i += 3;
          continue;
        }
      if (c < 0xC2 || n - i < 2 || (in[i + 1] & 0xC0) != 0x80)
        break;
      c = (c & 0x1F) << 6 | (in[i + 1] & 0x3F);
      if ((v = utf8_to_byte[c]) < 0)
        break;
      out[o++] = (uint8_t) v;
      i += 2;
    }
  err->len = 0;
  *produced = o;
  *newlines = nl;
  return i;
}

static size_t
utf8_to_any_table (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
                   size_t *produced, uint64_t *newlines,
                   struct codec_error *err)
{
  return in_turns (utf8_to_bytes, fast_utf8_to_memo, in, n, out, cap,
                   produced, newlines, err, true);
}

/* Fill utf8_to_byte from the memo M of a table code page.  */
static void
make_utf8_to_byte (struct enc_memo const *m)
{
  ucs4_t c;
  for (c = 0; c < 0x800; c++)
    {
      uint64_t v = enc_memo_get (m, c);
      utf8_to_byte[c] = ((v & 0xF) == 1 && !(v & ENC_HELD)
                         ? (int16_t) (uint8_t) (v >> 8) : -1);
    }
}

/* A table code page of iconv(3) (iconv_table.c) whose bytes 00..7F are
   not ASCII (EBCDIC, some ISO 646 variants and IBM PC pages) to UTF-8,
   byte by byte through its table: the UTF-8 form of each byte's value,
   its length in the last byte, 0 where the byte is undefined.  */
static uint8_t table_utf8[256][4];

static size_t
table_to_utf8 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
               size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  size_t i, o = 0, m = min (n, cap / 3);
  uint64_t nl = 0;
  err->len = 0;
  for (i = 0; i < m; i++)
    {
      uint8_t const *u = table_utf8[in[i]];
      if (u[3] == 0)
        break;
      out[o] = u[0];
      out[o + 1] = u[1];
      out[o + 2] = u[2];
      o += u[3];
      nl += u[3] == 1 && u[0] == 0x0A;
    }
  *produced = o;
  *newlines = nl;
  return i;
}

/* Fill table_utf8 from the decode table T.  */
static void
make_table_utf8 (ucs4_t const *t)
{
  unsigned int b;
  for (b = 0; b < 256; b++)
    {
      ucs4_t c = t[b];
      uint8_t *u = table_utf8[b];
      memset (u, 0, 4);
      if (c < 0x80)
        u[0] = (uint8_t) c, u[3] = 1;
      else if (c < 0x800)
        u[0] = (uint8_t) (0xC0 | c >> 6), u[1] = (uint8_t) (0x80 | (c & 0x3F)),
          u[3] = 2;
      else if (c < 0x10000 && !(0xD800 <= c && c < 0xE000))
        u[0] = (uint8_t) (0xE0 | c >> 12),
          u[1] = (uint8_t) (0x80 | (c >> 6 & 0x3F)),
          u[2] = (uint8_t) (0x80 | (c & 0x3F)), u[3] = 3;
    }
}

/* Fill SB3_PAGE for the encoders of C: each character of three bytes of
   UTF-8 that a byte of C decodes to, and that its encoder (or MEMO,
   which a table code page's reads) writes as one byte.  */
static void
make_sb3 (struct codec const *c, struct enc_memo const *memo)
{
  unsigned int b;
  memset (sb3_index, 0, sizeof sb3_index);
  /* Every byte: EBCDIC-ES has its peseta sign (U+20A7) at 5B, CP1142
     its euro sign at 5A, CP290 its katakana at 41..7F, BRF its braille
     at 20..5F (209 of the table pages of glibc have such a character
     below 80).  */
  for (b = 0; b < 256; b++)
    {
      uint8_t byte = (uint8_t) b, buf[MAX_ENCODED];
      ucs4_t cp[4] = { 0 };
      int64_t off[4] = { 0 };
      uint8_t nb[4] = { 0 };
      size_t len = 1, one = 1, olen = 0;
      struct pivot p = { cp, off, nb, 0, 4 };
      struct decoder d;
      struct encoder e;
      uint64_t v;
      decoder_init (&d, c);
      if (c->decode (&d, &byte, &len, true, &p) != DECODE_INPUT_EMPTY
          || p.len != 1 || cp[0] < 0x800 || cp[0] > 0xFFFF)
        continue;
      if (memo)
        {
          v = enc_memo_get (memo, cp[0]);
          if ((v & 0xF) == 1 && !(v & ENC_HELD))
            sb3_note (cp[0], (uint8_t) (v >> 8));
          continue;
        }
      encoder_init (&e, c);
      if (c->encode (&e, cp, &one, buf, &olen, sizeof buf)
          == ENCODE_INPUT_EMPTY && one == 1 && olen == 1)
        sb3_note (cp[0], buf[0]);
    }
}

/* Fill the single-byte tables from the codec's own step functions (or,
   for a table code page's encoder, from the memo that its step
   function reads), so that the fast path cannot disagree with it.  */
static bool
make_single_byte_tables (struct codec const *c, bool decoding)
{
  struct decoder d;
  struct encoder e;
  ucs4_t cp[4] = { 0 };
  int64_t off[4] = { 0 };
  uint8_t nb[4] = { 0 };
  unsigned int b;
  struct enc_memo const *memo;

  if (decoding)
    {
      for (b = 0; b < 256; b++)
        {
          uint8_t byte = (uint8_t) b;
          size_t len = 1, olen = 0, one = 1;
          struct pivot p = { cp, off, nb, 0, 4 };
          struct encoder u8;
          decoder_init (&d, c);
          if (b >= 0x80)
            memset (sb_to_utf8[b - 0x80], 0, 4);
          if (c->decode (&d, &byte, &len, true, &p) != DECODE_INPUT_EMPTY
              || p.len != 1 || (b < 0x80 && cp[0] != b))
            {
              if (b < 0x80)
                return false;
              continue;
            }
          if (b < 0x80)
            continue;
          encoder_init (&u8, &codec_utf8);
          {
            uint8_t buf[MAX_ENCODED];
            if (codec_utf8.encode (&u8, cp, &one, buf, &olen, sizeof buf)
                != ENCODE_INPUT_EMPTY || 3 < olen)
              continue;
            memcpy (sb_to_utf8[b - 0x80], buf, olen);
            sb_to_utf8[b - 0x80][3] = (uint8_t) olen;
          }
        }
      return true;
    }

  /* A table code page of iconv(3): what its encoders' memo knows from
     its bytes, without asking iconv(3) about the others, which the memo
     learns as they come (utf8_to_table).  */
  memo = iconv_table_memo (c);
  make_sb3 (c, memo);
  for (b = 0; b < 0x800; b++)
    {
      ucs4_t c1 = b;
      uint8_t buf[MAX_ENCODED];
      size_t one = 1, olen = 0;
      uint64_t v = memo ? enc_memo_get (memo, b) : 0;
      encoder_init (&e, c);
      utf8_to_sb[b] = -1;
      if (memo ? (v & 0xF) == 1
          : c->encode (&e, &c1, &one, buf, &olen, sizeof buf)
            == ENCODE_INPUT_EMPTY && one == 1 && olen == 1)
        utf8_to_sb[b] = memo ? (int16_t) (uint8_t) (v >> 8) : buf[0];
      else if (b < 0x80)
        return false;
      else
        continue;
      if (b < 0x80 && utf8_to_sb[b] != (int16_t) b)
        return false;
    }
  return true;
}

/* UTF-8 to a bridged charset of SO and SI, through the memo of its
   encoder's shifts (iconv_shift.h), which that encoder keeps learning:
   each character the memo knows, or learns ahead, is written as the
   encoder would, with the shifts between; the state machine takes the
   first it cannot write, one of four bytes, or an ill-formed
   sequence.  */
static struct encoder *to_enc;

static size_t
utf8_to_shift (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
               size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  size_t o = 0;
  size_t used = iconv_bridge_encode_utf8 (to_enc, in, n, out, &o, cap,
                                          newlines);
  *produced = o;
  return utf8_stop (in, used, n, err);
}

/* A bridged charset to UTF-8, through the memo of its decoder
   (iconv_memo.h), which that decoder keeps learning: each character the
   memo knows is written as UTF-8, up to one it does not know (or a value
   that UTF-8 cannot hold), which the state machine takes, as it does
   everything while the decoder may not read with its memo alone.  */
static struct decoder *from_dec;

static size_t
memo_to_utf8 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
              size_t *produced, uint64_t *newlines, struct codec_error *err)
{
  err->len = 0;
  return iconv_bridge_decode_utf8 (from_dec, in, n, out, cap, produced,
                                   newlines);
}

/* UTF-16 to a table code page of iconv(3): its table (fast_sb16.c) and
   the encoders' memo in turns, as utf8_to_table, in each byte order.  */
#define UTF16_TO_TABLE(NAME, TABLE, MEMO)                                  \
  static size_t                                                            \
  NAME (uint8_t const *in, size_t n, uint8_t *out, size_t cap,             \
        size_t *produced, uint64_t *newlines, struct codec_error *err)     \
  {                                                                        \
    return in_turns (TABLE, MEMO, in, n, out, cap, produced, newlines,     \
                     err, false);                                          \
  }

UTF16_TO_TABLE (utf16le_to_table, fast_utf16le_to_sb, fast_utf16le_to_memo)
UTF16_TO_TABLE (utf16be_to_table, fast_utf16be_to_sb, fast_utf16be_to_memo)

/* From UTF-16 (BIG-endian or not) to a code page whose path from UTF-8
   is INNER: the memo's and the tables' read the units themselves, the
   others (the memo of the shifts) the UTF-8 made on the side.  */
static fast_fn *
from_utf16 (fast_fn *inner, bool big)
{
  if (inner == fast_utf8_to_memo)
    return big ? fast_utf16be_to_memo : fast_utf16le_to_memo;
  if (inner == utf8_to_single_byte || inner == utf8_to_table
      || inner == utf8_to_any_table)
    {
      fast_sb16_make (inner == utf8_to_any_table ? utf8_to_byte : utf8_to_sb,
                      sb3_index, (int16_t const (*)[256]) sb3_page);
      if (inner == utf8_to_single_byte)
        return big ? fast_utf16be_to_sb : fast_utf16le_to_sb;
      return big ? utf16be_to_table : utf16le_to_table;
    }
  return fast_via_utf16 (inner, big);
}

/* A bridged charset to UTF-16: with the memo alone or the hold table,
   straight; with shifts, runs or units, through UTF-8 made on the side
   (MEMO_VIA16).  */
static fast_fn *memo_via16;

static inline size_t
memo_to_utf16 (uint8_t const *in, size_t n, uint8_t *out, size_t cap,
               size_t *produced, uint64_t *newlines, struct codec_error *err,
               bool big)
{
  size_t done = iconv_bridge_decode_utf16 (from_dec, in, n, out, cap,
                                           produced, newlines, big);
  err->len = 0;
  return (done != SIZE_MAX ? done
          : memo_via16 (in, n, out, cap, produced, newlines, err));
}

#define MEMO_TO_UTF16(NAME, BIG)                                           \
  static size_t                                                            \
  NAME (uint8_t const *in, size_t n, uint8_t *out, size_t cap,             \
        size_t *produced, uint64_t *newlines, struct codec_error *err)     \
  {                                                                        \
    return memo_to_utf16 (in, n, out, cap, produced, newlines, err, BIG);  \
  }

MEMO_TO_UTF16 (memo_to_utf16le, false)
MEMO_TO_UTF16 (memo_to_utf16be, true)

fast_fn *
fast_select_decoder (struct decoder *d, struct codec const *to)
{
  bool big = to == &codec_utf16be;
  if (!kernels || !iconv_bridge_fast_lasts (d))
    return NULL;
  from_dec = d;
  if (to == &codec_utf16le || to == &codec_utf16 || big)
    {
      memo_via16 = fast_via_to_utf16 (memo_to_utf8, big);
      return (!memo_via16 ? NULL : big ? memo_to_utf16be : memo_to_utf16le);
    }
  return to == &codec_utf8 ? memo_to_utf8 : NULL;
}

fast_fn *
fast_select_encoder (struct codec const *from, struct encoder *e)
{
  if (!kernels || !iconv_bridge_encode_lasts (e))
    return NULL;
  to_enc = e;
  if (from == &codec_utf16le || from == &codec_utf16be)
    return fast_via_utf16 (utf8_to_shift, from == &codec_utf16be);
  return from == &codec_utf8 ? utf8_to_shift : NULL;
}

bool
fast_lasts (fast_fn *fast)
{
  if (fast_via_inner (fast))
    fast = fast_via_inner (fast);
  if (fast == utf8_to_shift)
    return iconv_bridge_encode_lasts (to_enc);
  return ((fast != memo_to_utf8 && fast != memo_to_utf16le
           && fast != memo_to_utf16be)
          || iconv_bridge_fast_lasts (from_dec));
}

/* To UTF-16 (BIG-endian or not) from a code page whose path to UTF-8
   is INNER: from a single-byte one, through a table of the unit of each
   byte; from the others, UTF-8 made on the side.  */
static fast_fn *
to_utf16 (fast_fn *inner, bool big)
{
  if (inner == single_byte_to_utf8 || inner == table_to_utf8)
    {
      if (inner == single_byte_to_utf8)
        fast_sb16_make_decode ((uint8_t const (*)[4]) sb_to_utf8, 0x80);
      else
        fast_sb16_make_decode ((uint8_t const (*)[4]) table_utf8, 0);
      return big ? fast_sb_to_utf16be : fast_sb_to_utf16le;
    }
  return fast_via_to_utf16 (inner, big);
}

fast_fn *
fast_select (struct codec const *from, struct codec const *to)
{
  struct enc_memo const *memo;
  struct enc_memo *learner;
  if (!kernels)
    return NULL;
  if (from == &codec_utf8)
    {
      if (to == &codec_utf8)
        return utf8_to_utf8;
      if (to == &codec_utf16le || to == &codec_utf16)
        return utf8_to_utf16le;
      if (to == &codec_utf16be)
        return utf8_to_utf16be;
      if (to == &codec_utf32le || to == &codec_utf32)
        return utf8_to_utf32le;
      if (to == &codec_utf32be)
        return utf8_to_utf32be;
      if ((to->flags & CODEC_SINGLE_BYTE)
          && make_single_byte_tables (to, false))
        {
          fast_memo_use (iconv_table_memo (to), NULL);
          return iconv_table_memo (to) ? utf8_to_table : utf8_to_single_byte;
        }
      /* The other table code pages, and the bridge while its encoders
         keep no state: the encoders' memo.  */
      if ((memo = iconv_table_memo (to)))
        {
          fast_memo_use (memo, NULL);
          make_utf8_to_byte (memo);
          make_sb3 (to, memo);
          return utf8_to_any_table;
        }
      if ((to->flags & CODEC_STATEFUL)
          && (learner = iconv_bridge_enc_memo (to)))
        {
          fast_memo_use (learner, learner);
          return fast_utf8_to_memo;
        }
      return NULL;
    }
  /* From UTF-16 to a legacy code page.  */
  if ((from == &codec_utf16le || from == &codec_utf16be)
      && !(to->flags & CODEC_UNICODE))
    return from_utf16 (fast_select (&codec_utf8, to),
                       from == &codec_utf16be);
  /* From a legacy code page to UTF-16: a table of units, or its path to
     UTF-8.  */
  if ((to == &codec_utf16le || to == &codec_utf16 || to == &codec_utf16be)
      && !(from->flags & CODEC_UNICODE))
    return to_utf16 (fast_select (from, &codec_utf8), to == &codec_utf16be);
  if (to != &codec_utf8)
    return NULL;
  if (from == &codec_utf16le)
    return utf16le_to_utf8;
  if (from == &codec_utf16be)
    return utf16be_to_utf8;
  if (from == &codec_utf32le)
    return utf32le_to_utf8;
  if (from == &codec_utf32be)
    return utf32be_to_utf8;
  if ((from->flags & CODEC_SINGLE_BYTE)
      && make_single_byte_tables (from, true))
    return single_byte_to_utf8;
  if (!(from->flags & CODEC_SINGLE_BYTE) && iconv_table_of (from))
    {
      make_table_utf8 (iconv_table_of (from));
      return table_to_utf8;
    }
  return NULL;
}

fast_resume_fn *
fast_select_resume (struct codec const *from, struct codec const *to)
{
  if (!kernels || !kernels->utf8_valid_copy_resume || from != &codec_utf8
      || to != &codec_utf8)
    return NULL;
  return utf8_to_utf8_resume;
}
