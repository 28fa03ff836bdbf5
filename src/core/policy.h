/* Error policies: what a decoding error or an unencodable character
   becomes.  Decoders and encoders only report; this is the one place that
   decides.  */

#ifndef UTF8CONV_POLICY_H
#define UTF8CONV_POLICY_H

#include "codec.h"

enum policy
{
  POLICY_STRICT,
  POLICY_REPLACE,
  POLICY_ESCAPE,
  POLICY_SURROGATEESCAPE,
  POLICY_IGNORE
};

struct policy_config
{
  enum policy policy;
  char const *byte_fmt;         /* NULL: Python's "\\x%02x".  */
  char const *unicode_fmt;      /* NULL: Python's backslashreplace.  */
  unsigned int to_flags;        /* The output codec's flags (0 when
                                   unknown): what an escaped byte
                                   becomes there.  */
};

/* The longest text one substituted byte or character may become.  */
enum { SUBST_UNIT_MAX = 64 };

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
  ucs4_t cp[MAX_ERROR_BYTES * SUBST_UNIT_MAX];
};

/* Parse a policy name; false if unknown.  */
bool policy_parse (char const *name, enum policy *p);
char const *policy_name (enum policy);

/* The verb that says what the policy did to errors ("replaced").  */
char const *policy_verb (enum policy);

/* True if FMT is a valid --byte-subst/--unicode-subst format: UTF-8 text
   with exactly one conversion among d i u o x X (flags # 0 -, a width, a
   precision) and any number of %%.  */
bool policy_format_ok (char const *fmt);

/* Whether lone surrogate units of UTF-16/UTF-32 input pass through as
   data rather than as decoding errors, going to an output whose flags
   are TO_FLAGS: under surrogateescape, and to WTF-8 and MUTF-8 (SPEC §3,
   §10).  */
bool policy_passes_lone_surrogates (struct policy_config const *,
                                    unsigned int to_flags);

/* The verdict on the decoding error ERR.  */
void policy_decode_error (struct policy_config const *,
                          struct codec_error const *err, struct verdict *);

/* The verdict on C, which the output encoding, whose flags are TO_FLAGS,
   cannot encode.  REPLACEMENT says that C stands for a decoding error
   (replace's U+FFFD, surrogateescape's U+DCxx), which is counted
   already.  */
void policy_encode_error (struct policy_config const *, ucs4_t c,
                          unsigned int to_flags, bool replacement,
                          struct verdict *);

#endif
