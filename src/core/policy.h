/* Error policies: what a decoding error or an unencodable character
   becomes.  Decoders and encoders only report; this is the one place that
   decides.  */

#ifndef UTF8CONV_POLICY_H
#define UTF8CONV_POLICY_H

#include "codec.h"

#include <string.h>

enum policy
{
  POLICY_STRICT,
  POLICY_REPLACE,
  POLICY_ESCAPE,
  POLICY_SURROGATEESCAPE,
  POLICY_IGNORE
};

/* A --byte-subst or --unicode-subst format, parsed once at the start
   (policy_format_parse): the text around its one conversion, as values,
   and the conversion.  A substitute is made from it piece by piece
   (policy_format_expand), so that a field of any width is written whole
   and costs no more memory than a piece.  */
struct subst_format
{
  ucs4_t *text;                 /* PREFIX_LEN values before the
                                   conversion, then SUFFIX_LEN after it
                                   (%% is one '%').  */
  size_t prefix_len, suffix_len;
  char conv;                    /* d, i, u, o, x or X.  */
  bool alt, zero, left;         /* The flags #, 0 and -.  */
  size_t width;                 /* 0: none.  */
  long precision;               /* -1: none.  */
};

/* What is wrong with a format.  */
enum format_problem
{
  FORMAT_OK,
  FORMAT_NOT_UTF8,              /* Its text is not well-formed UTF-8.  */
  FORMAT_INVALID,               /* Not one conversion among d i u o x X,
                                   with flags # 0 -, a width and a
                                   precision, and any number of %%.  */
  FORMAT_TOO_WIDE               /* A width or precision above
                                   POLICY_FORMAT_WIDTH_MAX.  */
};

/* The largest width and precision of a format: printf's own limit.  */
enum { POLICY_FORMAT_WIDTH_MAX = 2147483647 };

struct policy_config
{
  enum policy policy;
  struct subst_format const *byte_fmt;  /* NULL: Python's "\\x%02x".  */
  struct subst_format const *unicode_fmt;       /* NULL: Python's
                                                   backslashreplace.  */
  unsigned int to_flags;        /* The output codec's flags (0 when
                                   unknown): what an escaped byte
                                   becomes there.  */
};

/* The longest default substitute of one error: \xhh for each of its
   bytes, or \Uhhhhhhhh for a character.  */
enum
{
  SUBST_DEFAULT_MAX = (4 * MAX_ERROR_BYTES > 10 ? 4 * MAX_ERROR_BYTES : 10)
};

/* The most bytes policy_bytes_write writes: \xhh for each byte of an
   error, or an encoded U+FFFD (it may copy MAX_ENCODED bytes for it).  */
enum
{
  POLICY_BYTES_MAX = (4 * MAX_ERROR_BYTES > MAX_ENCODED
                      ? 4 * MAX_ERROR_BYTES : MAX_ENCODED)
};

/* The whole verdict on one error: stop, or what to write instead (values
   to encode, a raw byte), and what it counts as.  */
struct verdict
{
  bool stop;                    /* Handle as strict: stop here.  */
  bool error;                   /* A data error, to count and report (an
                                   escaped byte going back is none).  */
  bool lost;                    /* Input is lost: `ignore' dropped it.  */
  int raw_byte;                 /* >= 0: write this byte as it is.  */
  unsigned int raw_len;         /* > 0: write RAW[0..RAW_LEN) as they
                                   are, and nothing else.  */
  uint8_t raw[MAX_ERROR_BYTES];
  bool ascii;                   /* Every value of CP is below 0x80 (the
                                   default escapes).  */
  size_t len;
  ucs4_t cp[SUBST_DEFAULT_MAX];
  /* Not NULL: a substitute made with a format (--byte-subst,
     --unicode-subst).  CP is empty then, and the substitute is each of
     VALUES[0..NVALUES) formatted with FORMAT (policy_format_expand).  */
  struct subst_format const *format;
  unsigned int nvalues;
  ucs4_t values[MAX_ERROR_BYTES];
};

/* Parse a policy name; false if unknown.  */
bool policy_parse (char const *name, enum policy *p);
char const *policy_name (enum policy);

/* The verb that says what the policy did to errors ("replaced").  */
char const *policy_verb (enum policy);

/* Parse FMT, a --byte-subst/--unicode-subst format: UTF-8 text with
   exactly one conversion among d i u o x X (flags # 0 -, a width, a
   precision) and any number of %%.  Returns the parsed format, to free
   with policy_format_free, or NULL and the problem in *WHY.  */
struct subst_format *policy_format_parse (char const *fmt,
                                          enum format_problem *why);
void policy_format_free (struct subst_format *);

/* True if FMT is a valid format for policy_format_parse.  */
bool policy_format_ok (char const *fmt);

/* Whether the output encoding TO can hold every character of the text of
   F; if not, the first one it cannot hold is *C.  */
bool policy_format_encodable (struct subst_format const *f,
                              struct codec const *to, ucs4_t *c);

/* Write the part of VALUE formatted with F that starts at the value *POS
   into BUF[0..CAP), CAP > 0: returns the number of values written and
   adds it to *POS; 0 when everything was written.  */
size_t policy_format_expand (struct subst_format const *f, ucs4_t value,
                             size_t *pos, ucs4_t *buf, size_t cap);

/* Whether lone surrogate units of UTF-16/UTF-32 input pass through as
   data rather than as decoding errors, going to an output whose flags
   are TO_FLAGS: under surrogateescape, and to WTF-8 and MUTF-8 (SPEC §3,
   §10).  */
bool policy_passes_lone_surrogates (struct policy_config const *,
                                    unsigned int to_flags);

/* The verdict on the decoding error ERR.  */
void policy_decode_error (struct policy_config const *,
                          struct codec_error const *err, struct verdict *);

/* How the verdict on a decoding error is written when it is bytes
   known without an encoder, as policy_decode_error's verdict would be
   written: \xhh for each byte (escape without --byte-subst) or the
   bytes themselves (surrogateescape), to an output that writes ASCII
   as itself (CODEC_ASCII_BYTES); U+FFFD encoded once (replace);
   nothing (ignore); or not at all (BYTES_NONE: strict, a format,
   values to encode).  Decided once for a run by policy_bytes_plan.  */
enum bytes_how
{
  BYTES_NONE,
  BYTES_HEX,
  BYTES_RAW,
  BYTES_FFFD,
  BYTES_DROP
};

struct policy_bytes
{
  enum bytes_how how;
  uint8_t hex[256][4];          /* BYTES_HEX: \xhh of each byte.  */
  /* U+FFFD in the output encoding, when the encoder keeps no state and
     can encode it (FFFD_LEN is 0 otherwise): replace's substitute then
     costs no call of the encoder, for decoding and encoding errors.  */
  uint8_t fffd[MAX_ENCODED];
  size_t fffd_len;
};

/* Decide how the verdicts of the policy CFG on decoding errors are
   written to the output encoding TO, into *PB.  */
void policy_bytes_plan (struct policy_config const *cfg,
                        struct codec const *to, struct policy_bytes *pb);

/* Write the verdict on the decoding error ERR as PB says to OUT (room
   for POLICY_BYTES_MAX bytes) and return the number of bytes; set *LOST
   when the input is dropped.  Returns -1 when only policy_decode_error
   can say (BYTES_NONE, or surrogateescape on a byte below 0x80); what
   it wrote to OUT then is none of the output.  Inline: the fast paths
   meet it at every error.  */
static inline int
policy_bytes_write (struct policy_bytes const *pb,
                    struct codec_error const *err, uint8_t *out, bool *lost)
{
  unsigned int i, len = err->len;

  switch (pb->how)
    {
    case BYTES_HEX:
      for (i = 0; i < len; i++)
        memcpy (out + 4 * i, pb->hex[err->bytes[i]], 4);
      return (int) (4 * len);
    case BYTES_RAW:
      for (i = 0; i < len; i++)
        if ((out[i] = err->bytes[i]) < 0x80)
          return -1;
      return (int) len;
    case BYTES_FFFD:
      memcpy (out, pb->fffd, MAX_ENCODED);
      return (int) pb->fffd_len;
    case BYTES_DROP:
      *lost = true;
      return 0;
    case BYTES_NONE:
      break;
    }
  return -1;
}

/* The verdict on C, which the output encoding, whose flags are TO_FLAGS,
   cannot encode.  REPLACEMENT says that C stands for a decoding error
   (replace's U+FFFD, surrogateescape's U+DCxx), which is counted
   already.  */
void policy_encode_error (struct policy_config const *, ucs4_t c,
                          unsigned int to_flags, bool replacement,
                          struct verdict *);

#endif
