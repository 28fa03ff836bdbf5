/* The iconv(3) bridge's memo: what a bridged decoder has learned of a
   stateless charset, so that it decodes again without iconv(3) the
   characters it has already seen decoded (see the comment at the top of
   iconv_bridge.c for when this is exact, and iconv_memo.c for how).  */

#ifndef UTF8CONV_ICONV_MEMO_H
#define UTF8CONV_ICONV_MEMO_H

#include <errno.h>
#include <iconv.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../codec.h"
#include "iconv_ucs4.h"
#include "unicode/utf8.h"

#ifndef ICONV_CONST
# define ICONV_CONST
#endif

/* The value of the 4 bytes at S, little-endian: iconv(3)'s UTF-32LE.  */
static inline ucs4_t
get32le (uint8_t const *s)
{
  return (s[0] | (ucs4_t) s[1] << 8 | (ucs4_t) s[2] << 16
          | (ucs4_t) s[3] << 24);
}

/* Convert a prefix of S[0..LEN) with CD into OUT[0..ROOM).  Sets *USED
   to the input bytes consumed and returns the output bytes produced;
   sets *ERR to iconv()'s errno, or 0 when it converted everything.
   Inline: the bridge calls it for each character it does not know.  */
static inline size_t
bridge_convert (iconv_t cd, uint8_t const *s, size_t len, uint8_t *out,
                size_t room, size_t *used, int *err)
{
  ICONV_CONST char *ip = (ICONV_CONST char *) s;
  char *op = (char *) out;
  size_t il = len, ol = room;
  *err = iconv (cd, &ip, &il, &op, &ol) == (size_t) -1 ? errno : 0;
  *used = len - il;
  return room - ol;
}

enum
{
  MEMO_DEPTH = 4,               /* The longest character a memo keeps.  */
  MEMO_SENTINEL = 8
};

/* A memo's entries (see struct memo).  */
#define MEMO_CHILD UINT32_C (0x80000000)
#define MEMO_CHAR UINT32_C (0x40000000)
#define MEMO_SEEN UINT32_C (0x20000000)
#define MEMO_LONE UINT32_C (0x10000000)
#define MEMO_INDEX UINT32_C (0x00FFFFFF)
#define MEMO_VALUE UINT32_C (0x001FFFFF)

struct hold_table;

/* The longest shift sequence followed (iconv_shift.c).  */
enum { SHIFT_SEQ_MAX = 4 };

/* What the probe found out about a charset, once for all its decoders.  */
struct memo_charset
{
  bool decided;                 /* The probe has run.  */
  bool suits;                   /* The memo may be used.  */
  /* The decoder holds a letter back (a byte consumed alone without a
     value, which the flush gives: CP1255, CP1258, TCVN): no memo for
     the decoder, but its encoder may be stateless, which the encoders'
     memo checks character by character (iconv_bridge.c).  */
  bool holds;
  /* Characters of one byte each, and their values, that iconv(3) is
     given after a character it is learning.  */
  uint8_t sentinel[MEMO_SENTINEL];
  ucs4_t sentinel_cp[MEMO_SENTINEL];
  unsigned int sentinel_len;
  /* A charset of two shift states (iconv_shift.c): SO, consumed without
     a value, leads to the other state, SI back to the initial one; the
     characters of two bytes of the other state, and their values, that
     iconv(3) is given after a character of that state it is learning.  */
  bool shifting;
  uint8_t so, si;               /* Their first bytes.  */
  /* SO and SI whole: a byte each (IBM930's 0E, 0F), or escape sequences
     of several bytes found in the text (ISO-2022-JP's ESC $ B, ESC ( B:
     iconv_shift.c), once tried (ESCAPES_TRIED) for good.  */
  uint8_t so_seq[SHIFT_SEQ_MAX], si_seq[SHIFT_SEQ_MAX];
  unsigned int so_len, si_len;
  bool escapes_tried;
  /* What memo_probe_charset found for shift_probe_charset: the bytes
     that give one value alone, their values, and the SHIFTS bytes
     consumed alone without a value; TOGETHER: the former read the same
     together.  */
  uint8_t single[256];
  ucs4_t single_cp[256];
  unsigned int nsingle;
  uint8_t shift[2];
  unsigned int shifts;
  bool together;
  uint8_t wide[2 * MEMO_SENTINEL];
  ucs4_t wide_cp[MEMO_SENTINEL];
  unsigned int wide_len;
  /* The probe read values in the machine's order (memo_host_form).  */
  bool probe_host;
  /* A single-byte charset whose decoder holds a letter back: what its
     bytes do (iconv_hold.c), or NULL; made at the first byte one of its
     decoders consumed without a value.  */
  struct hold_table *hold;
  unsigned int hold_seen;
  bool hold_decided;
  /* A Unicode form read in runs (UTF-7): what its decoder does with
     each ASCII byte (units_probe_runs), once RUNS_TRIED.  */
  uint8_t run_class[128];
  int run_shift;
  bool runs_tried;
  /* And its encoder (units_probe_enc_runs).  */
  uint8_t enc_run_class[128];
  bool enc_runs_tried;
  /* What its decoders read into (memo_ucs4_from), or NULL until the
     first opens.  */
  char const *ucs4_from;
};

/* Decide S for the charset FROMCODE, by converting each byte alone and
   the characters of one byte together with iconv(3).  */
void memo_probe_charset (struct memo_charset *s, char const *fromcode);

/* memo_probe_charset with an iconv_t to UCS-4 in the machine's order
   (HOST), or to UTF-32LE: false when HOST met a value that UTF-32LE
   refuses, where the latter would have seen an error.  */
bool memo_probe_in (struct memo_charset *s, char const *fromcode,
                    bool host);

/* The output bytes CD gives when flushed, which returns it to its
   initial state.  */
size_t memo_flush_gives (iconv_t cd);

/* The value at P of what an iconv_t to UCS-4 in the machine's order
   (HOST) or to UTF-32LE wrote; for HOST, UINT32_MAX for what UTF-32LE
   refuses (a surrogate, or beyond U+10FFFF).  */
static inline ucs4_t
memo_value_at (bool host, uint8_t const *p)
{
  uint32_t v;
  if (!host)
    return get32le (p);
  memcpy (&v, p, sizeof v);
  return v <= 0x10FFFF && (v < 0xD800 || 0xDFFF < v) ? v : UINT32_MAX;
}

/* Whether PROBE (to UCS-4 in the machine's order when HOST, else to
   UTF-32LE), put in its initial state, decodes S[0..LEN) to the one
   value C, with the sentinel of CS after it decoded as on its own, and
   then holds nothing back.  */
bool memo_check (iconv_t probe, bool host, struct memo_charset const *cs,
                 uint8_t const *s, size_t len, ucs4_t c);

/* As memo_check, for S[0..LEN) that decodes to the N values V[0..N).  */
bool memo_check_values (iconv_t probe, bool host,
                        struct memo_charset const *cs, uint8_t const *s,
                        size_t len, ucs4_t const *v, size_t n);

/* The memo: a trie of the characters' bytes.  Each node has 256
   entries, one per byte: 0 (nothing known), MEMO_CHILD and the index of
   the node of the bytes that follow (those so far are a valid
   beginning), or the value of the character the bytes so far are, with
   MEMO_SEEN (seen once, not to be used yet) or MEMO_CHAR (to be used);
   or MEMO_LONE and the value of the first byte alone, for bytes that
   are no character: the first is one alone and each after it is read
   as the root's entry says (a lone ESC before a byte that begins no
   escape sequence in ISO-2022-JP, which glibc reads as U+001B: memo_lone,
   to be used at once).  */
struct memo
{
  uint32_t *node;               /* NODES * 256 entries; the root first.  */
  size_t nodes;
  unsigned int ascii_same;      /* How many of the bytes 00..7F it knows
                                   to decode to themselves (128: all).  */
};

/* What memo_note found.  */
enum memo_sight
{
  MEMO_FIRST,                   /* Not seen before; now seen once.  */
  MEMO_AGAIN,                   /* Seen once before, with this value.  */
  MEMO_KNOWN,                   /* Nothing to do: in use already, or
                                   not to be kept (too long, M full).  */
  MEMO_CLASH                    /* M knows these bytes otherwise.  */
};

/* Note that S[0..LEN) decodes to C, each shorter prefix being a valid
   beginning.  */
enum memo_sight memo_note (struct memo *m, uint8_t const *s, size_t len,
                           ucs4_t c);

/* How many bytes at the start of S[0..N) M knows to be a valid
   beginning of a character (iconv() said EINVAL about each of its
   prefixes, from where no character was begun), 0 if none.  */
size_t memo_beginning (struct memo const *m, uint8_t const *s, size_t n);

/* Note that S[0..LEN), each shorter prefix being a valid beginning, is
   to be left to iconv(): an error, or a character the memo does not
   keep.  Never read as a character; memo_note sees a clash there.  */
void memo_leave (struct memo *m, uint8_t const *s, size_t len);

/* Whether memo_leave noted the entry E.  */
#define MEMO_LEFT (MEMO_SEEN | MEMO_VALUE)

/* Note that the character of two bytes or more whose entry, found by a
   walk down M's nodes, is M's node[AT] is C, checked already, to be used
   at once; false when M knows those bytes otherwise.  */
static inline bool
memo_put_entry (struct memo *m, size_t at, ucs4_t c)
{
  uint32_t e = m->node[at];
  if (c > 0x10FFFF)
    return true;
  if (e != 0 && e != (MEMO_SEEN | c) && e != (MEMO_CHAR | c))
    return false;
  m->node[at] = MEMO_CHAR | c;
  return true;
}

/* S[0..LEN), of two bytes or more, was just seen for the first time
   (memo_note said MEMO_FIRST), in a charset CS that suits the memo:
   learn, with PROBE, the characters of its length that differ from it
   in the last byte, trying the bytes after that one, then before it,
   dozens a call, each followed by a character of the sentinel of CS
   (each unknown to M, each checked between two characters, with
   nothing held after the last), until iconv() stopped at a few that
   are no such character; they are to be used at once.  Bytes M knows
   are not tried.  PROBE and HOST as memo_check's.  */
void memo_learn_around (struct memo *m, iconv_t probe, bool host,
                        struct memo_charset const *cs, uint8_t const *s,
                        size_t len);

/* Let memo_decode use every character of one byte of CS at once: what
   its probe found each to give alone, and all together, forwards and
   backwards, from the initial state (memo_probe_charset), which is as
   much as memo_check shows of one.  */
void memo_learn_singles (struct memo *m, struct memo_charset const *cs);

/* Let memo_decode use the character S[0..LEN), seen once before.  */
void memo_trust (struct memo *m, uint8_t const *s, size_t len);

/* Note in M that S[0..LEN) (2 to MEMO_DEPTH bytes, each shorter prefix
   a valid beginning) decodes, checked already, to C for S[0] alone and
   then to what the root's entry of each byte after it says, with all
   of the bytes consumed: a MEMO_LONE entry, with the nodes of their
   beginnings (unless M is full, or the value is no scalar value).
   False when M knows those bytes otherwise.  */
bool memo_lone (struct memo *m, uint8_t const *s, size_t len, ucs4_t c);

/* What the MEMO_LONE entry E for the LEN bytes at S decodes to: the
   value of S[0] alone, then the root entry of each byte after it in
   NODE, into V; false when one of those is no character the memo uses
   (which memo_lone found, and never changes but by a memo stopped).  */
static inline bool
memo_lone_values (uint32_t const *node, uint32_t e, uint8_t const *s,
                  size_t len, ucs4_t *v)
{
  size_t j;
  v[0] = e & MEMO_VALUE;
  for (j = 1; j < len; j++)
    {
      uint32_t r = node[s[j]];
      v[j] = r & MEMO_VALUE;
      if ((r & (MEMO_CHILD | MEMO_CHAR)) != MEMO_CHAR
          || (0xD800 <= v[j] && v[j] < 0xE000))
        return false;
    }
  return true;
}

/* Follow the memo's nodes NODE from E, the root's entry of S[0], through
   S[1..N): the entry of the character S starts with, and its length in
   *K; an entry with MEMO_CHILD still set when S[0..N) is only its
   beginning.  */
static inline uint32_t
memo_walk (uint32_t const *node, uint32_t e, uint8_t const *s, size_t n,
           size_t *k)
{
  size_t j = 1;
  while ((e & MEMO_CHILD) && j < n)
    e = node[256 * (e & MEMO_INDEX) + s[j++]];
  *k = j;
  return e;
}

/* Copy to OUT the run of ASCII at IN[0..N) (N >= 1) that the memo
   node NODE reads as itself, IN[0] being such a byte, and add its
   newlines to *NL; its length.  */
static inline size_t
memo_ascii_run (uint32_t const *node, uint8_t const *in, size_t n,
                uint8_t *out, uint64_t *nl)
{
  size_t i = 0;
  uint64_t newlines = 0;
  uint8_t b = in[0];
  do
    {
      out[i] = b;
      newlines += b == 0x0A;
    }
  while (++i < n && (b = in[i]) < 0x80 && node[b] == (MEMO_CHAR | b));
  *nl += newlines;
  return i;
}

/* For shift_run's loop into UTF-8 after SO (iconv_shift.c), from
   IN[I] (of IN[0..N), whose entry in the memo's nodes ND is E, with
   MEMO_CHILD): the characters of two bytes the memo knows, in a loop of
   their own, into OUT from *O while *O <= MAX, with their newlines
   added to *NEWLINES and the place of the last in *START.  Anything
   else (a shift, a character of another length, a value UTF-8 cannot
   hold) is left to that loop.  Returns where it stopped.  (Random
   GB2312, whose pairs come between ASCII, reads slower with it: 0.90
   times iconv(1)'s instructions against 0.84.)  */
static inline size_t
memo_pairs_utf8 (uint32_t const *nd, uint32_t e, uint8_t const *in,
                 size_t i, size_t n, uint8_t *out, size_t *o, size_t max,
                 uint64_t *newlines, size_t *start)
{
  size_t j = i, w = *o;
  uint64_t nl = 0;
  do
    {
      uint32_t e2;
      ucs4_t c;
      if (j + 1 >= n)
        break;
      e2 = nd[256 * (e & MEMO_INDEX) + in[j + 1]];
      c = e2 & MEMO_VALUE;
      if ((e2 & (MEMO_CHILD | MEMO_CHAR)) != MEMO_CHAR
          || (0xD800 <= c && c < 0xE000))
        break;
      w += (size_t) utf8_put (c, out + w);
      nl += c == 0x0A;
      *start = j;
      j += 2;
    }
  while (j < n && w <= max && ((e = nd[in[j]]) & MEMO_CHILD));
  *o = w;
  *newlines += nl;
  return j;
}

/* As memo_pairs_utf8, for the characters of one byte at IN[I] that the
   memo's nodes ND know, IN[I] being such a byte, whose entry is E
   (EBCDIC's letters, which are no ASCII).  */
static inline size_t
memo_singles_utf8 (uint32_t const *nd, uint32_t e, uint8_t const *in,
                   size_t i, size_t n, uint8_t *out, size_t *o, size_t max,
                   uint64_t *newlines, size_t *start)
{
  size_t j = i, w = *o;
  uint64_t nl = 0;
  do
    {
      ucs4_t c = e & MEMO_VALUE;
      if (0xD800 <= c && c < 0xE000)
        break;
      w += (size_t) utf8_put (c, out + w);
      nl += c == 0x0A;
      *start = j;
      j++;
    }
  while (j < n && w <= max
         && ((e = nd[in[j]]) & (MEMO_CHILD | MEMO_CHAR)) == MEMO_CHAR);
  *o = w;
  *newlines += nl;
  return j;
}

/* As memo_decode, but into UTF-8 in OUT[0..CAP), for fast.c's path:
   sets *PRODUCED to the bytes written and *NEWLINES to the U+000A
   decoded, and stops also before a value UTF-8 cannot hold, or where
   fewer than 4 bytes of room would be left.  */
size_t memo_decode_utf8 (struct memo const *m, uint8_t const *in, size_t n,
                         uint8_t *out, size_t cap, size_t *produced,
                         uint64_t *newlines, size_t *last);

/* The same into UTF-8 (FORM 0), UTF-16LE (1) or UTF-16BE (2).  */
size_t memo_decode_form (struct memo const *m, uint8_t const *in,
                         size_t n, uint8_t *out, size_t cap,
                         size_t *produced, uint64_t *newlines,
                         size_t *last, int form);

/* Decode IN[0..N), which is at offset REL in the buffer, by M alone,
   into P, and count newlines in D, up to the first bytes M does not
   know, or the end of a valid beginning at the end of IN, or a pivot with
   less than ROOM values of room after any.  Returns the bytes decoded,
   and sets *LAST to where the last character began.  */
size_t memo_decode (struct memo const *m, struct decoder *d,
                    uint8_t const *in, size_t n, int64_t rel,
                    struct pivot *p, size_t room, size_t *last);

void memo_free (struct memo *m);

/* The encoders' memo: what iconv(3) encodes each character to, once
   asked, for the encoders that keep no state (iconv_table.c's, and the
   bridge's for a stateless charset, iconv_bridge.c).  Pages of 256
   entries, made as they are needed; an entry is 0 (not known yet),
   ENC_NONE (iconv(3) cannot encode it), or the length of its bytes in
   the low 4 bits and the bytes from bit 8 on, with ENC_HELD when the
   encoder holds the character back until the next one shows that they
   do not compose (BIG5-HKSCS's Ê, EUC-JISX0213's kana): its bytes are
   then those it writes when they do not, and only the bridge's encoder
   writes it (iconv_encode.c), once enc_memo_pair says so.  */
enum
{
  ENC_MAX_BYTES = 6,
  ENC_BATCH = 32,               /* Characters learned ahead at most, */
  ENC_AHEAD = 256,              /* among so many that follow.  */
  ENC_NONE = 0xF,
  ENC_HELD = 0x10,
  ENC_PAGES = 0x110000 >> 8
};

/* How enc_memo_learn_ahead's learner was opened.  */
enum ahead_form
{
  AHEAD_UNTRIED,                /* Not yet.  */
  AHEAD_NONE,                   /* It could not be.  */
  AHEAD_LE,                     /* From UTF-32LE.  */
  AHEAD_HOST                    /* From UCS-4 in the machine's order.  */
};

struct enc_memo
{
  uint64_t **page;              /* ENC_PAGES pointers, or NULL.  */
  /* A narrow memo (NARROW, the encoders of SO and SI, iconv_shift.h,
     whose characters are of one or two bytes) keeps its entries in 32
     bits instead, in PAGE32 (PAGE stays NULL): a page of 1 KiB, half
     the fresh memory that random text makes the kernel give it.  (An
     entry of more than 3 bytes would not be kept: it would stay
     unknown.)  */
  uint32_t **page32;
  bool narrow;
  unsigned int page_end;        /* One past the last page made.  */
  uint64_t ascii[2];            /* A bit for each of 00..7F whose entry
                                   is that byte alone (the fast path
                                   copies runs of them).  */
  bool stateful;                /* An encoder of the charset has shown
                                   state: no fast path reads it.  */
  char const *tocode;           /* The charset, for iconv_open, when
                                   enc_memo_learn_ahead may: or NULL.  */
  iconv_t ahead;                /* enc_memo_learn_ahead's learner.  */
  enum ahead_form ahead_form;
  uint64_t *pairs;              /* enc_memo_pair's, or NULL.  */
  bool busy;                    /* An encoder holds a character back
                                   (iconv_encode.c): the fast path
                                   from UTF-8 waits.  */
  size_t learned;               /* Characters enc_memo_learn_ahead
                                   learned,  */
  size_t learned_wide;          /* and of them, beyond ASCII and
                                   encodable.  */
  uint64_t hits;                /* Characters beyond ASCII that it knew
                                   when the fast path from UTF-8 met
                                   them, a sample in runs
                                   (iconv_memo_run.c).  */
};

/* The entry of C, at most U+10FFFF, in the pages PAGE32 of a narrow
   memo (its `page32', not NULL): 0 when nothing.  */
static inline uint32_t
enc_memo_page32_get (uint32_t *const *page32, ucs4_t c)
{
  uint32_t const *pg = page32[c >> 8];
  return pg ? pg[c & 0xFF] : 0;
}

/* What M knows of C: 0 when nothing.  */
static inline uint64_t
enc_memo_get (struct enc_memo const *m, ucs4_t c)
{
  uint64_t const *pg;
  if (0x10FFFF < c)
    return 0;
  if (!m->page)
    return m->page32 ? enc_memo_page32_get (m->page32, c) : 0;
  pg = m->page[c >> 8];
  return pg ? pg[c & 0xFF] : 0;
}

/* enc_memo_get for C, at most U+10FFFF, in the pages PAGE of a memo (its
   `page', not NULL), which a loop that learns nothing keeps for itself:
   the bytes it writes could be the memo's, as far as the compiler
   knows.  */
static inline uint64_t
enc_memo_page_get (uint64_t *const *page, ucs4_t c)
{
  uint64_t const *pg = page[c >> 8];
  return pg ? pg[c & 0xFF] : 0;
}

/* Whether the ASCII value C (below 0x80) has its bit in ASCII, an
   enc_memo's ascii: the memo writes it as that byte alone.  */
static inline bool
enc_memo_ascii (uint64_t const ascii[2], ucs4_t c)
{
  return ascii[c >> 6] >> (c & 63) & 1;
}

/* The page of C (at most U+10FFFF) in the narrow memo M, made if need
   be.  */
uint32_t *enc_memo_page32_of (struct enc_memo *m, ucs4_t c);

/* Note in M's `ascii' whether the entry V of C is C's byte alone.  */
void enc_memo_note_ascii (struct enc_memo *m, ucs4_t c, uint64_t v);

/* enc_memo_put for the narrow memo M, of C (at most U+10FFFF), whose
   LEN bytes (1 or 2; 0: iconv(3) cannot encode it) are at S: inline,
   for the loop that learns them by dozens (iconv_shift_enc.c).  */
static inline void
enc_memo_put_short (struct enc_memo *m, ucs4_t c, uint8_t const *s,
                    unsigned int len)
{
  uint32_t v = (len == 0 ? ENC_NONE
                : len == 1 ? 1 | (uint32_t) s[0] << 8
                : 2 | (uint32_t) s[0] << 8 | (uint32_t) s[1] << 16);
  uint32_t *pg = m->page32 ? m->page32[c >> 8] : NULL;
  if (!pg)
    pg = enc_memo_page32_of (m, c);
  pg[c & 0xFF] = v;
  if (c < 0x80)
    enc_memo_note_ascii (m, c, v);
}

/* Write the bytes of the known entry V to OUT; their number, or -1 for
   ENC_NONE.  */
static inline int
enc_memo_write (uint64_t v, uint8_t *out)
{
  unsigned int len = (unsigned int) (v & 0xF), k;
  if (len == ENC_NONE)
    return -1;
  for (k = 0; k < len; k++)
    out[k] = (uint8_t) (v >> (8 + 8 * k));
  return (int) len;
}

/* Encode CP[*I..N) with what M knows into OUT from *O, while OUT has
   MAX_ENCODED bytes of room below CAP, and move *I and *O past them.
   Stops at a value M does not know (*I < N), or returns true at one
   that M knows cannot be encoded.  */
static inline bool
enc_memo_run (struct enc_memo const *m, ucs4_t const *cp, size_t *i,
              size_t n, uint8_t *out, size_t *o, size_t cap)
{
  size_t k = *i, w = *o;
  bool none = false;
  if (!m->page)
    return false;
  while (k < n && cap - w >= MAX_ENCODED)
    {
      ucs4_t c = cp[k];
      uint64_t const *pg = c <= 0x10FFFF ? m->page[c >> 8] : NULL;
      uint64_t v = pg ? pg[c & 0xFF] : 0;
      unsigned int len = (unsigned int) (v & 0xF), j;
      if (v == 0 || len == ENC_NONE || (v & ENC_HELD))
        {
          none = len == ENC_NONE;
          break;
        }
      for (j = 0; j < len; j++)
        out[w + j] = (uint8_t) (v >> (8 + 8 * j));
      w += len;
      k++;
    }
  *i = k;
  *o = w;
  return none;
}

/* Note in M that C encodes to S[0..LEN) (LEN <= ENC_MAX_BYTES), or
   cannot be encoded when NONE; returns the entry.  */
uint64_t enc_memo_put (struct enc_memo *m, ucs4_t c, uint8_t const *s,
                       size_t len, bool none);

/* The running encoder, from where M may be read, encoded C to
   OUT[0..LEN) (ERR: iconv()'s errno, 0 for none): note that in M when
   PROBE, an iconv_t to the same charset, from its initial state,
   encodes C twice to those bytes twice, with nothing to flush after,
   or finds C unencodable as well, and return true; anything else means
   the encoder keeps state (a shift, a character held back to combine),
   and false.  */
bool enc_memo_learn (struct enc_memo *m, iconv_t probe, ucs4_t c,
                     uint8_t const *out, size_t len, int err);

/* The values of CP[0..N) that M does not know, each once, up to
   ENC_BATCH different ones among the first ENC_AHEAD, into WANT (room
   for ENC_BATCH): their number.  Surrogates and values beyond U+10FFFF
   are left out.  */
size_t enc_memo_want (struct enc_memo const *m, ucs4_t const *cp, size_t n,
                      ucs4_t *want);

/* Learn ahead, for an encoder that reads M: the values of CP[0..N)
   that enc_memo_want gives, each noted in M when M's learner (an
   iconv_t to M's `tocode', opened at the first call; none when that is
   NULL) encodes it twice to the same bytes twice in a call of its own (or
   cannot encode it at all), the calls one after the other from its
   initial state, with nothing to flush after the last.  That shows
   what enc_memo_learn's check does, with one call a character instead
   of four, and without the encoder's own call.  Returns how many it
   noted; 0 when the first did not come through, which the encoder then
   converts itself.  */
size_t enc_memo_learn_ahead (struct enc_memo *m, ucs4_t const *cp,
                             size_t n);

/* Open M's learner (enc_memo_learn_ahead's), untried so far.  */
void enc_memo_open_ahead (struct enc_memo *m);

/* Whether M, at a character it does not know, had better give a run to
   its learner (enc_memo_through) than learn ahead: while what it
   learned is many for the text it served (iconv_memo_run.c).  */
bool enc_memo_runs_now (struct enc_memo const *m);

/* Encode with M's learner, in one call, a run of the first of the K
   values at CP (in the machine's order, Unicode scalar values), which
   ends where what follows cannot change how
   its last one is written, into OUT[0..ROOM); the bytes written in
   *WROTE.  Returns the values taken, up to the first the encoder cannot
   encode; 0 when the run would be too short, or for any other
   error.  */
size_t enc_memo_through (struct enc_memo *m, ucs4_t const *cp, size_t k,
                         uint8_t *out, size_t room, size_t *wrote);

/* What the characters C and D, known to M (C held back; D maybe as no
   character of the charset alone, as U+309A), are written as, as M's
   learner gives them from its initial state, with its flush: 0 when as
   their bytes one after the other (they do not compose; kept for the
   next time, for a bounded number of pairs); the length of the bytes
   of the one character they compose to, written to ONE (MAX_ENCODED
   bytes of room), when nothing is held back after it; -1 for anything
   else.  */
int enc_memo_pair (struct enc_memo *m, ucs4_t c, ucs4_t d, uint8_t *one);

/* An iconv_t to TOCODE that enc_learner_unit's values go to: from
   glibc's own UCS-4 where WCHAR_T is that (*HOST), else from UTF-32LE;
   (iconv_t) -1 when it does not open.  */
iconv_t enc_learner_open (char const *tocode, bool *host);

/* The 4 bytes of C as UTF-32LE, or (HOST) as UCS-4 in the machine's
   order.  */
void enc_learner_unit (bool host, ucs4_t c, uint8_t *out);

void enc_memo_free (struct enc_memo *m);

#endif
