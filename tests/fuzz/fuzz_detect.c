/* libFuzzer target: -f auto (src/core/detect.c, detect_score.c and the
   decoders it chooses), through the whole pipeline to UTF-8.

   Input layout:

     byte 0    bits 0-2: the policy (modulo 5); bits 3-7: the block size
               of the second run (0: 1 byte, else that many bytes;
               331 times that for inputs over 8 KiB)
     byte 1    bit 5 set: bits 0-4 say how many times 4 KiB of ASCII
               text (bit 7 set) or 64 bytes (bit 7 clear) come before
               the rest, so that the window's evidence may start late,
               beyond the fuzzer's input length or beyond DETECT_WINDOW
               (the long heads are the slow inputs, made only when the
               fuzzer sets bit 7); bit 6: the second run's block size
               is 4093 bytes instead of byte 0's
     the rest  the bytes after that head

   The properties, each an oracle that is not the code under test:

     1. no crash, leak or undefined behaviour (ASan and UBSan);
     2. the decision and the output do not depend on how the input is
        split into reads: one buffer for all of it and a second run
        with the block size that the input chooses (byte 0's, or 4093
        bytes) give the same bytes and the same result.  Each run costs
        a detection, most of an execution's time, so each input is run
        twice, not once per block size (the fuzzer varies byte 1 as it
        varies the rest);
     3. well-formed UTF-8 is never misread: when the input is well-formed
        UTF-8, holds no NUL or other control byte (the NUL pattern of
        UTF-16 and its script rule are text of their own; plain_utf8)
        and does not start with a byte order mark, the output is the
        input, byte for byte, under every policy.  */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "iconv_model.h"
#include "run_cache.h"
#include "unicode/utf8.h"

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);

enum { HEAD_UNIT = 4096, MAX_TEXT = 32 * HEAD_UNIT + 65536 };

static enum policy const policies[] = {
  POLICY_STRICT, POLICY_REPLACE, POLICY_ESCAPE, POLICY_SURROGATEESCAPE,
  POLICY_IGNORE
};

/* Whether S[0..N) is well-formed UTF-8 without NUL bytes or other
   bytes that the binary test takes for controls (binary.h), and without
   a leading byte order mark of any UTF.  BOM-less UTF-16 of another
   script than Latin is ASCII bytes and such controls (Cyrillic U+0430
   is 30 04 in UTF-16LE), so it is well-formed UTF-8 too, and the NUL
   pattern's script rule reads it as UTF-16 where the window holds a
   control (SPEC §13: UTF-16 is never misread either); fuzz_model found
   32 such bytes read as UTF-16BE.  */
static bool
plain_utf8 (uint8_t const *s, size_t n)
{
  static uint8_t const *const boms[] = {
    (uint8_t const *) "\xEF\xBB\xBF", (uint8_t const *) "\xFF\xFE",
    (uint8_t const *) "\xFE\xFF"
  };
  size_t k;
  for (k = 0; k < sizeof boms / sizeof boms[0]; k++)
    {
      size_t len = strlen ((char const *) boms[k]);
      if (n >= len && memcmp (s, boms[k], len) == 0)
        return false;
    }
  for (k = 0; k < n; k++)
    if (s[k] < 0x20 && !(0x08 <= s[k] && s[k] <= 0x0D) && s[k] != 0x1A
        && s[k] != 0x1B)
      return false;
  return utf8_valid_len (s, n) == n;
}

static void
fail (char const *what, enum policy p, size_t bs, uint8_t const *in,
      size_t n, struct sb const *got, struct sb const *want)
{
  fprintf (stderr, "fuzz_detect: %s under %s, block size %zu, input (%zu) "
           "ends %s\n", what, policy_name (p), bs, n,
           hex (in + (n > 48 ? n - 48 : 0), n > 48 ? 48 : n));
  fprintf (stderr, "got  (%zu) ends %s\n", got->len,
           hex ((uint8_t const *) got->s + (got->len > 48 ? got->len - 48 : 0),
                got->len > 48 ? 48 : got->len));
  fprintf (stderr, "want (%zu) ends %s\n", want->len,
           hex ((uint8_t const *) want->s
                + (want->len > 48 ? want->len - 48 : 0),
                want->len > 48 ? 48 : want->len));
  abort ();
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  static uint8_t text[MAX_TEXT];
  static FILE *tmp;
  static char const line[] = "plain ASCII words, a log line: 12 34 ok\n";
  size_t head, n, k, bs;
  enum policy p;
  struct sb first;
  enum file_result first_res;

  if (size < 2)
    return 0;
  p = policies[(data[0] & 7) % 5];
  bs = data[0] >> 3 ? (size_t) (data[0] >> 3) : 1;
  head = (data[1] & 32 ? (size_t) (data[1] & 31) * (data[1] & 128 ? HEAD_UNIT
                                                      : 64) : 0);
  for (n = 0; n < head; n++)
    text[n] = (uint8_t) line[n % (sizeof line - 1)];
  k = size - 2 < sizeof text - head ? size - 2 : sizeof text - head;
  memcpy (text + head, data + 2, k);
  n = head + k;
  iconv_model_keep_loaded ();
  iconv_model_take_runs (fuzz_cached_run);
  if (!tmp && !(tmp = tmpfile ()))
    abort ();
  /* Long inputs read a byte at a time would take seconds under the
     sanitizers: their reads are cut at a few hundred bytes and more,
     still at every kind of place.  */
  if (n > 8192)
    bs *= 331;

  first_res = iconv_pipeline_run (fileno (tmp), codec_auto, p, text, n,
                                  65536, &first);
  {
    struct sb got;
    size_t other = data[1] & 64 ? 4093 : bs;
    enum file_result res
      = iconv_pipeline_run (fileno (tmp), codec_auto, p, text, n, other,
                            &got);
    if (res != first_res || got.len != first.len
        || memcmp (got.s, first.s, got.len) != 0)
      fail ("the block size changed the output", p, other, text, n, &got,
            &first);
    sb_free (&got);
  }
  if (plain_utf8 (text, n)
      && (first_res != FILE_OK || first.len != n
          || memcmp (first.s, text, n) != 0))
    {
      struct sb in = { (char *) text, n, n };
      fail ("well-formed UTF-8 was misread", p, 65536, text, n, &first, &in);
    }
  sb_free (&first);
  return 0;
}
