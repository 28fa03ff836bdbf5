/* The iconv(3) bridge's decoders on fast.c's paths to UTF-8 and UTF-16
   (iconv_bridge.h): with the memo (across shifts, iconv_shift_run.c),
   the hold table (iconv_hold.c), the plain units of a Unicode form
   (iconv_units.c), or UTF-7's runs through iconv(3).  */

#include <config.h>

#include <string.h>

#include "iconv_bridge.h"
#include "iconv_handle.h"
#include "iconv_units.h"

#include "unicode/utf8.h"

static size_t
min_size (size_t a, size_t b)
{
  return a < b ? a : b;
}

/* How much of the run IN[0..RUN) of a form of run classes CLS and
   SHIFT (units_probe_runs) iconv() is to convert: up to a byte that
   ends base64, whose being the last one consumed says where the
   decoder is.  The first such byte after which RUN_DIRECT_MIN bytes
   come before SHIFT (which decode_run_utf8 then reads by itself, as
   far as they are of RUN_DIRECT), among the first RUN_TRIES ones; the
   last one when SHIFT does not come again; else the whole run.  */
static size_t
run_cut (uint8_t const *cls, int shift, uint8_t const *in, size_t run)
{
  enum { RUN_TRIES = 8 };
  size_t p = 0, ends = 0, tries;
  for (tries = 0; shift >= 0 && tries < RUN_TRIES; tries++)
    {
      uint8_t const *s;
      size_t at;
      while (p < run && !(in[p] < 0x80 && (cls[in[p]] & RUN_ENDS)))
        p++;
      if (p == run)
        break;
      ends = p + 1;
      s = memchr (in + ends, shift, run - ends);
      at = s ? (size_t) (s - in) : run;
      if (at - ends >= RUN_DIRECT_MIN || !s)
        return ends;
      p = at + 1;
    }
  return run;
}

/* iconv_bridge_decode_utf8 for a decoder that handle_runs_to_utf8: iconv()
   converts IN[0..N) a run per call, which stops before an illegal byte
   (EILSEQ) or an incomplete character at the end (EINVAL), from the
   state where one call a byte would be there: the state machine takes
   it then, one call a byte.  Where the values came from is not known,
   so the bytes after the last one are not counted as the next one's;
   its offset only matters to an encoder that cannot hold it, and UTF-8
   holds every value iconv() gives as UTF-32LE.  */
static size_t
decode_run_utf8 (struct decoder *d, struct handle *h, uint8_t const *in,
                 size_t n, uint8_t *out, size_t cap, size_t *produced,
                 uint64_t *newlines)
{
  uint8_t values[4 * 4096];
  size_t i = 0, o = 0;
  uint64_t nl = 0;
  bool gave = false;
  uint8_t const *cls = h->charset->run_class;
  if (d->carry_len > 0 || h->blame_next)
    return 0;
  /* The probe costs some 200 calls of iconv(): not for a few bytes.  */
  if (!h->charset->runs_tried && n >= RUN_PROBE_MIN)
    {
      h->charset->run_shift = units_probe_runs (h->fromcode,
                                                h->charset->run_class);
      h->charset->runs_tried = true;
    }
  /* UTF-7 gives at most a value a byte, of up to 4 bytes both in UTF-32
     and in UTF-8: a run is cut to fit, so that iconv() never runs out of
     room (glibc then converts the run again up to where it stopped).  */
  while (i < n && cap - o >= 4 * BRIDGE_MAX_VALUES)
    {
      size_t run, used, bytes, k;
      int err;
      if (h->run_base)
        {
          /* Where bytes of RUN_DIRECT read as themselves: those.  */
          size_t end = i + min_size (n - i, cap - o), start = i;
          for (; i < end && in[i] < 0x80 && (cls[in[i]] & RUN_DIRECT); i++)
            {
              out[o++] = in[i];
              nl += in[i] == 0x0A;
            }
          gave = gave || i > start;
          if (i == end)
            continue;
        }
      run = min_size (min_size (n - i, sizeof values / 4), (cap - o) / 4);
      run = run_cut (cls, h->charset->run_shift, in + i, run);
      bytes = bridge_convert (h->cd, in + i, run, values, sizeof values,
                              &used, &err);
      for (k = 0; k < bytes; k += 4)
        {
          ucs4_t c = get32le (values + k);
          o += (size_t) utf8_put (c, out + o);
          nl += c == 0x0A;
        }
      if (used > 0)
        h->run_base = in[i + used - 1] < 0x80
                      && (cls[in[i + used - 1]] & RUN_ENDS);
      i += used;
      gave = gave || bytes > 0;
      if (err != 0 || used < run)
        break;
    }
  if (gave)
    {
      h->prefix = 0;
      handle_note_consumed (h, in + i - 1, 1, true);
    }
  else if (i > 0)
    {
      h->prefix += (int64_t) i;
      handle_note_consumed (h, in, i, false);
    }
  *produced = o;
  *newlines = nl;
  return i;
}

/* iconv_bridge_decode_utf8 (FORM 0) and iconv_bridge_decode_utf16 (FORM
   1 little-endian, 2 big-endian; SIZE_MAX but for the memo alone or the
   hold table).  */
static size_t
decode_fast (struct decoder *d, uint8_t const *in, size_t n, uint8_t *out,
             size_t cap, size_t *produced, uint64_t *newlines, int form)
{
  struct handle *h = d->impl;
  size_t done, last;
  bool gave = true;
  *produced = 0;
  *newlines = 0;
  if (form != 0 && (handle_runs_to_utf8 (d) || h->unit || h->shift.on))
    return SIZE_MAX;
  if (handle_runs_to_utf8 (d))
    return n > 0 ? decode_run_utf8 (d, h, in, n, out, cap, produced,
                                    newlines) : 0;
  if (h->unit != 0)
    {
      /* decode_units's conditions, and its steps for plain units.  */
      if (d->carry_len > 0 || h->prefix > 0 || h->blame_next)
        return 0;
      done = units_decode_utf8 (h->unit, h->order, in, n, out, cap,
                                produced, newlines);
      if (done > 0)
        handle_note_consumed (h, in + done - h->unit, h->unit, true);
      return done;
    }
  if (h->hold)
    {
      /* As decode_known, for a charset that holds letters back.  */
      if (!h->hold_clear || d->carry_len > 0 || h->blame_next || n == 0)
        return 0;
      done = hold_decode_form (h->hold, in, n, out, cap, produced, newlines,
                               form);
      if (done > 0)
        handle_note_consumed (h, in + done - 1, 1, true);
      return done;
    }
  /* decode_known's conditions and steps, for a decoder without a hold
     table.  */
  if (!iconv_bridge_fast_lasts (d) || h->shift.limbo || d->carry_len > 0
      || (h->prefix > 0 && !h->shift.on) || h->blame_next || n == 0)
    return 0;
  if (h->shift.on)
    {
      done = shift_decode_utf8 (&h->shift, &h->memo, h->cd, h->charset, in,
                                n, out, cap, produced, newlines,
                                &h->prefix, &gave, &last);
      if (!h->shift.on)
        handle_memo_stop (h);
    }
  else
    done = memo_decode_form (&h->memo, in, n, out, cap, produced, newlines,
                             &last, form);
  if (done > 0)
    handle_note_consumed (h, in + last, done - last, gave);
  return done;
}

size_t
iconv_bridge_decode_utf8 (struct decoder *d, uint8_t const *in, size_t n,
                          uint8_t *out, size_t cap, size_t *produced,
                          uint64_t *newlines)
{
  return decode_fast (d, in, n, out, cap, produced, newlines, 0);
}

size_t
iconv_bridge_decode_utf16 (struct decoder *d, uint8_t const *in, size_t n,
                           uint8_t *out, size_t cap, size_t *produced,
                           uint64_t *newlines, bool big)
{
  return decode_fast (d, in, n, out, cap, produced, newlines, big ? 2 : 1);
}
