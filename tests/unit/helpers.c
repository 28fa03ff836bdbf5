/* Helpers shared by the C unit tests; see helpers.h.

   The decoding driver checks the step contract of codec.h as it goes
   (see feed below), so every test that decodes through it also checks
   that no decoder consumes more than it was given, overflows the pivot,
   stops without progress or leaves a partial sequence behind.  */

#include <config.h>

#include <iconv.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "helpers.h"
#include "registry.h"

/* ------------------------------------------------------------------ */
/* A growing string.  */

void
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

char const *
sb_str (struct sb *b)
{
  if (!b->s)
    sb_printf (b, "%s", "");
  return b->s;
}

void
sb_free (struct sb *b)
{
  free (b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}

void
sb_append (struct sb *b, char const *s, size_t n)
{
  /* A copy, not a printf per byte: the fuzz harnesses collect every
     output through here, and two vsnprintf calls a byte were a seventh
     of fuzz_detect's time.  */
  if (b->len + n + 1 > b->cap)
    {
      b->cap = 2 * (b->len + n + 1) + 64;
      b->s = realloc (b->s, b->cap);
      if (!b->s)
        abort ();
    }
  memcpy (b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = 0;
}

char const *
hex (uint8_t const *s, size_t n)
{
  static char buf[4][1024];
  static int which;
  char *p = buf[which = (which + 1) % 4];
  size_t i;
  *p = 0;
  for (i = 0; i < n && 3 * i + 4 < sizeof buf[0]; i++)
    sprintf (p + (i ? 3 * i - 1 : 0), "%s%02X", i ? " " : "", s[i]);
  return p;
}

static char const *const kind_names[] = {
  "NONE", "CONT", "TRUNC", "OVERLONG", "SURR", "BIG", "INVALID", "LONE",
  "UNENC"
};

struct codec const *
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

void
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

void
collect_free (struct collect *c)
{
  sb_free (&c->full);
  sb_free (&c->plain);
  /* Unmarked UTF-16 and UTF-32 decoders hold a state of their own.  */
  decoder_release (&c->dec);
}

void
decode_whole (struct collect *c, struct codec const *cd, bool lone_ok,
              uint8_t const *in, size_t n)
{
  decode_cuts (c, cd, lone_ok, in, n, NULL, 0, false, 256);
}

uint32_t rng_state = 2463534242u;

uint32_t
rng (void)
{
  uint32_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return rng_state = x;
}

bool
test_quick (void)
{
  char const *q = getenv ("UTF8CONV_QUICK");
  return q && *q;
}

size_t
quick_step (size_t step)
{
  return test_quick () ? step : 1;
}

bool
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
  for (k = 0; k <= n; k += quick_step (5))
    {
      cuts[0] = k;
      decode_cuts (&c, cd, lone_ok, in, n, cuts, 1, false, 256);
      TRY ("at %zu", k);
      cuts[0] = cuts[1] = k;
      decode_cuts (&c, cd, lone_ok, in, n, cuts, 2, true, 1);
      TRY ("at %zu with an empty chunk, pivot 1", k);
    }

  /* Three calls, at every pair of split points (short inputs).  */
  if (n <= 20 && !test_quick ())
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

/* One call of the decoder in covers_input: what it was given and what
   it said.  */
struct call
{
  struct codec const *cd;
  bool lone_ok;
  uint8_t const *in;            /* The whole input.  */
  size_t n;
  size_t pos;                   /* Where this call's input started.  */
  struct decoder const *d;
  enum decode_status st;
};

/* Check that the values CP[0..COUNT) (at offsets OFF from the call's
   start) are allowed, encode back to their own input bytes in the byte
   order the decoder used, and follow each other without a gap; and that
   the last one ends where the error or the input begins.  */
static bool
values_cover (struct call const *k, ucs4_t const *cp, int64_t const *off,
              size_t count, struct sb *why)
{
  struct codec const *cd = k->cd;
  uint8_t const *in = k->in;
  size_t n = k->n, pos = k->pos, i, len;
  struct encoder e;
  struct codec re;

  /* A wrapping decoder (-f UTF-16 without a byte order) is a stateful
     codec, larger than struct codec: its values encode back with the
     codec it chose, big-endian's before it has chosen.  */
  if (cd->flags & CODEC_WRAPPER)
    {
      struct detection det;
      cd = decoder_detected (k->d, &det) ? det.codec : cd->unmarked;
    }
  re = *cd;
  if (k->d->endian != ENDIAN_UNKNOWN && !(k->cd->flags & CODEC_WRAPPER))
    re.endian = k->d->endian;
  encoder_init (&e, &re);
  for (i = 0; i < count; i++)
    {
      uint8_t buf[MAX_ENCODED];
      size_t one = 1;
      int64_t at = (int64_t) pos + off[i];
      len = 0;
      if (cp[i] > 0x10FFFF
          || (!k->lone_ok && 0xD800 <= cp[i] && cp[i] < 0xE000))
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
      if (i + 1 < count && off[i + 1] != off[i] + (int64_t) len)
        {
          sb_printf (why, "%s [%s]: gap or overlap after offset %"
                     PRId64, cd->name, hex (in, n), at);
          return false;
        }
      if (i + 1 == count)
        {
          /* The next item starts right after this value.  */
          int64_t end = at + (int64_t) len;
          if (k->st == DECODE_MALFORMED
              && (int64_t) pos + k->d->error.rel_offset != end)
            {
              sb_printf (why, "%s [%s]: error not right after the "
                         "value at %" PRId64, cd->name, hex (in, n), at);
              return false;
            }
          if (k->st == DECODE_INPUT_EMPTY && end != (int64_t) n)
            {
              sb_printf (why, "%s [%s]: input not covered after %"
                         PRId64, cd->name, hex (in, n), at);
              return false;
            }
        }
    }
  return true;
}

/* Check that an error reported by the call (after COUNT values) starts
   right at the call's input when no value came before it, and ends where
   the input the call consumed (CONSUMED bytes) ends.  */
static bool
error_covers (struct call const *k, size_t count, size_t consumed,
              struct sb *why)
{
  struct decoder const *d = k->d;
  size_t pos = k->pos;

  if (count == 0 && k->st == DECODE_MALFORMED
      && d->error.rel_offset != 0)
    {
      sb_printf (why, "%s [%s]: gap before the error at %" PRId64,
                 k->cd->name, hex (k->in, k->n), (int64_t) pos
                 + d->error.rel_offset);
      return false;
    }
  if (k->st == DECODE_MALFORMED)
    {
      int64_t end = (int64_t) pos + d->error.rel_offset
                    + (int64_t) d->error.len;
      if (end != (int64_t) (pos + consumed))
        {
          sb_printf (why, "%s [%s]: the error at %" PRId64
                     " does not end where the input consumed ends",
                     k->cd->name, hex (k->in, k->n),
                     (int64_t) pos + d->error.rel_offset);
          return false;
        }
    }
  return true;
}

/* Check that the values and errors of the whole decode cover the input
   exactly, in order, and that each value encodes back to its own bytes
   in the byte order the decoder used: no byte lost, none invented, no
   overlong or ill-formed form accepted.  */
bool
covers_input (struct codec const *cd, bool lone_ok, uint8_t const *in,
              size_t n, struct sb *why)
{
  ucs4_t cp[128];
  int64_t off[128];
  uint8_t nb[128];
  struct pivot p = { cp, off, nb, 0, COUNT (cp) };
  struct decoder d;
  struct call k = { cd, lone_ok, in, n, 0, &d, DECODE_INPUT_EMPTY };
  size_t consumed;

  bool good = false;

  decoder_init (&d, cd);
  d.lone_surrogates_ok = lone_ok;
  for (;;)
    {
      consumed = n - k.pos;
      p.len = 0;
      k.st = cd->decode (&d, in + k.pos, &consumed, true, &p);
      if (!values_cover (&k, cp, off, p.len, why)
          || !error_covers (&k, p.len, consumed, why))
        break;
      if (k.st == DECODE_OUTPUT_FULL)
        {
          sb_printf (why, "%s: pivot of 128 full", cd->name);
          break;
        }
      k.pos += consumed;
      if (k.st == DECODE_INPUT_EMPTY)
        {
          good = k.pos == n;
          if (!good)
            sb_printf (why, "%s [%s]: input left", cd->name, hex (in, n));
          break;
        }
    }
  decoder_release (&d);
  return good;
}

bool
iconv_has_all (char const *const *names, size_t count)
{
  char const *complete = getenv ("UTF8CONV_ICONV_COMPLETE");
  size_t k;
  for (k = 0; k < count; k++)
    {
      iconv_t cd = iconv_open ("UTF-32LE", names[k]);
      if (cd == (iconv_t) -1)
        {
          if (complete && strcmp (complete, "yes") == 0)
            printf ("Bail out! iconv(3) does not know %s\n", names[k]);
          else
            printf ("1..0 # SKIP iconv(3) has no %s (musl, or glibc "
                    "without its gconv modules)\n", names[k]);
          return false;
        }
      iconv_close (cd);
    }
  return true;
}
