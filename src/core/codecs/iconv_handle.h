/* What the iconv(3) bridge's decoders (iconv_bridge.c) and encoders
   (iconv_encode.c) share: a bridged codec, the iconv_t behind each of
   its decoders and encoders with what they keep, and how they are
   opened.  Private to the bridge.  */

#ifndef UTF8CONV_ICONV_HANDLE_H
#define UTF8CONV_ICONV_HANDLE_H

#include <iconv.h>
#include <locale.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../codec.h"
#include "iconv_compose.h"
#include "iconv_hold.h"
#include "iconv_memo.h"
#include "iconv_shift.h"

enum
{
  /* The most input bytes one iconv() call sees while decoding: more than
     the longest character or shift sequence of any encoding iconv(3)
     knows.  */
  BRIDGE_VIEW = 2 * MAX_ERROR_BYTES,
  BRIDGE_MAX_VALUES = PIVOT_MIN_ROOM,  /* From one input character.  */
  LONE_SEEN = 64                /* Of struct handle's lone_seen.  */
};

/* A bridged codec.  */
struct bridge
{
  struct stateful_codec sc;     /* First: what the rest of utf8conv sees.  */
  char *name;                   /* As the user gave it, uppercased.  */
  char *to_name;                /* For iconv_open when encoding.  */
  struct codec const *exact;    /* Tried first when encoding, or NULL.  */
  locale_t translit;            /* //TRANSLIT: the locale whose rules
                                   iconv() follows, or (locale_t) 0.  */
  struct memo_charset *charset; /* Whether the memo suits it.  */
  struct enc_memo *enc;         /* What its encoders learned.  */
  unsigned int unit;            /* A form of fixed units: their size
                                   (iconv_units.c), or 0.  */
  char const *ucs4;             /* memo_ucs4 (), or UTF-32LE where
                                   that opens no encoder (WCHAR_T's).  */
  struct bridge *next;          /* All bridges, to find them again.  */
};

static inline struct bridge const *
bridge_of (struct codec const *c)
{
  /* C is the first member of SC, which is the first member of the
     bridge.  */
  return (struct bridge const *) (struct stateful_codec const *) c;
}

/* The iconv_t behind a decoder's or encoder's `impl'.  */
struct handle
{
  iconv_t cd;
  /* Decoding: the bytes consumed since the last value without giving
     one (shift sequences, or a held character).  They belong to the
     next value, whose offset is theirs, wherever the buffers were
     split.  */
  int64_t prefix;
  /* Decoding: the bytes consumed since the start of the last call that
     gave values (the first BRIDGE_VIEW of them in TAIL), which is where
     a held character comes from; and the probe that tells whether one
     is held, opened on the first error (or (iconv_t) -1), which also
     checks what the memo learns: to UCS-4 in the machine's order where
     it reads the charset's sentinel so (PROBE_HOST), else to UTF-32LE.  */
  uint8_t tail[BRIDGE_VIEW];
  int64_t tail_len;
  iconv_t probe;
  bool probe_host;
  char const *fromcode;
  /* Decoding: iconv() said EILSEQ after it had consumed BLAMED without
     giving values, so the byte after them is illegal, where it says
     (glibc's ISO-2022-CN and ISO-2022-CN-EXT say so of the character
     after a SO that no designation came before).  */
  bool blame_next;
  uint8_t blamed[MAX_ERROR_BYTES];
  unsigned int blamed_len;
  /* Decoding: the characters learned, whether they may be used (not
     once the decoder showed state), and what the probe found out about
     the charset.  */
  struct memo memo;
  bool memo_on;
  /* Decoding: bytes of no character that gave a value each (memo_lone)
     lately, their bytes little-endian, by a hash: the second sight is
     learned (random text has its lone ESC before ever other bytes).  */
  uint32_t lone_seen[LONE_SEEN];
  struct shift_track shift;     /* The memo across shifts.  */
  struct shift_enc *senc;       /* Encoding: the same (iconv_shift.c).  */
  struct memo_charset *charset;
  /* Decoding: the table of a charset that holds letters back
     (iconv_hold.c), looked for at the first byte consumed without a
     value (HOLD_TRY); CLEAR: surely nothing held or consumed so.  */
  struct hold_table const *hold;
  bool hold_try;
  bool hold_clear;
  /* Encoding: whether the encoders' memo may be read and written (while
     the encoder has shown no state); and a character of the memo that
     the encoder holds back (HELD_ON), not written yet (iconv_encode.c).  */
  bool enc_on;
  bool held_on;
  ucs4_t held;
  /* Encoding: what the encoder composes (iconv_compose.h), and the
     first of a pair it may compose, the last of its call, not written
     until the next character shows (FIRST_ON).  */
  struct compose comp;
  bool first_on;
  ucs4_t first;
  /* Encoding: the iconv_t reads UCS-4 in the machine's order (glibc's
     WCHAR_T, as enc_learner_open finds) rather than UTF-32LE.  */
  bool host;
  /* Both ways: the size of the code units of a Unicode form converted
     a run per call (iconv_units.c), or 0; the byte order a run showed.  */
  unsigned int unit;
  int order;
  /* Decoding a form read in runs (UTF-7): the decoder is surely where
     bytes of RUN_DIRECT read as themselves (at the start, or after a
     byte of RUN_ENDS that a run consumed), so they need no iconv().  */
  bool run_base;
  /* Encoding to such a form from UTF-8 (iconv_encode.c): runs of
     characters a call (RUNS7), and the encoder surely outside base64
     (ENC_BASE), where characters of RUN_DIRECT are their bytes.  */
  bool runs7;
  bool runs7_tried;
  bool enc_base;
  /* The text is mostly base64: no look for the characters that are
     their bytes, every one goes to iconv().  */
  bool runs7_plain;
};

/* iconv_open, which may not fail: it opened when the charset was
   found; ENOMEM is xalloc_die's, anything else an internal error.  */
iconv_t bridge_iconv_open (char const *tocode, char const *fromcode);

/* A new handle of an iconv_t from FROMCODE to TOCODE, without a probe
   (it is opened when needed); and its end.  */
struct handle *bridge_open_handle (char const *tocode, char const *fromcode);
void bridge_close_handle (struct handle *h);

/* Note that iconv() consumed S[0..USED) in one call, which gave values
   when GAVE: the tail starts again with the bytes of such a call; one
   that gave none may have held a letter back (iconv_hold.c).  */
void handle_note_consumed (struct handle *h, uint8_t const *s, size_t used,
                           bool gave);

/* The decoder of H has shown state: its memo is not used any more.  */
void handle_memo_stop (struct handle *h);

/* Whether the bridged decoder D converts runs to UTF-8 for fast.c's
   path: a Unicode form without fixed units (UTF-7), which keeps a state
   but holds no character back for a flush to give, and has no memo.  */
static inline bool
handle_runs_to_utf8 (struct decoder const *d)
{
  struct handle const *h = d->impl;
  return ((d->codec->flags & (CODEC_UNICODE | CODEC_WIDE_UNITS))
          == CODEC_UNICODE && h->unit == 0);
}

#endif
