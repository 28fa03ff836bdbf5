/* The checks every fuzz target runs on every input; abort () on any
   violation, so that libFuzzer saves the input.

   Input layout (so that the fuzzer chooses the options and the splits):

     byte 0    bits 0-3: output encoding; bits 4-5: --bom mode; bits 6-7
               with the text's length modulo 64: which checks of the
               pipeline run (SAMPLE below)
     byte 1    bits 0-2: number K of split points; bits 3-7: input encoding
     K bytes   the lengths of the first K chunks (0 = an empty chunk)
     the rest  the text to convert; its last byte chooses the round trip
               and the kernel set and alignment of the kernel checks

   Each property below is checked by every input (1, 2 for the decoder,
   3 for the decoder and strict, 4) or by the inputs that choose it
   (the other policy of 3, 2 and 6 for the pipeline, 5, 6 kernel by
   kernel): see SAMPLE.  UTF8CONV_FUZZ_FULL=1 (make fuzz) runs them all
   on every input.

   The properties (issue 6):

     1. no crash, leak or undefined behaviour (the build uses ASan+UBSan);
     2. split invariance: the decoder fed the text whole, byte by byte
        with empty chunks between, and in the fuzzer's chunks (with a tiny
        pivot, so that "output full" happens too) gives the same values
        and errors at the same offsets; the pipeline fed whole, one byte
        per read() and in the fuzzer's chunks writes the same bytes and
        the same diagnostics;
     3. decoder and pipeline agree with the reference of reference.c, for
        every policy;
     4. replace, escape and ignore write well-formed output; strict writes
        exactly the conversion of what precedes the first error (and its
        output is a prefix of every other policy's);
     5. surrogateescape round trips give back the input exactly;
     6. every kernel set of src/simd/ on this machine agrees with the
        state machine, kernel by kernel and end to end.  */

#define _GNU_SOURCE 1
#include <config.h>

#include "harness.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "codec.h"
#include "cli/diag.h"
#include "pipeline.h"
#include "policy.h"
#include "progname.h"
#include "reference.h"
#include "run_cache.h"
#include "registry.h"
#include "simd/kernels.h"

/* Say what broke, with enough context to reproduce it, and abort.  */
#define CHECK(cond, ...)                                                    \
  do                                                                        \
    if (!(cond))                                                            \
      {                                                                     \
        fprintf (stderr, "fuzz check failed: %s (%s:%d)\n  ", #cond,        \
                 __FILE__, __LINE__);                                       \
        fprintf (stderr, __VA_ARGS__);                                      \
        fputc ('\n', stderr);                                               \
        abort ();                                                           \
      }                                                                     \
  while (0)

static char const *const utf8_inputs[] = {
  "UTF-8", "CESU-8", "MUTF-8", "WTF-8", NULL
};
static char const *const wide_inputs[] = {
  "UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE", "UTF-32", NULL
};
static char const *const all_targets[] = {
  "UTF-8", "UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE",
  "UTF-32", "WTF-8", "CESU-8", "MUTF-8", "ISO-8859-1", "CP1252", "US-ASCII",
  NULL
};

/* The codecs of the list that this build has.  */
struct codec_set
{
  struct codec const *c[16];
  size_t n;
};

static struct codec_set inputs[2], targets;
static char const *impls[8];    /* Kernel sets, "reference" excluded.  */
static int in_fd = -1, out_fd = -1;

/* With UTF8CONV_FUZZ_FULL set (make fuzz), every input is run under
   every policy with every split, kernel set, round trip and alignment.
   Without it (CI's runs and tests/fuzz/long), the input chooses, by
   SAMPLE (byte 0's bits 6-7 and the text's length modulo 64, both of
   which the fuzzer varies): strict and one other policy against the
   reference (strict, for its prefix property), the splits under one of
   the two, and one kernel set end to end; and by the text's last byte
   (SAMPLE_TAIL), one of the round trips, and one kernel set at one
   alignment kernel by kernel.  Over a run every
   choice is made, for every property of the list above, at several
   times the executions a second of the full sweep.  */
static bool full_sweep;
static unsigned int sample;
/* The choices of the checks that do not go through check_pipeline
   (round trips; kernel set and alignment of the kernels one by one):
   the text's last byte.  */
static unsigned int sample_tail;

/* Whether the check numbered K of COUNT (the choice WHICH, SAMPLE
   divided by the choices made before it) is run on this input.  */
static bool
chosen (unsigned int which, unsigned int count, unsigned int k)
{
  return full_sweep || which % count == k;
}

static void
collect (struct codec_set *set, char const *const *names)
{
  for (; *names; names++)
    {
      struct codec const *c = registry_find (*names);
      if (c)
        set->c[set->n++] = c;
    }
}

static void
init (void)
{
  static bool done;
  char const *const *a;
  size_t k = 0;
  if (done)
    return;
  done = true;
  set_program_name ("utf8conv");
  full_sweep = getenv ("UTF8CONV_FUZZ_FULL") != NULL;
  collect (&inputs[FAMILY_UTF8], utf8_inputs);
  collect (&inputs[FAMILY_WIDE], wide_inputs);
  collect (&targets, all_targets);
  for (a = kernels_available (); *a; a++)
    if (strcmp (*a, "reference") != 0 && k + 1 < sizeof impls / sizeof *impls)
      impls[k++] = *a;
  in_fd = memfd_create ("fuzz-in", 0);
  out_fd = memfd_create ("fuzz-out", 0);
  CHECK (in_fd >= 0 && out_fd >= 0, "memfd_create failed");
}

/* Use the kernel set NAME ("reference": none) from now on.  */
static void
use_kernels (char const *name)
{
  setenv ("UTF8CONV_IMPL", name, 1);
  CHECK (kernels_select (), "kernels_select (%s) failed", name);
}

/* ---------------------------------------------------------------------
   The decoder alone, through its batch function.  */

struct event
{
  uint32_t cp;
  uint64_t offset;
  unsigned int err_len;         /* 0 for a value.  */
  uint8_t bytes[MAX_ERROR_BYTES];
  char const *kind;             /* The error's kind in words; NULL for a
                                   value, or when the reference does not
                                   say.  */
};

/* Decode S[0..N) with C in the chunks LENS[0..NLENS) (their sum is N; the
   last is fed with `last' set), with a pivot of PIVCAP values, into EV
   (room for N + 1).  Returns the number of events.  */
static size_t
decode_chunks (struct codec const *c, bool lone_ok, uint8_t const *s,
               size_t n, size_t const *lens, size_t nlens, size_t pivcap,
               struct event *ev)
{
  struct decoder d;
  ucs4_t cp[64];
  int64_t off[64];
  uint8_t nb[64];
  struct pivot p = { cp, off, nb, 0, pivcap };
  size_t count = 0, base = 0, chunk, calls = 0;
  uint64_t newlines = 0;

  decoder_init (&d, c);
  d.lone_surrogates_ok = lone_ok;
  for (chunk = 0; chunk < nlens; chunk++)
    {
      bool last = chunk + 1 == nlens;
      size_t pos = 0, clen = lens[chunk], k;
      enum decode_status st;
      do
        {
          size_t len = clen - pos;
          CHECK (++calls < 4 * n + 4 * nlens + 16,
                 "%s decoder makes no progress at byte %zu", c->name,
                 base + pos);
          p.len = 0;
          st = c->decode (&d, s + base + pos, &len, last, &p);
          CHECK (len <= clen - pos, "%s decoder used more than it got",
                 c->name);
          CHECK (p.len <= pivcap, "%s decoder overfilled the pivot",
                 c->name);
          for (k = 0; k < p.len; k++)
            {
              struct event e = { cp[k], 0, 0, { 0 }, NULL };
              int64_t o = (int64_t) (base + pos) + off[k];
              CHECK (0 <= o && (uint64_t) o < n, "%s: value offset %" PRId64
                     " out of range", c->name, o);
              e.offset = (uint64_t) o;
              CHECK (count <= n, "%s: more values than bytes", c->name);
              ev[count++] = e;
              newlines += cp[k] == 0x0A;
            }
          if (st == DECODE_MALFORMED)
            {
              struct event e = { 0, 0, d.error.len, { 0 },
                                 err_kind_text (d.error.kind) };
              int64_t o = (int64_t) (base + pos) + d.error.rel_offset;
              CHECK (0 < d.error.len && d.error.len <= MAX_ERROR_BYTES,
                     "%s: error length %u", c->name, d.error.len);
              CHECK (0 <= o && (uint64_t) o + d.error.len <= n,
                     "%s: error offset %" PRId64 " out of range", c->name, o);
              e.offset = (uint64_t) o;
              memcpy (e.bytes, d.error.bytes, d.error.len);
              CHECK (memcmp (e.bytes, s + o, e.err_len) == 0,
                     "%s: error bytes are not the input's at %" PRId64,
                     c->name, o);
              CHECK (count <= n, "%s: more events than bytes", c->name);
              ev[count++] = e;
            }
          pos += len;
        }
      while (st != DECODE_INPUT_EMPTY);
      CHECK (pos == clen, "%s: input empty with %zu bytes left", c->name,
             clen - pos);
      base += clen;
    }
  CHECK (d.carry_len == 0, "%s: %u bytes held after the last chunk",
         c->name, d.carry_len);
  decoder_release (&d);
  CHECK (d.newlines == newlines, "%s: newline count %" PRIu64 " != %" PRIu64,
         c->name, d.newlines, newlines);
  return count;
}

static void
same_events (char const *what, struct codec const *c, bool lone_ok,
             struct event const *a, size_t na, struct event const *b,
             size_t nb)
{
  size_t i;
  for (i = 0; i < na && i < nb; i++)
    {
      CHECK (a[i].cp == b[i].cp && a[i].offset == b[i].offset
             && a[i].err_len == b[i].err_len,
             "%s %s (lone surrogates %s): event %zu differs: "
             "U+%04" PRIX32 "/err %u at %" PRIu64 " vs U+%04" PRIX32
             "/err %u at %" PRIu64, c->name, what, lone_ok ? "ok" : "errors",
             i, a[i].cp, a[i].err_len, a[i].offset, b[i].cp, b[i].err_len,
             b[i].offset);
      /* The kind is what the diagnostic says: it must not depend on the
         chunks, and must be the one the man page documents.  */
      CHECK (!a[i].kind || !b[i].kind || strcmp (a[i].kind, b[i].kind) == 0,
             "%s %s (lone surrogates %s): error %zu at %" PRIu64 " is "
             "\"%s\" vs \"%s\"", c->name, what, lone_ok ? "ok" : "errors",
             i, a[i].offset, a[i].kind, b[i].kind);
    }
  CHECK (na == nb, "%s %s (lone surrogates %s): %zu events vs %zu", c->name,
         what, lone_ok ? "ok" : "errors", na, nb);
}

static void
check_decoder (struct codec const *c, uint8_t const *s, size_t n,
               size_t const *split, size_t nsplit, unsigned int pivcap)
{
  struct event *whole = malloc ((n + 1) * sizeof *whole);
  struct event *other = malloc ((n + 1) * sizeof *other);
  size_t *lens = malloc ((2 * n + 2) * sizeof *lens);
  enum ref_form form = ref_form_by_name (c->name);
  int lone;

  for (lone = 0; lone < 2; lone++)
    {
      size_t nw, no, i, k;

      lens[0] = n;
      nw = decode_chunks (c, lone, s, n, lens, 1, 64, whole);

      /* Byte by byte, an empty chunk after each byte, then an empty last
         chunk; a pivot of one value.  */
      for (i = k = 0; i < n; i++)
        {
          lens[k++] = 1;
          lens[k++] = 0;
        }
      lens[k++] = 0;
      no = decode_chunks (c, lone, s, n, lens, k, 1, other);
      same_events ("byte by byte", c, lone, whole, nw, other, no);

      no = decode_chunks (c, lone, s, n, split, nsplit, pivcap, other);
      same_events ("in the fuzzer's chunks", c, lone, whole, nw, other, no);

      if (form != REF_NONE)
        {
          struct ref_item *items = malloc ((n + 1) * sizeof *items);
          size_t ni = ref_decode (form, s, n, lone, items);
          for (i = 0; i < ni; i++)
            {
              other[i].cp = items[i].error ? 0 : items[i].cp;
              other[i].offset = items[i].offset;
              other[i].err_len = items[i].error ? items[i].len : 0;
              other[i].kind = items[i].kind;
            }
          same_events ("against the reference decoder", c, lone, whole, nw,
                       other, ni);
          free (items);
        }
    }
  free (whole);
  free (other);
  free (lens);
}

/* ---------------------------------------------------------------------
   The pipeline, in process: input from a memfd (or a SOCK_SEQPACKET
   socket, whose read()s return one chunk each), output to a memfd,
   diagnostics captured by pointing stderr at a memory stream.  */

struct outcome
{
  uint8_t *out;
  size_t outlen;
  char *diag;
  size_t diaglen;
  enum file_result result;
};

static void
free_outcome (struct outcome *o)
{
  free (o->out);
  free (o->diag);
}

static void
run_pipeline (struct codec const *from, struct codec const *to,
              enum policy pol, enum bom_mode bom, uint8_t const *s, size_t n,
              size_t block_size, size_t const *chunks, size_t nchunks,
              struct outcome *o)
{
  struct run_config cfg;
  struct run *run;
  FILE *saved = stderr;
  int fd = in_fd, sv[2] = { -1, -1 };
  off_t size;

  memset (&cfg, 0, sizeof cfg);
  cfg.from = from;
  cfg.to = bom == BOM_STRIP && to->unmarked ? to->unmarked : to;
  cfg.policy.policy = pol;
  cfg.bom = bom;
  cfg.block_size = block_size;
  cfg.on_error = diag_stop;

  if (chunks)
    {
      size_t k, pos = 0;
      CHECK (socketpair (AF_UNIX, SOCK_SEQPACKET, 0, sv) == 0,
             "socketpair failed");
      for (k = 0; k < nchunks; k++)
        {
          /* An empty message would read as the end of the input.  */
          if (chunks[k] > 0)
            CHECK (write (sv[1], s + pos, chunks[k]) == (ssize_t) chunks[k],
                   "chunk write failed");
          pos += chunks[k];
        }
      close (sv[1]);
      fd = sv[0];
    }
  else
    {
      CHECK (ftruncate (in_fd, 0) == 0
             && (n == 0 || pwrite (in_fd, s, n, 0) == (ssize_t) n)
             && lseek (in_fd, 0, SEEK_SET) == 0, "input memfd failed");
    }
  CHECK (ftruncate (out_fd, 0) == 0 && lseek (out_fd, 0, SEEK_SET) == 0,
         "output memfd failed");

  o->diag = NULL;
  o->diaglen = 0;
  stderr = open_memstream (&o->diag, &o->diaglen);
  CHECK (stderr, "open_memstream failed");
  run = fuzz_cached_run (&cfg, out_fd);
  o->result = pipeline_convert_fd (run, fd, "in");
  {
    struct file_stats st;
    pipeline_file_stats (run, &st);
    diag_handled ("in", &st, pol);
  }
  fclose (stderr);
  stderr = saved;
  if (chunks)
    close (sv[0]);

  size = lseek (out_fd, 0, SEEK_CUR);
  CHECK (size >= 0, "lseek failed");
  o->outlen = (size_t) size;
  o->out = malloc (o->outlen + 1);
  CHECK (pread (out_fd, o->out, o->outlen, 0) == (ssize_t) o->outlen,
         "output read failed");
}

/* Print S[0..N) in hex (at most 64 bytes) after WHAT.  */
static void
dump (char const *what, uint8_t const *s, size_t n)
{
  size_t i;
  fprintf (stderr, "  %s (%zu bytes):", what, n);
  for (i = 0; i < n && i < 64; i++)
    fprintf (stderr, " %02X", s[i]);
  fprintf (stderr, "%s\n", n > 64 ? " ..." : "");
}

static void
same_outcome (char const *what, struct outcome const *a,
              struct outcome const *b, char const *from, char const *to,
              enum policy pol)
{
  if (a->outlen != b->outlen || memcmp (a->out, b->out, a->outlen) != 0)
    {
      dump ("first", a->out, a->outlen);
      dump ("second", b->out, b->outlen);
    }
  CHECK (a->outlen == b->outlen && memcmp (a->out, b->out, a->outlen) == 0,
         "-f %s -t %s -e %s: output %s differs (%zu vs %zu bytes)", from, to,
         policy_name (pol), what, a->outlen, b->outlen);
  CHECK (a->diaglen == b->diaglen
         && memcmp (a->diag, b->diag, a->diaglen) == 0,
         "-f %s -t %s -e %s: diagnostics %s differ:\n%s---\n%s", from, to,
         policy_name (pol), what, a->diag, b->diag);
  CHECK (a->result == b->result, "-f %s -t %s -e %s: result %s differs",
         from, to, policy_name (pol), what);
}

static bool
is_prefix (struct outcome const *a, struct outcome const *b)
{
  return a->outlen <= b->outlen && memcmp (a->out, b->out, a->outlen) == 0;
}

/* Strict's output A against another policy's B, for the output encoding
   TO.  WTF-8's encoder holds a high surrogate back to join it with a low
   one that comes next, as WTF-8 requires of any such pair (SPEC §3, man
   page, ERROR POLICIES).  A strict stop writes the held high surrogate
   as its 3-byte form; under ignore or surrogateescape the value after
   the error (nothing dropped, or an escaped byte U+DC80..U+DCFF) may be
   a low surrogate, and the two are joined into a 4-byte form.  So for
   WTF-8, strict's output less a trailing high surrogate's 3-byte form
   must be a prefix of B, and B must go on there with a 4-byte form or
   the same 3 bytes.  */
static bool
strict_is_prefix (struct codec const *to, struct outcome const *a,
                  struct outcome const *b)
{
  struct outcome head;
  uint8_t const *t;

  if (is_prefix (a, b))
    return true;
  if (strcmp (to->name, "WTF-8") != 0 || a->outlen < 3)
    return false;
  t = a->out + a->outlen - 3;
  if (!(t[0] == 0xED && 0xA0 <= t[1] && t[1] <= 0xAF
        && 0x80 <= t[2] && t[2] <= 0xBF))
    return false;
  head = *a;
  head.outlen -= 3;
  return (is_prefix (&head, b) && head.outlen + 4 <= b->outlen
          && 0xF0 <= b->out[head.outlen] && b->out[head.outlen] <= 0xF4);
}

/* The output of O is well-formed in TO.  Lone surrogates from WTF-8 or
   MUTF-8 input are data (SPEC §3): UTF-16 and UTF-32 outputs keep them.  */
static void
check_well_formed (struct codec const *to, struct outcome const *o,
                   struct codec const *from_codec, enum policy pol)
{
  char const *from = from_codec->name;
  enum ref_form form = ref_form_by_name (to->name);
  bool lone_ok = (from_codec->flags & CODEC_SURROGATE_CARRIER) != 0;
  if (form != REF_NONE)
    CHECK (ref_well_formed (form, o->out, o->outlen, lone_ok),
           "-f %s -t %s -e %s: ill-formed output", from, to->name,
           policy_name (pol));
  else
    {
      /* No reference for this form: our own strict decoder must read
         it without an error.  */
      struct decoder d;
      size_t len = o->outlen, cap = o->outlen + 1;
      ucs4_t *cp = malloc (cap * sizeof *cp);
      int64_t *off = malloc (cap * sizeof *off);
      uint8_t *nb = malloc (cap);
      struct pivot p = { cp, off, nb, 0, cap };
      enum decode_status st;
      decoder_init (&d, to);
      d.lone_surrogates_ok = (to->flags & CODEC_SURROGATE_CARRIER) != 0;
      st = to->decode (&d, o->out, &len, true, &p);
      CHECK (st == DECODE_INPUT_EMPTY && len == o->outlen,
             "-f %s -t %s -e %s: output does not decode", from, to->name,
             policy_name (pol));
      decoder_release (&d);
      free (cp);
      free (off);
      free (nb);
    }
}

/* The pipeline's outcome O agrees with the reference model.  */
static void
check_against_model (struct codec const *from, struct codec const *to,
                     enum policy pol, enum bom_mode bom, uint8_t const *s,
                     size_t n, struct outcome const *o)
{
  enum ref_form f = ref_form_by_name (from->name);
  enum ref_form t = ref_form_by_name (to->name);
  struct ref_result r;
  char want[128];

  if (f == REF_NONE || t == REF_NONE)
    return;
  ref_convert (f, t, (enum ref_policy) pol, (enum ref_bom) bom, s, n, &r);
  if (r.outlen != o->outlen || memcmp (r.out, o->out, r.outlen) != 0)
    {
      dump ("input", s, n);
      dump ("pipeline", o->out, o->outlen);
      dump ("reference", r.out, r.outlen);
    }
  CHECK (r.outlen == o->outlen && memcmp (r.out, o->out, r.outlen) == 0,
         "-f %s -t %s -e %s --bom=%d: output differs from the reference "
         "(%zu vs %zu bytes)", from->name, to->name, policy_name (pol), bom,
         o->outlen, r.outlen);
  CHECK (r.stopped == (o->result == FILE_STOPPED),
         "-f %s -t %s -e %s: stopped %d, reference %d", from->name, to->name,
         policy_name (pol), o->result == FILE_STOPPED, r.stopped);
  if (!r.stopped)
    CHECK (r.dropped == (o->result == FILE_DROPPED),
           "-f %s -t %s -e %s: dropped %d, reference %d", from->name,
           to->name, policy_name (pol), o->result == FILE_DROPPED, r.dropped);
  if (r.stopped)
    snprintf (want, sizeof want, "utf8conv: in:%" PRIu64 ": byte %" PRIu64
              ": ", r.stop_line, r.stop_offset);
  else if (r.errors > 0)
    snprintf (want, sizeof want, "utf8conv: in:%" PRIu64 ": byte %" PRIu64
              ": ", r.first_line, r.first_offset);
  else
    want[0] = 0;
  CHECK ((want[0] == 0) == (o->diaglen == 0)
         && strncmp (o->diag ? o->diag : "", want, strlen (want)) == 0
         && (o->diaglen == 0
             || strchr (o->diag, '\n') == o->diag + o->diaglen - 1),
         "-f %s -t %s -e %s: diagnostic\n  %s  expected it to start with\n"
         "  %s", from->name, to->name, policy_name (pol),
         o->diag ? o->diag : "(none)\n", want[0] ? want : "(none)");
  if (!r.stopped && r.errors > 0)
    {
      snprintf (want, sizeof want, "; %" PRIu64 " error%s ", r.errors,
                r.errors == 1 ? "" : "s");
      CHECK (strstr (o->diag, want), "-f %s -t %s -e %s: diagnostic\n  %s"
             "  does not count %" PRIu64 " errors", from->name, to->name,
             policy_name (pol), o->diag, r.errors);
    }
  free (r.out);
}

static void
check_pipeline (struct codec const *from, struct codec const *to,
                enum bom_mode bom, uint8_t const *s, size_t n,
                size_t const *split, size_t nsplit)
{
  struct outcome o[5], other;
  bool ran[POLICY_IGNORE + 1] = { false };
  int pol;
  size_t k, nimpls = 0;

  while (impls[nimpls])
    nimpls++;
  if (bom == BOM_ADD && !(to->flags & CODEC_UNICODE))
    bom = BOM_AUTO;
  /* Strict, and the other policy the input chooses.  */
  for (pol = POLICY_STRICT; pol <= POLICY_IGNORE; pol++)
    {
      if (pol != POLICY_STRICT
          && !chosen (sample, POLICY_IGNORE, (unsigned int) pol - 1))
        continue;
      ran[pol] = true;
      use_kernels ("reference");
      run_pipeline (from, to, pol, bom, s, n, 65536, NULL, 0, &o[pol]);
      check_against_model (from, to, pol, bom, s, n, &o[pol]);
      if (pol != POLICY_STRICT && pol != POLICY_SURROGATEESCAPE)
        check_well_formed (bom == BOM_STRIP && to->unmarked
                           ? to->unmarked : to, &o[pol], from, pol);

      /* The splits under strict or the other policy.  */
      if (!chosen (sample / POLICY_IGNORE, 2, pol != POLICY_STRICT))
        continue;

      /* One byte per read(), then the fuzzer's chunks.  */
      run_pipeline (from, to, pol, bom, s, n, n <= 256 ? 1 : 7, NULL, 0,
                    &other);
      same_outcome ("one byte at a time", &o[pol], &other, from->name,
                    to->name, pol);
      free_outcome (&other);
      use_kernels (impls[0] ? impls[0] : "reference");
      run_pipeline (from, to, pol, bom, s, n, 65536, split, nsplit, &other);
      same_outcome ("in the fuzzer's chunks", &o[pol], &other, from->name,
                    to->name, pol);
      free_outcome (&other);

      /* Each kernel set, end to end.  */
      for (k = 0; impls[k]; k++)
        {
          if (!chosen (sample / (2 * POLICY_IGNORE), (unsigned int) nimpls,
                       (unsigned int) k))
            continue;
          use_kernels (impls[k]);
          run_pipeline (from, to, pol, bom, s, n, 65536, NULL, 0, &other);
          same_outcome (impls[k], &o[pol], &other, from->name, to->name,
                        pol);
          free_outcome (&other);
        }
    }
  /* Strict writes exactly what precedes the first error: a prefix of
     what any other policy writes.  */
  for (pol = POLICY_REPLACE; pol <= POLICY_IGNORE; pol++)
    if (ran[pol])
      CHECK (strict_is_prefix (to, &o[POLICY_STRICT], &o[pol]),
             "-f %s -t %s: strict output is not a prefix of %s output",
             from->name, to->name, policy_name (pol));
  for (pol = POLICY_STRICT; pol <= POLICY_IGNORE; pol++)
    if (ran[pol])
      free_outcome (&o[pol]);
}

/* Convert S[0..N) from FROM to VIA and back under POLICY, and check
   that this gives S back (or nothing, for a lone BOM: SPEC §10 writes a
   signature only with a character).  */
static void
check_there_and_back (char const *from, char const *via, enum policy pol,
                      uint8_t const *s, size_t n, bool lone_bom)
{
  struct codec const *f = registry_find (from), *v = registry_find (via);
  struct outcome a, b;
  if (!f || !v)
    return;
  run_pipeline (f, v, pol, BOM_AUTO, s, n, 65536, NULL, 0, &a);
  CHECK (a.result == FILE_OK, "-e %s %s -> %s failed", policy_name (pol),
         from, via);
  run_pipeline (v, f, pol, BOM_AUTO, a.out, a.outlen, 65536, NULL, 0, &b);
  if (!(b.outlen == n && memcmp (b.out, s, n) == 0))
    {
      dump ("input", s, n);
      dump ("there", a.out, a.outlen);
      dump ("back", b.out, b.outlen);
    }
  CHECK (b.result == FILE_OK && ((b.outlen == n && memcmp (b.out, s, n) == 0)
                                 || (lone_bom && b.outlen == 0)),
         "-e %s %s -> %s -> %s does not give the input back",
         policy_name (pol), from, via, from);
  free_outcome (&a);
  free_outcome (&b);
}

/* Any byte string S[0..N) through UTF-16LE and back to UTF-8 under
   surrogateescape is itself (one of check_round_trips's choices).  */
static void
check_utf8_via_utf16 (struct codec const *u8, struct codec const *u16,
                      uint8_t const *s, size_t n, bool lone_bom)
{
  struct outcome a, b;
  run_pipeline (u8, u16, POLICY_SURROGATEESCAPE, BOM_AUTO, s, n, 65536,
                NULL, 0, &a);
  CHECK (a.result == FILE_OK, "-e surrogateescape UTF-8 -> UTF-16LE "
         "failed");
  /* A UTF-16 BOM is not carried into UTF-8: a leading EF BB BF comes
     back with --bom=add (SPEC §4).  */
  run_pipeline (u16, u8, POLICY_SURROGATEESCAPE,
                n >= 3 && memcmp (s, "\xEF\xBB\xBF", 3) == 0
                ? BOM_ADD : BOM_AUTO, a.out, a.outlen, 65536, NULL, 0, &b);
  CHECK (b.result == FILE_OK && ((b.outlen == n && memcmp (b.out, s, n) == 0)
                                 || (lone_bom && b.outlen == 0)),
         "-e surrogateescape UTF-8 -> UTF-16LE -> UTF-8 does not give "
         "the input back");
  free_outcome (&a);
  free_outcome (&b);
}

/* SPEC §4: surrogateescape gives any byte string back.  A lone BOM is
   the exception: SPEC §10 writes a signature only with a character.
   SPEC §3: WTF-8 and MUTF-8 carry any string of UTF-16 units, so UTF-16
   through them and back is the identity even under strict, and so is
   well-formed WTF-8 (or MUTF-8 without a raw 00, which comes back as
   C0 80) through UTF-16.
   The input chooses one of these round trips (SAMPLE_TAIL), or all of
   them under UTF8CONV_FUZZ_FULL.  */
static void
check_round_trips (enum fuzz_family fam, uint8_t const *s, size_t n)
{
  struct outcome a;
  use_kernels (impls[0] ? impls[0] : "reference");
  if (fam == FAMILY_UTF8)
    {
      struct codec const *u8 = registry_find ("UTF-8");
      struct codec const *u16 = registry_find ("UTF-16LE");
      bool lone_bom = n == 3 && memcmp (s, "\xEF\xBB\xBF", 3) == 0;
      if (chosen (sample_tail, 4, 0))
        {
          run_pipeline (u8, u8, POLICY_SURROGATEESCAPE, BOM_AUTO, s, n,
                        65536, NULL, 0, &a);
          CHECK (a.result == FILE_OK && ((a.outlen == n
                                          && memcmp (a.out, s, n) == 0)
                                         || (lone_bom && a.outlen == 0)),
                 "-e surrogateescape UTF-8 -> UTF-8 is not the identity");
          free_outcome (&a);
        }
      if (chosen (sample_tail, 4, 1))
        check_utf8_via_utf16 (u8, u16, s, n, lone_bom);
      if (chosen (sample_tail, 4, 2)
          && ref_well_formed (REF_WTF8, s, n, false))
        check_there_and_back ("WTF-8", "UTF-16LE", POLICY_STRICT, s, n,
                              lone_bom);
      if (chosen (sample_tail, 4, 3)
          && ref_well_formed (REF_MUTF8, s, n, false) && !memchr (s, 0, n))
        check_there_and_back ("MUTF-8", "UTF-16LE", POLICY_STRICT, s, n,
                              lone_bom);
    }
  else if (n % 2 == 0)
    {
      struct codec const *u16 = registry_find ("UTF-16LE");
      bool lone_bom = n == 2 && s[0] == 0xFF && s[1] == 0xFE;
      if (chosen (sample_tail, 3, 0))
        {
          run_pipeline (u16, u16, POLICY_SURROGATEESCAPE, BOM_AUTO, s, n,
                        65536, NULL, 0, &a);
          CHECK (a.result == FILE_OK && ((a.outlen == n
                                          && memcmp (a.out, s, n) == 0)
                                         || (lone_bom && a.outlen == 0)),
                 "-e surrogateescape UTF-16LE -> UTF-16LE is not the "
                 "identity");
          free_outcome (&a);
        }
      if (chosen (sample_tail, 3, 1))
        check_there_and_back ("UTF-16LE", "WTF-8", POLICY_STRICT, s, n,
                              lone_bom);
      if (chosen (sample_tail, 3, 2))
        check_there_and_back ("UTF-16LE", "MUTF-8", POLICY_STRICT, s, n,
                              lone_bom);
    }
}

/* ---------------------------------------------------------------------
   The kernels of src/simd/, one by one, against the reference.  Output
   buffers have exactly the documented room, so that ASan sees overruns.  */

static void
check_utf8_kernels (struct kernels const *k, uint8_t const *s, size_t n)
{
  struct ref_item *items = malloc ((n + 1) * sizeof *items);
  size_t ni = ref_decode (REF_UTF8, s, n, false, items), i, want = n, v;
  size_t ascii = 0, nl = 0, w;
  bool boundary = false;

  for (i = 0; i < ni; i++)
    if (items[i].error)
      {
        want = items[i].offset;
        break;
      }
  while (ascii < n && s[ascii] < 0x80)
    ascii++;
  for (i = 0; i < n; i++)
    nl += s[i] == '\n';
  CHECK (k->ascii_len (s, n) == ascii, "%s ascii_len", k->name);
  CHECK (k->count_newlines (s, n) == nl, "%s count_newlines", k->name);

  v = k->utf8_valid_len (s, n);
  for (i = 0; i < ni && items[i].offset <= v; i++)
    if (items[i].offset == v)
      boundary = true;
  CHECK (v <= want && (v == n || boundary) && (want < n || v == n),
         "%s utf8_valid_len = %zu, reference %zu of %zu", k->name, v, want,
         n);

  /* The converters on the valid prefix, in both byte orders.  */
  for (w = 2; w <= 4; w += 2)
    {
      int big;
      for (big = 0; big < 2; big++)
        {
          uint8_t *out = malloc (w * v + 1), *ref = malloc (w * v + 1);
          size_t o, rl = 0;
          for (i = 0; i < ni && items[i].offset < v; i++)
            {
              uint8_t tmp[4];
              size_t tl = 0;
              uint32_t c = items[i].cp;
              if (w == 4)
                for (tl = 0; tl < 4; tl++)
                  tmp[big ? 3 - tl : tl] = (uint8_t) (c >> (8 * tl));
              else if (c < 0x10000)
                {
                  tmp[big ? 0 : 1] = (uint8_t) (c >> 8);
                  tmp[big ? 1 : 0] = (uint8_t) c;
                  tl = 2;
                }
              else
                {
                  uint32_t hi = 0xD800 + ((c - 0x10000) >> 10);
                  uint32_t lo = 0xDC00 + ((c - 0x10000) & 0x3FF);
                  tmp[big ? 0 : 1] = (uint8_t) (hi >> 8);
                  tmp[big ? 1 : 0] = (uint8_t) hi;
                  tmp[big ? 2 : 3] = (uint8_t) (lo >> 8);
                  tmp[big ? 3 : 2] = (uint8_t) lo;
                  tl = 4;
                }
              memcpy (ref + rl, tmp, tl);
              rl += tl;
            }
          o = (w == 2 ? k->utf8_to_utf16 (s, v, out, big)
               : k->utf8_to_utf32 (s, v, out, big));
          CHECK (o == rl && memcmp (out, ref, rl) == 0,
                 "%s utf8_to_utf%zu (%s) differs", k->name, 8 * w,
                 big ? "BE" : "LE");
          free (out);
          free (ref);
        }
    }
  free (items);
}

/* The text taken as UTF-16 units: utf16_to_utf8 stops exactly before the
   first unit the reference rejects, and converts what precedes it.  */
static void
check_utf16_kernel (struct kernels const *k, uint8_t const *s, size_t n)
{
  size_t units = n / 2;
  int big;
  for (big = 0; big < 2; big++)
    {
      struct ref_item *items = malloc ((units + 1) * sizeof *items);
      size_t ni = ref_decode (big ? REF_UTF16BE : REF_UTF16LE, s, 2 * units,
                              false, items);
      size_t want = units, i, used, produced, rl = 0;
      uint64_t newlines = 0, nl = 0;
      uint8_t *out = malloc (3 * units + 1), *ref = malloc (3 * units + 1);
      for (i = 0; i < ni && !items[i].error; i++)
        {
          /* UTF-8, as in reference.c's encoder.  */
          uint32_t c = items[i].cp;
          nl += c == 0x0A;
          if (c < 0x80)
            ref[rl++] = (uint8_t) c;
          else if (c < 0x800)
            {
              ref[rl++] = (uint8_t) (0xC0 | c >> 6);
              ref[rl++] = (uint8_t) (0x80 | (c & 0x3F));
            }
          else if (c < 0x10000)
            {
              ref[rl++] = (uint8_t) (0xE0 | c >> 12);
              ref[rl++] = (uint8_t) (0x80 | (c >> 6 & 0x3F));
              ref[rl++] = (uint8_t) (0x80 | (c & 0x3F));
            }
          else
            {
              ref[rl++] = (uint8_t) (0xF0 | c >> 18);
              ref[rl++] = (uint8_t) (0x80 | (c >> 12 & 0x3F));
              ref[rl++] = (uint8_t) (0x80 | (c >> 6 & 0x3F));
              ref[rl++] = (uint8_t) (0x80 | (c & 0x3F));
            }
        }
      if (i < ni)
        want = items[i].offset / 2;
      used = k->utf16_to_utf8 (s, units, out, &produced, &newlines, big);
      CHECK (used == want && produced == rl && memcmp (out, ref, rl) == 0,
             "%s utf16_to_utf8 (%s): used %zu of %zu units, reference %zu",
             k->name, big ? "BE" : "LE", used, units, want);
      CHECK (newlines == nl, "%s utf16_to_utf8 (%s): %" PRIu64 " newlines, "
             "reference %" PRIu64, k->name, big ? "BE" : "LE", newlines, nl);
      free (items);
      free (out);
      free (ref);
    }
}

static void
check_kernels (enum fuzz_family fam, uint8_t const *s, size_t n)
{
  size_t i, shift, nimpls = 0;
  while (impls[nimpls])
    nimpls++;
  for (i = 0; impls[i]; i++)
    {
      if (!chosen (sample_tail / 4, (unsigned int) nimpls, (unsigned int) i))
        continue;
      use_kernels (impls[i]);
      /* At a few alignments, from a private copy of exactly the right
         size.  */
      for (shift = 0; shift < 4 && shift <= n; shift++)
        {
          if (!chosen (sample_tail / 4 / (unsigned int) nimpls, 4,
                       (unsigned int) shift))
            continue;
          uint8_t *copy = malloc (n - shift + 1);
          memcpy (copy, s + shift, n - shift);
          if (fam == FAMILY_UTF8)
            check_utf8_kernels (kernels, copy, n - shift);
          check_utf16_kernel (kernels, copy, n - shift);
          free (copy);
        }
    }
}

void
fuzz_one (enum fuzz_family fam, uint8_t const *data, size_t size)
{
  struct codec_set const *in = &inputs[fam];
  struct codec const *from, *to;
  enum bom_mode bom;
  size_t nsplit, k, pos, n, split[10];
  uint8_t const *s;

  init ();
  if (size < 2 || size > 65536)
    return;
  to = targets.c[(data[0] & 15) % targets.n];
  bom = (enum bom_mode) ((data[0] >> 4 & 3) % 3);
  from = in->c[(data[1] >> 3) % in->n];
  nsplit = data[1] & 7;
  if (size < 2 + nsplit)
    return;
  s = data + 2 + nsplit;
  n = size - 2 - nsplit;
  /* The chunks: the fuzzer's lengths, cut to what there is, then the
     rest.  */
  for (k = 0, pos = 0; k < nsplit; k++)
    {
      split[k] = data[2 + k] < n - pos ? data[2 + k] : n - pos;
      pos += split[k];
    }
  split[k++] = n - pos;
  sample = (unsigned int) (data[0] >> 6) + 4 * (unsigned int) (n % 64);
  sample_tail = n > 0 ? s[n - 1] : 0;

  check_decoder (from, s, n, split, k, 1 + data[0] % 5);
  check_pipeline (from, to, bom, s, n, split, k);
  check_round_trips (fam, s, n);
  check_kernels (fam, s, n);
}
