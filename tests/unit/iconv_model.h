/* A model of the iconv(3) bridge (and of the tables made from iconv(3))
   built on iconv(3) itself, both ways, and the pipeline run the same way, for the tests that compare the two
   (tests/unit/test_iconv_reference.c, tests/fuzz/fuzz_bridge.c).

   The model converts the whole input with one iconv_t and one call,
   which stops at an error:

   - EILSEQ is an error of one byte; EINVAL (an incomplete character at
     the end of the input) is one error of the bytes left, at most
     MAX_ERROR_BYTES: the bridge's units of error.
   - Before the error comes whatever the iconv_t holds back.  A second
     iconv_t is opened and given the same calls as the first since the
     first was opened or last flushed, and is then flushed: when that
     gives values, the first iconv_t holds a character, and is flushed
     (which returns it to its initial state) and its values are written;
     otherwise it goes on in the state it is in, so that a stateful
     decoder keeps its shift state.
   - Then the policy: strict stops; replace writes one U+FFFD; escape
     writes each byte as \xhh; surrogateescape writes each byte as it is
     to UTF-8, or stops when one is below 0x80; ignore writes nothing and
     the file counts as having dropped input.  The conversion goes on
     after the error's bytes.
   - A U+FEFF that is the first value before any error is a signature,
     which the pipeline drops (with --bom=strip, as here).  */

#ifndef UTF8CONV_TESTS_ICONV_MODEL_H
#define UTF8CONV_TESTS_ICONV_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "helpers.h"
#include "pipeline.h"
#include "policy.h"

/* The longest input the model takes.  */
enum { ICONV_MODEL_MAX_INPUT = 4096 };

/* Keep the multi-byte code pages of -f auto open for the rest of the
   process, so that glibc does not unload their gconv modules when the
   bridge closes its iconv_t at the end of each file and load them again
   for the next (a fuzz harness converts thousands of files a second;
   utf8conv converts them with one open each).  */
void iconv_model_keep_loaded (void);

/* From now on, iconv_pipeline_config takes its runs from GET (which
   returns a run of the configuration it is given, ready for a file
   whose output goes to the descriptor, and keeps it) instead of
   starting and finishing one for each conversion: a fuzz harness's
   run cache (tests/fuzz/run_cache.h).  */
void iconv_model_take_runs (struct run *(*get) (struct run_config const *,
                                                int));

/* Convert IN[0..N) (N <= ICONV_MODEL_MAX_INPUT) from the charset NAME to
   UTF-8 under the policy P into OUT (initialised here), as described
   above; the file's result.  */
enum file_result iconv_model_run (char const *name, enum policy p,
                                  uint8_t const *in, size_t n,
                                  struct sb *out);

/* Let the pipeline runs below take the fast paths (fast.c, with the
   kernels of src/simd/ that utf8conv would choose here), as utf8conv
   does, or not (the state machines alone: UTF8CONV_IMPL=reference);
   not until called.  */
void iconv_model_fast_paths (bool on);

/* Convert IN[0..N) from the codec FROM to UTF-8 with the pipeline,
   under the policy P with the block size BS, into OUT (initialised
   here), going through the file FD (emptied and rewritten); the file's
   result.  */
enum file_result iconv_pipeline_run (int fd, struct codec const *from,
                                     enum policy p, uint8_t const *in,
                                     size_t n, size_t bs, struct sb *out);

/* The same into UTF-16LE (UTF-16BE if BIG).  */
enum file_result iconv_pipeline_run_utf16 (int fd, struct codec const *from,
                                           bool big, enum policy p,
                                           uint8_t const *in, size_t n,
                                           size_t bs, struct sb *out);

/* The model's UTF-8 output S made UTF-16 (big-endian if BIG), for a
   comparison with the pipeline's into UTF-16: its well-formed
   characters as units (a byte that is none, which only surrogateescape
   writes, as DC00 + B; but the model's bytes under surrogateescape do
   not say which of them were escaped, D6 90 being two or U+0590).  */
void iconv_model_utf16 (struct sb *s, bool big);

/* iconv_pipeline_run with every setting of CONFIG (--eol,
   --fix-mojibake, ...) but its block size, which is BS; the file's
   statistics (what -f auto detected, ...) into STATS unless it is
   NULL.  */
enum file_result iconv_pipeline_config (int fd,
                                        struct run_config const *config,
                                        uint8_t const *in, size_t n,
                                        size_t bs, struct sb *out,
                                        struct file_stats *stats);

/* The encoding direction: convert the well-formed UTF-8 text IN[0..N)
   to the charset NAME, whose codec has the flags FLAGS, under the
   policy P into OUT (initialised here), as the bridge's encoder does:
   one iconv_t converts the whole text from UTF-8, in one call, which
   stops at a character it cannot encode (EILSEQ); there, strict and
   surrogateescape stop; replace writes '?' (U+FFFD to a Unicode form),
   escape writes \xhh, \uhhhh or \Uhhhhhhhh, both converted by the same
   iconv_t, less the characters of theirs it cannot encode; ignore
   writes nothing and the file counts as having dropped input.  At the
   end, and at a stop, the iconv_t is flushed (its shift-reset
   sequence).  A leading signature (EF BB BF) is dropped, as --bom=strip
   does.  */
enum file_result iconv_model_encode (char const *name, unsigned int flags,
                                     enum policy p, uint8_t const *in,
                                     size_t n, struct sb *out);

/* Convert IN[0..N) from UTF-8 to the codec TO with the pipeline, as
   iconv_pipeline_run does the other way.  */
enum file_result iconv_pipeline_encode (int fd, struct codec const *to,
                                        enum policy p, uint8_t const *in,
                                        size_t n, size_t bs,
                                        struct sb *out);

/* The same from UTF-16LE (UTF-16BE if BIG): IN[0..N), well-formed
   UTF-8, is made that first (its output is the UTF-8's).  */
enum file_result iconv_pipeline_encode_utf16 (int fd, struct codec const *to,
                                              bool big, enum policy p,
                                              uint8_t const *in, size_t n,
                                              size_t bs, struct sb *out);

#endif
