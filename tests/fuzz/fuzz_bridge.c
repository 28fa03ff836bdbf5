/* libFuzzer target: the iconv(3) bridge (src/core/codecs/iconv_bridge.c
   and its memos, iconv_memo.c) and the tables (iconv_table.c) against
   iconv(3) itself, both ways.

   Input layout:

     byte 0    the charset: an index into CHARSETS below (modulo their
               number); the direction: the quotient's lowest bit, 1 to
               encode (to the charset: from UTF-8, or where the quotient
               is 3 from UTF-16LE, 5 from UTF-16BE, which only the first
               16 charsets reach), 0 to decode (to UTF-8, or where the
               quotient is 2 to UTF-16LE, 4 to UTF-16BE, under
               surrogateescape strict: the model's UTF-8 does not say
               which bytes it escaped)
     byte 1    bits 0-2: the policy (modulo 5); bits 3-7: the block size
               of the second run (0: a run at 1 byte, else that many bytes)
     the rest  the bytes to decode (at most ICONV_MODEL_MAX_INPUT)

   The oracle is the model of tests/unit/iconv_model.c, which calls
   iconv(3) directly on the whole input and applies the policy at each
   error: the pipeline must give exactly its bytes and its result, with
   one buffer for the whole input, through the fast paths (fast.c), and
   with the fuzzer's block size, through the state machines alone (so
   that characters, shift sequences and held characters are cut across
   reads).  Inputs are not limited to what iconv(3) encodes: random bytes
   are what the bridge must survive.  To encode, the well-formed UTF-8
   sequences of the bytes are kept (less U+FEFF, a signature), and the
   model is iconv_model_encode's (from UTF-16, the same text made
   UTF-16, whose output is the same).  Charsets that this system's
   iconv(3) lacks are skipped.  */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/iconv_bridge.h"
#include "iconv_model.h"
#include "unicode/utf8.h"

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);

/* Single-byte, multi-byte, stateful (shifts; IBM937, IBM1364 and
   IBM1390 with SO and SI, whose encoders learn ahead, and IBM1390's
   compose a kana and U+309A given in one call), and decoders that hold a
   character back (CP1255, CP1258, TSCII), ISO-2022-CN-EXT, whose calls
   may give a value and blame the byte after the ones they consumed
   (tests/README, "Fixed findings"), and UTF-7 (the last: see
   SPLIT_DEPENDENT).  */
static char const *const charsets[] = {
  "CP1250", "CP1251", "CP1253", "CP1254", "CP1255", "CP1256", "CP1257",
  "CP1258", "KOI8-R", "KOI8-U", "CP866", "ISO-8859-2", "ISO-8859-5",
  "ISO-8859-7", "ISO-8859-9", "ISO-8859-13", "ISO-8859-16", "CP437",
  "CP850", "MACINTOSH", "TIS-620", "CP874", "IBM037", "SHIFT_JIS", "CP932",
  "EUC-JP", "GB18030", "GBK", "BIG5", "BIG5-HKSCS", "EUC-KR", "CP949",
  "EUC-TW", "ISO-2022-JP", "ISO-2022-JP-2", "ISO-2022-KR", "ISO-2022-CN",
  "HZ", "TSCII", "SHIFT_JISX0213", "EUC-JISX0213", "VISCII",
  "ARMSCII-8", "IBM937", "IBM1364", "ISO-2022-CN-EXT", "IBM1390", "UTF-7"
};

enum { CHARSETS = sizeof charsets / sizeof charsets[0] };

/* The charsets from this index on are decoded by glibc differently
   after an error depending on how the input is split: where UTF-7's
   base64 makes a lone surrogate, iconv(3) given the whole of `+xxffxxxx'
   blames the second `f' and reads the `x's after it as three values,
   given a byte at a time it blames every `x' (tests/README, "Decided
   findings").  The model, one call on the whole input, is then one of
   several answers of iconv(3), and the bridge, which gives iconv() the
   shortest prefix it can use, is another.  For these the harness asks
   what does not depend on the split: on input that the model decodes
   without an error (under strict), the model's bytes under every
   policy; else under strict, a stop, with output of which the model's
   is a prefix or that is a prefix of the model's; and under every
   policy the same output and result at both block sizes.  */
enum { SPLIT_DEPENDENT = CHARSETS - 1 };

static enum policy const policies[] = {
  POLICY_STRICT, POLICY_REPLACE, POLICY_ESCAPE, POLICY_SURROGATEESCAPE,
  POLICY_IGNORE
};

/* Say what differs and abort, so that libFuzzer keeps the input; ENCODE
   is 0 to decode, 1 to encode from UTF-8, 2 from UTF-16LE, 3 from
   UTF-16BE, 4 to decode to UTF-16LE, 5 to UTF-16BE.  */
static void
mismatch (unsigned int encode, char const *name, enum policy p, size_t bs,
          uint8_t const *in, size_t n, struct sb const *got,
          enum file_result got_res, struct sb const *want,
          enum file_result want_res)
{
  static char const *const way[] = {
    "", "to ", "from UTF-16LE (the input made so) to ",
    "from UTF-16BE (the input made so) to ",
    "to UTF-16LE (the model's output made so) from ",
    "to UTF-16BE (the model's output made so) from "
  };
  fprintf (stderr, "fuzz_bridge: %s%s, %s, block size %zu, input (%zu) "
           "%s\n", way[encode], name, policy_name (p), bs, n,
           hex (in, n));
  fprintf (stderr, "got  (result %d) %s\n", (int) got_res,
           hex ((uint8_t const *) got->s, got->len));
  fprintf (stderr, "want (result %d) %s\n", (int) want_res,
           hex ((uint8_t const *) want->s, want->len));
  abort ();
}

/* Whether A and B hold the same bytes.  */
static bool
same (struct sb const *a, struct sb const *b)
{
  return a->len == b->len && memcmp (a->s, b->s, a->len) == 0;
}

/* Whether one of A and B is a prefix of the other.  */
static bool
prefix_either (struct sb const *a, struct sb const *b)
{
  size_t len = a->len < b->len ? a->len : b->len;
  return memcmp (a->s, b->s, len) == 0;
}

/* The checks of a charset from SPLIT_DEPENDENT on: GOT and GOT_RES of
   the run at the block size BS against the model's WANT and WANT_RES,
   and against FIRST (the first run's, FIRST_RES) unless it is NULL.  */
static void
split_dependent (enum policy p, size_t bs, uint8_t const *in, size_t n,
                 struct sb const *got, enum file_result got_res,
                 struct sb const *want, enum file_result want_res,
                 struct sb const *first, enum file_result first_res,
                 char const *name)
{
  struct sb strict;
  bool valid = iconv_model_run (name, POLICY_STRICT, in, n, &strict)
               == FILE_OK;
  bool ok;

  sb_free (&strict);
  if (valid)
    ok = got_res == want_res && same (got, want);
  else if (p == POLICY_STRICT)
    ok = (got_res == FILE_STOPPED && want_res == FILE_STOPPED
          && prefix_either (got, want));
  else
    ok = true;
  if (ok && first)
    ok = got_res == first_res && same (got, first);
  if (!ok)
    mismatch (0, name, p, bs, in, n, got, got_res,
              first && !valid ? first : want,
              first && !valid ? first_res : want_res);
}

/* Keep the well-formed UTF-8 sequences of IN[0..N), but U+FEFF, in
   OUT; their length.  */
static size_t
well_formed (uint8_t const *in, size_t n, uint8_t *out)
{
  size_t i = 0, len = 0;
  while (i < n)
    {
      ucs4_t c;
      enum err_kind kind;
      int r = utf8_sequence (&utf8_form, in + i, n - i, true, &c, &kind);
      if (r <= 0)
        {
          i += r < 0 ? (size_t) -r : 1;
          continue;
        }
      if (c != 0xFEFF)
        {
          memcpy (out + len, in + i, (size_t) r);
          len += (size_t) r;
        }
      i += (size_t) r;
    }
  return len;
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  static uint8_t text[ICONV_MODEL_MAX_INPUT];
  bool encode;
  /* The other side: 0 UTF-8, 1 UTF-16LE, 2 UTF-16BE.  */
  unsigned int utf16;
  static struct codec const *codecs[CHARSETS];
  static bool looked[CHARSETS];
  static FILE *tmp;
  size_t which, n, bs, k;
  enum policy p;
  struct sb want, got[2];
  enum file_result want_res, got_res[2];
  size_t const sizes[2] = { 65536, 0 };

  if (size < 2)
    return 0;
  which = data[0] % CHARSETS;
  encode = (data[0] / CHARSETS) & 1;
  utf16 = (unsigned int) (data[0] / CHARSETS) / 2;
  p = policies[(data[1] & 7) % 5];
  if (!encode && utf16 && p == POLICY_SURROGATEESCAPE)
    p = POLICY_STRICT;
  bs = data[1] >> 3 ? (size_t) (data[1] >> 3) : 1;
  data += 2;
  n = size - 2;
  if (n > ICONV_MODEL_MAX_INPUT)
    n = ICONV_MODEL_MAX_INPUT;
  if (!looked[which])
    {
      codecs[which] = iconv_bridge_find (charsets[which], false, NULL);
      looked[which] = true;
    }
  if (!codecs[which])
    return 0;
  if (!tmp && !(tmp = tmpfile ()))
    abort ();

  if (encode)
    {
      n = well_formed (data, n, text);
      data = text;
      want_res = iconv_model_encode (charsets[which], codecs[which]->flags,
                                     p, data, n, &want);
    }
  else
    {
      want_res = iconv_model_run (charsets[which], p, data, n, &want);
      if (utf16)
        iconv_model_utf16 (&want, utf16 == 2);
    }
  for (k = 0; k < 2; k++)
    {
      size_t b = sizes[k] ? sizes[k] : bs;
      /* One buffer through the fast paths, as utf8conv reads; the
         fuzzer's block size through the state machines alone.  */
      iconv_model_fast_paths (k == 0);
      if (encode && utf16)
        got_res[k] = iconv_pipeline_encode_utf16 (fileno (tmp),
                                                  codecs[which], utf16 == 2,
                                                  p, data, n, b, &got[k]);
      else if (utf16)
        got_res[k] = iconv_pipeline_run_utf16 (fileno (tmp), codecs[which],
                                               utf16 == 2, p, data, n, b,
                                               &got[k]);
      else
        got_res[k]
          = (encode
             ? iconv_pipeline_encode (fileno (tmp), codecs[which], p, data,
                                      n, b, &got[k])
             : iconv_pipeline_run (fileno (tmp), codecs[which], p, data, n,
                                   b, &got[k]));
      if (!encode && which >= SPLIT_DEPENDENT)
        split_dependent (p, b, data, n, &got[k], got_res[k], &want,
                         want_res, k ? &got[0] : NULL, got_res[0],
                         charsets[which]);
      else if (got_res[k] != want_res || !same (&got[k], &want))
        mismatch (encode ? 1 + utf16 : utf16 ? 3 + utf16 : 0,
                  charsets[which], p, b, data, n, &got[k],
                  got_res[k], &want, want_res);
    }
  sb_free (&got[0]);
  sb_free (&got[1]);
  sb_free (&want);
  return 0;
}
