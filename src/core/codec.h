/* The codec contract of utf8conv.

   Data flows in one direction: bytes in -> decoder -> policy -> encoder ->
   bytes out.  Between decoder and encoder the text is a "pivot": an array
   of 32-bit values that are Unicode scalar values or lone surrogates
   (U+D800..U+DFFF), each with the offset of its first input byte.

   Decoders and encoders are driven in batches.  A batch call converts as
   much as it can and says why it stopped, with a named status, never a bare
   number:

     DECODE_INPUT_EMPTY   all input was used (a partial sequence at the end
                          of a non-final buffer is kept in the decoder's
                          state and finished by the next call);
     DECODE_OUTPUT_FULL   the pivot is full: encode it, then call again with
                          the rest of the input (a wrapping decoder, -f
                          auto's or unmarked UTF-16's, also stops so
                          once it has chosen what to read the input as,
                          so that the caller can take that codec's fast
                          path);
     DECODE_MALFORMED     an ill-formed sequence was read; its bytes, kind
                          and offset are in the decoder's `error' member.
                          The input consumed includes the sequence, and the
                          pivot holds everything decoded before it.

   The decoder never substitutes anything: policy.c decides what an error
   becomes.  Malformed sequences follow Unicode's "maximal subpart" rule
   (Unicode 15, §3.9, U+FFFD Substitution of Maximal Subparts): the byte
   that ended a sequence is read again as the possible start of the next
   one.

   State lives in structures the caller owns; there is no static state.
   A decoder may be fed its input split at any byte, including empty
   chunks, and gives identical results.  `last' tells it that no more input
   follows, so that a partial sequence becomes an error.  */

#ifndef UTF8CONV_CODEC_H
#define UTF8CONV_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unicode/unicode.h"

/* The longest ill-formed sequence any decoder reports.  */
enum { MAX_ERROR_BYTES = 8 };

/* The most bytes an encoder writes for one pivot value, BOM included.  */
enum { MAX_ENCODED = 16 };

struct codec_error
{
  uint8_t bytes[MAX_ERROR_BYTES];
  unsigned int len;
  enum err_kind kind;
  /* Offset of bytes[0] relative to the start of the buffer passed to the
     call that reported the error; negative when the sequence began in an
     earlier buffer.  */
  int64_t rel_offset;
};

enum decode_status
{
  DECODE_INPUT_EMPTY,
  DECODE_OUTPUT_FULL,
  DECODE_MALFORMED
};

enum encode_status
{
  ENCODE_INPUT_EMPTY,
  ENCODE_OUTPUT_FULL,
  ENCODE_UNENCODABLE
};

/* Byte order of a UTF-16 or UTF-32 form.  */
enum endian
{
  ENDIAN_UNKNOWN = 0,           /* Decided by a BOM (unmarked UTF-16/32).  */
  ENDIAN_LITTLE,
  ENDIAN_BIG
};

struct codec;

/* How -f auto decided (detect.c).  */
enum detect_how
{
  DETECT_UNDECIDED = 0,
  DETECT_BOM,                   /* A byte order mark.  */
  DETECT_NUL_PATTERN,           /* NUL bytes in every other position.  */
  DETECT_DEFAULT,               /* Neither: UTF-8 with a legacy code page
                                   for its ill-formed sequences.  */
  DETECT_MODEL                  /* A multi-byte code page, chosen by the
                                   detector for the whole file.  */
};

/* How -f auto chose the code page of ill-formed UTF-8 (detect.c).  */
enum legacy_how
{
  LEGACY_NONE = 0,              /* Not UTF-8, or not decided.  */
  LEGACY_OPTION,                /* --fallback named it.  */
  LEGACY_UTF8,                  /* The window is UTF-8 (or ASCII): CP1252
                                   for what may come after it.  */
  LEGACY_WEAK,                  /* The models' evidence is weak: CP1252.  */
  LEGACY_MODEL                  /* The models chose it.  */
};

/* What -f auto decided a file is (SPEC §5): one decision per file.  */
enum detect_kind
{
  KIND_NONE = 0,                /* Not decided.  */
  KIND_ASCII,                   /* No byte above 0x7F.  */
  KIND_UTF8,                    /* Well-formed UTF-8 (so far).  */
  KIND_BOM,                     /* A byte order mark.  */
  KIND_NUL_PATTERN,             /* BOM-less UTF-16/32 (NUL bytes).  */
  KIND_LEGACY,                  /* Every byte read by one code page.  */
  KIND_MIXED,                   /* UTF-8, its ill-formed bytes read by a
                                   single-byte code page.  */
  KIND_BINARY                   /* Not text (the CLI's binary test).  */
};

/* What a wrapping decoder (-f auto) found out about its input: the codec
   it reads the input with, how it chose it, what kind of decision it
   was, with a confidence in hundredths, and the code page LEGACY (chosen
   as LEGACY_HOW) that reads the ill-formed sequences of UTF-8 (KIND_UTF8,
   KIND_MIXED, KIND_BOM and KIND_ASCII: for what may come later), or the
   whole file (KIND_LEGACY); the sequences it read with it (and their
   bytes).  When the detector chose a legacy code page, CODEC is that code
   page.  SKIPPED: the confidence was below --if-unsure=skip's threshold,
   and nothing after the decision was decoded.  */
struct detection
{
  struct codec const *codec;
  enum detect_how how;
  enum detect_kind kind;
  struct codec const *legacy;
  enum legacy_how legacy_how;
  unsigned int confidence;
  bool skipped;
  uint64_t fallback_seqs;
  uint64_t fallback_bytes;
};

/* The most input bytes a decoder holds back before it decodes them (a
   partial sequence, or -f auto's look-ahead and window): values may
   start that far before the current buffer.  DETECT_WINDOW is the part
   of a file that chooses its legacy code page: the bytes from its first
   byte above 0x7F on (the ASCII before it is no evidence); the
   look-ahead may hold a little ASCII before it.  */
enum
{
  DETECT_LOOKAHEAD = 256,
  DETECT_WINDOW = 65536,
  MAX_HELD = DETECT_LOOKAHEAD + DETECT_WINDOW + MAX_ERROR_BYTES
};

/* Decoder state.  `carry' holds the bytes of a sequence that the previous
   buffer ended in the middle of.  */
struct decoder
{
  struct codec const *codec;
  uint8_t carry[MAX_ERROR_BYTES];
  unsigned int carry_len;
  enum endian endian;           /* UTF-16/UTF-32: the byte order in use.  */
  bool lone_surrogates_ok;      /* Pass lone surrogate units through.  */
  bool low_after_high;          /* WTF-8: the next bytes are a low
                                   surrogate's 3-byte form directly after
                                   a high one's, which is ill-formed.  */
  uint64_t newlines;            /* U+000A values decoded so far.  */
  struct codec_error error;     /* Set with DECODE_MALFORMED.  */
  void *impl;                   /* CODEC_STATEFUL: the codec's own state.  */
};

/* The pivot: values with the offsets of their first input bytes,
   relative to the start of the current input buffer (negative when a
   value began in an earlier one), and the number of input bytes each
   came from.  A decoder may need room for PIVOT_MIN_ROOM values to make
   progress (one bridged character can become several values): a pivot
   has at least that capacity, and a decoder that has values in it
   already may stop with DECODE_OUTPUT_FULL when less room is left, even
   at the end of its input.  So a caller that decodes N values in one
   call gives the pivot room for N + PIVOT_MIN_ROOM.  */
enum { PIVOT_MIN_ROOM = 8 };

struct pivot
{
  ucs4_t *cp;
  int64_t *off;
  uint8_t *n;
  size_t len;
  size_t cap;
};

/* Encoder state.  `pending' holds a high surrogate that WTF-8 may join to
   a following low one.  */
struct encoder
{
  struct codec const *codec;
  ucs4_t pending;               /* 0 when nothing is pending.  */
  void *impl;                   /* CODEC_STATEFUL: the codec's own state.  */
};

/* A batch decoder: decodes IN[0..*INLEN) into P, appending after P->len.
   On return *INLEN is the number of bytes consumed.  */
typedef enum decode_status decode_fn (struct decoder *, uint8_t const *in,
                                      size_t *inlen, bool last,
                                      struct pivot *p);

/* A batch encoder: encodes CP[0..*N) into OUT[0..*OUTLEN), appending after
   *OUTLEN; needs no more than CAP.  On return *N is the number of values
   used; with ENCODE_UNENCODABLE, CP[*N] is the value it cannot encode.  */
typedef enum encode_status encode_fn (struct encoder *, ucs4_t const *cp,
                                      size_t *n, uint8_t *out,
                                      size_t *outlen, size_t cap);

/* Write out what the encoder holds back (end of input or a strict stop),
   at most 2 * MAX_ENCODED bytes.  */
typedef size_t flush_fn (struct encoder *, uint8_t *out);

/* Write out the characters the encoder holds back to see whether the
   next one joins them, as if it did not, keeping its state: a decoding
   error follows, whose bytes the pipeline may write itself.  At most
   2 * MAX_ENCODED bytes.  */
typedef size_t drain_fn (struct encoder *, uint8_t *out);

enum codec_flags
{
  CODEC_UNICODE = 1,            /* Can carry a BOM (a Unicode form).  */
  CODEC_BOM_ALWAYS = 2,         /* Unmarked UTF-16/UTF-32 output.  */
  CODEC_KEEPS_SURROGATES = 4,   /* Writes lone surrogates as they are.  */
  CODEC_WIDE_UNITS = 8,         /* Code units of 2 or 4 bytes.  */
  CODEC_SURROGATE_CARRIER = 16, /* WTF-8, MUTF-8: lone surrogates from
                                   UTF-16/UTF-32 input are data.  */
  CODEC_SINGLE_BYTE = 32,       /* One byte, one character (or an error),
                                   ASCII-compatible: the fast paths build
                                   tables from the codec.  */
  CODEC_STATEFUL = 64,          /* A struct stateful_codec: decoders and
                                   encoders hold outside resources.  */
  CODEC_WRAPPER = 128,          /* A stateful codec whose decoder wraps
                                   another one that it chooses (-f auto,
                                   unmarked UTF-16 and UTF-32).  */
  CODEC_UNITS_32 = 256,         /* Code units of 4 bytes (UTF-32).  */
  CODEC_ASCII_BYTES = 512       /* The encoder writes every value below
                                   0x80 as the byte of that value and
                                   holds nothing back (UTF-8, CESU-8, the
                                   single-byte codecs): the pipeline may
                                   write such values itself.  */
};

struct codec
{
  char const *name;
  char const *const *aliases;   /* NULL-terminated.  */
  decode_fn *decode;
  encode_fn *encode;
  flush_fn *flush;
  unsigned int flags;
  enum endian endian;           /* For wide units.  */
  /* For CODEC_BOM_ALWAYS: the form written when no BOM is allowed.  */
  struct codec const *unmarked;
  drain_fn *drain;              /* NULL: it holds nothing back so.  */
};

/* A codec whose decoders and encoders hold resources outside their
   structures, in their `impl' member (the iconv(3) bridge: an iconv_t).
   Its struct codec is the first member, with CODEC_STATEFUL in its flags,
   so that the codecs without such state keep their short initializers.
   decoder_init and encoder_init call the open hooks; decoder_release and
   encoder_release the close hooks.  The encoder hooks may be NULL when
   only the decoder has such state (unmarked UTF-16 and UTF-32).  */
struct stateful_codec
{
  struct codec codec;
  void (*decoder_open) (struct decoder *);
  void (*decoder_close) (struct decoder *);
  void (*encoder_open) (struct encoder *);
  void (*encoder_close) (struct encoder *);
  /* CODEC_WRAPPER only: whether the decoder holds input bytes back, and
     what it has detected (false while it has not decided).  */
  bool (*holds_input) (struct decoder const *);
  bool (*detected) (struct decoder const *, struct detection *);
  /* CODEC_WRAPPER only, or NULL: the caller converted the ASCII text
     IN[0..N) itself, with UTF-8's fast path, instead of passing it to
     the decoder, which did not hold input and had not decided (-f auto
     before the file's first byte above 0x7F).  */
  void (*ascii_passed) (struct decoder *, uint8_t const *in, size_t n);
};

/* Whether D holds input bytes it has not decoded yet (a partial
   sequence, or the look-ahead of -f auto): the fast paths, which bypass
   the decoder, must wait until it has none.  */
static inline bool
decoder_holds_input (struct decoder const *d)
{
  return (d->carry_len > 0
          || ((d->codec->flags & CODEC_WRAPPER)
              && ((struct stateful_codec const *) d->codec)->holds_input (d)));
}

/* Whether D holds back more than its carry (a wrapper's look-ahead,
   -f auto's window): only then must the pipeline keep more than a short
   history of the buffers it has read.  */
static inline bool
decoder_holds_lookahead (struct decoder const *d)
{
  return ((d->codec->flags & CODEC_WRAPPER)
          && ((struct stateful_codec const *) d->codec)->holds_input (d));
}

/* What the wrapping decoder D has detected; false when D is no wrapper
   or has not decided yet.  */
static inline bool
decoder_detected (struct decoder const *d, struct detection *det)
{
  return ((d->codec->flags & CODEC_WRAPPER)
          && ((struct stateful_codec const *) d->codec)->detected (d, det));
}

/* The caller converted the ASCII text IN[0..N) itself, while the
   wrapper D held nothing and had not decided (see ascii_passed).  */
static inline void
decoder_ascii_passed (struct decoder *d, uint8_t const *in, size_t n)
{
  struct stateful_codec const *sc = (struct stateful_codec const *) d->codec;
  if ((d->codec->flags & CODEC_WRAPPER) && sc->ascii_passed)
    sc->ascii_passed (d, in, n);
}

/* Set up a decoder or an encoder for a codec.  Whoever calls these calls
   decoder_release or encoder_release when done with it (a no-op unless
   the codec is CODEC_STATEFUL), also before initializing it again.  */
void decoder_init (struct decoder *, struct codec const *);
void encoder_init (struct encoder *, struct codec const *);
void decoder_release (struct decoder *);
void encoder_release (struct encoder *);

/* The reason text for an error kind, as shown in diagnostics.  */
char const *err_kind_text (enum err_kind);

/* The number of characters in IN[0..N), well-formed in the codec FROM,
   which is UTF-8, UTF-16 (in the byte order of its `endian') or
   single-byte: for the fast paths, which bypass the decoder.  */
uint64_t codec_count_chars (struct codec const *from, uint8_t const *in,
                            size_t n);

#endif
