/* Runs of code units through iconv(3): the Unicode forms of fixed code
   units that iconv(3) knows and utf8conv does not build in (UCS-2,
   UCS-2LE, UCS-2BE, UNICODE, UNICODELITTLE, UNICODEBIG, UCS-4 and
   their aliases).

   Specification: POSIX iconv(3), as implemented by glibc or GNU
   libiconv; ISO/IEC 10646 for UCS-2 and UCS-4.

   The bridge (iconv_bridge.c) converts one character per iconv() call,
   which costs five times what iconv(1) takes for these forms: their
   characters hardly repeat, so the memo does not help.  Here one call
   converts a run, and the run is split into characters afterwards,
   which is exact because in these forms the bytes of each value are
   known from the value: UNIT bytes, or two units for a value above
   U+FFFF (a surrogate pair of UTF-16).  What a character per call
   would have found is found by the same decoder state at the same
   place:

   - a run ends where iconv() stops: an illegal unit (UCS-2's
     surrogates), a pair cut by the end of the run, the end of the
     input.  The bridge then takes over there, one character per call,
     from the state the calls would have left (iconv() consumes nothing
     of what it rejects);

   - a run ends before a unit that reads as a byte order mark (FE FF or
     FF FE, in units of either size and either order), which some of
     these decoders consume without a value (the first one of UNICODE
     and UTF-16) and others read as U+FEFF: the bridge converts it
     alone, and it owns the prefix logic that gives such bytes to the
     next value;

   - encoding, a run holds only values that each of these forms encodes
     (no surrogates; for units of 2 bytes nothing above U+FFFF), so the
     values iconv() could reject go to the bridge one at a time, and
     the bytes written are those the calls would write one after the
     other (a BOM first, where the form writes one).

   Which charsets are such forms is found by a probe of what iconv(3)
   does, never from the name: four values (A, a CJK ideograph, e-acute,
   U+FFFD) encoded must come out as one unit each of 2 or 4 bytes in one
   byte order (after an optional BOM of one unit), one value alone as
   one unit, and the encoded bytes decoded must give the four values
   back, all bytes consumed.  UTF-7, UTF-8 and every legacy charset fail
   it.  */

#include <config.h>

#include "iconv_units.h"

#include <errno.h>
#include <string.h>

#include "iconv_memo.h"

#include "unicode/utf8.h"

enum
{
  /* Values converted per iconv() call when encoding.  */
  UNITS_CHUNK = 512,
  /* The longest BOM these forms write.  */
  UNITS_BOM = 4,
  /* The most units a run converts with iconv() while it learns the
     byte order.  */
  UNITS_LEARN = 256
};

/* What CD encodes the N values at V to, from its initial state and
   flushed, into OUT (SIZE bytes); returns the bytes, or SIZE + 1 when
   iconv() refused.  */
static size_t
probe_encode (iconv_t cd, ucs4_t const *v, size_t n, uint8_t *out,
              size_t size)
{
  uint8_t in[16];
  size_t k, used, bytes, left;
  int err;
  char *op;

  for (k = 0; k < 4 * n; k++)
    in[k] = (uint8_t) (v[k / 4] >> (8 * (k % 4)));
  iconv (cd, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (cd, in, 4 * n, out, size, &used, &err);
  if (err != 0 || used != 4 * n)
    return size + 1;
  op = (char *) out + bytes;
  left = size - bytes;
  if (iconv (cd, NULL, NULL, &op, &left) == (size_t) -1)
    return size + 1;
  return size - left;
}

/* The value of the UNIT bytes at S, big-endian if BIG.  */
static ucs4_t
unit_at (uint8_t const *s, unsigned int unit, bool big)
{
  ucs4_t c = 0;
  unsigned int k;
  for (k = 0; k < unit; k++)
    c |= (ucs4_t) s[big ? k : unit - 1 - k] << (8 * (unit - 1 - k));
  return c;
}

/* Whether OUT[0..LEN), a BOM of 0 or 1 unit then the values V[0..N),
   is that in units of UNIT bytes in one byte order.  */
static bool
units_of (uint8_t const *out, size_t len, ucs4_t const *v, size_t n,
          unsigned int unit)
{
  size_t bom = len - n * unit, k;
  int big;
  if (len < n * unit || (bom != 0 && bom != unit))
    return false;
  for (big = 0; big < 2; big++)
    {
      for (k = 0; k < n; k++)
        if (unit_at (out + bom + k * unit, unit, big) != v[k])
          break;
      if (k == n)
        return true;
    }
  return false;
}

unsigned int
units_probe (char const *name)
{
  static ucs4_t const v[] = { 0x41, 0x4E2D, 0xE9, 0xFFFD };
  uint8_t one[32], four[32], back[32];
  size_t a, b, used;
  unsigned int unit;
  int err;
  /* Scalar values only: memo_ucs4 () reads them as UTF-32LE does (but
     glibc opens nothing from WCHAR_T to WCHAR_T).  */
  iconv_t enc = iconv_open (name, memo_ucs4 ()), dec;

  if (enc == (iconv_t) -1)
    enc = iconv_open (name, "UTF-32LE");
  if (enc == (iconv_t) -1)
    return 0;
  a = probe_encode (enc, v, 1, one, sizeof one);
  b = probe_encode (enc, v, 4, four, sizeof four);
  iconv_close (enc);
  if (a > sizeof one || b > sizeof four || b < a || (b - a) % 3 != 0)
    return 0;
  unit = (unsigned int) ((b - a) / 3);
  if ((unit != 2 && unit != 4) || !units_of (one, a, v, 1, unit)
      || !units_of (four, b, v, 4, unit))
    return 0;
  dec = iconv_open ("UTF-32LE", name);
  if (dec == (iconv_t) -1)
    return 0;
  a = bridge_convert (dec, four, b, back, sizeof back, &used, &err);
  iconv_close (dec);
  if (err != 0 || used != b || a != sizeof v)
    return 0;
  for (b = 0; b < 4; b++)
    if (get32le (back + 4 * b) != v[b])
      return 0;
  return unit;
}

/* Whether the unit C is one that every such form decodes to the value
   C wherever it stands (no surrogate, no byte order mark either way,
   nothing above U+10FFFF).  */
static bool
plain_unit (ucs4_t c)
{
  return c < 0xD800 || (0xE000 <= c && c <= 0x10FFFF && c != 0xFEFF
                        && c != 0xFFFE);
}

/* Whether the UNIT bytes at S read as a byte order mark (U+FEFF or
   U+FFFE) in either byte order.  */
static bool
bom_like (uint8_t const *s, unsigned int unit)
{
  ucs4_t le, be;
  if (unit == 2)
    return (s[0] & s[1]) >= 0xFE && s[0] != s[1];
  le = unit_at (s, unit, false);
  be = unit_at (s, unit, true);
  return le == 0xFEFF || le == 0xFFFE || be == 0xFEFF || be == 0xFFFE;
}

/* The byte order in which the values at P->cp[FROM..P->len), whose
   bytes are at IN (offsets from REL), are their units: UNITS_BIG,
   UNITS_LITTLE, or UNITS_UNKNOWN when the values cannot tell.  */
static int
order_of (struct pivot const *p, size_t from, uint8_t const *in,
          int64_t rel, unsigned int unit)
{
  bool le = true, be = true;
  size_t k;
  for (k = from; k < p->len && (le || be); k++)
    if (p->n[k] == unit)
      {
        uint8_t const *s = in + (p->off[k] - rel);
        le = le && unit_at (s, unit, false) == p->cp[k];
        be = be && unit_at (s, unit, true) == p->cp[k];
      }
  return le == be ? UNITS_UNKNOWN : le ? UNITS_LITTLE : UNITS_BIG;
}

/* Decode the plain units at the start of IN[0..LEN), in the byte order
   ORDER, into P without iconv(): what it would give for them.  */
static size_t
decode_plain (unsigned int unit, int order, struct decoder *d,
              uint8_t const *in, size_t len, int64_t rel, struct pivot *p,
              size_t *last)
{
  ucs4_t *cp = p->cp + p->len;
  int64_t *off = p->off + p->len;
  uint8_t *nb = p->n + p->len;
  size_t k, m = len / unit, newlines = 0;
  unsigned int hi = order == UNITS_BIG ? 0 : 1;

  for (k = 0; k < m; k++)
    {
      uint8_t const *s = in + k * unit;
      ucs4_t c = (unit == 2 ? (ucs4_t) s[hi] << 8 | s[1 - hi]
                  : unit_at (s, unit, order == UNITS_BIG));
      if (!plain_unit (c))
        break;
      cp[k] = c;
      off[k] = rel + (int64_t) (k * unit);
      nb[k] = (uint8_t) unit;
      newlines += c == 0x0A;
    }
  d->newlines += newlines;
  p->len += k;
  if (k > 0)
    *last = (k - 1) * unit;
  return k * unit;
}

/* units_decode_utf8's loop for M units of UNIT bytes (2 or 4, a
   constant where it is inlined), big-endian if BIG.  */
static inline size_t
units_utf8 (uint8_t const *in, size_t m, unsigned int unit, bool big,
            uint8_t *out, size_t *produced, uint64_t *newlines)
{
  size_t k, o = 0;
  uint64_t nl = 0;
  unsigned int hi = big ? 0 : 1;
  for (k = 0; k < m; k++)
    {
      uint8_t const *s = in + unit * k;
      ucs4_t c = (unit == 2 ? (ucs4_t) s[hi] << 8 | s[1 - hi]
                  : big ? (ucs4_t) s[0] << 24 | (ucs4_t) s[1] << 16
                          | (ucs4_t) s[2] << 8 | s[3]
                  : (ucs4_t) s[3] << 24 | (ucs4_t) s[2] << 16
                    | (ucs4_t) s[1] << 8 | s[0]);
      if (c < 0x80)
        {
          out[o++] = (uint8_t) c;
          nl += c == 0x0A;
          continue;
        }
      if (!plain_unit (c))
        break;
      o += (size_t) utf8_put (c, out + o);
    }
  *produced = o;
  *newlines = nl;
  return unit * k;
}

size_t
units_decode_utf8 (unsigned int unit, int order, uint8_t const *in, size_t n,
                   uint8_t *out, size_t cap, size_t *produced,
                   uint64_t *newlines)
{
  *produced = 0;
  *newlines = 0;
  if (order == UNITS_UNKNOWN)
    return 0;
  /* A unit becomes at most 3 bytes of UTF-8 (2 bytes), or 4.  */
  if (unit == 2)
    return units_utf8 (in, n / 2 < cap / 3 ? n / 2 : cap / 3, 2,
                       order == UNITS_BIG, out, produced, newlines);
  if (unit == 4)
    return units_utf8 (in, n / 4 < cap / 4 ? n / 4 : cap / 4, 4,
                       order == UNITS_BIG, out, produced, newlines);
  return 0;
}

size_t
units_decode (iconv_t cd, unsigned int unit, int *order, struct decoder *d,
              uint8_t const *in, size_t n, int64_t rel, struct pivot *p,
              size_t max, size_t *last, bool *exact)
{
  size_t len = n < max * unit ? n - n % unit : max * unit, k, got, used;
  size_t at, cut, values, from = p->len;
  int err;
  uint8_t *out = (uint8_t *) (p->cp + p->len);

  if (*order != UNITS_UNKNOWN)
    return decode_plain (unit, *order, d, in, len, rel, p, last);
  /* Enough to show the byte order: the rest goes faster without
     iconv().  */
  for (cut = 0; cut < len && cut < UNITS_LEARN * unit
       && !bom_like (in + cut, unit); cut += unit)
    continue;
  if (cut == 0)
    return 0;
  got = bridge_convert (cd, in, cut, out, 4 * max, &used, &err);
  values = got / 4;
  at = 0;
  for (k = 0; k < values; k++)
    {
      size_t j = p->len + k;
      ucs4_t c = get32le (out + 4 * k);
      unsigned int bytes = unit == 2 && c > 0xFFFF ? 4 : unit;
      if (at + bytes > used)
        {
          *exact = false;
          bytes = at < used ? (unsigned int) (used - at) : 0;
        }
      p->cp[j] = c;
      p->off[j] = rel + (int64_t) at;
      p->n[j] = (uint8_t) bytes;
      d->newlines += c == 0x0A;
      *last = at;
      at += bytes;
    }
  if (at != used)
    *exact = false;
  p->len += values;
  if (*exact)
    *order = order_of (p, from, in, rel, unit);
  if (*order != UNITS_UNKNOWN && used == cut && values < max)
    {
      size_t more = decode_plain (unit, *order, d, in + used,
                                  (max - values) * unit < len - used
                                  ? (max - values) * unit : len - used,
                                  rel + (int64_t) used, p, &at);
      if (more > 0)
        *last = used + at;
      used += more;
    }
  return used;
}

/* Whether every form of UNIT bytes encodes C to one unit, C itself
   (no byte order mark either).  */
static bool
plain (ucs4_t c, unsigned int unit)
{
  return plain_unit (c) && (unit == 4 || c <= 0xFFFF);
}

/* Encode the plain values at the start of CP[0..N) into OUT in the byte
   order ORDER, as iconv() does once it has written its BOM; returns how
   many.  */
static size_t
encode_plain (unsigned int unit, int order, ucs4_t const *cp, size_t n,
              uint8_t *out)
{
  size_t k;
  unsigned int j, hi = order == UNITS_BIG ? 0 : 1;
  if (unit == 2)
    {
      for (k = 0; k < n; k++)
        {
          ucs4_t c = cp[k];
          if (!(c < 0xD800 || (0xE000 <= c && c <= 0xFFFD && c != 0xFEFF)))
            break;
          out[2 * k + hi] = (uint8_t) (c >> 8);
          out[2 * k + 1 - hi] = (uint8_t) c;
        }
      return k;
    }
  for (k = 0; k < n && plain (cp[k], unit); k++)
    for (j = 0; j < unit; j++)
      out[k * unit + j] = (uint8_t) (cp[k] >> 8 * (hi ? j : unit - 1 - j));
  return k;
}

/* The byte order of the units at OUT[0..LEN), a BOM of one unit or
   none and then the N values at CP, or UNITS_UNKNOWN.  */
static int
encoded_order (uint8_t const *out, size_t len, ucs4_t const *cp, size_t n,
               unsigned int unit)
{
  bool le = true, be = true;
  size_t k, bom = len - n * unit;
  if (len < n * unit || (bom != 0 && bom != unit))
    return UNITS_UNKNOWN;
  for (k = 0; k < n && (le || be); k++)
    {
      le = le && unit_at (out + bom + k * unit, unit, false) == cp[k];
      be = be && unit_at (out + bom + k * unit, unit, true) == cp[k];
    }
  return le == be ? UNITS_UNKNOWN : le ? UNITS_LITTLE : UNITS_BIG;
}

size_t
units_encode (iconv_t cd, unsigned int unit, int *order, ucs4_t const *cp,
              size_t count, uint8_t *out, size_t *o, size_t cap, bool *exact)
{
  size_t done = 0;

  while (done < count)
    {
      uint8_t in[4 * UNITS_CHUNK];
      size_t room = cap - *o, n, k, il, ol, r;
      ICONV_CONST char *ip = (ICONV_CONST char *) in;
      char *op = (char *) out + *o;

      if (room < UNITS_BOM + MAX_ENCODED + unit)
        break;
      n = (room - UNITS_BOM - MAX_ENCODED) / unit;
      if (n > UNITS_CHUNK)
        n = UNITS_CHUNK;
      if (n > count - done)
        n = count - done;
      if (*order != UNITS_UNKNOWN)
        {
          k = encode_plain (unit, *order, cp + done, n, out + *o);
          *o += k * unit;
          done += k;
          if (k < n)
            break;
          continue;
        }
      for (k = 0; k < n && plain (cp[done + k], unit); k++)
        {
          ucs4_t c = cp[done + k];
          in[4 * k] = (uint8_t) c;
          in[4 * k + 1] = (uint8_t) (c >> 8);
          in[4 * k + 2] = (uint8_t) (c >> 16);
          in[4 * k + 3] = (uint8_t) (c >> 24);
        }
      if (k == 0)
        break;
      il = 4 * k;
      ol = room;
      r = iconv (cd, &ip, &il, &op, &ol);
      if (r != (size_t) -1 && r != 0)
        *exact = false;
      if (r == 0)
        *order = encoded_order (out + *o, room - ol, cp + done, k, unit);
      *o += room - ol;
      done += k - il / 4;
      /* Stopped early (iconv() refused a value), or at a value that
         is not plain: the bridge goes on from there.  */
      if (il != 0 || k < n)
        break;
    }
  return done;
}

/* Whether the byte C is a candidate for RUN_DIRECT: tab, LF, CR and
   the printable ones; and for a decoder's RUN_ENDS, those that are no
   letter or digit (base64's, which cannot end it).  */
static bool
runs_candidate (unsigned int c)
{
  return c == 0x09 || c == 0x0A || c == 0x0D || (0x20 <= c && c < 0x7F);
}

static bool
runs_end_candidate (unsigned int c)
{
  return runs_candidate (c) && !(('0' <= c && c <= '9')
                                 || ('A' <= c && c <= 'Z')
                                 || ('a' <= c && c <= 'z'));
}

/* Convert IN[0..N) with CD from its initial state (when *CLEAN, where
   the flush of the call before left it): whether it consumed every
   byte, without an error or anything held, and gave the N values of
   WANT.  */
static bool
runs_give (iconv_t cd, bool *clean, uint8_t const *in, size_t n,
           ucs4_t const *want, size_t nwant)
{
  uint8_t out[4 * 64];
  size_t used, bytes, k;
  int err;
  if (!*clean)
    iconv (cd, NULL, NULL, NULL, NULL);
  bytes = bridge_convert (cd, in, n, out, sizeof out, &used, &err);
  *clean = false;
  if (err != 0 || used != n || bytes != 4 * nwant
      || memo_flush_gives (cd) != 0)
    return false;
  *clean = true;
  for (k = 0; k < nwant; k++)
    if (get32le (out + 4 * k) != want[k])
      return false;
  return true;
}

int
units_probe_runs (char const *fromcode, uint8_t class[128])
{
  /* After the byte: letters and a dot, which base64 would not give.  */
  static char const after[] = "AA.";
  /* After the shift: 0, 18, 36 and 48 bits of zeros, with fewer than 6
     pending, which RFC 2152 lets base64 end at.  */
  static unsigned int const zeros[] = { 0, 3, 6, 8 };
  iconv_t cd = iconv_open ("UTF-32LE", fromcode);
  int shift = -1;
  unsigned int b, z, k;
  bool clean = true;

  memset (class, 0, 128);
  if (cd == (iconv_t) -1)
    return -1;
  for (b = 0; b < 128; b++)
    {
      uint8_t in[4] = { (uint8_t) b, 'A', 'A', '.' };
      ucs4_t want[4] = { b, 'A', 'A', '.' };
      if (!runs_candidate (b))
        continue;
      if (runs_give (cd, &clean, in, 4, want, 4))
        class[b] = RUN_DIRECT;
      else if (shift < 0)
        {
          /* The byte that shifts: it and '-' give it alone.  */
          uint8_t esc[2] = { (uint8_t) b, '-' };
          if (b != '-' && runs_give (cd, &clean, esc, 2, want, 1))
            shift = (int) b;
        }
    }
  for (b = 0; shift >= 0 && b < 128; b++)
    {
      uint8_t in[4 * 16];
      ucs4_t want[4 * 8];
      size_t n = 0, nw = 0;
      if (!(class[b] & RUN_DIRECT) || !runs_end_candidate (b))
        continue;
      /* The initial state, then each number of zeros in base64.  */
      for (z = 0; z <= sizeof zeros / sizeof *zeros; z++)
        {
          if (z > 0)
            {
              in[n++] = (uint8_t) shift;
              for (k = 0; k < zeros[z - 1]; k++)
                in[n++] = 'A';
              for (k = 0; k < zeros[z - 1] * 6 / 16; k++)
                want[nw++] = 0;
            }
          in[n++] = (uint8_t) b;
          /* '-' ends base64 unseen, but right after the shift it says
             the shift itself.  */
          if (z == 0 || b != '-')
            want[nw++] = b;
          else if (zeros[z - 1] == 0)
            want[nw++] = (ucs4_t) shift;
          for (k = 0; k < 3; k++)
            {
              in[n++] = (uint8_t) after[k];
              want[nw++] = (uint8_t) after[k];
            }
        }
      if (runs_give (cd, &clean, in, n, want, nw))
        class[b] |= RUN_ENDS;
    }
  iconv_close (cd);
  return shift;
}

/* Encode the N values at CP with CD from its initial state (CLEAN as
   for runs_give), into OUT (room for 128 bytes): their number, or -1
   for an error or when the flush after them gives anything.  */
static int
runs_encode (iconv_t cd, bool *clean, ucs4_t const *cp, size_t n,
             uint8_t *out)
{
  uint8_t in[4 * 32];
  ICONV_CONST char *ip = (ICONV_CONST char *) in;
  char *op = (char *) out;
  size_t il = 4 * n, ol = 128, k, got;
  for (k = 0; k < n; k++)
    {
      in[4 * k] = (uint8_t) cp[k];
      in[4 * k + 1] = (uint8_t) (cp[k] >> 8);
      in[4 * k + 2] = (uint8_t) (cp[k] >> 16);
      in[4 * k + 3] = (uint8_t) (cp[k] >> 24);
    }
  if (!*clean)
    iconv (cd, NULL, NULL, NULL, NULL);
  *clean = false;
  if (iconv (cd, &ip, &il, &op, &ol) != 0 || il != 0)
    return -1;
  got = 128 - ol;
  if (iconv (cd, NULL, NULL, &op, &ol) == (size_t) -1)
    return -1;
  *clean = true;
  return 128 - ol == got ? (int) got : -1;
}

/* Whether OUT[*P..GOT) goes on with WITH (LEN bytes), the last one
   left out or not when it is a '-', and then the byte C and "AA.";
   moves *P past them.  */
static bool
runs_after (uint8_t const *out, size_t got, size_t *p, uint8_t const *with,
            size_t len, unsigned int c)
{
  size_t cut, cuts = len > 0 && with[len - 1] == '-' ? 2 : 1;
  for (cut = 0; cut < cuts; cut++)
    {
      size_t l = len - cut;
      if (*p + l + 4 <= got && memcmp (out + *p, with, l) == 0
          && out[*p + l] == c && memcmp (out + *p + l + 1, "AA.", 3) == 0)
        {
          *p += l + 4;
          return true;
        }
    }
  return false;
}

void
units_probe_enc_runs (char const *tocode, uint8_t class[128])
{
  iconv_t cd = iconv_open (tocode, "UTF-32LE");
  /* What 1, 2 and 3 characters in base64 (U+00E9: 4, 2 and 0 bits
     pending) and a letter after them are written as, the letter left
     out.  */
  uint8_t pre[3][64];
  size_t pre_len[3];
  unsigned int c, x;
  bool clean = true;

  memset (class, 0, 128);
  if (cd == (iconv_t) -1)
    return;
  for (x = 1; x <= 3; x++)
    {
      ucs4_t cp[4] = { 0xE9, 0xE9, 0xE9 };
      uint8_t out[128];
      int got;
      cp[x] = 'A';
      got = runs_encode (cd, &clean, cp, x + 1, out);
      if (got < 2 || out[got - 1] != 'A' || (size_t) got > sizeof pre[0])
        {
          iconv_close (cd);
          return;
        }
      pre_len[x - 1] = (size_t) got - 1;
      memcpy (pre[x - 1], out, pre_len[x - 1]);
    }
  /* Tab, LF, CR and the printable ones.  */
  for (c = 0; c < 128; c++)
    {
      ucs4_t cp[32];
      uint8_t out[128];
      size_t n = 0, p = 0;
      int got;
      if (!runs_candidate (c))
        continue;
      /* C alone, and after 1, 2 and 3 characters in base64, with
         letters after it each time.  */
      for (x = 0; x <= 3; x++)
        {
          unsigned int k;
          for (k = 0; k < x; k++)
            cp[n++] = 0xE9;
          cp[n++] = c;
          cp[n++] = 'A';
          cp[n++] = 'A';
          cp[n++] = '.';
        }
      got = runs_encode (cd, &clean, cp, 4, out);
      if (got != 4 || out[0] != c || memcmp (out + 1, "AA.", 3) != 0)
        continue;
      class[c] = RUN_DIRECT;
      /* Written as its byte after base64 too, the letters after it as
         theirs: base64 ended before it.  ('-' may be its end.)  */
      got = runs_encode (cd, &clean, cp, n, out);
      if (c != '-' && got > 0 && runs_after (out, (size_t) got, &p, out, 0, c)
          && runs_after (out, (size_t) got, &p, pre[0], pre_len[0], c)
          && runs_after (out, (size_t) got, &p, pre[1], pre_len[1], c)
          && runs_after (out, (size_t) got, &p, pre[2], pre_len[2], c)
          && p == (size_t) got)
        class[c] |= RUN_ENDS;
    }
  iconv_close (cd);
}
