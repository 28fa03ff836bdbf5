/* libFuzzer target: the choice of a legacy code page by the language
   models (src/core/detect_score.c), called directly and through -f
   auto (detect.c and the pipeline).

   Input layout:

     byte 0    the block size of the pipeline's second run (0: 1 byte),
               which inputs of an even size make (property 3; all do
               with UTF8CONV_FUZZ_FULL=1, as make fuzz sets): each run
               is a detection, most of an execution's time
     byte 1    bit 0: keep only the well-formed UTF-8 sequences of the
               text (so that it is valid UTF-8); bits 1-7: where the
               ASCII head is split for legacy_release (times 8 bytes)
     the rest  the text; NUL bytes become spaces (the NUL pattern of
               UTF-16 is another detector's) and a leading byte order
               mark gets an 'x' before it

   The window is the text from its first byte above 0x7F on (the input
   is shorter than DETECT_WINDOW, so the window ends with it); RELEASED
   holds the ASCII bytes before it.  The properties, none of which asks
   the code under test for the answer:

     1. legacy_release is independent of the split: the ASCII head in
        two calls marks what one call marks;
     2. legacy_detect is deterministic (two calls, the same verdict:
        when -f auto decides legacy, its own call is the second, and
        property 3 compares the two), its confidence is within 0..100,
        it names a code page, and a single-byte answer is one
        (legacy_single_byte); the mixed reading's choice
        (legacy_reads_mixed) is deterministic too;
     3. -f auto decides the same, with the same confidence, whatever
        the block size (one buffer, the input's block size: inputs of
        an even size), and when it decides legacy it names
        legacy_detect's code page with its confidence and how;
     4. valid UTF-8 is never decided legacy or mixed: its kind is ASCII
        or UTF-8, and the output is the input; unless it holds a control
        byte (has_control), where the NUL pattern's script rule may read
        it as UTF-16.  */

#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "detect_score.h"
#include "iconv_model.h"
#include "run_cache.h"
#include "unicode/utf8.h"

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);

enum { MAX_TEXT = 8192 };

static void
fail (char const *what, uint8_t const *in, size_t n)
{
  fprintf (stderr, "fuzz_model: %s; input (%zu) %s\n", what, n,
           hex (in, n));
  abort ();
}

/* Keep the well-formed UTF-8 sequences of S[0..N) in place; the new
   length.  */
static size_t
keep_well_formed (uint8_t *s, size_t n)
{
  size_t i = 0, len = 0;
  while (i < n)
    {
      ucs4_t c;
      enum err_kind kind;
      int r = utf8_sequence (&utf8_form, s + i, n - i, true, &c, &kind);
      if (r <= 0)
        {
          i += r < 0 ? (size_t) -r : 1;
          continue;
        }
      memmove (s + len, s + i, (size_t) r);
      len += (size_t) r;
      i += (size_t) r;
    }
  return len;
}

/* Whether S[0..N) holds a byte that the binary test takes for a
   control (binary.h; nulpattern.c's control_byte).  UTF-16 of another
   script than Latin without a byte order mark is such bytes and ASCII
   (Cyrillic U+0430 is 30 04 in UTF-16LE), so it is well-formed UTF-8
   too; where the window holds such a byte, the NUL pattern's script
   rule reads 16-bit units of one script as UTF-16 (SPEC §13: UTF-16 is
   never misread either), so property 4 is for the text without them.  */
static bool
has_control (uint8_t const *s, size_t n)
{
  size_t i;
  for (i = 0; i < n; i++)
    if (s[i] < 0x20 && !(0x08 <= s[i] && s[i] <= 0x0D) && s[i] != 0x1A
        && s[i] != 0x1B)
      return true;
  return false;
}

static bool
same_verdict (struct legacy_verdict const *a, struct legacy_verdict const *b)
{
  return (a->codec == b->codec && a->multi_byte == b->multi_byte
          && a->how == b->how && a->confidence == b->confidence);
}

/* Properties 1 and 2 on the window of TEXT[0..N), which starts at FH;
   the verdict into *V.  legacy_detect is called a second time when
   AGAIN; the caller says not when -f auto decided legacy, whose verdict
   it then compares with *V: that was the second call.  */
static void
check_direct (uint8_t const *text, size_t n, size_t fh, size_t split,
              bool again, struct legacy_verdict *v)
{
  uint64_t released[2] = { 0, 0 }, once[2] = { 0, 0 }, twice[2] = { 0, 0 };
  uint32_t table[128];
  size_t i;

  for (i = 0; i < fh; i++)
    released[text[i] / 64] |= UINT64_C (1) << (text[i] % 64);
  if (split > fh)
    split = fh;
  legacy_release (text, fh, once);
  legacy_release (text, split, twice);
  legacy_release (text + split, fh - split, twice);
  if (once[0] != twice[0] || once[1] != twice[1])
    fail ("legacy_release depends on the split", text, n);

  legacy_detect (text + fh, n - fh, true, released, v);
  if (again)
    {
      struct legacy_verdict second;
      legacy_detect (text + fh, n - fh, true, released, &second);
      if (!same_verdict (v, &second))
        fail ("legacy_detect is not deterministic", text, n);
    }
  if (!v->codec || v->confidence > 100
      || (v->how != LEGACY_MODEL && v->how != LEGACY_WEAK))
    fail ("legacy_detect's verdict is out of range", text, n);
  if (!v->multi_byte)
    {
      bool mixed;
      if (!legacy_single_byte (v->codec, table))
        fail ("a single-byte verdict is no single-byte code page", text, n);
      mixed = legacy_reads_mixed (text + fh, n - fh, true, v->codec, table);
      if (mixed != legacy_reads_mixed (text + fh, n - fh, true, v->codec,
                                       table))
        fail ("legacy_reads_mixed is not deterministic", text, n);
    }
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  static uint8_t text[MAX_TEXT];
  static FILE *tmp;
  static int full = -1;
  struct run_config cfg;
  struct file_stats st[2];
  struct sb out[2];
  struct legacy_verdict v;
  size_t n = 0, fh, k, bs, runs;
  bool valid, text_utf8, direct;

  if (size < 2)
    return 0;
  bs = data[0] ? data[0] : 1;
  for (k = 2; k < size && n < MAX_TEXT - 1; k++)
    text[n++] = data[k] ? data[k] : ' ';
  if (data[1] & 1)
    n = keep_well_formed (text, n);
  /* After keep_well_formed, which can bring a byte order mark to the
     front (FF FF EF BB BF ...).  */
  if ((n >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0)
      || (n >= 2 && (memcmp (text, "\xFF\xFE", 2) == 0
                     || memcmp (text, "\xFE\xFF", 2) == 0)))
    {
      memmove (text + 1, text, n++);
      text[0] = 'x';
    }
  valid = utf8_valid_len (text, n) == n;
  text_utf8 = valid && !has_control (text, n);
  for (fh = 0; fh < n && text[fh] < 0x80; fh++)
    continue;
  direct = fh < n && !valid;

  iconv_model_keep_loaded ();
  iconv_model_take_runs (fuzz_cached_run);
  if (!tmp && !(tmp = tmpfile ()))
    abort ();
  memset (&cfg, 0, sizeof cfg);
  cfg.from = codec_auto;
  cfg.to = codec ("UTF-8");
  cfg.policy.policy = POLICY_REPLACE;
  cfg.bom = BOM_STRIP;
  if (full < 0)
    full = getenv ("UTF8CONV_FUZZ_FULL") != NULL;
  /* The second run, with the input's block size: inputs of an even
     size (or all, with UTF8CONV_FUZZ_FULL).  */
  runs = full || size % 2 == 0 ? 2 : 1;
  for (k = 0; k < runs; k++)
    {
      memset (&st[k], 0, sizeof st[k]);
      iconv_pipeline_config (fileno (tmp), &cfg, text, n, k ? bs : 65536,
                             &out[k], &st[k]);
    }
  {
    struct detection const *a = &st[0].detected, *b = &st[runs - 1].detected;
    if (direct)
      check_direct (text, n, fh, (size_t) (data[1] >> 1) * 8,
                    a->kind != KIND_LEGACY, &v);
    if (runs == 2
        && (a->codec != b->codec || a->kind != b->kind
            || a->legacy != b->legacy || a->legacy_how != b->legacy_how
            || a->confidence != b->confidence || out[0].len != out[1].len
            || memcmp (out[0].s, out[1].s, out[0].len) != 0))
      fail ("the block size changed the decision or the output", text, n);
    if (direct && a->kind == KIND_LEGACY
        && (a->codec != v.codec || a->confidence != v.confidence
            || a->legacy_how != v.how))
      fail ("-f auto's legacy decision is not legacy_detect's", text, n);
    if (text_utf8 && n > 0
        && (a->kind != KIND_ASCII && a->kind != KIND_UTF8))
      fail ("valid UTF-8 was decided neither ASCII nor UTF-8", text, n);
    if (text_utf8 && (out[0].len != n || memcmp (out[0].s, text, n) != 0))
      fail ("valid UTF-8 was not written back unchanged", text, n);
  }
  for (k = 0; k < runs; k++)
    sb_free (&out[k]);
  return 0;
}
