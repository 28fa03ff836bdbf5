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

#include "../codec.h"

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

/* What the probe found out about a charset, once for all its decoders.  */
struct memo_charset
{
  bool decided;                 /* The probe has run.  */
  bool suits;                   /* The memo may be used.  */
  /* Characters of one byte each, and their values, that iconv(3) is
     given after a character it is learning.  */
  uint8_t sentinel[MEMO_SENTINEL];
  ucs4_t sentinel_cp[MEMO_SENTINEL];
  unsigned int sentinel_len;
};

/* Decide S for the charset FROMCODE, by converting each byte alone and
   the characters of one byte together with iconv(3).  */
void memo_probe_charset (struct memo_charset *s, char const *fromcode);

/* Whether PROBE, put in its initial state, decodes S[0..LEN) to the one
   value C, with the sentinel of CS after it decoded as on its own, and
   then holds nothing back.  */
bool memo_check (iconv_t probe, struct memo_charset const *cs,
                 uint8_t const *s, size_t len, ucs4_t c);

/* The memo: a trie of the characters' bytes.  Each node has 256
   entries, one per byte: 0 (nothing known), MEMO_CHILD and the index of
   the node of the bytes that follow (those so far are a valid
   beginning), or the value of the character the bytes so far are, with
   MEMO_SEEN (seen once, not to be used yet) or MEMO_CHAR (to be used).  */
struct memo
{
  uint32_t *node;               /* NODES * 256 entries; the root first.  */
  size_t nodes;
  size_t alloc;                 /* Nodes allocated.  */
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

/* Let memo_decode use the character S[0..LEN), seen once before.  */
void memo_trust (struct memo *m, uint8_t const *s, size_t len);

/* Decode IN[0..N), which is at offset REL in the buffer, by M alone,
   into P, and count newlines in D, up to the first bytes M does not
   know, or the end of a valid beginning at the end of IN, or a pivot with
   less than ROOM values of room after any.  Returns the bytes decoded,
   and sets *LAST to where the last character began.  */
size_t memo_decode (struct memo const *m, struct decoder *d,
                    uint8_t const *in, size_t n, int64_t rel,
                    struct pivot *p, size_t room, size_t *last);

void memo_free (struct memo *m);

#endif
