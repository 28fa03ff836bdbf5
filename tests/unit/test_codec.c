/* Unit tests of the codec core: decoders, encoders, policies, pipeline.

   Every decoder test runs the same input under many ways of splitting it
   into buffers (whole, byte by byte, at every split point, with empty
   buffers in between, with a pivot of one value) and checks that they
   all give the same values and errors.  Results are compared as text:

     value      "%X"          e.g. "61", or "61@0" with its input offset
     error      "!XX.YY@OFF:KIND", e.g. "!F1.80.80@1:TRUNC"

   separated by spaces.  A broken contract (input left unconsumed, bytes
   of an error that are not the input's, a partial sequence left in the
   decoder after the last buffer, ...) shows up as a "?what" item.

   The expected values follow Unicode 15 §3.9 (maximal subparts) and
   Python 3's codecs (checked with python3 when the tests were written);
   they are written out here, never computed by a second decoder.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec.h"
#include "cli/diag.h"
#include "pipeline.h"
#include "policy.h"
#include "progname.h"
#include "registry.h"
#include "simd/kernels.h"
#include "tap.h"

#define COUNT(a) (sizeof (a) / sizeof (a)[0])

/* Byte strings and value arrays as arguments: pointer, length.  */
#define BYTES(...)                                                      \
  (uint8_t const[]) { __VA_ARGS__ },                                    \
  sizeof ((uint8_t const[]) { __VA_ARGS__ })
#define STR(s) (uint8_t const *) (s), sizeof (s) - 1
#define VALS(...)                                                       \
  (ucs4_t const[]) { __VA_ARGS__ },                                     \
  COUNT (((ucs4_t const[]) { __VA_ARGS__ }))

/* ------------------------------------------------------------------ */
/* A growing string.  */

struct sb
{
  char *s;
  size_t len, cap;
};

static void TAP_PRINTF (2, 3)
sb_printf (struct sb *b, char const *fmt, ...)
{
  va_list ap;
  int n;

  va_start (ap, fmt);
  n = vsnprintf (NULL, 0, fmt, ap);
  va_end (ap);
  if (n < 0)
    abort ();
  if (b->len + (size_t) n + 1 > b->cap)
    {
      b->cap = 2 * (b->len + (size_t) n + 1) + 64;
      b->s = realloc (b->s, b->cap);
      if (!b->s)
        abort ();
    }
  va_start (ap, fmt);
  vsnprintf (b->s + b->len, b->cap - b->len, fmt, ap);
  va_end (ap);
  b->len += (size_t) n;
}

static char const *
sb_str (struct sb *b)
{
  if (!b->s)
    sb_printf (b, "%s", "");
  return b->s;
}

static void
sb_free (struct sb *b)
{
  free (b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}

static char const *
hex (uint8_t const *s, size_t n)
{
  static char buf[4][1024];
  static int which;
  char *p = buf[which = (which + 1) % 4];
  size_t i;
  *p = 0;
  for (i = 0; i < n && 3 * i + 4 < sizeof buf[0]; i++)
    sprintf (p + 3 * i, "%s%02X", i ? " " : "", s[i]);
  return p;
}

static char const *const kind_names[] = {
  "NONE", "CONT", "TRUNC", "OVERLONG", "SURR", "BIG", "INVALID", "LONE",
  "UNENC"
};

static struct codec const *
codec (char const *name)
{
  struct codec const *c = registry_find (name);
  if (!c)
    {
      printf ("Bail out! no codec %s\n", name);
      exit (1);
    }
  return c;
}

/* ------------------------------------------------------------------ */
/* Decoding under a split pattern.  */

struct collect
{
  uint8_t const *in;            /* The whole input.  */
  size_t n;
  struct decoder dec;
  struct sb full;               /* Values with their offsets.  */
  struct sb plain;              /* Values without.  */
  int64_t next;                 /* Where the next item should start.  */
  size_t values, newlines;
};

static void
item (struct collect *c, char const *full, char const *plain)
{
  sb_printf (&c->full, "%s%s", c->full.len ? " " : "", full);
  sb_printf (&c->plain, "%s%s", c->plain.len ? " " : "", plain);
}

static void
proto (struct collect *c, char const *what)
{
  char buf[128];
  snprintf (buf, sizeof buf, "?%s", what);
  item (c, buf, buf);
}

static void
got_value (struct collect *c, ucs4_t v, int64_t off)
{
  char full[64], plain[32];
  snprintf (full, sizeof full, "%" PRIX32 "@%" PRId64, v, off);
  snprintf (plain, sizeof plain, "%" PRIX32, v);
  item (c, full, plain);
  if (off < c->next || (size_t) off >= c->n)
    proto (c, "value-offset");
  c->next = off + 1;
  c->values++;
  c->newlines += v == 0x0A;
}

static void
got_error (struct collect *c, struct codec_error const *e, int64_t off)
{
  struct sb b = { NULL, 0, 0 };
  unsigned int i;

  sb_printf (&b, "!");
  for (i = 0; i < e->len && i < MAX_ERROR_BYTES; i++)
    sb_printf (&b, "%s%02X", i ? "." : "", e->bytes[i]);
  sb_printf (&b, "@%" PRId64 ":%s", off,
             (unsigned int) e->kind < COUNT (kind_names)
             ? kind_names[e->kind] : "?");
  item (c, b.s, b.s);
  sb_free (&b);
  if (e->len == 0 || e->len > MAX_ERROR_BYTES)
    proto (c, "error-length");
  else if (off < c->next || (size_t) off + e->len > c->n
           || memcmp (c->in + off, e->bytes, e->len) != 0)
    proto (c, "error-bytes-not-input");
  if (e->kind == ERR_NONE || e->kind >= ERR_UNENCODABLE)
    proto (c, "error-kind");
  c->next = off + e->len;
}

/* Feed the chunk IN[0..LEN), at offset BASE of the whole input.  */
static void
feed (struct collect *c, size_t base, size_t len, bool last,
      struct pivot *p)
{
  size_t pos = 0, calls = 0;
  uint8_t const *in = c->in + base;

  for (;;)
    {
      size_t n = len - pos, i;
      enum decode_status st;

      p->len = 0;
      st = c->dec.codec->decode (&c->dec, in + pos, &n, last, p);
      if (n > len - pos)
        {
          proto (c, "consumed-too-much");
          return;
        }
      if (p->len > p->cap)
        {
          proto (c, "pivot-overflow");
          return;
        }
      for (i = 0; i < p->len; i++)
        got_value (c, p->cp[i], (int64_t) (base + pos) + p->off[i]);
      if (st == DECODE_MALFORMED)
        got_error (c, &c->dec.error,
                   (int64_t) (base + pos) + c->dec.error.rel_offset);
      pos += n;
      if (st == DECODE_INPUT_EMPTY)
        {
          if (pos != len)
            proto (c, "input-left");
          return;
        }
      if (st == DECODE_OUTPUT_FULL && p->len == 0)
        {
          proto (c, "full-but-empty");
          return;
        }
      if (st != DECODE_OUTPUT_FULL && st != DECODE_MALFORMED)
        {
          proto (c, "bad-status");
          return;
        }
      if (++calls > 4 * len + 64)
        {
          proto (c, "no-progress");
          return;
        }
    }
}

/* Decode IN[0..N) cut at CUTS[0..NCUTS) (nondecreasing offsets; equal
   ones make empty chunks), with LAST on the final chunk, or on an extra
   empty chunk when FINAL_EMPTY.  The pivot holds PCAP values.  */
static void
decode_cuts (struct collect *c, struct codec const *cd, bool lone_ok,
             uint8_t const *in, size_t n, size_t const *cuts, size_t ncuts,
             bool final_empty, size_t pcap)
{
  /* Room beyond the capacity, so that a decoder writing past it is
     reported (pivot-overflow) rather than corrupting the heap.  */
  ucs4_t *cp = malloc ((pcap + 256) * sizeof *cp);
  int64_t *off = malloc ((pcap + 256) * sizeof *off);
  uint8_t *nb = malloc (pcap + 256);
  struct pivot p;
  size_t k, start = 0, nchunks = ncuts + 1 + final_empty;

  if (!cp || !off || !nb)
    abort ();
  p.cp = cp;
  p.off = off;
  p.n = nb;
  p.len = 0;
  p.cap = pcap;
  memset (c, 0, sizeof *c);
  c->in = in;
  c->n = n;
  decoder_init (&c->dec, cd);
  c->dec.lone_surrogates_ok = lone_ok;
  for (k = 0; k < nchunks; k++)
    {
      size_t end = k < ncuts ? cuts[k] : n;
      if (end < start || end > n)
        abort ();
      feed (c, start, end - start, k == nchunks - 1, &p);
      start = end;
    }
  if (c->dec.carry_len != 0)
    proto (c, "carry-left-at-end");
  if (c->dec.newlines != c->newlines)
    proto (c, "newline-count");
  free (cp);
  free (off);
  free (nb);
}

static void
collect_free (struct collect *c)
{
  sb_free (&c->full);
  sb_free (&c->plain);
}

/* The result of decoding IN whole, with a roomy pivot.  */
static void
decode_whole (struct collect *c, struct codec const *cd, bool lone_ok,
              uint8_t const *in, size_t n)
{
  decode_cuts (c, cd, lone_ok, in, n, NULL, 0, false, 256);
}

static uint32_t rng_state = 2463534242u;

static uint32_t
rng (void)
{
  uint32_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return rng_state = x;
}

/* Check that every split pattern gives REF (the whole decode, with
   offsets).  On a mismatch, describe it in WHY.  */
static bool
splits_agree (struct codec const *cd, bool lone_ok, uint8_t const *in,
              size_t n, char const *ref, struct sb *why)
{
  size_t cuts[2 * 64 + 2];
  struct collect c;
  size_t k, j, pattern = 0;
  bool good = true;

#define TRY(desc_fmt, ...)                                              \
  do                                                                    \
    {                                                                   \
      pattern++;                                                        \
      if (strcmp (sb_str (&c.full), ref) != 0)                          \
        {                                                               \
          if (good)                                                     \
            {                                                           \
              sb_printf (why, "%s lone_ok=%d input [%s]: split " desc_fmt \
                         ":\n  got  %s\n  want %s", cd->name, lone_ok,  \
                         hex (in, n), __VA_ARGS__, sb_str (&c.full), ref); \
            }                                                           \
          good = false;                                                 \
        }                                                               \
      collect_free (&c);                                                \
    }                                                                   \
  while (0)

  if (n > 64)
    abort ();

  /* Whole, with small pivots.  */
  decode_cuts (&c, cd, lone_ok, in, n, NULL, 0, false, 1);
  TRY ("%s", "whole, pivot 1");
  decode_cuts (&c, cd, lone_ok, in, n, NULL, 0, true, 2);
  TRY ("%s", "whole + empty last, pivot 2");
  decode_cuts (&c, cd, lone_ok, in, n, NULL, 0, false, 3);
  TRY ("%s", "whole, pivot 3");

  /* Byte by byte.  */
  for (k = 0; k + 1 < n; k++)
    cuts[k] = k + 1;
  decode_cuts (&c, cd, lone_ok, in, n, cuts, n ? n - 1 : 0, false, 256);
  TRY ("%s", "byte by byte");
  for (k = 0; k < n; k++)
    cuts[k] = k + 1;
  decode_cuts (&c, cd, lone_ok, in, n, cuts, n, true, 1);
  TRY ("%s", "byte by byte + empty last, pivot 1");

  /* Byte by byte with empty chunks in between (and at the start).  */
  for (k = 0; k <= n; k++)
    cuts[2 * k] = cuts[2 * k + 1] = k;
  decode_cuts (&c, cd, lone_ok, in, n, cuts, 2 * n + 2, true, 2);
  TRY ("%s", "byte by byte with empty chunks, pivot 2");

  /* Two calls, at every split point; and with an empty chunk there.  */
  for (k = 0; k <= n; k++)
    {
      cuts[0] = k;
      decode_cuts (&c, cd, lone_ok, in, n, cuts, 1, false, 256);
      TRY ("at %zu", k);
      cuts[0] = cuts[1] = k;
      decode_cuts (&c, cd, lone_ok, in, n, cuts, 2, true, 1);
      TRY ("at %zu with an empty chunk, pivot 1", k);
    }

  /* Three calls, at every pair of split points (short inputs).  */
  if (n <= 20)
    for (k = 1; k < n; k++)
      for (j = k + 1; j < n; j++)
        {
          cuts[0] = k;
          cuts[1] = j;
          decode_cuts (&c, cd, lone_ok, in, n, cuts, 2, false, 256);
          TRY ("at %zu and %zu", k, j);
        }

  /* Random chunk sizes and pivot sizes.  */
  for (j = 0; j < 4; j++)
    {
      size_t nc = 0, pos = 0, cap = 1 + rng () % 4;
      while (nc < COUNT (cuts) - 1)
        {
          pos += rng () % 5;
          if (pos >= n)
            break;
          cuts[nc++] = pos;
        }
      decode_cuts (&c, cd, lone_ok, in, n, cuts, nc, rng () % 2, cap);
      TRY ("random %zu (%zu chunks, pivot %zu)", j, nc + 1, cap);
    }
#undef TRY
  (void) pattern;
  return good;
}

/* Check that the values and errors of the whole decode cover the input
   exactly, in order, and that each value encodes back to its own bytes
   in the byte order the decoder used: no byte lost, none invented, no
   overlong or ill-formed form accepted.  */
static bool
covers_input (struct codec const *cd, bool lone_ok, uint8_t const *in,
              size_t n, struct sb *why)
{
  ucs4_t cp[128];
  int64_t off[128];
  uint8_t nb[128];
  struct pivot p = { cp, off, nb, 0, COUNT (cp) };
  struct decoder d;
  struct encoder e;
  struct codec re;
  size_t pos = 0, consumed, i, len;
  enum decode_status st;

  decoder_init (&d, cd);
  d.lone_surrogates_ok = lone_ok;
  for (;;)
    {
      consumed = n - pos;
      p.len = 0;
      st = cd->decode (&d, in + pos, &consumed, true, &p);
      re = *cd;
      if (d.endian != ENDIAN_UNKNOWN)
        re.endian = d.endian;
      encoder_init (&e, &re);
      for (i = 0; i < p.len; i++)
        {
          uint8_t buf[MAX_ENCODED];
          size_t one = 1;
          int64_t at = (int64_t) pos + off[i];
          len = 0;
          if (cp[i] > 0x10FFFF
              || (!lone_ok && 0xD800 <= cp[i] && cp[i] < 0xE000))
            {
              sb_printf (why, "%s: value %" PRIX32 " is not allowed",
                         cd->name, cp[i]);
              return false;
            }
          if (re.encode (&e, &cp[i], &one, buf, &len, sizeof buf)
              != ENCODE_INPUT_EMPTY
              || at < 0 || (size_t) at + len > n
              || memcmp (in + at, buf, len) != 0)
            {
              sb_printf (why, "%s [%s]: value %" PRIX32 " at %" PRId64
                         " does not encode back to its input bytes",
                         cd->name, hex (in, n), cp[i], at);
              return false;
            }
          if (i == 0 && at != (int64_t) pos)
            {
              sb_printf (why, "%s [%s]: gap before offset %" PRId64,
                         cd->name, hex (in, n), at);
              return false;
            }
          if (i + 1 < p.len && off[i + 1] != off[i] + (int64_t) len)
            {
              sb_printf (why, "%s [%s]: gap or overlap after offset %"
                         PRId64, cd->name, hex (in, n), at);
              return false;
            }
          if (i + 1 == p.len)
            {
              /* The next item starts right after this value.  */
              int64_t end = at + (int64_t) len;
              if (st == DECODE_MALFORMED
                  && (int64_t) pos + d.error.rel_offset != end)
                {
                  sb_printf (why, "%s [%s]: error not right after the "
                             "value at %" PRId64, cd->name, hex (in, n), at);
                  return false;
                }
              if (st == DECODE_INPUT_EMPTY && end != (int64_t) n)
                {
                  sb_printf (why, "%s [%s]: input not covered after %"
                             PRId64, cd->name, hex (in, n), at);
                  return false;
                }
            }
        }
      if (p.len == 0 && st == DECODE_MALFORMED
          && d.error.rel_offset != 0)
        {
          sb_printf (why, "%s [%s]: gap before the error at %" PRId64,
                     cd->name, hex (in, n), (int64_t) pos
                     + d.error.rel_offset);
          return false;
        }
      if (st == DECODE_MALFORMED)
        {
          int64_t end = (int64_t) pos + d.error.rel_offset
                        + (int64_t) d.error.len;
          if (end != (int64_t) (pos + consumed))
            {
              sb_printf (why, "%s [%s]: the error at %" PRId64
                         " does not end where the input consumed ends",
                         cd->name, hex (in, n),
                         (int64_t) pos + d.error.rel_offset);
              return false;
            }
        }
      if (st == DECODE_OUTPUT_FULL)
        {
          sb_printf (why, "%s: pivot of 128 full", cd->name);
          return false;
        }
      pos += consumed;
      if (st == DECODE_INPUT_EMPTY)
        {
          if (pos == n)
            return true;
          sb_printf (why, "%s [%s]: input left", cd->name, hex (in, n));
          return false;
        }
    }
}

/* ------------------------------------------------------------------ */
/* Every decoder configuration, and every input the fixed tests used.  */

struct config
{
  char const *codec;
  bool lone_ok;
};

static struct config const configs[] = {
  { "UTF-8", false }, { "UTF-8", true },
  { "UTF-16LE", false }, { "UTF-16LE", true },
  { "UTF-16BE", false }, { "UTF-16BE", true },
  { "UTF-16", false }, { "UTF-16", true },
  { "UTF-32LE", false }, { "UTF-32LE", true },
  { "UTF-32BE", false }, { "UTF-32BE", true },
  { "UTF-32", false }, { "UTF-32", true },
};

struct saved_input
{
  uint8_t *bytes;
  size_t n;
};

static struct saved_input saved[2048];
static size_t nsaved;

static void
save_input (uint8_t const *in, size_t n)
{
  size_t i;
  for (i = 0; i < nsaved; i++)
    if (saved[i].n == n && memcmp (saved[i].bytes, in, n) == 0)
      return;
  if (nsaved == COUNT (saved) || n > 64)
    return;
  saved[nsaved].bytes = malloc (n + 1);
  if (!saved[nsaved].bytes)
    abort ();
  memcpy (saved[nsaved].bytes, in, n);
  saved[nsaved].n = n;
  nsaved++;
}

/* Check IN under every decoder configuration: splits agree and the
   values cover the input.  */
static bool
all_decoders_agree (uint8_t const *in, size_t n, struct sb *why)
{
  size_t k;
  for (k = 0; k < COUNT (configs); k++)
    {
      struct codec const *cd = codec (configs[k].codec);
      struct collect ref;
      bool good;
      decode_whole (&ref, cd, configs[k].lone_ok, in, n);
      good = splits_agree (cd, configs[k].lone_ok, in, n, sb_str (&ref.full),
                           why)
             && covers_input (cd, configs[k].lone_ok, in, n, why)
             && strchr (sb_str (&ref.full), '?') == NULL;
      if (!good && why->len == 0)
        sb_printf (why, "%s: contract broken: %s", cd->name,
                   sb_str (&ref.full));
      collect_free (&ref);
      if (!good)
        return false;
    }
  return true;
}

/* Decode IN with codec NAME and compare with WANT.  If an item of WANT
   that is a value carries an offset ("61@0"), offsets of values are
   compared too.  Then check that all split patterns agree.  */
static void
check_decode (char const *name, bool lone_ok, uint8_t const *in, size_t n,
              char const *want, char const *desc)
{
  struct codec const *cd = codec (name);
  struct collect c;
  struct sb why = { NULL, 0, 0 };
  bool offsets = false;
  char const *p;
  char const *got;

  for (p = want; *p; )
    {
      size_t len = strcspn (p, " ");
      if (*p != '!' && memchr (p, '@', len))
        offsets = true;
      p += len;
      p += strspn (p, " ");
    }
  decode_whole (&c, cd, lone_ok, in, n);
  got = offsets ? sb_str (&c.full) : sb_str (&c.plain);
  if (!ok (strcmp (got, want) == 0, "%s%s: %s: [%s]", name,
           lone_ok ? " (lone surrogates ok)" : "", desc, hex (in, n)))
    diag ("got  %s\nwant %s", got, want);
  if (!ok (splits_agree (cd, lone_ok, in, n, sb_str (&c.full), &why),
           "%s%s: %s: every split gives the same", name,
           lone_ok ? " (lone surrogates ok)" : "", desc))
    diag ("%s", sb_str (&why));
  collect_free (&c);
  sb_free (&why);
  save_input (in, n);
}

/* ------------------------------------------------------------------ */
/* UTF-8 decoding.  */

static void
test_utf8_decode (void)
{
  static struct
  {
    uint8_t b[4];
    size_t n;
    char const *want;
  } const boundaries[] = {
    { { 0x7F }, 1, "7F" },
    { { 0xC2, 0x80 }, 2, "80" },
    { { 0xDF, 0xBF }, 2, "7FF" },
    { { 0xE0, 0xA0, 0x80 }, 3, "800" },
    { { 0xED, 0x9F, 0xBF }, 3, "D7FF" },
    { { 0xEE, 0x80, 0x80 }, 3, "E000" },
    { { 0xEF, 0xBF, 0xBF }, 3, "FFFF" },
    { { 0xF0, 0x90, 0x80, 0x80 }, 4, "10000" },
    { { 0xF4, 0x8F, 0xBF, 0xBF }, 4, "10FFFF" },
    { { 0xF4, 0x90, 0x80, 0x80 }, 4,
      "!F4@0:BIG !90@1:CONT !80@2:CONT !80@3:CONT" },
  };
  static struct
  {
    uint8_t b[6];
    size_t n;
    char const *want;
  } const overlongs[] = {
    { { 0xC0, 0x80 }, 2, "!C0@0:OVERLONG !80@1:CONT" },
    { { 0xC1, 0xBF }, 2, "!C1@0:OVERLONG !BF@1:CONT" },
    { { 0xC0, 0xAF }, 2, "!C0@0:OVERLONG !AF@1:CONT" },
    { { 0xE0, 0x80, 0x80 }, 3, "!E0@0:OVERLONG !80@1:CONT !80@2:CONT" },
    { { 0xE0, 0x9F, 0xBF }, 3, "!E0@0:OVERLONG !9F@1:CONT !BF@2:CONT" },
    { { 0xE0, 0x80, 0xAF }, 3, "!E0@0:OVERLONG !80@1:CONT !AF@2:CONT" },
    { { 0xF0, 0x80, 0x80, 0x80 }, 4,
      "!F0@0:OVERLONG !80@1:CONT !80@2:CONT !80@3:CONT" },
    { { 0xF0, 0x8F, 0xBF, 0xBF }, 4,
      "!F0@0:OVERLONG !8F@1:CONT !BF@2:CONT !BF@3:CONT" },
    { { 0xF8, 0x88, 0x80, 0x80, 0x80 }, 5,
      "!F8@0:BIG !88@1:CONT !80@2:CONT !80@3:CONT !80@4:CONT" },
    { { 0xFC, 0x84, 0x80, 0x80, 0x80, 0x80 }, 6,
      "!FC@0:BIG !84@1:CONT !80@2:CONT !80@3:CONT !80@4:CONT !80@5:CONT" },
  };
  static struct
  {
    uint8_t b[6];
    size_t n;
    char const *want;
  } const truncated[] = {
    { { 0x61, 0xC2 }, 2, "61@0 !C2@1:TRUNC" },
    { { 0x61, 0xDF }, 2, "61@0 !DF@1:TRUNC" },
    { { 0x61, 0xE1 }, 2, "61@0 !E1@1:TRUNC" },
    { { 0x61, 0xE1, 0x80 }, 3, "61@0 !E1.80@1:TRUNC" },
    { { 0x61, 0xE0, 0xA0 }, 3, "61@0 !E0.A0@1:TRUNC" },
    { { 0x61, 0xED, 0x9F }, 3, "61@0 !ED.9F@1:TRUNC" },
    { { 0x61, 0xEF, 0xBF }, 3, "61@0 !EF.BF@1:TRUNC" },
    { { 0x61, 0xF1 }, 2, "61@0 !F1@1:TRUNC" },
    { { 0x61, 0xF1, 0x80 }, 3, "61@0 !F1.80@1:TRUNC" },
    { { 0x61, 0xF1, 0x80, 0x80 }, 4, "61@0 !F1.80.80@1:TRUNC" },
    { { 0x61, 0xF0, 0x90, 0x80 }, 4, "61@0 !F0.90.80@1:TRUNC" },
    { { 0x61, 0xF4, 0x8F, 0xBF }, 4, "61@0 !F4.8F.BF@1:TRUNC" },
    { { 0xF0, 0x90, 0x80, 0x41 }, 4, "!F0.90.80@0:TRUNC 41@3" },
    { { 0xE1, 0x80, 0xF1, 0x80, 0x80, 0xC2 }, 6,
      "!E1.80@0:TRUNC !F1.80.80@2:TRUNC !C2@5:TRUNC" },
    { { 0xE1, 0x80, 0xE1, 0x80, 0x80 }, 5,
      "!E1.80@0:TRUNC 1000@2" },
    { { 0xC2, 0xC2, 0x80 }, 3, "!C2@0:TRUNC 80@1" },
  };
  size_t i;
  int b;
  struct collect c;

  check_decode ("UTF-8", false,
                BYTES (0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80,
                       0x63, 0x80, 0xBF, 0x64),
                "61@0 !F1.80.80@1:TRUNC !E1.80@4:TRUNC !C2@6:TRUNC 62@7 "
                "!80@8:CONT 63@9 !80@10:CONT !BF@11:CONT 64@12",
                "Unicode Table 3-8 example");
  check_decode ("UTF-8", false, STR (""), "", "empty input");
  check_decode ("UTF-8", false, STR ("a\0b\n"), "61@0 0@1 62@2 A@3",
                "ASCII with NUL and newline");
  check_decode ("UTF-8", false,
                BYTES (0x7F, 0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80,
                       0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80, 0xEF, 0xBF, 0xBF,
                       0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF),
                "7F@0 80@1 7FF@3 800@5 D7FF@8 E000@11 FFFF@14 10000@17 "
                "10FFFF@21", "every boundary in a row, with offsets");
  for (i = 0; i < COUNT (boundaries); i++)
    check_decode ("UTF-8", false, boundaries[i].b, boundaries[i].n,
                  boundaries[i].want, "boundary");
  for (i = 0; i < COUNT (overlongs); i++)
    check_decode ("UTF-8", false, overlongs[i].b, overlongs[i].n,
                  overlongs[i].want, "overlong");
  check_decode ("UTF-8", false, BYTES (0xED, 0xA0, 0x80),
                "!ED@0:SURR !A0@1:CONT !80@2:CONT", "surrogate D800");
  check_decode ("UTF-8", false, BYTES (0xED, 0xBF, 0xBF),
                "!ED@0:SURR !BF@1:CONT !BF@2:CONT", "surrogate DFFF");
  check_decode ("UTF-8", true, BYTES (0xED, 0xA0, 0x80),
                "!ED@0:SURR !A0@1:CONT !80@2:CONT",
                "lone_surrogates_ok does not make UTF-8 surrogates valid");
  check_decode ("UTF-8", false,
                BYTES (0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80),
                "!ED@0:SURR !A0@1:CONT !BD@2:CONT !ED@3:SURR !B8@4:CONT "
                "!80@5:CONT", "surrogate pair D83D DE00 (CESU-8 form)");
  for (i = 0; i < COUNT (truncated); i++)
    check_decode ("UTF-8", false, truncated[i].b, truncated[i].n,
                  truncated[i].want, "truncated");
  check_decode ("UTF-8", false, BYTES (0xEF, 0xBF, 0xBE, 0xEF, 0xBF, 0xBF,
                                        0xEF, 0xB7, 0x90, 0xF4, 0x8F, 0xBF,
                                        0xBE),
                "FFFE@0 FFFF@3 FDD0@6 10FFFE@9", "noncharacters are valid");
  check_decode ("UTF-8", false, BYTES (0xEF, 0xBB, 0xBF, 0x41),
                "FEFF@0 41@3", "a BOM is decoded as U+FEFF");
  check_decode ("UTF-8", false, BYTES (0xFE, 0xFF, 0xC0, 0xC1, 0xF5, 0xFD),
                "!FE@0:INVALID !FF@1:INVALID !C0@2:OVERLONG !C1@3:OVERLONG "
                "!F5@4:BIG !FD@5:BIG", "impossible bytes");

  /* Each byte 80..FF alone, followed by 80, and followed by 41.  */
  for (b = 0x80; b <= 0xFF; b++)
    {
      char const *kind = (b < 0xC0 ? "CONT" : b < 0xC2 ? "OVERLONG"
                          : b < 0xF5 ? "TRUNC" : b < 0xFE ? "BIG"
                          : "INVALID");
      char want[64];
      char desc[64];
      uint8_t in[2];

      in[0] = (uint8_t) b;
      snprintf (want, sizeof want, "!%02X@0:%s", b, kind);
      snprintf (desc, sizeof desc, "lead byte %02X alone", b);
      check_decode ("UTF-8", false, in, 1, want, desc);

      in[1] = 0x41;
      snprintf (want, sizeof want, "!%02X@0:%s 41@1", b, kind);
      snprintf (desc, sizeof desc, "lead byte %02X then 41", b);
      check_decode ("UTF-8", false, in, 2, want, desc);

      in[1] = 0x80;
      if (0xC2 <= b && b <= 0xDF)
        snprintf (want, sizeof want, "%X@0", (b & 0x1F) << 6);
      else if (b == 0xE0 || b == 0xF0)
        snprintf (want, sizeof want, "!%02X@0:OVERLONG !80@1:CONT", b);
      else if (0xE1 <= b && b <= 0xF4)
        snprintf (want, sizeof want, "!%02X.80@0:TRUNC", b);
      else
        snprintf (want, sizeof want, "!%02X@0:%s !80@1:CONT", b, kind);
      snprintf (desc, sizeof desc, "lead byte %02X then 80", b);
      check_decode ("UTF-8", false, in, 2, want, desc);
    }

  /* Newlines are counted in the decoder.  */
  decode_whole (&c, codec ("UTF-8"), false, STR ("\n\na\n\xC2\x85\n"));
  ok (c.dec.newlines == 4, "UTF-8: decoder counts 4 newlines (got %"
      PRIu64 ")", c.dec.newlines);
  collect_free (&c);
}

/* ------------------------------------------------------------------ */
/* UTF-16 decoding.  */

static void
test_utf16_decode (void)
{
  struct collect c;

  check_decode ("UTF-16LE", false,
                BYTES (0x41, 0x00, 0xE9, 0x00, 0xAC, 0x20, 0xFF, 0xFF),
                "41@0 E9@2 20AC@4 FFFF@6", "BMP characters");
  check_decode ("UTF-16LE", false,
                BYTES (0x00, 0xD8, 0x00, 0xDC, 0x3D, 0xD8, 0x00, 0xDE,
                       0xFF, 0xDB, 0xFF, 0xDF),
                "10000@0 1F600@4 10FFFF@8", "surrogate pairs");
  check_decode ("UTF-16LE", false, BYTES (0xFF, 0xD7, 0x00, 0xE0),
                "D7FF@0 E000@2", "around the surrogates");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xD8, 0x41, 0x00),
                "!00.D8@0:LONE 41@2", "lone high then a non-surrogate");
  check_decode ("UTF-16LE", false,
                BYTES (0x00, 0xD8, 0x00, 0xD8, 0x00, 0xDC),
                "!00.D8@0:LONE 10000@2", "high, high, low");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xD8, 0x00, 0xE0),
                "!00.D8@0:LONE E000@2", "high then E000");
  check_decode ("UTF-16LE", false, BYTES (0xFF, 0xDB, 0xFF, 0xD7),
                "!FF.DB@0:LONE D7FF@2", "high then D7FF");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xDC, 0x41, 0x00),
                "!00.DC@0:LONE 41@2", "lone low");
  check_decode ("UTF-16LE", false, BYTES (0x41, 0x00, 0xFF, 0xDF),
                "41@0 !FF.DF@2:LONE", "lone low at the end");
  check_decode ("UTF-16LE", false,
                BYTES (0x00, 0xDC, 0x00, 0xD8, 0x00, 0xDC),
                "!00.DC@0:LONE 10000@2", "low, high, low");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xDC, 0x00, 0xD8),
                "!00.DC@0:LONE !00.D8@2:TRUNC", "low, then high at the end");
  check_decode ("UTF-16LE", false, BYTES (0x41, 0x00, 0x00, 0xD8),
                "41@0 !00.D8@2:TRUNC", "high at the end (2 bytes)");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xD8, 0x41),
                "!00.D8.41@0:TRUNC", "high and one byte at the end");
  check_decode ("UTF-16LE", false, BYTES (0x00, 0xD8, 0x00),
                "!00.D8.00@0:TRUNC", "high and 00 at the end");
  check_decode ("UTF-16LE", false, BYTES (0x41, 0x00, 0x42),
                "41@0 !42@2:TRUNC", "odd trailing byte");
  check_decode ("UTF-16LE", false, BYTES (0x41), "!41@0:TRUNC",
                "a single byte");
  check_decode ("UTF-16LE", false, STR (""), "", "empty input");
  check_decode ("UTF-16LE", false, BYTES (0xFF, 0xFE, 0x41, 0x00),
                "FEFF@0 41@2", "a BOM is decoded as U+FEFF");
  check_decode ("UTF-16LE", false, BYTES (0xFE, 0xFF, 0x41, 0x00),
                "FFFE@0 41@2", "FE FF is U+FFFE in little-endian");

  check_decode ("UTF-16LE", true, BYTES (0x00, 0xD8, 0x41, 0x00),
                "D800@0 41@2", "lone high passes");
  check_decode ("UTF-16LE", true, BYTES (0x41, 0x00, 0x00, 0xD8),
                "41@0 D800@2", "high at the very end passes");
  check_decode ("UTF-16LE", true, BYTES (0x00, 0xDC, 0x80, 0xDC),
                "DC00@0 DC80@2", "lone lows pass");
  check_decode ("UTF-16LE", true,
                BYTES (0x00, 0xDC, 0x00, 0xD8, 0x00, 0xDC),
                "DC00@0 10000@2", "pairs are still joined");
  check_decode ("UTF-16LE", true, BYTES (0x00, 0xD8, 0x41),
                "D800@0 !41@2:TRUNC", "high then odd byte");
  check_decode ("UTF-16LE", true, BYTES (0x00, 0xD8, 0x00, 0xD8),
                "D800@0 D800@2", "two highs");

  check_decode ("UTF-16BE", false,
                BYTES (0x00, 0x41, 0x20, 0xAC, 0xD8, 0x3D, 0xDE, 0x00,
                       0xDB, 0xFF, 0xDF, 0xFF),
                "41@0 20AC@2 1F600@4 10FFFF@8", "BMP and pairs");
  check_decode ("UTF-16BE", false, BYTES (0xD8, 0x00, 0x00, 0x41),
                "!D8.00@0:LONE 41@2", "lone high then a non-surrogate");
  check_decode ("UTF-16BE", false, BYTES (0xDC, 0x00, 0x00, 0x41),
                "!DC.00@0:LONE 41@2", "lone low");
  check_decode ("UTF-16BE", false, BYTES (0x00, 0x41, 0xD8, 0x00),
                "41@0 !D8.00@2:TRUNC", "high at the end");
  check_decode ("UTF-16BE", false, BYTES (0xD8, 0x00, 0x00),
                "!D8.00.00@0:TRUNC", "high and one byte at the end");
  check_decode ("UTF-16BE", false, BYTES (0x00, 0x41, 0x42),
                "41@0 !42@2:TRUNC", "odd trailing byte");
  check_decode ("UTF-16BE", true, BYTES (0xD8, 0x00, 0x00, 0x41),
                "D800@0 41@2", "lone high passes");
  check_decode ("UTF-16BE", true, BYTES (0x00, 0x41, 0xDB, 0xFF),
                "41@0 DBFF@2", "high at the very end passes");

  check_decode ("UTF-16", false, BYTES (0xFF, 0xFE, 0x41, 0x00),
                "FEFF@0 41@2", "FF FE: little-endian, BOM decoded");
  check_decode ("UTF-16", false, BYTES (0xFE, 0xFF, 0x00, 0x41),
                "FEFF@0 41@2", "FE FF: big-endian, BOM decoded");
  check_decode ("UTF-16", false, BYTES (0x00, 0x41, 0x00, 0x42),
                "41@0 42@2", "no BOM: big-endian");
  check_decode ("UTF-16", false, BYTES (0x41, 0x00),
                "4100@0", "no BOM: big-endian even if it looks LE");
  check_decode ("UTF-16", false, BYTES (0xFF, 0xFE, 0xFF, 0xFE),
                "FEFF@0 FEFF@2", "only the first unit decides");
  check_decode ("UTF-16", false,
                BYTES (0xFF, 0xFE, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0xD8),
                "FEFF@0 1F600@2 !00.D8@6:TRUNC", "LE pair and a high at end");
  check_decode ("UTF-16", false, BYTES (0xFF), "!FF@0:TRUNC",
                "a single byte");
  check_decode ("UTF-16", true, BYTES (0xFE, 0xFF, 0xD8, 0x00, 0x00, 0x41),
                "FEFF@0 D800@2 41@4", "BE, lone high passes");

  decode_whole (&c, codec ("UTF-16"), false, BYTES (0xFF, 0xFE, 0x41, 0x00));
  ok (c.dec.endian == ENDIAN_LITTLE, "UTF-16: FF FE sets the decoder "
      "little-endian");
  collect_free (&c);
  decode_whole (&c, codec ("UTF-16"), false, BYTES (0xFE, 0xFF, 0x00, 0x41));
  ok (c.dec.endian == ENDIAN_BIG, "UTF-16: FE FF sets the decoder "
      "big-endian");
  collect_free (&c);
  decode_whole (&c, codec ("UTF-16"), false, BYTES (0x41, 0x00));
  ok (c.dec.endian == ENDIAN_BIG, "UTF-16: no BOM sets the decoder "
      "big-endian");
  collect_free (&c);
  decode_whole (&c, codec ("UTF-16LE"), false,
                BYTES (0x0A, 0x00, 0x0A, 0x20, 0x0A, 0x00));
  ok (c.dec.newlines == 2, "UTF-16LE: decoder counts 2 newlines (got %"
      PRIu64 ")", c.dec.newlines);
  collect_free (&c);
}

/* ------------------------------------------------------------------ */
/* UTF-32 decoding.  */

static void
test_utf32_decode (void)
{
  check_decode ("UTF-32LE", false,
                BYTES (0x41, 0, 0, 0, 0xFF, 0xD7, 0, 0, 0x00, 0xE0, 0, 0,
                       0x00, 0xF6, 0x01, 0, 0xFF, 0xFF, 0x10, 0),
                "41@0 D7FF@4 E000@8 1F600@12 10FFFF@16", "valid units");
  check_decode ("UTF-32LE", false, BYTES (0x00, 0x00, 0x11, 0x00),
                "!00.00.11.00@0:BIG", "110000");
  check_decode ("UTF-32LE", false, BYTES (0xFF, 0xFF, 0xFF, 0xFF, 0x41, 0,
                                           0, 0),
                "!FF.FF.FF.FF@0:BIG 41@4", "FFFFFFFF");
  check_decode ("UTF-32LE", true, BYTES (0x00, 0x00, 0x11, 0x00),
                "!00.00.11.00@0:BIG",
                "110000 even with lone surrogates ok");
  check_decode ("UTF-32LE", false, BYTES (0x00, 0xD8, 0, 0, 0xFF, 0xDF, 0,
                                           0),
                "!00.D8.00.00@0:SURR !FF.DF.00.00@4:SURR",
                "surrogate units");
  check_decode ("UTF-32LE", true, BYTES (0x00, 0xD8, 0, 0, 0xFF, 0xDF, 0,
                                          0),
                "D800@0 DFFF@4", "surrogate units pass");
  check_decode ("UTF-32LE", false, BYTES (0x41, 0, 0, 0, 0x42),
                "41@0 !42@4:TRUNC", "1-byte tail");
  check_decode ("UTF-32LE", false, BYTES (0x41, 0, 0, 0, 0x42, 0),
                "41@0 !42.00@4:TRUNC", "2-byte tail");
  check_decode ("UTF-32LE", false, BYTES (0x41, 0, 0, 0, 0x42, 0, 0),
                "41@0 !42.00.00@4:TRUNC", "3-byte tail");
  check_decode ("UTF-32LE", false, BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0),
                "FEFF@0 41@4", "a BOM is decoded as U+FEFF");
  check_decode ("UTF-32LE", false, STR (""), "", "empty input");

  check_decode ("UTF-32BE", false,
                BYTES (0, 0, 0, 0x41, 0, 0x01, 0xF6, 0x00, 0, 0x10, 0xFF,
                       0xFF),
                "41@0 1F600@4 10FFFF@8", "valid units");
  check_decode ("UTF-32BE", false, BYTES (0, 0x11, 0, 0),
                "!00.11.00.00@0:BIG", "110000");
  check_decode ("UTF-32BE", false, BYTES (0, 0, 0xDC, 0x80),
                "!00.00.DC.80@0:SURR", "surrogate unit");
  check_decode ("UTF-32BE", true, BYTES (0, 0, 0xDC, 0x80),
                "DC80@0", "surrogate unit passes");
  check_decode ("UTF-32BE", false, BYTES (0, 0, 0, 0x41, 0, 0),
                "41@0 !00.00@4:TRUNC", "2-byte tail");

  check_decode ("UTF-32", false, BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0),
                "FEFF@0 41@4", "FF FE 00 00: little-endian");
  check_decode ("UTF-32", false, BYTES (0, 0, 0xFE, 0xFF, 0, 0, 0, 0x41),
                "FEFF@0 41@4", "00 00 FE FF: big-endian");
  check_decode ("UTF-32", false, BYTES (0, 0, 0, 0x41),
                "41@0", "no BOM: big-endian");
  check_decode ("UTF-32", false, BYTES (0x41, 0, 0, 0),
                "!41.00.00.00@0:BIG", "no BOM: big-endian even if LE-like");
  check_decode ("UTF-32", false, BYTES (0xFF, 0xFE, 0x41, 0x00),
                "!FF.FE.41.00@0:BIG",
                "FF FE without 00 00 is not a UTF-32 BOM");
  check_decode ("UTF-32", false, BYTES (0xFF, 0xFE, 0x00, 0x01, 0x41, 0, 0,
                                        0),
                "!FF.FE.00.01@0:BIG !41.00.00.00@4:BIG",
                "FF FE 00 01 is not a BOM: big-endian");
  check_decode ("UTF-32", false, BYTES (0xFF, 0xFE, 0),
                "!FF.FE.00@0:TRUNC", "3-byte input");
}

/* ------------------------------------------------------------------ */
/* Pivot and status details.  */

static void
test_decode_contract (void)
{
  ucs4_t cp[4] = { 0x1234, 0, 0, 0 };
  int64_t off[4] = { 77, 0, 0, 0 };
  uint8_t nb[4] = { 1, 0, 0, 0 };
  struct pivot p = { cp, off, nb, 1, 4 };
  struct decoder d;
  struct codec const *u8 = codec ("UTF-8");
  size_t n;
  enum decode_status st;

  decoder_init (&d, u8);
  n = 2;
  st = u8->decode (&d, (uint8_t const *) "AB", &n, true, &p);
  ok (st == DECODE_INPUT_EMPTY && n == 2 && p.len == 3 && cp[0] == 0x1234
      && off[0] == 77 && cp[1] == 'A' && off[1] == 0 && cp[2] == 'B'
      && off[2] == 1, "decode appends after the pivot's length");

  p.len = 4;
  n = 2;
  st = u8->decode (&d, (uint8_t const *) "CD", &n, true, &p);
  ok (st == DECODE_OUTPUT_FULL && n == 0 && p.len == 4,
      "a full pivot: DECODE_OUTPUT_FULL, nothing consumed");

  decoder_init (&d, u8);
  p.len = 0;
  n = 3;
  st = u8->decode (&d, (uint8_t const *) "A\xE2\x82", &n, false, &p);
  ok (st == DECODE_INPUT_EMPTY && n == 3 && p.len == 1 && d.carry_len == 2,
      "a partial sequence at the end of a buffer is consumed and held");
  p.len = 0;
  n = 2;
  st = u8->decode (&d, (uint8_t const *) "\xAC" "B", &n, false, &p);
  ok (st == DECODE_INPUT_EMPTY && n == 2 && p.len == 2 && cp[0] == 0x20AC
      && off[0] == -2 && cp[1] == 'B' && off[1] == 1 && d.carry_len == 0,
      "it is finished by the next buffer, at a negative offset");

  decoder_init (&d, u8);
  p.len = 0;
  n = 2;
  st = u8->decode (&d, (uint8_t const *) "\xF1\x80", &n, false, &p);
  p.len = 0;
  n = 2;
  st = u8->decode (&d, (uint8_t const *) "\x80" "A", &n, false, &p);
  ok (st == DECODE_MALFORMED && d.error.len == 3 && d.error.rel_offset == -2
      && d.error.kind == ERR_TRUNCATED && n == 1 && p.len == 0,
      "an error spanning buffers: rel_offset -2, 3 bytes, 1 consumed "
      "(got len %u rel %" PRId64 " n %zu)", d.error.len,
      d.error.rel_offset, n);

  decoder_init (&d, u8);
  p.len = 0;
  n = 4;
  st = u8->decode (&d, (uint8_t const *) "ab\x80" "c", &n, true, &p);
  ok (st == DECODE_MALFORMED && n == 3 && p.len == 2 && d.error.len == 1
      && d.error.rel_offset == 2 && d.error.kind == ERR_CONTINUATION,
      "DECODE_MALFORMED: consumed includes the error, pivot what came "
      "before");

  decoder_init (&d, codec ("UTF-16"));
  ok (d.endian == ENDIAN_UNKNOWN && d.carry_len == 0 && d.newlines == 0
      && !d.lone_surrogates_ok, "decoder_init: UTF-16 starts undecided");
  decoder_init (&d, codec ("UTF-16BE"));
  ok (d.endian == ENDIAN_BIG, "decoder_init: UTF-16BE is big-endian");
  decoder_init (&d, codec ("UTF-32LE"));
  ok (d.endian == ENDIAN_LITTLE, "decoder_init: UTF-32LE is little-endian");
}

/* ------------------------------------------------------------------ */
/* Encoders.  */

static void
check_encode (char const *name, ucs4_t const *cp, size_t n,
              uint8_t const *want, size_t wantlen,
              enum encode_status want_st, size_t want_n, char const *desc)
{
  struct codec const *cd = codec (name);
  struct encoder e;
  uint8_t out[512];
  size_t count = n, outlen = 3;
  enum encode_status st;

  memcpy (out, "xyz", 3);
  encoder_init (&e, cd);
  st = cd->encode (&e, cp, &count, out, &outlen, sizeof out);
  if (!ok (st == want_st && count == want_n && outlen == 3 + wantlen
           && memcmp (out, "xyz", 3) == 0
           && (wantlen == 0 || memcmp (out + 3, want, wantlen) == 0),
           "encode %s: %s", name, desc))
    diag ("got status %d, n %zu, [%s]\nwant status %d, n %zu, [%s]",
          (int) st, count, hex (out + 3, outlen - 3), (int) want_st, want_n,
          hex (want, wantlen));
}

static void
test_encoders (void)
{
  struct codec const *u8 = codec ("UTF-8");
  struct encoder e;
  uint8_t out[256], one[256];
  size_t count, outlen, onelen, i;
  enum encode_status st;
  bool good;
  static ucs4_t const text[] = {
    0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000,
    0x1F600, 0x10FFFF, 0x0A, 0xE9, 0x20AC, 0x42
  };
  static char const *const wide[] = {
    "UTF-8", "UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE",
    "UTF-32"
  };

  check_encode ("UTF-8", VALS (0x00, 0x41, 0x7F), BYTES (0x00, 0x41, 0x7F),
                ENCODE_INPUT_EMPTY, 3, "ASCII");
  check_encode ("UTF-8", VALS (0x80), BYTES (0xC2, 0x80),
                ENCODE_INPUT_EMPTY, 1, "U+0080");
  check_encode ("UTF-8", VALS (0x7FF), BYTES (0xDF, 0xBF),
                ENCODE_INPUT_EMPTY, 1, "U+07FF");
  check_encode ("UTF-8", VALS (0x800), BYTES (0xE0, 0xA0, 0x80),
                ENCODE_INPUT_EMPTY, 1, "U+0800");
  check_encode ("UTF-8", VALS (0xD7FF), BYTES (0xED, 0x9F, 0xBF),
                ENCODE_INPUT_EMPTY, 1, "U+D7FF");
  check_encode ("UTF-8", VALS (0xE000), BYTES (0xEE, 0x80, 0x80),
                ENCODE_INPUT_EMPTY, 1, "U+E000");
  check_encode ("UTF-8", VALS (0xFFFF), BYTES (0xEF, 0xBF, 0xBF),
                ENCODE_INPUT_EMPTY, 1, "U+FFFF");
  check_encode ("UTF-8", VALS (0x10000), BYTES (0xF0, 0x90, 0x80, 0x80),
                ENCODE_INPUT_EMPTY, 1, "U+10000");
  check_encode ("UTF-8", VALS (0x10FFFF), BYTES (0xF4, 0x8F, 0xBF, 0xBF),
                ENCODE_INPUT_EMPTY, 1, "U+10FFFF");
  check_encode ("UTF-8", VALS (0xFEFF), BYTES (0xEF, 0xBB, 0xBF),
                ENCODE_INPUT_EMPTY, 1, "U+FEFF");
  check_encode ("UTF-8", VALS (0x41, 0xD800, 0x42), BYTES (0x41),
                ENCODE_UNENCODABLE, 1, "lone D800 is unencodable at index 1");
  check_encode ("UTF-8", VALS (0xDFFF), NULL, 0, ENCODE_UNENCODABLE, 0,
                "lone DFFF is unencodable at index 0");
  check_encode ("UTF-8", VALS (0xE9, 0x20AC, 0xDC80), BYTES (0xC3, 0xA9,
                                                            0xE2, 0x82,
                                                            0xAC),
                ENCODE_UNENCODABLE, 2, "DC80 is unencodable at index 2");
  check_encode ("UTF-8", NULL, 0, NULL, 0, ENCODE_INPUT_EMPTY, 0,
                "no values");

  check_encode ("UTF-16LE", VALS (0x41, 0x20AC, 0xFFFF),
                BYTES (0x41, 0x00, 0xAC, 0x20, 0xFF, 0xFF),
                ENCODE_INPUT_EMPTY, 3, "BMP");
  check_encode ("UTF-16LE", VALS (0x10000, 0x1F600, 0x10FFFF),
                BYTES (0x00, 0xD8, 0x00, 0xDC, 0x3D, 0xD8, 0x00, 0xDE,
                       0xFF, 0xDB, 0xFF, 0xDF),
                ENCODE_INPUT_EMPTY, 3, "supplementary as pairs");
  check_encode ("UTF-16LE", VALS (0xD800, 0x41, 0xDC80),
                BYTES (0x00, 0xD8, 0x41, 0x00, 0x80, 0xDC),
                ENCODE_INPUT_EMPTY, 3, "lone surrogates as units");
  check_encode ("UTF-16BE", VALS (0x41, 0x1F600, 0xDBFF),
                BYTES (0x00, 0x41, 0xD8, 0x3D, 0xDE, 0x00, 0xDB, 0xFF),
                ENCODE_INPUT_EMPTY, 3, "BMP, pair, lone unit");
  check_encode ("UTF-16", VALS (0x41, 0x10FFFF),
                BYTES (0x41, 0x00, 0xFF, 0xDB, 0xFF, 0xDF),
                ENCODE_INPUT_EMPTY, 2,
                "unmarked: little-endian, no BOM from the encoder");
  check_encode ("UTF-32LE", VALS (0x41, 0x1F600, 0x10FFFF, 0xD800),
                BYTES (0x41, 0, 0, 0, 0x00, 0xF6, 0x01, 0, 0xFF, 0xFF, 0x10,
                       0, 0x00, 0xD8, 0, 0),
                ENCODE_INPUT_EMPTY, 4, "units, lone surrogate as a unit");
  check_encode ("UTF-32BE", VALS (0x41, 0x1F600, 0xDFFF),
                BYTES (0, 0, 0, 0x41, 0, 0x01, 0xF6, 0x00, 0, 0, 0xDF,
                       0xFF),
                ENCODE_INPUT_EMPTY, 3, "units");
  check_encode ("UTF-32", VALS (0xFEFF, 0x41),
                BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0),
                ENCODE_INPUT_EMPTY, 2, "unmarked: little-endian");

  /* Output room: less than MAX_ENCODED left is "full".  */
  encoder_init (&e, u8);
  count = 3;
  outlen = 10;
  st = u8->encode (&e, text, &count, out, &outlen, 10 + MAX_ENCODED - 1);
  ok (st == ENCODE_OUTPUT_FULL && count == 0 && outlen == 10,
      "encode: cap - outlen = MAX_ENCODED - 1 gives ENCODE_OUTPUT_FULL "
      "at once");
  count = 3;
  outlen = 10;
  st = u8->encode (&e, text, &count, out, &outlen, 10 + MAX_ENCODED);
  ok (st == ENCODE_OUTPUT_FULL && count == 1 && outlen == 11,
      "encode: room for exactly one value: one value, then full "
      "(got n %zu outlen %zu)", count, outlen);
  count = 5;
  outlen = 0;
  st = u8->encode (&e, text, &count, out, &outlen, 4 + MAX_ENCODED);
  ok (st == ENCODE_OUTPUT_FULL && count == 4 && outlen == 6,
      "encode: stops when less than MAX_ENCODED is left (got n %zu "
      "outlen %zu)", count, outlen);

  /* Driving an encoder with a tight output gives the same bytes.  */
  for (i = 0; i < COUNT (wide); i++)
    {
      struct codec const *cd = codec (wide[i]);
      size_t done = 0, calls = 0;
      encoder_init (&e, cd);
      count = COUNT (text);
      onelen = 0;
      st = cd->encode (&e, text, &count, one, &onelen, sizeof one);
      good = st == ENCODE_INPUT_EMPTY && count == COUNT (text);
      encoder_init (&e, cd);
      outlen = 0;
      while (good && done < COUNT (text) && calls++ < 100)
        {
          count = COUNT (text) - done;
          st = cd->encode (&e, text + done, &count, out, &outlen,
                           outlen + MAX_ENCODED + (calls % 3));
          done += count;
          good = st == (done < COUNT (text) ? ENCODE_OUTPUT_FULL
                        : ENCODE_INPUT_EMPTY);
        }
      if (cd->flush)
        outlen += cd->flush (&e, out + outlen);
      ok (good && done == COUNT (text) && outlen == onelen
          && memcmp (out, one, onelen) == 0,
          "encode %s: a tight output buffer gives the same bytes", wide[i]);
    }

  /* Round trip: every boundary value through every encoder and back.  */
  for (i = 0; i < COUNT (wide); i++)
    {
      struct codec const *cd = codec (wide[i]);
      struct collect c;
      struct sb want = { NULL, 0, 0 };
      size_t k;
      encoder_init (&e, cd);
      count = COUNT (text);
      outlen = 0;
      if (strcmp (wide[i], "UTF-16") == 0 || strcmp (wide[i], "UTF-32") == 0)
        {
          /* Unmarked output is little-endian: give the decoder a BOM.  */
          ucs4_t bom = 0xFEFF;
          size_t nb = 1;
          cd->encode (&e, &bom, &nb, out, &outlen, sizeof out);
          sb_printf (&want, "FEFF");
        }
      cd->encode (&e, text, &count, out, &outlen, sizeof out);
      for (k = 0; k < COUNT (text); k++)
        sb_printf (&want, "%s%" PRIX32, want.len ? " " : "", text[k]);
      decode_whole (&c, cd, false, out, outlen);
      if (!ok (strcmp (sb_str (&c.plain), sb_str (&want)) == 0,
               "%s: encode then decode gives the values back", wide[i]))
        diag ("got  %s\nwant %s", sb_str (&c.plain), sb_str (&want));
      collect_free (&c);
      sb_free (&want);
    }

  ok (u8->flush == NULL || u8->flush (&e, out) == 0,
      "UTF-8 encoder holds nothing back");
  encoder_init (&e, codec ("UTF-16LE"));
  ok (e.pending == 0 && e.codec == codec ("UTF-16LE"),
      "encoder_init sets the codec and nothing pending");
}

/* ------------------------------------------------------------------ */
/* Registry.  */

static void
test_registry (void)
{
  static struct
  {
    char const *name, *canonical;
  } const names[] = {
    { "UTF-8", "UTF-8" }, { "utf-8", "UTF-8" }, { "UTF8", "UTF-8" },
    { "utf8", "UTF-8" },
    { "UTF-16LE", "UTF-16LE" }, { "utf-16le", "UTF-16LE" },
    { "UTF-16BE", "UTF-16BE" }, { "Utf-16", "UTF-16" },
    { "UTF-32LE", "UTF-32LE" }, { "ucs-4le", "UTF-32LE" },
    { "UCS-4BE", "UTF-32BE" }, { "utf-32", "UTF-32" },
  };
  static char const *const unknown[] = { "UTF-7", "", "UTF-8 ", "UTF", "8" };
  size_t i;

  for (i = 0; i < COUNT (names); i++)
    {
      struct codec const *c = registry_find (names[i].name);
      ok (c && strcmp (c->name, names[i].canonical) == 0,
          "registry_find (\"%s\") is %s", names[i].name,
          names[i].canonical);
    }
  for (i = 0; i < COUNT (unknown); i++)
    ok (registry_find (unknown[i]) == NULL,
        "registry_find (\"%s\") is NULL", unknown[i]);
  ok ((codec ("UTF-16")->flags & CODEC_BOM_ALWAYS)
      && codec ("UTF-16")->unmarked == codec ("UTF-16BE")
      && (codec ("UTF-32")->flags & CODEC_BOM_ALWAYS)
      && codec ("UTF-32")->unmarked == codec ("UTF-32BE")
      && !(codec ("UTF-16LE")->flags & CODEC_BOM_ALWAYS)
      && !(codec ("UTF-8")->flags & CODEC_BOM_ALWAYS),
      "unmarked UTF-16/UTF-32 always write a BOM, else big-endian");
  ok ((codec ("UTF-8")->flags & CODEC_UNICODE)
      && !(codec ("UTF-8")->flags & CODEC_WIDE_UNITS)
      && (codec ("UTF-16LE")->flags & CODEC_WIDE_UNITS)
      && (codec ("UTF-32BE")->flags & CODEC_WIDE_UNITS)
      && codec ("UTF-16LE")->endian == ENDIAN_LITTLE
      && codec ("UTF-32BE")->endian == ENDIAN_BIG,
      "codec flags and byte orders");
  ok (strcmp (err_kind_text (ERR_CONTINUATION),
              "unexpected continuation byte") == 0
      && strcmp (err_kind_text (ERR_TRUNCATED), "truncated sequence") == 0
      && strcmp (err_kind_text (ERR_OVERLONG), "overlong encoding") == 0
      && strcmp (err_kind_text (ERR_SURROGATE), "surrogate") == 0
      && strcmp (err_kind_text (ERR_TOO_BIG), "beyond U+10FFFF") == 0
      && strcmp (err_kind_text (ERR_INVALID_BYTE), "invalid byte") == 0
      && strcmp (err_kind_text (ERR_LONE_SURROGATE), "lone surrogate") == 0
      && strcmp (err_kind_text (ERR_UNENCODABLE),
                 "unencodable character") == 0,
      "err_kind_text gives the reasons of DESIGN.md");
}

/* ------------------------------------------------------------------ */
/* Policies.  */

static char const *
values_text (struct verdict const *s)
{
  static char buf[1024];
  size_t i, o = 0;
  buf[0] = 0;
  for (i = 0; i < s->len && o + 12 < sizeof buf; i++)
    o += (size_t) snprintf (buf + o, sizeof buf - o, "%s%" PRIX32,
                            i ? " " : "", s->cp[i]);
  return buf;
}

/* True if SUB holds exactly the ASCII text TEXT as values.  */
static bool
sub_is_text (struct verdict const *sub, char const *text)
{
  size_t i, n = strlen (text);
  if (sub->stop || sub->raw_byte >= 0 || sub->len != n)
    return false;
  for (i = 0; i < n; i++)
    if (sub->cp[i] != (unsigned char) text[i])
      return false;
  return true;
}

static void
test_policy (void)
{
  static char const *const good_fmts[] = {
    "\\x%02x", "<%02X>", "[U+%04X]", "%d", "%%%x", "%x%%", "&#%d;",
    "%#x", "%-4d|", "%.3o", "%u", "%i", "\xC3\xA9%X", "%08X",
  };
  static char const *const bad_fmts[] = {
    "%s", "%x%x", "", "%", "%n", "%lx", "%*d", "abc", "%%", "x%", "%c",
    "%hhx", "%.*d", "%1$x", "\xFF%x", "%p", "%f",
  };
  struct policy_config cfg = { POLICY_STRICT, NULL, NULL };
  struct codec_error err;
  struct verdict sub;
  size_t i;
  enum policy p;

  for (i = 0; i < COUNT (good_fmts); i++)
    ok (policy_format_ok (good_fmts[i]), "policy_format_ok accepts \"%s\"",
        good_fmts[i]);
  for (i = 0; i < COUNT (bad_fmts); i++)
    ok (!policy_format_ok (bad_fmts[i]), "policy_format_ok rejects \"%s\"",
        bad_fmts[i]);

  ok (policy_parse ("strict", &p) && p == POLICY_STRICT
      && policy_parse ("replace", &p) && p == POLICY_REPLACE
      && policy_parse ("escape", &p) && p == POLICY_ESCAPE
      && policy_parse ("surrogateescape", &p) && p == POLICY_SURROGATEESCAPE
      && policy_parse ("ignore", &p) && p == POLICY_IGNORE,
      "policy_parse knows the five policies");
  ok (!policy_parse ("Strict", &p) && !policy_parse ("", &p)
      && !policy_parse ("backslashreplace", &p),
      "policy_parse rejects other names");
  ok (strcmp (policy_name (POLICY_SURROGATEESCAPE), "surrogateescape") == 0
      && strcmp (policy_verb (POLICY_REPLACE), "replaced") == 0
      && strcmp (policy_verb (POLICY_ESCAPE), "escaped") == 0
      && strcmp (policy_verb (POLICY_SURROGATEESCAPE), "escaped") == 0
      && strcmp (policy_verb (POLICY_IGNORE), "dropped") == 0,
      "policy names and verbs");

  /* Decoding errors, on the truncated sequence E1 80.  */
  memset (&err, 0, sizeof err);
  err.bytes[0] = 0xE1;
  err.bytes[1] = 0x80;
  err.len = 2;
  err.kind = ERR_TRUNCATED;

  cfg.policy = POLICY_STRICT;
  policy_decode_error (&cfg, &err, &sub);
  ok (sub.stop && sub.len == 0 && sub.raw_byte < 0,
      "decode error, strict: stop");
  cfg.policy = POLICY_REPLACE;
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 1 && sub.cp[0] == 0xFFFD && sub.raw_byte < 0,
      "decode error, replace: one U+FFFD for E1 80 (got %s)",
      values_text (&sub));
  cfg.policy = POLICY_ESCAPE;
  policy_decode_error (&cfg, &err, &sub);
  ok (sub_is_text (&sub, "\\xe1\\x80"),
      "decode error, escape: \\xe1\\x80 (got %s)", values_text (&sub));
  cfg.byte_fmt = "<%02X>";
  policy_decode_error (&cfg, &err, &sub);
  ok (sub_is_text (&sub, "<E1><80>"),
      "decode error, escape with <%%02X>: <E1><80> (got %s)",
      values_text (&sub));
  cfg.byte_fmt = "%%%d;";
  policy_decode_error (&cfg, &err, &sub);
  ok (sub_is_text (&sub, "%225;%128;"),
      "decode error, escape with %%%%%%d;: %%225;%%128; (got %s)",
      values_text (&sub));
  cfg.byte_fmt = "\xC3\xA9%x";
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 6 && sub.cp[0] == 0xE9 && sub.cp[1] == 'e'
      && sub.cp[2] == '1' && sub.cp[3] == 0xE9 && sub.cp[5] == '0',
      "decode error, escape with a UTF-8 format: U+00E9 e 1 U+00E9 8 0 "
      "(got %s)", values_text (&sub));
  cfg.byte_fmt = NULL;
  cfg.policy = POLICY_SURROGATEESCAPE;
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 2 && sub.cp[0] == 0xDCE1
      && sub.cp[1] == 0xDC80, "decode error, surrogateescape: DCE1 DC80 "
      "(got %s)", values_text (&sub));
  cfg.policy = POLICY_IGNORE;
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 0 && sub.raw_byte < 0,
      "decode error, ignore: nothing");

  /* An error holding a byte below 0x80 cannot be surrogate-escaped.  */
  err.bytes[0] = 0x42;
  err.len = 1;
  cfg.policy = POLICY_SURROGATEESCAPE;
  policy_decode_error (&cfg, &err, &sub);
  ok (sub.stop, "decode error, surrogateescape: stop on [42]");
  err.bytes[0] = 0x00;
  err.bytes[1] = 0x00;
  err.bytes[2] = 0x11;
  err.bytes[3] = 0x00;
  err.len = 4;
  err.kind = ERR_TOO_BIG;
  policy_decode_error (&cfg, &err, &sub);
  ok (sub.stop, "decode error, surrogateescape: stop on [00 00 11 00]");
  cfg.policy = POLICY_ESCAPE;
  policy_decode_error (&cfg, &err, &sub);
  ok (sub_is_text (&sub, "\\x00\\x00\\x11\\x00"),
      "decode error, escape: each of 4 bytes (got %s)", values_text (&sub));
  err.bytes[0] = 0xFF;
  err.len = 1;
  cfg.policy = POLICY_SURROGATEESCAPE;
  policy_decode_error (&cfg, &err, &sub);
  ok (!sub.stop && sub.len == 1 && sub.cp[0] == 0xDCFF,
      "decode error, surrogateescape: FF gives DCFF");

  /* Encoding errors.  */
  {
    static struct
    {
      enum policy policy;
      ucs4_t c;
      bool unicode_out, byte_out;
      char const *fmt;
      char const *text;         /* Values as ASCII text, or:  */
      int raw;                  /* >= 0: a raw byte; -2: stop.  */
    } const cases[] = {
      { POLICY_STRICT, 0xD800, true, true, NULL, "", -2 },
      { POLICY_STRICT, 0xDC80, true, true, NULL, "", -2 },
      { POLICY_STRICT, 0xE9, false, true, NULL, "", -2 },
      { POLICY_REPLACE, 0xD800, true, true, NULL, "\xEF\xBF\xBD", -1 },
      { POLICY_REPLACE, 0xDC80, true, true, NULL, "\xEF\xBF\xBD", -1 },
      { POLICY_REPLACE, 0xE9, false, true, NULL, "?", -1 },
      { POLICY_REPLACE, 0xDC80, false, true, NULL, "?", -1 },
      { POLICY_ESCAPE, 0xE9, false, true, NULL, "\\xe9", -1 },
      { POLICY_ESCAPE, 0xD800, true, true, NULL, "\\ud800", -1 },
      { POLICY_ESCAPE, 0xDC80, true, true, NULL, "\\udc80", -1 },
      { POLICY_ESCAPE, 0x20AC, false, true, NULL, "\\u20ac", -1 },
      { POLICY_ESCAPE, 0x1F600, false, true, NULL, "\\U0001f600", -1 },
      { POLICY_ESCAPE, 0x1F600, false, true, "[U+%04X]", "[U+1F600]", -1 },
      { POLICY_ESCAPE, 0xE9, false, true, "&#%d;", "&#233;", -1 },
      { POLICY_SURROGATEESCAPE, 0xDC80, true, true, NULL, "", 0x80 },
      { POLICY_SURROGATEESCAPE, 0xDCFF, false, true, NULL, "", 0xFF },
      { POLICY_SURROGATEESCAPE, 0xDC80, true, false, NULL, "", -2 },
      { POLICY_SURROGATEESCAPE, 0xDC7F, true, true, NULL, "", -2 },
      { POLICY_SURROGATEESCAPE, 0xDD00, true, true, NULL, "", -2 },
      { POLICY_SURROGATEESCAPE, 0xD800, true, true, NULL, "", -2 },
      { POLICY_SURROGATEESCAPE, 0xE9, false, true, NULL, "", -2 },
      { POLICY_IGNORE, 0xD800, true, true, NULL, "", -1 },
      { POLICY_IGNORE, 0xE9, false, true, NULL, "", -1 },
    };
    for (i = 0; i < COUNT (cases); i++)
      {
        bool good;
        cfg.policy = cases[i].policy;
        cfg.byte_fmt = NULL;
        cfg.unicode_fmt = cases[i].fmt;
        policy_encode_error (&cfg, cases[i].c,
                             (cases[i].unicode_out ? CODEC_UNICODE : 0)
                             | (cases[i].byte_out ? 0 : CODEC_WIDE_UNITS),
                             false, &sub);
        if (cases[i].raw == -2)
          good = sub.stop && sub.len == 0;
        else if (cases[i].raw >= 0)
          good = !sub.stop && sub.raw_byte == cases[i].raw && sub.len == 0;
        else if (strcmp (cases[i].text, "\xEF\xBF\xBD") == 0)
          good = !sub.stop && sub.raw_byte < 0 && sub.len == 1
                 && sub.cp[0] == 0xFFFD;
        else
          good = sub_is_text (&sub, cases[i].text);
        ok (good, "encode error, %s, U+%04" PRIX32 "%s%s%s%s: %s",
            policy_name (cases[i].policy), cases[i].c,
            cases[i].unicode_out ? ", Unicode output" : "",
            cases[i].byte_out ? ", byte output" : "",
            cases[i].fmt ? ", format " : "",
            cases[i].fmt ? cases[i].fmt : "",
            cases[i].raw == -2 ? "stop" : cases[i].raw >= 0 ? "raw byte"
            : *cases[i].text ? cases[i].text : "nothing");
      }
    cfg.unicode_fmt = NULL;
  }
}

/* ------------------------------------------------------------------ */
/* The pipeline, end to end through files.  */

static char tmpdir[256];

static int
temp_file (void)
{
  char name[300];
  int fd;
  snprintf (name, sizeof name, "%s/test_codec.XXXXXX", tmpdir);
  fd = mkstemp (name);
  if (fd < 0)
    {
      printf ("Bail out! mkstemp: %s\n", strerror (errno));
      exit (1);
    }
  unlink (name);
  return fd;
}

static void
write_all (int fd, uint8_t const *s, size_t n)
{
  while (n > 0)
    {
      ssize_t w = write (fd, s, n);
      if (w <= 0)
        {
          printf ("Bail out! write: %s\n", strerror (errno));
          exit (1);
        }
      s += w;
      n -= (size_t) w;
    }
}

static void
read_back (int fd, struct sb *b)
{
  char buf[4096];
  ssize_t r;
  lseek (fd, 0, SEEK_SET);
  sb_free (b);
  sb_printf (b, "%s", "");
  while ((r = read (fd, buf, sizeof buf)) > 0)
    {
      /* Bytes may hold NUL: store them as they are.  */
      if (b->len + (size_t) r + 1 > b->cap)
        {
          b->cap = 2 * (b->len + (size_t) r + 1);
          b->s = realloc (b->s, b->cap);
          if (!b->s)
            abort ();
        }
      memcpy (b->s + b->len, buf, (size_t) r);
      b->len += (size_t) r;
      b->s[b->len] = 0;
    }
}

struct conv
{
  char const *from, *to;
  enum policy policy;
  enum bom_mode bom;
};

struct conv_result
{
  struct sb out;
  struct sb err;                /* What went to stderr.  */
  enum file_result res[4];
};

/* Convert the inputs IN[0..NIN) (one file each, named "in", "in2", ...)
   with block size BS into one output.  */
static void
convert (struct conv const *cv, size_t bs, uint8_t const *const *in,
         size_t const *inlen, size_t nin, struct conv_result *r)
{
  struct run_config cfg;
  struct run *run;
  int out_fd = temp_file (), err_fd = temp_file (), saved_err;
  size_t k;

  memset (&cfg, 0, sizeof cfg);
  cfg.from = codec (cv->from);
  cfg.to = codec (cv->to);
  cfg.policy.policy = cv->policy;
  cfg.bom = cv->bom;
  cfg.block_size = bs;
  cfg.on_error = diag_stop;
  /* As the program does: unmarked output without a BOM is big-endian.  */
  if (cfg.bom == BOM_STRIP && cfg.to->unmarked)
    cfg.to = cfg.to->unmarked;

  fflush (stdout);
  fflush (stderr);
  saved_err = dup (STDERR_FILENO);
  dup2 (err_fd, STDERR_FILENO);
  run = pipeline_start (&cfg, out_fd);
  for (k = 0; k < nin; k++)
    {
      int in_fd = temp_file ();
      char name[32];
      write_all (in_fd, in[k], inlen[k]);
      lseek (in_fd, 0, SEEK_SET);
      if (k)
        snprintf (name, sizeof name, "in%zu", k + 1);
      else
        snprintf (name, sizeof name, "in");
      r->res[k] = pipeline_convert_fd (run, in_fd, name);
      {
        struct file_stats st;
        pipeline_file_stats (run, &st);
        diag_handled (name, &st, cfg.policy.policy);
      }
      close (in_fd);
      if (r->res[k] == FILE_STOPPED)
        break;
    }
  pipeline_finish (run);
  fflush (stderr);
  dup2 (saved_err, STDERR_FILENO);
  close (saved_err);

  memset (&r->out, 0, sizeof r->out);
  memset (&r->err, 0, sizeof r->err);
  read_back (out_fd, &r->out);
  read_back (err_fd, &r->err);
  close (out_fd);
  close (err_fd);
}

static char const *const result_names[] = {
  "FILE_OK", "FILE_DROPPED", "FILE_STOPPED", "FILE_READ_ERROR"
};

static size_t const block_sizes[] = { 1, 2, 3, 7, 65536 };

/* The kernels the fast paths use ("reference": no fast paths).  */
static char const *impl_name = "reference";

/* Convert IN (one file) under CV with every block size and compare with
   WANT, the file result and the diagnostics (NULL: not checked).  */
static void
check_conv (struct conv const *cv, uint8_t const *in, size_t n,
            uint8_t const *want, size_t wantlen, enum file_result want_res,
            char const *want_err, char const *desc)
{
  size_t k;
  for (k = 0; k < COUNT (block_sizes); k++)
    {
      struct conv_result r;
      bool good;
      convert (cv, block_sizes[k], &in, &n, 1, &r);
      good = r.out.len == wantlen
             && (wantlen == 0 || memcmp (r.out.s, want, wantlen) == 0)
             && r.res[0] == want_res
             && (!want_err || strcmp (r.err.s, want_err) == 0);
      if (!ok (good, "pipeline (%s) %s -> %s, %s, block size %zu: %s",
               impl_name, cv->from, cv->to, policy_name (cv->policy),
               block_sizes[k], desc))
        diag ("got  [%s] %s stderr: %s\nwant [%s] %s stderr: %s",
              hex ((uint8_t const *) r.out.s, r.out.len),
              result_names[r.res[0]], r.err.s, hex (want, wantlen),
              result_names[want_res], want_err ? want_err : "(any)");
      sb_free (&r.out);
      sb_free (&r.err);
    }
}

static void
check_conv2 (struct conv const *cv, uint8_t const *in1, size_t n1,
             uint8_t const *in2, size_t n2, uint8_t const *want,
             size_t wantlen, char const *desc)
{
  uint8_t const *in[2];
  size_t len[2];
  size_t k;

  in[0] = in1;
  in[1] = in2;
  len[0] = n1;
  len[1] = n2;
  for (k = 0; k < COUNT (block_sizes); k++)
    {
      struct conv_result r;
      convert (cv, block_sizes[k], in, len, 2, &r);
      if (!ok (r.out.len == wantlen
               && (wantlen == 0 || memcmp (r.out.s, want, wantlen) == 0)
               && r.res[0] == FILE_OK && r.res[1] == FILE_OK,
               "pipeline (%s) %s -> %s, two files, block size %zu: %s",
               impl_name, cv->from, cv->to, block_sizes[k], desc))
        diag ("got  [%s]\nwant [%s]",
              hex ((uint8_t const *) r.out.s, r.out.len),
              hex (want, wantlen));
      sb_free (&r.out);
      sb_free (&r.err);
    }
}

#define T38 0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, \
            0x80, 0xBF, 0x64
#define FFFD8 0xEF, 0xBF, 0xBD

/* Long inputs that mix ASCII runs (for the fast paths), other
   characters and errors, built from segments whose conversions are
   known.  Errors are chosen so that no segment can complete or extend
   its neighbour.  */
struct segment
{
  char const *u8;               /* UTF-8 input.  */
  char const *u8_rep;           /* Its conversion to UTF-8 under replace.  */
  /* UTF-16LE input and its conversion to UTF-16LE under replace, or NULL
     for ASCII segments (widened here).  */
  char const *u16, *u16_rep;
  size_t u16_len, u16_rep_len;
  char const *diag8, *diag16;   /* Bytes and reason of an error.  */
};

static struct segment const segments[] = {
  { "The quick brown fox jumps over the lazy dog. ", NULL, NULL, NULL, 0, 0,
    NULL, NULL },
  { "0123456789abcdefghijklmnopqrstuvwxyz\n", NULL, NULL, NULL, 0, 0, NULL,
    NULL },
  { "\xC3\xA9", "\xC3\xA9", "\xE9\0", "\xE9\0", 2, 2, NULL, NULL },
  { "\xE2\x82\xAC", "\xE2\x82\xAC", "\xAC\x20", "\xAC\x20", 2, 2, NULL,
    NULL },
  { "\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80", "\x3D\xD8\x00\xDE",
    "\x3D\xD8\x00\xDE", 4, 4, NULL, NULL },
  { "\xE1\x80", "\xEF\xBF\xBD", "\x00\xDC", "\xFD\xFF", 2, 2,
    "E1 80 (truncated sequence)", "00 DC (lone surrogate)" },
  { "\xF0\x9F\x98", "\xEF\xBF\xBD", "\xFF\xDF", "\xFD\xFF", 2, 2,
    "F0 9F 98 (truncated sequence)", "FF DF (lone surrogate)" },
  { "\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD", "\x80\xDC", "\xFD\xFF", 2, 2,
    "C0 (overlong encoding)", "80 DC (lone surrogate)" },
  { "\xFF", "\xEF\xBF\xBD", "\x01\xDD", "\xFD\xFF", 2, 2,
    "FF (invalid byte)", "01 DD (lone surrogate)" },
  { "\n", NULL, NULL, NULL, 0, 0, NULL, NULL },
  { "\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", "\x00\xDF",
    "\xFD\xFF", 2, 2, "ED (surrogate)", "00 DF (lone surrogate)" },
  { "\xE0\x9F\xBF", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", "\x00\xDE",
    "\xFD\xFF", 2, 2, "E0 (overlong encoding)", "00 DE (lone surrogate)" },
  { "\xF4\x90\x80\x80",
    "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", "\x10\xDC",
    "\xFD\xFF", 2, 2, "F4 (beyond U+10FFFF)", "10 DC (lone surrogate)" },
  { "\xF0\x8F\xBF\xBF",
    "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD", "\xAB\xDC",
    "\xFD\xFF", 2, 2, "F0 (overlong encoding)", "AB DC (lone surrogate)" },
};

/* The segments that hold an error.  */
static unsigned char const error_segments[] = { 5, 6, 7, 8, 10, 11, 12, 13 };

static void
sb_append (struct sb *b, char const *s, size_t n)
{
  size_t k;
  for (k = 0; k < n; k++)
    sb_printf (b, "%c", s[k]);
}

/* Append the UTF-16LE form of the ASCII text S.  */
static void
sb_widen (struct sb *b, char const *s)
{
  for (; *s; s++)
    {
      sb_printf (b, "%c", *s);
      sb_printf (b, "%c", 0);
    }
}

#define CONV(f, t, p, b)                                                \
  (cv.from = (f), cv.to = (t), cv.policy = (p), cv.bom = (b), &cv)
#define U8(b) (uint8_t const *) (b).s, (b).len

static void
test_pipeline_mixed (void)
{
  /* Inputs; outputs under replace; outputs of a strict run.  */
  struct sb in8 = { 0 }, in16 = { 0 };
  struct sb rep8_8 = { 0 }, rep8_16 = { 0 }, rep16_16 = { 0 },
    rep16_8 = { 0 };
  struct sb strict8 = { 0 }, strict16 = { 0 };
  struct segment const *first8 = NULL, *first16 = NULL;
  size_t off8 = 0, off16 = 0, line = 1;
  char diag8[256], diag16[256];
  struct conv cv;
  uint32_t saved_rng = rng_state;

  rng_state = 0x9E3779B9u;
  while (in8.len < 6000)
    {
      uint32_t r = rng () % 100;
      struct segment const *g
        = &segments[r < 70 ? rng () % 5 : r < 85 ? 9
                    : error_segments[rng () % sizeof error_segments]];
      size_t reps = g->diag8 ? 1 : 1 + rng () % 8;
      while (reps--)
        {
          char const *rep8 = g->u8_rep ? g->u8_rep : g->u8;
          sb_printf (&in8, "%s", g->u8);
          sb_printf (&rep8_8, "%s", rep8);
          if (!g->u16)
            {
              sb_widen (&in16, g->u8);
              sb_widen (&rep8_16, g->u8);
              sb_widen (&rep16_16, g->u8);
            }
          else
            {
              size_t k;
              sb_append (&in16, g->u16, g->u16_len);
              sb_append (&rep16_16, g->u16_rep, g->u16_rep_len);
              if (g->diag8)
                for (k = 0; k < strlen (rep8) / 3; k++)
                  sb_append (&rep8_16, "\xFD\xFF", 2);
              else
                sb_append (&rep8_16, g->u16, g->u16_len);
            }
          /* A lone surrogate becomes one U+FFFD in UTF-8.  */
          sb_printf (&rep16_8, "%s", g->diag16 ? "\xEF\xBF\xBD" : rep8);
          if (!first8)
            {
              /* Both inputs have their first error in the same
                 segment.  */
              if (g->diag8)
                first8 = first16 = g;
              else
                {
                  sb_printf (&strict8, "%s", g->u8);
                  sb_printf (&strict16, "%s", g->u8);
                  off8 += strlen (g->u8);
                  off16 += g->u16 ? g->u16_len : 2 * strlen (g->u8);
                  line += strchr (g->u8, '\n') != NULL;
                }
            }
        }
    }
  if (!first8)
    abort ();
  snprintf (diag8, sizeof diag8, "utf8conv: in:%zu: byte %zu: invalid "
            "UTF-8: %s\n", line, off8, first8->diag8);
  snprintf (diag16, sizeof diag16, "utf8conv: in:%zu: byte %zu: invalid "
            "UTF-16LE: %s\n", line, off16, first16->diag16);

  check_conv (CONV ("UTF-8", "UTF-8", POLICY_REPLACE, BOM_AUTO), U8 (in8),
              U8 (rep8_8), FILE_OK, NULL, "6000 bytes of text and errors");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_REPLACE, BOM_AUTO),
              U8 (in8), U8 (rep8_16), FILE_OK, NULL,
              "6000 bytes of text and errors");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_SURROGATEESCAPE, BOM_AUTO),
              U8 (in8), U8 (in8), FILE_OK, NULL,
              "6000 bytes of text and errors: identity");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO), U8 (in8),
              U8 (strict8), FILE_STOPPED, diag8,
              "6000 bytes of text and errors: strict");
  check_conv (CONV ("UTF-16LE", "UTF-16LE", POLICY_REPLACE, BOM_AUTO),
              U8 (in16), U8 (rep16_16), FILE_OK, NULL,
              "text and lone surrogates");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_REPLACE, BOM_AUTO),
              U8 (in16), U8 (rep16_8), FILE_OK, NULL,
              "text and lone surrogates");
  check_conv (CONV ("UTF-16LE", "UTF-16LE", POLICY_SURROGATEESCAPE,
                    BOM_AUTO),
              U8 (in16), U8 (in16), FILE_OK, NULL,
              "text and lone surrogates: identity");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_STRICT, BOM_AUTO),
              U8 (in16), U8 (strict16), FILE_STOPPED, diag16,
              "text and lone surrogates: strict");

  sb_free (&in8);
  sb_free (&in16);
  sb_free (&rep8_8);
  sb_free (&rep8_16);
  sb_free (&rep16_16);
  sb_free (&rep16_8);
  sb_free (&strict8);
  sb_free (&strict16);
  rng_state = saved_rng;
}

static void
test_pipeline (void)
{
  struct conv cv;
  struct sb big = { NULL, 0, 0 }, bigout = { NULL, 0, 0 };
  int k;

  /* Table 3-8 under each policy.  */
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_REPLACE, BOM_AUTO),
              BYTES (T38),
              BYTES (0x61, FFFD8, FFFD8, FFFD8, 0x62, FFFD8, 0x63, FFFD8,
                     FFFD8, 0x64), FILE_OK,
              "utf8conv: in:1: byte 1: invalid UTF-8: F1 80 80 "
              "(truncated sequence); 6 errors replaced in this file\n",
              "Table 3-8, one U+FFFD per maximal subpart");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (T38), STR ("a"), FILE_STOPPED,
              "utf8conv: in:1: byte 1: invalid UTF-8: F1 80 80 "
              "(truncated sequence)\n",
              "Table 3-8 stops after 'a'");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_ESCAPE, BOM_AUTO),
              BYTES (T38),
              STR ("a\\xf1\\x80\\x80\\xe1\\x80\\xc2b\\x80c\\x80\\xbfd"),
              FILE_OK,
              "utf8conv: in:1: byte 1: invalid UTF-8: F1 80 80 "
              "(truncated sequence); 6 errors escaped in this file\n",
              "Table 3-8 escaped");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (T38), BYTES (T38), FILE_OK, NULL,
              "Table 3-8 survives surrogateescape");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_IGNORE, BOM_AUTO),
              BYTES (T38), STR ("abcd"), FILE_DROPPED,
              "utf8conv: in:1: byte 1: invalid UTF-8: F1 80 80 "
              "(truncated sequence); 6 errors dropped in this file\n",
              "Table 3-8 ignored");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_REPLACE, BOM_AUTO),
              BYTES (T38),
              BYTES (0x61, 0, 0xFD, 0xFF, 0xFD, 0xFF, 0xFD, 0xFF, 0x62, 0,
                     0xFD, 0xFF, 0x63, 0, 0xFD, 0xFF, 0xFD, 0xFF, 0x64, 0),
              FILE_OK, NULL, "Table 3-8 to UTF-16LE");
  check_conv (CONV ("UTF-8", "UTF-32BE", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (0x61, 0xF1, 0x80, 0x62),
              BYTES (0, 0, 0, 0x61, 0, 0, 0xDC, 0xF1, 0, 0, 0xDC, 0x80, 0, 0,
                     0, 0x62), FILE_OK, NULL,
              "surrogateescape to UTF-32BE writes DCxx units");

  /* Lines and offsets in diagnostics, across blocks and fast paths.  */
  for (k = 0; k < 100; k++)
    sb_printf (&big, "line %02d \xC3\xA9\n", k);
  sb_printf (&bigout, "%s", big.s);
  sb_printf (&big, "\xE1\x80x\xF0\x9F\x98\x80\n");
  sb_printf (&bigout, "\xEF\xBF\xBDx\xF0\x9F\x98\x80\n");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_REPLACE, BOM_AUTO),
              (uint8_t const *) big.s, big.len, (uint8_t const *) bigout.s,
              bigout.len, FILE_OK,
              "utf8conv: in:101: byte 1100: invalid UTF-8: E1 80 "
              "(truncated sequence); 1 error replaced in this file\n",
              "line and byte of an error after 100 lines");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
              (uint8_t const *) big.s, big.len, (uint8_t const *) big.s,
              1100, FILE_STOPPED,
              "utf8conv: in:101: byte 1100: invalid UTF-8: E1 80 "
              "(truncated sequence)\n",
              "strict: exactly the 1100 bytes before the error");
  sb_free (&big);
  sb_free (&bigout);

  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_AUTO),
              STR ("a\nb\n\xC3\xA9\xFF"),
              BYTES (0x61, 0, 0x0A, 0, 0x62, 0, 0x0A, 0, 0xE9, 0),
              FILE_STOPPED,
              "utf8conv: in:3: byte 6: invalid UTF-8: FF (invalid byte)\n",
              "strict stop to UTF-16LE");

  /* Lone surrogates between decoder and encoder.  */
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_REPLACE, BOM_AUTO),
              BYTES (0x41, 0, 0x00, 0xD8, 0x42, 0),
              BYTES (0x41, FFFD8, 0x42), FILE_OK,
              "utf8conv: in:1: byte 2: invalid UTF-16LE: 00 D8 "
              "(lone surrogate); 1 error replaced in this file\n",
              "lone high replaced");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_ESCAPE, BOM_AUTO),
              BYTES (0x41, 0, 0x00, 0xD8, 0x42, 0),
              STR ("A\\x00\\xd8B"), FILE_OK, NULL,
              "lone high escaped byte by byte");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (0x41, 0, 0x00, 0xD8, 0x42, 0), STR ("A"), FILE_STOPPED,
              "utf8conv: in:1: byte 2: cannot encode U+D800 in UTF-8: 00 D8 "
              "(unencodable character)\n",
              "surrogateescape: lone D800 cannot go to UTF-8");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (0x41, 0, 0x80, 0xDC, 0xFF, 0xDC, 0x42, 0),
              BYTES (0x41, 0x80, 0xFF, 0x42), FILE_OK, "",
              "surrogateescape: DC80 DCFF become raw bytes, no warning");
  check_conv (CONV ("UTF-16LE", "UTF-16LE", POLICY_SURROGATEESCAPE,
                    BOM_AUTO),
              BYTES (0x00, 0xD8, 0x41, 0x00, 0x00, 0xDC, 0x00, 0xD8),
              BYTES (0x00, 0xD8, 0x41, 0x00, 0x00, 0xDC, 0x00, 0xD8),
              FILE_OK, "", "surrogateescape: UTF-16LE identity");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (0x41, 0x00, 0x42), STR ("A"), FILE_STOPPED,
              "utf8conv: in:1: byte 2: invalid UTF-16LE: 42 "
              "(truncated sequence)\n",
              "surrogateescape: odd byte 42 is handled as strict");
  check_conv (CONV ("UTF-32LE", "UTF-8", POLICY_ESCAPE, BOM_AUTO),
              BYTES (0x00, 0x00, 0x11, 0x00), STR ("\\x00\\x00\\x11\\x00"),
              FILE_OK, NULL, "UTF-32 unit above 10FFFF escaped");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_SURROGATEESCAPE, BOM_AUTO),
              BYTES (0x61, 0x80, 0x62), BYTES (0x61, 0, 0x80, 0xDC, 0x62, 0),
              FILE_OK, NULL, "surrogateescape to UTF-16LE: a DC80 unit");

  /* Byte order marks.  */
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0xFF, 0xFE, 0x41, 0),
              FILE_OK, "", "a UTF-8 BOM is carried to UTF-16LE once");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_STRIP),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0x41, 0), FILE_OK, "",
              "--bom=strip removes it");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_ADD),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0xFF, 0xFE, 0x41, 0),
              FILE_OK, "", "--bom=add with a BOM: still one");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_ADD),
              STR ("A"), BYTES (0xFF, 0xFE, 0x41, 0), FILE_OK, "",
              "--bom=add without a BOM adds one");
  check_conv (CONV ("UTF-8", "UTF-16LE", POLICY_STRICT, BOM_AUTO),
              STR ("A"), BYTES (0x41, 0), FILE_OK, "", "no BOM, none added");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_AUTO),
              STR ("A"), BYTES (0xFF, 0xFE, 0x41, 0), FILE_OK, "",
              "unmarked UTF-16 output gets FF FE");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0xFF, 0xFE, 0x41, 0),
              FILE_OK, "", "unmarked UTF-16 output with a BOM: one");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_STRIP),
              STR ("A"), BYTES (0, 0x41), FILE_OK, "",
              "unmarked UTF-16 with --bom=strip: big-endian, no BOM");
  check_conv (CONV ("UTF-8", "UTF-32", POLICY_STRICT, BOM_AUTO),
              STR ("A"), BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0), FILE_OK,
              "", "unmarked UTF-32 output gets FF FE 00 00");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0xEF, 0xBB, 0xBF, 0x41),
              FILE_OK, "", "UTF-8 BOM kept by default");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_STRIP),
              BYTES (0xEF, 0xBB, 0xBF, 0x41), STR ("A"), FILE_OK, "",
              "UTF-8 BOM stripped");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_ADD),
              STR ("A"), BYTES (0xEF, 0xBB, 0xBF, 0x41), FILE_OK, "",
              "UTF-8 BOM added");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0x41, 0xEF, 0xBB, 0xBF), BYTES (0x41, 0xEF, 0xBB, 0xBF),
              FILE_OK, "", "U+FEFF not at the start is a character");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0xFF, 0xFE, 0x41, 0), BYTES (0xEF, 0xBB, 0xBF, 0x41),
              FILE_OK, "", "UTF-16LE BOM carried to UTF-8");
  check_conv (CONV ("UTF-16", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0xFE, 0xFF, 0, 0x41), BYTES (0xEF, 0xBB, 0xBF, 0x41),
              FILE_OK, "", "UTF-16 big-endian BOM carried to UTF-8");
  check_conv (CONV ("UTF-16", "UTF-8", POLICY_STRICT, BOM_STRIP),
              BYTES (0xFF, 0xFE, 0x41, 0), STR ("A"), FILE_OK, "",
              "UTF-16 BOM stripped");
  check_conv (CONV ("UTF-32", "UTF-16BE", POLICY_STRICT, BOM_AUTO),
              BYTES (0xFF, 0xFE, 0, 0, 0x41, 0, 0, 0),
              BYTES (0xFE, 0xFF, 0, 0x41), FILE_OK, "",
              "UTF-32 BOM carried to UTF-16BE");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_ADD),
              STR (""), NULL, 0, FILE_OK, "",
              "empty input: empty output even with --bom=add");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_AUTO),
              STR (""), NULL, 0, FILE_OK, "",
              "empty input: empty unmarked UTF-16 output");
  check_conv (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF), NULL, 0, FILE_OK, "",
              "a BOM alone gives empty output");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_ADD),
              BYTES (0xEF, 0xBB, 0xBF), NULL, 0, FILE_OK, "",
              "a BOM alone gives empty output with --bom=add");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_AUTO),
              BYTES (0x80, 0x41), NULL, 0, FILE_STOPPED,
              "utf8conv: in:1: byte 0: invalid UTF-8: 80 "
              "(unexpected continuation byte)\n",
              "a strict error first: no BOM alone");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_SURROGATEESCAPE, BOM_ADD),
              BYTES (0x00, 0xD8, 0x41, 0x00), NULL, 0, FILE_STOPPED,
              "utf8conv: in:1: byte 0: cannot encode U+D800 in UTF-8: 00 D8 "
              "(unencodable character)\n",
              "an encoding error first: the BOM is taken back");
  check_conv (CONV ("UTF-16LE", "UTF-8", POLICY_SURROGATEESCAPE, BOM_ADD),
              BYTES (0x80, 0xDC, 0x41, 0x00),
              BYTES (0xEF, 0xBB, 0xBF, 0x80, 0x41), FILE_OK, "",
              "a raw byte first keeps the BOM");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_IGNORE, BOM_AUTO),
              BYTES (0x80), NULL, 0, FILE_DROPPED, NULL,
              "everything dropped: no BOM alone");
  check_conv (CONV ("UTF-8", "UTF-16", POLICY_REPLACE, BOM_AUTO),
              BYTES (0xEF, 0xBB, 0xBF, 0x80),
              BYTES (0xFF, 0xFE, 0xFD, 0xFF), FILE_OK, NULL,
              "BOM then an error replaced");
  check_conv2 (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
               BYTES (0xEF, 0xBB, 0xBF, 0x41), BYTES (0xEF, 0xBB, 0xBF, 0x42),
               BYTES (0xEF, 0xBB, 0xBF, 0x41, 0x42),
               "the second file's BOM is dropped");
  check_conv2 (CONV ("UTF-8", "UTF-8", POLICY_STRICT, BOM_AUTO),
               BYTES (0x41), BYTES (0xEF, 0xBB, 0xBF, 0x42),
               BYTES (0x41, 0x42), "the first file decides: no BOM");
  check_conv2 (CONV ("UTF-8", "UTF-16", POLICY_STRICT, BOM_AUTO),
               BYTES (0x41), BYTES (0x42),
               BYTES (0xFF, 0xFE, 0x41, 0, 0x42, 0),
               "unmarked UTF-16: one BOM for two files");
  check_conv2 (CONV ("UTF-16", "UTF-8", POLICY_STRICT, BOM_AUTO),
               BYTES (0xFF, 0xFE, 0x41, 0), BYTES (0, 0x42),
               BYTES (0xEF, 0xBB, 0xBF, 0x41, 0x42),
               "UTF-16 endianness is decided per file");
  test_pipeline_mixed ();
}
#undef CONV
#undef U8

/* ------------------------------------------------------------------ */
/* Split invariance on every fixed input and on pseudo-random ones.  */

static size_t
random_utf8 (uint8_t *s, size_t max)
{
  static uint8_t const special[] = {
    0xE0, 0xED, 0xF0, 0xF4, 0x9F, 0xA0, 0x8F, 0x90, 0xC0, 0xC1, 0xC2, 0xF5,
    0xFF, 0x0A, 0x00
  };
  size_t n = rng () % (max + 1), i;
  for (i = 0; i < n; i++)
    {
      uint32_t r = rng () % 100;
      if (r < 20)
        s[i] = (uint8_t) (0x20 + rng () % 0x60);
      else if (r < 55)
        s[i] = (uint8_t) (0x80 + rng () % 0x40);
      else if (r < 85)
        s[i] = (uint8_t) (0xC0 + rng () % 0x38);
      else if (r < 90)
        s[i] = (uint8_t) (0xF8 + rng () % 8);
      else
        s[i] = special[rng () % COUNT (special)];
    }
  return n;
}

static size_t
random_utf16 (uint8_t *s, size_t max)
{
  size_t n = 0;
  bool be = rng () % 2;
  if (rng () % 4 == 0)
    {
      s[n++] = be ? 0xFE : 0xFF;
      s[n++] = be ? 0xFF : 0xFE;
    }
  while (n + 2 <= max && rng () % 12 != 0)
    {
      uint32_t r = rng () % 10;
      uint8_t hi = (uint8_t) (r < 3 ? 0xD8 + rng () % 4
                              : r < 6 ? 0xDC + rng () % 4
                              : r < 8 ? 0x00 : rng () % 256);
      uint8_t lo = (uint8_t) (rng () % 3 ? 0x41 + rng () % 26 : rng () % 256);
      s[n++] = be ? hi : lo;
      s[n++] = be ? lo : hi;
    }
  if (n < max && rng () % 3 == 0)
    s[n++] = (uint8_t) rng ();
  return n;
}

static size_t
random_utf32 (uint8_t *s, size_t max)
{
  static uint32_t const units[] = {
    0x41, 0x0A, 0xE9, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xE000,
    0xFEFF, 0xFFFE0000, 0x10FFFF, 0x110000, 0xFFFFFFFF, 0x1F600, 0x80000000
  };
  size_t n = 0;
  bool be = rng () % 2;
  while (n + 4 <= max && rng () % 8 != 0)
    {
      uint32_t u = units[rng () % COUNT (units)];
      int k;
      if (n == 0 && rng () % 3 == 0)
        u = 0xFEFF;
      for (k = 0; k < 4; k++)
        s[n + (size_t) (be ? 3 - k : k)] = (uint8_t) (u >> (8 * k));
      n += 4;
    }
  while (n < max && rng () % 3 == 0)
    s[n++] = (uint8_t) rng ();
  return n;
}

static void
test_split_invariance (void)
{
  size_t i;
  struct sb why = { NULL, 0, 0 };
  size_t fixed_bad = 0;

  /* Every input of the tests above, under every decoder.  */
  for (i = 0; i < nsaved; i++)
    if (!all_decoders_agree (saved[i].bytes, saved[i].n, &why))
      {
        if (fixed_bad++ < 5)
          diag ("%s", sb_str (&why));
        sb_free (&why);
      }
  ok (fixed_bad == 0, "all %zu fixed inputs: every decoder gives the same "
      "for every split, and covers its input (%zu failed)", nsaved,
      fixed_bad);

  for (i = 0; i < 300; i++)
    {
      uint8_t s[32];
      size_t n = (i % 3 == 0 ? random_utf8 (s, 24)
                  : i % 3 == 1 ? random_utf16 (s, 24)
                  : random_utf32 (s, 28));
      if (!ok (all_decoders_agree (s, n, &why),
               "random input %zu (%s-like, %zu bytes): splits agree in "
               "every decoder", i, i % 3 == 0 ? "UTF-8" : i % 3 == 1
               ? "UTF-16" : "UTF-32", n))
        diag ("%s", sb_str (&why));
      sb_free (&why);
    }
}

int
main (int argc, char **argv)
{
  char const *t = getenv ("TMPDIR");
  size_t i;

  (void) argc;
  set_program_name ("utf8conv");
  (void) argv;
  setvbuf (stdout, NULL, _IOLBF, 0);
  snprintf (tmpdir, sizeof tmpdir, "%s", t && *t ? t : "/tmp");

  test_registry ();
  test_utf8_decode ();
  test_utf16_decode ();
  test_utf32_decode ();
  test_decode_contract ();
  test_encoders ();
  test_policy ();
  {
    /* The pipeline with each implementation of the fast paths.  */
    char const *const *names = kernels_available ();
    for (i = 0; names[i]; i++)
      {
        setenv ("UTF8CONV_IMPL", names[i], 1);
        if (!ok (kernels_select (), "kernels_select (\"%s\")", names[i]))
          continue;
        impl_name = names[i];
        test_pipeline ();
      }
    unsetenv ("UTF8CONV_IMPL");
  }
  test_split_invariance ();

  for (i = 0; i < nsaved; i++)
    free (saved[i].bytes);
  return done_testing ();
}
