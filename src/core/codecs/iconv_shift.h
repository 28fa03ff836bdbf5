/* The bridge's memo across the shifts of a charset of two states, like
   IBM930's SO and SI (iconv_shift.c says why it is exact).  */

#ifndef UTF8CONV_ICONV_SHIFT_H
#define UTF8CONV_ICONV_SHIFT_H

#include <iconv.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iconv_memo.h"

struct compose;

/* What a decoder knows of its shift state.  The decoder's own memo is
   that of the state it is in; OTHER is that of the other state.  */
enum
{
  SHIFT_BATCH = 16              /* Characters checked by one call.  */
};

struct shift_track
{
  struct memo other;
  bool on;                      /* The state is known: SHIFTED.  */
  bool shifted;                 /* After SO: not the initial state.  */
  /* Characters after SO seen once, learned but not checked yet.  */
  uint8_t pend[SHIFT_BATCH][MEMO_DEPTH];
  uint8_t pend_len[SHIFT_BATCH];
  ucs4_t pend_cp[SHIFT_BATCH];
  unsigned int npend;
  /* A charset not yet known of two states consumed the escape sequence
     CAND alone (LIMBO): its state is not known, and the memos wait for
     the sequence that leads back (shift_note).  */
  uint8_t cand[SHIFT_SEQ_MAX];
  unsigned int cand_len;
  bool limbo;
  /* The iconv_t that checks them, when PROBE_OPEN, of FROMCODE.  */
  iconv_t probe;
  bool probe_open;
  bool probe_host;              /* To UCS-4 in the machine's order.  */
  char const *fromcode;
};

/* memo_probe_charset, then decide whether the charset FROMCODE is one
   of two shift states (S->shifting, with its SO and SI).  */
void shift_probe_charset (struct memo_charset *s, char const *fromcode);

/* The decoder whose memo is M, of the charset FROMCODE (CS, probed
   here if need be), consumed S[0..USED) in one call without a value
   (ERR: iconv()'s errno): follow the shift in T and return true, or
   return false when that is no shift of CS that T can follow.  */
bool shift_note (struct shift_track *t, struct memo *m,
                 struct memo_charset *cs, char const *fromcode,
                 uint8_t const *s, size_t used, int err);

/* The decoder's iconv_t was flushed, which returns it to its initial
   state: so does T, whose decoder's memo is M.  */
void shift_reset (struct shift_track *t, struct memo *m);

/* Whether a call of iconv() that gave values consumed, with them, one
   of the shift bytes of the charset CS (of SO and SI) in S[0..USED):
   glibc's ISO-2022-CN, shown ESC SO, writes the ESC and consumes the
   SO.  The decoder's memo must then follow the shift
   (shift_after_values) or stop.  Probes CS if need be.  */
bool shift_in_values (struct memo_charset *cs, char const *fromcode,
                      uint8_t const *s, size_t used);

/* Such a call of the decoder whose memo is M gave the values at
   OUT[0..BYTES) for S[0..USED), whose last byte, and only that, is SO or
   SI (ISO-2022-KR's ESC SO: the ESC, and the shift): follow the shift
   in T and return true when T's probe, in T's state, gives those values
   for the bytes before it and then consumes it alone; else false.  */
bool shift_after_values (struct shift_track *t, struct memo *m,
                         struct memo_charset const *cs, uint8_t const *s,
                         size_t used, uint8_t const *out, size_t bytes);

/* The decoder whose memo is M (that of the state of T, after SO) of the
   charset FROMCODE (CS) noted S[0..LEN) as the character C, which
   memo_note called SIGHT: check it, with others, when it is time, and
   let the memo use those that pass.  Returns false when the memos are
   not to be used any more.  */
bool shift_learn (struct shift_track *t, struct memo *m,
                  struct memo_charset const *cs, char const *fromcode,
                  uint8_t const *s, size_t len, ucs4_t c,
                  enum memo_sight sight);

/* Free what T holds.  */
void shift_free (struct shift_track *t);

/* memo_decode across shifts: decode IN[0..N) (at REL in the buffer)
   with M, the memo of the state of T, and T's other memo, following the
   shifts of CS, into P, with *PREFIX bytes consumed without a value
   before IN, and bring CD, the decoder's iconv_t, to the state where it
   ends (T's `on' is false if that failed).  Sets *PREFIX to those after
   the last value, *GAVE to whether there was one, and *LAST to where it
   began.  */
size_t shift_decode (struct shift_track *t, struct memo *m, iconv_t cd,
                     struct memo_charset const *cs, struct decoder *d,
                     uint8_t const *in, size_t n, int64_t rel,
                     struct pivot *p, size_t room, int64_t *prefix,
                     bool *gave, size_t *last);

/* shift_decode into UTF-8 in OUT[0..CAP), for fast.c's path: sets
   *PRODUCED to the bytes written and *NEWLINES to the U+000A decoded,
   and stops also before a value UTF-8 cannot hold, or where fewer than
   4 bytes of room would be left.  */
size_t shift_decode_utf8 (struct shift_track *t, struct memo *m, iconv_t cd,
                          struct memo_charset const *cs, uint8_t const *in,
                          size_t n, uint8_t *out, size_t cap,
                          size_t *produced, uint64_t *newlines,
                          int64_t *prefix, bool *gave, size_t *last);

/* Within the decoders (iconv_shift.c and its loop, iconv_shift_run.c):
   which shift of CS the N bytes at S begin with (1 for SO, 2 for SI, 0
   for none, -1 when N cuts them short); the exchange of the memos M and
   T's other one, when the decoder changed state; whether T's probe is
   open, opening it the first time.  */
int shift_at (struct memo_charset const *cs, uint8_t const *s, size_t n);
void shift_swap_memos (struct shift_track *t, struct memo *m);
bool shift_probe_ready (struct shift_track *t,
                        struct memo_charset const *cs);

/* An encoder to a charset of SO and SI (bytes or escape sequences),
   which follows the shifts it writes: what iconv(3) encodes each
   character to in the state it leads to (one byte: the initial state;
   two: after SO), learned and checked (shift_enc_learn), and the state
   of what was written.  */
struct shift_enc
{
  struct enc_memo known;
  /* SO and SI: a byte each, as the probe found (IBM930's 0E, 0F), or
     escape sequences that designate a set to G0 (ISO-2022-JP's
     ESC $ B, ESC ( B), learned from the first character of the other
     state; SO_LEN 0 until then.  */
  uint8_t so[SHIFT_SEQ_MAX], si[SHIFT_SEQ_MAX];
  unsigned int so_len, si_len;
  /* SO and SI were learned: a character of one byte is learned only
     once it is checked after SO too (the set SO designates may hold it,
     as JIS X 0212 holds the tilde).  */
  bool learned;
  bool shifted;                 /* What was written ends after SO.  */
  bool synced;                  /* The encoder's iconv_t is there too.  */
  ucs4_t sample[2];             /* A character known of each state.  */
  char const *tocode;           /* The charset, for iconv_open.  */
  iconv_t ahead;                /* shift_enc_learn_ahead's learner, once
                                   AHEAD_OPEN ((iconv_t) -1: none).  */
  bool ahead_open;
  bool ahead_host;              /* It reads the machine's UCS-4.  */
  iconv_t check;                /* other_state's in learn_each, once
                                   CHECK_OPEN ((iconv_t) -1: none).  */
  bool check_open;
  /* The batches learn_batch learned in one call as learn_each did a
     call each (-1: one did not, and it is not used).  */
  int batch_ok;
  /* What the encoder writes once before its first character after its
     initial state (ISO-2022-KR's ESC $ ) C; HEAD_KNOWN: found out), and
     whether what was written since has it (HEAD_OUT).  */
  uint8_t head[8];
  size_t head_len;
  bool head_known;
  bool head_out;
  /* What the encoder composes (iconv_compose.h), or NULL: a character
     it may write together with the next is kept with ENC_HELD, which
     the memo's loops write only where no mark follows it.  */
  struct compose *comp;
};

/* A new one for the charset CS, called TOCODE (for iconv_open), or
   NULL when CS is neither of SO and SI nor stateful otherwise (then the
   shifts may be escape sequences, learned).  */
struct shift_enc *shift_enc_new (struct memo_charset const *cs,
                                 char const *tocode);

/* A new one for the charset TOCODE that learns its shifts from the
   first character of the other state it sees, in an encoder whose
   state is then the initial one or as if it were.  */
struct shift_enc *shift_enc_learning (char const *tocode);

/* Learn ahead: the values of CP[0..N) that SE does not know, up to
   ENC_BATCH of them, each checked in the state the one before it left,
   with a learner of its own (a call a character, and a flush after the
   last, instead of four calls each), up to the first that does not come
   through.  How many it learned: 0 when CP[0], which SE did not know,
   was not.  */
size_t shift_enc_learn_ahead (struct shift_enc *se, ucs4_t const *cp,
                              size_t n);

/* shift_enc_run for the UTF-8 at IN[0..N), whose characters of four
   bytes it leaves, as it does anything ill-formed: it stops before
   them.  Adds the U+000A it encoded to *NEWLINES, sets *NONE when it
   stopped at a character SE knows cannot be encoded, and returns the
   bytes it read.  */
size_t shift_enc_utf8 (struct shift_enc *se, uint8_t const *in, size_t n,
                       uint8_t *out, size_t *o, size_t cap,
                       uint64_t *newlines, bool *none);

/* shift_enc_learn_ahead for the characters SE does not know among
   the first 32 of the UTF-8 at IN[0..N) (up to one of four bytes or
   ill-formed), the first of which SE does not know: whether it learned
   that one.  */
bool shift_enc_learn_utf8 (struct shift_enc *se, uint8_t const *in,
                           size_t n);

/* Encode CP[*I..N) with what SE knows into OUT from *O, with the shifts
   between them, while OUT has MAX_ENCODED bytes of room below CAP, and
   move *I and *O past them.  Stops at a value SE does not know, or
   returns true at one it knows cannot be encoded.  */
bool shift_enc_run (struct shift_enc *se, ucs4_t const *cp, size_t *i,
                    size_t n, uint8_t *out, size_t *o, size_t cap);

/* Bring CD, the encoder's iconv_t (from UCS-4 in the machine's order
   when HOST, else from UTF-32LE), to the state of what SE wrote, before
   it is called (or flushed, when FLUSH: then the state is the initial
   one again).  */
void shift_enc_sync (struct shift_enc *se, iconv_t cd, bool host,
                     bool flush);

/* The encoder's iconv_t, in the state of *SE, encoded C to
   OUT[0..LEN) (ERR: its errno): learn it when PROBE, an iconv_t to the
   same charset, confirms it; otherwise free *SE and set it to NULL, for
   good.  */
void shift_enc_learn (struct shift_enc **se, iconv_t probe, ucs4_t c,
                      uint8_t const *out, size_t len, int err);

/* Write C, which SE knows (ENC_HELD or not), to OUT at *O (MAX_ENCODED
   bytes of room), with the shift its state needs, and move *O past it:
   false, and nothing written, when SE does not know C or knows that it
   cannot be encoded.  */
bool shift_enc_put (struct shift_enc *se, ucs4_t c, uint8_t *out,
                    size_t *o);

/* The encoder's iconv_t, brought to the state of *SE (shift_enc_sync),
   wrote OUT[0..LEN) in one call for values SE does not learn from (a
   pair it composed): follow its state, a character of one byte (after
   SI where the state was the other) or of two (after SO where it was
   not); anything else frees *SE and sets it to NULL, for good.  */
void shift_enc_wrote (struct shift_enc **se, uint8_t const *out,
                      size_t len);

void shift_enc_free (struct shift_enc *se);

#endif
