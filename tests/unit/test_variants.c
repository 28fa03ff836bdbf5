/* UTF-8 and its variants CESU-8, MUTF-8 and WTF-8, through their batch
   decoders and encoders.

   Each decoding case gives an input and the expected transcript: the
   values decoded and the errors reported, with their kinds, lengths and
   offsets.  Every case is then run again split at every byte, at every
   pair of split points, byte by byte (with and without empty chunks in
   between), with a final empty chunk carrying `last', and with a pivot of
   one value: each must give the same values at the same offsets and the
   same errors.  Encoding cases give values and the expected bytes, and
   run again one value per call with an output buffer of exactly the
   documented size.  Random round trips close the file.  */

#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "helpers.h"
#include "registry.h"
#include "tap.h"

enum { MAX_IN = 64, TRANSCRIPT = 4096 };

static char const *
kind_word (enum err_kind k)
{
  switch (k)
    {
    case ERR_CONTINUATION: return "cont";
    case ERR_TRUNCATED: return "trunc";
    case ERR_OVERLONG: return "over";
    case ERR_SURROGATE: return "surr";
    case ERR_TOO_BIG: return "big";
    case ERR_INVALID_BYTE: return "inv";
    case ERR_LONE_SURROGATE: return "lone";
    default: return "?";
    }
}

static size_t
parse_hex (char const *s, uint8_t *out)
{
  size_t n = 0;
  while (*s)
    {
      unsigned int b;
      if (*s == ' ')
        {
          s++;
          continue;
        }
      if (sscanf (s, "%2x", &b) != 1)
        abort ();
      out[n++] = (uint8_t) b;
      s += 2;
    }
  return n;
}

struct transcript
{
  char brief[TRANSCRIPT];       /* Values; errors with length and offset.  */
  char full[TRANSCRIPT];        /* The same, values with offsets too.  */
  bool bytes_ok;                /* Each error's bytes are the input's.  */
};

static void append (char *buf, char const *fmt, ...) TAP_PRINTF (2, 3);

static void
append (char *buf, char const *fmt, ...)
{
  size_t len = strlen (buf);
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf + len, TRANSCRIPT - len, fmt, ap);
  va_end (ap);
}

/* Decode IN[0..N) with codec C, cut at CUTS[0..NCUTS) (increasing
   offsets, repeats meaning empty chunks), into a pivot of CAP values.
   With LAST_EMPTY the final chunk is an empty one that carries
   `last'.  */
static void
run_decode (struct codec const *c, uint8_t const *in, size_t n,
            size_t const *cuts, size_t ncuts, size_t cap, bool last_empty,
            struct transcript *t)
{
  struct decoder d;
  ucs4_t cp[MAX_IN];
  int64_t off[MAX_IN];
  uint8_t nb[MAX_IN];
  size_t chunk, start = 0;
  int guard = 0;

  t->brief[0] = t->full[0] = '\0';
  t->bytes_ok = true;
  decoder_init (&d, c);
  for (chunk = 0; chunk <= ncuts + last_empty; chunk++)
    {
      size_t end = chunk < ncuts ? cuts[chunk] : n;
      bool last = chunk == ncuts + last_empty;
      size_t pos = 0;
      for (;;)
        {
          struct pivot p = { cp, off, nb, 0, cap };
          size_t len = end - start - pos, k;
          enum decode_status st = c->decode (&d, in + start + pos, &len,
                                             last, &p);
          int64_t base = (int64_t) (start + pos);
          for (k = 0; k < p.len; k++)
            {
              append (t->brief, " %04X", (unsigned int) cp[k]);
              append (t->full, " %04X@%lld", (unsigned int) cp[k],
                      (long long) (base + off[k]));
            }
          if (st == DECODE_MALFORMED)
            {
              int64_t at = base + d.error.rel_offset;
              append (t->brief, " !%s%u@%lld", kind_word (d.error.kind),
                      d.error.len, (long long) at);
              append (t->full, " !%s%u@%lld", kind_word (d.error.kind),
                      d.error.len, (long long) at);
              if (at < 0 || (size_t) at + d.error.len > n
                  || memcmp (in + at, d.error.bytes, d.error.len) != 0)
                t->bytes_ok = false;
            }
          pos += len;
          if ((st == DECODE_INPUT_EMPTY && start + pos == end)
              || ++guard > 10000)
            break;
        }
      start = end;
    }
}

static int decode_cases;

/* One decoding case: the transcript of IN_HEX in codec NAME must be
   WANT (values as %04X, errors as !KIND LEN @OFFSET), and the same
   however the input is cut.  */
static void
check_decode (char const *name, char const *in_hex, char const *want)
{
  struct codec const *c = registry_find (name);
  uint8_t in[MAX_IN];
  size_t n = parse_hex (in_hex, in), i, j;
  struct transcript whole, t;
  size_t cuts[2 * MAX_IN];
  char const *bad = NULL;
  char what[128] = "";

  decode_cases++;
  if (!ok (c != NULL, "%s is known", name))
    return;
  run_decode (c, in, n, NULL, 0, MAX_IN, false, &whole);
  if (!ok (strcmp (whole.brief + (whole.brief[0] == ' '), want) == 0
           && whole.bytes_ok,
           "%s [%s] decodes to [%s]", name, in_hex, want))
    diag ("got [%s]%s", whole.brief + (whole.brief[0] == ' '),
          whole.bytes_ok ? "" : " (error bytes differ from the input)");

  /* Every split point, and the whole with `last' on an empty chunk.  */
  for (i = 0; i <= n && !bad; i++)
    {
      cuts[0] = i;
      run_decode (c, in, n, cuts, 1, MAX_IN, false, &t);
      if (strcmp (t.full, whole.full) != 0 || !t.bytes_ok)
        bad = t.full, snprintf (what, sizeof what, "split at %zu", i);
      run_decode (c, in, n, cuts, 1, MAX_IN, true, &t);
      if (!bad && (strcmp (t.full, whole.full) != 0 || !t.bytes_ok))
        bad = t.full, snprintf (what, sizeof what,
                                "split at %zu, last empty", i);
    }
  /* Every pair of split points.  */
  for (i = 0; i <= n && !bad; i++)
    for (j = i; j <= n && !bad; j++)
      {
        cuts[0] = i;
        cuts[1] = j;
        run_decode (c, in, n, cuts, 2, MAX_IN, false, &t);
        if (strcmp (t.full, whole.full) != 0 || !t.bytes_ok)
          bad = t.full, snprintf (what, sizeof what, "split at %zu and %zu",
                                  i, j);
      }
  if (!ok (!bad, "%s [%s] split anywhere once or twice", name, in_hex))
    diag ("%s: got [%s]\nwant [%s]", what, bad, whole.full);

  /* Byte by byte, then with an empty chunk between each byte.  */
  for (i = 0; i < n; i++)
    cuts[i] = i + 1;
  run_decode (c, in, n, cuts, n, MAX_IN, true, &t);
  if (!ok (strcmp (t.full, whole.full) == 0 && t.bytes_ok,
           "%s [%s] byte by byte", name, in_hex))
    diag ("got [%s]\nwant [%s]", t.full, whole.full);
  for (i = 0; i < n; i++)
    cuts[2 * i] = cuts[2 * i + 1] = i + 1;
  run_decode (c, in, n, cuts, 2 * n, MAX_IN, false, &t);
  if (!ok (strcmp (t.full, whole.full) == 0 && t.bytes_ok,
           "%s [%s] byte by byte with empty chunks", name, in_hex))
    diag ("got [%s]\nwant [%s]", t.full, whole.full);

  /* A pivot of one value.  */
  run_decode (c, in, n, NULL, 0, 1, false, &t);
  if (!ok (strcmp (t.full, whole.full) == 0 && t.bytes_ok,
           "%s [%s] with a pivot of one value", name, in_hex))
    diag ("got [%s]\nwant [%s]", t.full, whole.full);
}

/* Encode CP[0..N) with codec C, PER_CALL values per call, into an output
   buffer of CAP bytes that is drained whenever the encoder says it is
   full; then flush.  Writes the bytes as hex into OUT, with "!N" where
   value N could not be encoded (the encoding then goes on after it).  */
static void
run_encode (struct codec const *c, ucs4_t const *cp, size_t n,
            size_t per_call, size_t cap, char *out)
{
  struct encoder e;
  uint8_t buf[64];
  size_t i = 0, k;

  out[0] = '\0';
  encoder_init (&e, c);
  while (i < n)
    {
      size_t count = n - i < per_call ? n - i : per_call, len = 0;
      enum encode_status st = c->encode (&e, cp + i, &count, buf, &len, cap);
      for (k = 0; k < len; k++)
        append (out, " %02X", buf[k]);
      i += count;
      if (st == ENCODE_UNENCODABLE)
        {
          append (out, " !%zu", i);
          i++;
        }
    }
  if (c->flush)
    {
      size_t len = c->flush (&e, buf);
      for (k = 0; k < len; k++)
        append (out, " %02X", buf[k]);
    }
  /* A flushed encoder holds nothing back.  */
  if (e.pending != 0)
    append (out, " pending");
}

static size_t
parse_values (char const *s, ucs4_t *cp)
{
  size_t n = 0;
  char *end;
  while (*s)
    {
      cp[n++] = (ucs4_t) strtoul (s, &end, 16);
      s = end;
      while (*s == ' ')
        s++;
    }
  return n;
}

/* One encoding case: values CP_HEX encode to WANT in codec NAME.  */
static void
check_encode (char const *name, char const *cp_hex, char const *want)
{
  struct codec const *c = registry_find (name);
  ucs4_t cp[MAX_IN];
  size_t n = parse_values (cp_hex, cp);
  char whole[TRANSCRIPT], t[TRANSCRIPT];

  if (!ok (c != NULL, "%s is known", name))
    return;
  run_encode (c, cp, n, n ? n : 1, 64, whole);
  if (!ok (strcmp (whole + (whole[0] == ' '), want) == 0,
           "%s encodes [%s] as [%s]", name, cp_hex, want))
    diag ("got [%s]", whole + (whole[0] == ' '));
  run_encode (c, cp, n, 1, MAX_ENCODED, t);
  if (!ok (strcmp (t, whole) == 0,
           "%s encodes [%s] one value a call into %d bytes", name, cp_hex,
           (int) MAX_ENCODED))
    diag ("got [%s]\nwant [%s]", t, whole);
}

static void
test_registry (void)
{
  static struct
  {
    char const *alias, *name;
    unsigned int flags;
    bool flush;
  } const names[] = {
    { "UTF-8", "UTF-8", CODEC_UNICODE | CODEC_ASCII_BYTES, false },
    { "cesu-8", "CESU-8", CODEC_UNICODE | CODEC_ASCII_BYTES, false },
    { "CESU8", "CESU-8", CODEC_UNICODE | CODEC_ASCII_BYTES, false },
    { "MUTF-8", "MUTF-8", CODEC_UNICODE | CODEC_KEEPS_SURROGATES
      | CODEC_SURROGATE_CARRIER, false },
    { "Modified-UTF-8", "MUTF-8", CODEC_UNICODE | CODEC_KEEPS_SURROGATES
      | CODEC_SURROGATE_CARRIER, false },
    { "JAVA", "MUTF-8", CODEC_UNICODE | CODEC_KEEPS_SURROGATES
      | CODEC_SURROGATE_CARRIER, false },
    { "mutf8", "MUTF-8", CODEC_UNICODE | CODEC_KEEPS_SURROGATES
      | CODEC_SURROGATE_CARRIER, false },
    { "WTF-8", "WTF-8", CODEC_UNICODE | CODEC_KEEPS_SURROGATES
      | CODEC_SURROGATE_CARRIER, true },
    { "wtf8", "WTF-8", CODEC_UNICODE | CODEC_KEEPS_SURROGATES
      | CODEC_SURROGATE_CARRIER, true },
  };
  size_t i;
  for (i = 0; i < sizeof names / sizeof names[0]; i++)
    {
      struct codec const *c = registry_find (names[i].alias);
      ok (c && strcmp (c->name, names[i].name) == 0
          && c->flags == names[i].flags && (c->flush != NULL) == names[i].flush,
          "%s is %s with its flags", names[i].alias, names[i].name);
    }
}

/* Decoding UTF-8 and CESU-8.  */
static void
test_decoding (void)
{
  /* UTF-8: the boundaries of Table 3-7 and every kind of error, so that
     the table-driven decoder is seen to keep UTF-8 as it was.  */
  check_decode ("UTF-8", "00 7F", "0000 007F");
  check_decode ("UTF-8", "C2 80 DF BF", "0080 07FF");
  check_decode ("UTF-8", "E0 A0 80 ED 9F BF EE 80 80 EF BF BF",
                "0800 D7FF E000 FFFF");
  check_decode ("UTF-8", "F0 90 80 80 F4 8F BF BF", "10000 10FFFF");
  check_decode ("UTF-8", "80 BF", "!cont1@0 !cont1@1");
  check_decode ("UTF-8", "C0 80 C1 BF",
                "!over1@0 !cont1@1 !over1@2 !cont1@3");
  check_decode ("UTF-8", "E0 9F BF", "!over1@0 !cont1@1 !cont1@2");
  check_decode ("UTF-8", "ED A0 80 ED BF BF",
                "!surr1@0 !cont1@1 !cont1@2 !surr1@3 !cont1@4 !cont1@5");
  check_decode ("UTF-8", "F0 8F BF BF",
                "!over1@0 !cont1@1 !cont1@2 !cont1@3");
  check_decode ("UTF-8", "F4 90 80 80",
                "!big1@0 !cont1@1 !cont1@2 !cont1@3");
  check_decode ("UTF-8", "F5 80 FD FE FF",
                "!big1@0 !cont1@1 !big1@2 !inv1@3 !inv1@4");
  check_decode ("UTF-8", "E1 80 41 F1 80 80", "!trunc2@0 0041 !trunc3@3");
  check_decode ("UTF-8", "61 F1 80 80 E1 80 C2 62 80 63 80 BF 64",
                "0061 !trunc3@1 !trunc2@4 !trunc1@6 0062 !cont1@8 0063"
                " !cont1@10 !cont1@11 0064");

  /* CESU-8.  */
  check_decode ("CESU-8", "00 7F C2 80 DF BF", "0000 007F 0080 07FF");
  check_decode ("CESU-8", "E0 A0 80 ED 9F BF EE 80 80 EF BF BF",
                "0800 D7FF E000 FFFF");
  check_decode ("CESU-8", "ED A0 80 ED B0 80", "10000");
  check_decode ("CESU-8", "ED AF BF ED BF BF", "10FFFF");
  check_decode ("CESU-8", "41 ED A0 BD ED B8 80 42", "0041 1F600 0042");
  check_decode ("CESU-8", "F0 90 80 80",
                "!inv1@0 !cont1@1 !cont1@2 !cont1@3");
  check_decode ("CESU-8", "F4 8F BF BF F5 FE",
                "!inv1@0 !cont1@1 !cont1@2 !cont1@3 !big1@4 !inv1@5");
  check_decode ("CESU-8", "C0 80 E0 9F BF",
                "!over1@0 !cont1@1 !over1@2 !cont1@3 !cont1@4");
  /* A high surrogate without its low one is one error of its three
     bytes, never more: what follows is read again, so a following ED
     can start a character (regression: ED A0 80 ED 9F BF lost U+D7FF
     under replace, ED A0 80 ED A0 80 ED B0 80 lost U+10000).  */
  check_decode ("CESU-8", "ED A0 80 41", "!surr3@0 0041");
  check_decode ("CESU-8", "ED A0 80 ED B0 41",
                "!surr3@0 !surr1@3 !cont1@4 0041");
  check_decode ("CESU-8", "ED B0 80", "!surr1@0 !cont1@1 !cont1@2");
  check_decode ("CESU-8", "ED A0", "!trunc2@0");
  check_decode ("CESU-8", "ED A0 80", "!trunc3@0");
  check_decode ("CESU-8", "ED A0 80 ED", "!trunc3@0 !trunc1@3");
  check_decode ("CESU-8", "ED A0 80 ED B0",
                "!trunc3@0 !surr1@3 !cont1@4");
  check_decode ("CESU-8", "ED A0 80 ED A0 80", "!surr3@0 !trunc3@3");
  check_decode ("CESU-8", "ED A0 80 ED 9F BF", "!surr3@0 D7FF");
  check_decode ("CESU-8", "ED A0 80 ED A0 80 ED B0 80", "!surr3@0 10000");
  check_decode ("CESU-8", "ED A0 80 E1 80 80", "!surr3@0 1000");
  check_decode ("CESU-8", "ED A0 80 ED B0 80 ED B0 80",
                "10000 !surr1@6 !cont1@7 !cont1@8");
}

/* Decoding MUTF-8 and WTF-8.  */
static void
test_decoding_mutf8_wtf8 (void)
{
  /* MUTF-8.  */
  check_decode ("MUTF-8", "00 C0 80 7F", "0000 0000 007F");
  check_decode ("MUTF-8", "C2 80 DF BF E0 A0 80 EF BF BF",
                "0080 07FF 0800 FFFF");
  check_decode ("MUTF-8", "C0 81 C0 41 C1 80",
                "!over1@0 !cont1@1 !trunc1@2 0041 !over1@4 !cont1@5");
  check_decode ("MUTF-8", "C0", "!trunc1@0");
  check_decode ("MUTF-8", "E0 80 80 C1 81",
                "!over1@0 !cont1@1 !cont1@2 !over1@3 !cont1@4");
  check_decode ("MUTF-8", "ED A0 80", "D800");
  check_decode ("MUTF-8", "ED A0 80 41 ED BF BF", "D800 0041 DFFF");
  check_decode ("MUTF-8", "ED B0 80 ED A0 80", "DC00 D800");
  check_decode ("MUTF-8", "ED A0 80 ED B0 80", "10000");
  check_decode ("MUTF-8", "ED AF BF ED BF BF", "10FFFF");
  check_decode ("MUTF-8", "ED A0 80 ED A0 80 ED B0 80", "D800 10000");
  check_decode ("MUTF-8", "ED A0 80 ED B0 41", "D800 !trunc2@3 0041");
  check_decode ("MUTF-8", "ED A0 80 ED", "D800 !trunc1@3");
  check_decode ("MUTF-8", "ED A0 80 ED 80 80", "D800 D000");
  check_decode ("MUTF-8", "F0 90 80 80",
                "!inv1@0 !cont1@1 !cont1@2 !cont1@3");
  check_decode ("MUTF-8", "F4 8F BF BF FF",
                "!inv1@0 !cont1@1 !cont1@2 !cont1@3 !inv1@4");

  /* WTF-8.  */
  check_decode ("WTF-8", "00 7F C2 80 DF BF", "0000 007F 0080 07FF");
  check_decode ("WTF-8", "E0 A0 80 ED 9F BF EE 80 80 EF BF BF",
                "0800 D7FF E000 FFFF");
  check_decode ("WTF-8", "F0 90 80 80 F4 8F BF BF", "10000 10FFFF");
  check_decode ("WTF-8", "C0 80 E0 9F BF",
                "!over1@0 !cont1@1 !over1@2 !cont1@3 !cont1@4");
  check_decode ("WTF-8", "F0 8F BF BF F4 90 F5",
                "!over1@0 !cont1@1 !cont1@2 !cont1@3 !big1@4 !cont1@5"
                " !big1@6");
  check_decode ("WTF-8", "ED A0 80", "D800");
  check_decode ("WTF-8", "ED B0 80 ED BF BF", "DC00 DFFF");
  check_decode ("WTF-8", "ED B0 80 ED A0 80", "DC00 D800");
  check_decode ("WTF-8", "ED A0 80 41 ED B0 80", "D800 0041 DC00");
  check_decode ("WTF-8", "ED A0 80 ED B0 80", "D800 !surr3@3");
  check_decode ("WTF-8", "ED AF BF ED BF BF", "DBFF !surr3@3");
  check_decode ("WTF-8", "ED A0 80 ED A0 80 ED B0 80",
                "D800 D800 !surr3@6");
  check_decode ("WTF-8", "ED A0 80 ED B0 80 ED B0 80",
                "D800 !surr3@3 DC00");
  check_decode ("WTF-8", "ED A0 80 ED B0 41", "D800 !trunc2@3 0041");
  check_decode ("WTF-8", "ED A0 80 ED", "D800 !trunc1@3");
  check_decode ("WTF-8", "ED A0 80 F0 90 80 80", "D800 10000");
  check_decode ("WTF-8", "ED A0 80 80 ED B0 80", "D800 !cont1@3 DC00");
}

static void
test_encoding (void)
{
  check_encode ("UTF-8", "0 7F 80 7FF 800 FFFF 10000 10FFFF",
                "00 7F C2 80 DF BF E0 A0 80 EF BF BF F0 90 80 80"
                " F4 8F BF BF");
  check_encode ("UTF-8", "41 D800 42 DFFF", "41 !1 42 !3");

  check_encode ("CESU-8", "0 7F 80 7FF 800 D7FF E000 FFFF",
                "00 7F C2 80 DF BF E0 A0 80 ED 9F BF EE 80 80 EF BF BF");
  check_encode ("CESU-8", "10000 10FFFF 1F600",
                "ED A0 80 ED B0 80 ED AF BF ED BF BF ED A0 BD ED B8 80");
  check_encode ("CESU-8", "41 D800 DC00 DFFF 42", "41 !1 !2 !3 42");

  check_encode ("MUTF-8", "0 1 7F 80 7FF 800 FFFF",
                "C0 80 01 7F C2 80 DF BF E0 A0 80 EF BF BF");
  check_encode ("MUTF-8", "10000 10FFFF",
                "ED A0 80 ED B0 80 ED AF BF ED BF BF");
  check_encode ("MUTF-8", "D800 41 DC00 DBFF",
                "ED A0 80 41 ED B0 80 ED AF BF");

  check_encode ("WTF-8", "0 7F 80 FFFF 10000 10FFFF",
                "00 7F C2 80 EF BF BF F0 90 80 80 F4 8F BF BF");
  check_encode ("WTF-8", "D800", "ED A0 80");
  check_encode ("WTF-8", "DC00", "ED B0 80");
  check_encode ("WTF-8", "D800 DC00", "F0 90 80 80");
  check_encode ("WTF-8", "DBFF DFFF", "F4 8F BF BF");
  check_encode ("WTF-8", "D800 D800 DC00", "ED A0 80 F0 90 80 80");
  check_encode ("WTF-8", "DC00 D800", "ED B0 80 ED A0 80");
  check_encode ("WTF-8", "D800 0", "ED A0 80 00");
  check_encode ("WTF-8", "D800 10000", "ED A0 80 F0 90 80 80");
  check_encode ("WTF-8", "D83D DE00 D83D", "F0 9F 98 80 ED A0 BD");
  check_encode ("WTF-8", "DC80 DCFF", "ED B2 80 ED B3 BF");
}

static ucs4_t
random_value (bool surrogates)
{
  static ucs4_t const edges[] = {
    0, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000,
    0x10FFFF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF
  };
  ucs4_t c;
  do
    c = (rng () & 1 ? edges[rng () % 15]
         : rng () % 0x110000);
  while (!surrogates && 0xD800 <= c && c < 0xE000);
  return c;
}

/* Encode CP[0..N) with C, decode the bytes again with C (cut at random
   places): the values must be WANT[0..WN), without errors.  */
static bool
round_trip (struct codec const *c, ucs4_t const *cp, size_t n,
            ucs4_t const *want, size_t wn)
{
  struct encoder e;
  struct decoder d;
  uint8_t bytes[16 * 64];
  ucs4_t back[128];
  int64_t off[128];
  uint8_t nb[128];
  struct pivot p = { back, off, nb, 0, 128 };
  size_t blen = 0, count = n, pos = 0;

  encoder_init (&e, c);
  if (c->encode (&e, cp, &count, bytes, &blen, sizeof bytes)
      != ENCODE_INPUT_EMPTY || count != n)
    return false;
  if (c->flush)
    blen += c->flush (&e, bytes + blen);
  decoder_init (&d, c);
  while (pos < blen)
    {
      size_t len = rng () % 8;
      if (len > blen - pos)
        len = blen - pos;
      if (c->decode (&d, bytes + pos, &len, false, &p) != DECODE_INPUT_EMPTY)
        return false;
      pos += len;
    }
  count = 0;
  if (c->decode (&d, bytes + pos, &count, true, &p) != DECODE_INPUT_EMPTY)
    return false;
  return p.len == wn && memcmp (back, want, wn * sizeof *want) == 0;
}

/* Random sequences: scalar values survive every variant; with lone
   surrogates, WTF-8 and MUTF-8 give back the sequence with each high
   surrogate directly followed by a low one joined into one character.  */
static void
test_round_trips (void)
{
  static char const *const names[] = { "UTF-8", "CESU-8", "MUTF-8",
                                       "WTF-8" };
  size_t v, iter;
  for (v = 0; v < 4; v++)
    {
      struct codec const *c = registry_find (names[v]);
      bool carrier = v >= 2;
      int failures = 0;
      for (iter = 0; iter < 2000; iter++)
        {
          ucs4_t cp[64], want[64];
          size_t n = rng () % 20, wn = 0, i;
          for (i = 0; i < n; i++)
            cp[i] = random_value (carrier);
          for (i = 0; i < n; i++)
            if (0xD800 <= cp[i] && cp[i] < 0xDC00 && i + 1 < n
                && 0xDC00 <= cp[i + 1] && cp[i + 1] < 0xE000)
              {
                want[wn++] = 0x10000 + ((cp[i] - 0xD800) << 10)
                             + (cp[i + 1] - 0xDC00);
                i++;
              }
            else
              want[wn++] = cp[i];
          if (!round_trip (c, cp, n, want, wn) && failures++ == 0)
            diag ("%s: round trip %zu failed", names[v], iter);
        }
      ok (failures == 0, "%s: 2000 random round trips%s", names[v],
          carrier ? " with lone surrogates" : "");
    }
}

int
main (void)
{
  /* The round trips' own sequence, as before they shared the helpers'
     generator.  */
  rng_state = 88172645u;
  test_registry ();
  test_decoding ();
  test_decoding_mutf8_wtf8 ();
  test_encoding ();
  test_round_trips ();
  diag ("%d decoding cases", decode_cases);
  return done_testing ();
}
