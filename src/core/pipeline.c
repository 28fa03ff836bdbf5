/* The conversion pipeline.

   Each input is read in buffers of the configured block size.  What one
   read() brought in is decoded into the pivot, passed through the policy,
   encoded, and written out before the next read() waits, so that
   `tail -f log | utf8conv' shows lines as they come.  Memory does not
   depend on the input size: the input buffer, the pivot and the output
   buffer are allocated once per run.

   Data flows one way.  The decoder fills the pivot with values, their
   offsets and the number of input bytes of each; emit encodes them.  A
   value the output cannot hold goes to the policy, whose verdict says
   what to write instead; the error's input bytes are read from the
   input (the current buffer, or the short history of the earlier ones
   that this file keeps), never rebuilt.  A decoding error goes to the
   policy too, and its replacement through emit like any values.

   Offsets are 64-bit and counted from the start of each file; line numbers
   count the U+000A values decoded.  Byte order marks are handled here
   (bom.h says which output carries one): a leading U+FEFF of each
   input is a signature, and the output carries at most one BOM.  The
   BOM is a state of the run: wanted, it is written in the same step as
   the first value that encodes, and never before a value that writes
   nothing.  */

#include <config.h>

#include "pipeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codecs/codecs.h"
#include "fast.h"
#include "history.h"
#include "mojibake.h"
#include "full-write.h"
#include "simd/kernels.h"
#include "xalloc.h"

#include "pipeline_state.h"

/* Write out the buffered output.  OUT_TOTAL counts the bytes written
   (the report's "out"), none after a write error (/dev/full).  */
void
write_out (struct run *r)
{
  size_t done = r->out_len;
  if (r->out_len == 0)
    return;
  if (r->write_errno != 0)
    done = 0;
  else if (r->write)
    {
      r->write_errno = r->write (r->write_arg, r->out, r->out_len);
      done = r->write_errno == 0 ? r->out_len : 0;
    }
  else if (0 <= r->out_fd
           && ((done = full_write (r->out_fd, r->out, r->out_len))
               != r->out_len))
    r->write_errno = errno;
  r->out_total += done;
  r->out_len = 0;
  /* A buffer of 32 KiB first: a small output touches fewer fresh
     pages of memory (each costs about as much as converting a few
     kilobytes of legacy text); OUT_CAP from the first MiB on.  */
  if (r->out_total >= OUT_GROW)
    r->out_cap = OUT_CAP;
}

/* Room for N more bytes of output.  */
static void
make_room (struct run *r, size_t n)
{
  if (r->out_cap - r->out_len < n)
    write_out (r);
}

/* Whether the data error of the file F that the policy handles unless
   STOP needs to be located and described: to stop, as the first one
   (for the warning at the end of the file), or for the run's hook.  */
static bool
error_wanted (struct run const *r, struct file const *f, bool stop)
{
  return stop || f->stats.handled == 0 || r->cfg.every_error;
}

/* Count the data error E of the file F, handled by the policy unless
   E->stopped, and hand it to the run's hook.  */
static void
record_error (struct run *r, struct file *f, struct data_error const *e)
{
  if (e->stopped)
    f->stats.stopped = true;
  else if (f->stats.handled++ == 0)
    f->stats.first = *e;
  if (r->cfg.on_error && (e->stopped || r->cfg.every_error))
    r->cfg.on_error (r->cfg.error_arg, f->name, e);
}

/* Encode the BOM, then C, to the output: the first value of the output
   when a BOM is wanted.  Both go to a scratch buffer first, so that
   nothing is written when C cannot be encoded.  Returns false then.  */
static bool
encode_first (struct run *r, struct file *f, ucs4_t c)
{
  static ucs4_t const feff = 0xFEFF;
  uint8_t tmp[2 * MAX_ENCODED];
  size_t one = 1, len = 0;

  r->cfg.to->encode (&r->enc, &feff, &one, tmp, &len, sizeof tmp);
  one = 1;
  if (r->cfg.to->encode (&r->enc, &c, &one, tmp, &len, sizeof tmp)
      == ENCODE_UNENCODABLE)
    return false;
  make_room (r, len);
  memcpy (r->out + r->out_len, tmp, len);
  r->out_len += len;
  r->bom = BOMS_NONE;
  f->stats.bom_written = 1;
  return true;
}

/* Encode CP[0..N) to the output (after the BOM, when one is wanted),
   up to a value that the output cannot hold.  Sets *USED to the number
   of values encoded.  */
static enum encode_status
encode_values (struct run *r, struct file *f, ucs4_t const *cp, size_t n,
               size_t *used)
{
  size_t i = 0;

  if (n > 0 && r->bom == BOMS_WANTED)
    {
      if (!encode_first (r, f, cp[0]))
        {
          *used = 0;
          return ENCODE_UNENCODABLE;
        }
      i = 1;
    }
  while (i < n)
    {
      size_t count = n - i;
      enum encode_status st = r->cfg.to->encode (&r->enc, cp + i, &count,
                                                 r->out, &r->out_len,
                                                 r->out_cap);
      i += count;
      if (st == ENCODE_UNENCODABLE)
        {
          *used = i;
          return st;
        }
      if (st == ENCODE_OUTPUT_FULL)
        write_out (r);
    }
  *used = n;
  return ENCODE_INPUT_EMPTY;
}

/* Write the byte B to the output as it is (after the BOM, when one is
   wanted).  */
static void
put_raw_byte (struct run *r, struct file *f, uint8_t b)
{
  if (r->bom == BOMS_WANTED)
    {
      static ucs4_t const feff = 0xFEFF;
      size_t one = 1;
      make_room (r, MAX_ENCODED);
      r->cfg.to->encode (&r->enc, &feff, &one, r->out, &r->out_len,
                         r->out_cap);
      r->bom = BOMS_NONE;
      f->stats.bom_written = 1;
    }
  make_room (r, 1);
  r->out[r->out_len++] = b;
}

/* Write the replacement V of an error as bytes when they are known
   without the encoder: ASCII text (the default escapes) to an output
   that writes ASCII as itself, or U+FFFD alone, encoded at the start.
   An error then costs no call of the encoder.  Returns false when it
   cannot.  */
static inline bool
put_known (struct run *r, struct verdict const *v)
{
  ucs4_t const *cp = v->cp;
  size_t k, n = v->len;
  uint8_t *out;

  if (!v->ascii && !(n == 1 && cp[0] == 0xFFFD))
    return false;
  if (r->bom == BOMS_WANTED || r->enc.pending != 0)
    return false;
  if (!v->ascii)
    {
      if (r->bytes.fffd_len == 0)
        return false;
      make_room (r, r->bytes.fffd_len);
      memcpy (r->out + r->out_len, r->bytes.fffd, r->bytes.fffd_len);
      r->out_len += r->bytes.fffd_len;
      return true;
    }
  if (!(r->cfg.to->flags & CODEC_ASCII_BYTES))
    return false;
  make_room (r, n);
  out = r->out + r->out_len;
  for (k = 0; k < n; k++)
    out[k] = (uint8_t) cp[k];
  r->out_len += n;
  return true;
}

/* Encode what replaces an error, CP[0..N); a value that the output
   cannot hold either is dropped.  */
static void
emit_replacement (struct run *r, struct file *f, ucs4_t const *cp,
                  size_t n)
{
  size_t i = 0, used;
  while (i < n && encode_values (r, f, cp + i, n - i, &used)
         == ENCODE_UNENCODABLE)
    i += used + 1;
}

static bool emit (struct run *, struct file *, ucs4_t const *, size_t,
                  struct origin const *);

/* Write the substitute that V makes with a format (--byte-subst,
   --unicode-subst) piece by piece, so that a field of any width is
   written whole in constant memory: with the origin O through emit, or
   (O NULL) through emit_replacement.  Returns false when the file must
   stop.  */
static bool
emit_formatted (struct run *r, struct file *f, struct verdict const *v,
                struct origin const *o)
{
  enum { PIECE = 256 };
  ucs4_t piece[PIECE];
  unsigned int i;

  for (i = 0; i < v->nvalues; i++)
    {
      size_t pos = 0, n;
      while ((n = policy_format_expand (v->format, v->values[i], &pos,
                                        piece, PIECE)) > 0)
        if (!o)
          emit_replacement (r, f, piece, n);
        else if (!emit (r, f, piece, n, o))
          return false;
    }
  return true;
}

/* Where the value CP[I], from origin O, is in the input: its offset,
   line and bytes, into E.  */
static void
locate (struct file const *f, ucs4_t const *cp, size_t i,
        struct origin const *o, struct data_error *e)
{
  size_t k;

  e->line = o->lines + 1;
  if (o->off)
    {
      unsigned int len = o->n[i];
      e->offset = o->base + (uint64_t) o->off[i];
      for (k = 0; k < i; k++)
        e->line += cp[k] == 0x0A;
      if (len > MAX_ERROR_BYTES)
        len = MAX_ERROR_BYTES;
      for (k = 0; k < len; k++)
        e->err.bytes[k] = history_byte (&f->history, f->buf, f->buf_base,
                                        e->offset + k);
      e->err.len = len;
    }
  else
    {
      e->offset = o->base;
      /* An escaped byte that cannot go back: the byte is what the input
         held.  */
      if (0xDC80 <= cp[i] && cp[i] <= 0xDCFF)
        {
          e->err.bytes[0] = (uint8_t) (cp[i] - 0xDC00);
          e->err.len = 1;
        }
    }
}

/* Deal with CP[I], from origin O, which the output cannot hold.
   Returns false when the file must stop.  */
static bool
encode_error (struct run *r, struct file *f, ucs4_t const *cp, size_t i,
              struct origin const *o)
{
  struct verdict v;

  policy_encode_error (&r->cfg.policy, cp[i], r->cfg.to->flags,
                       o->replaced != NULL, &v);
  if (v.error && !error_wanted (r, f, v.stop))
    {
      f->stats.encode_errors++;
      f->stats.handled++;
    }
  else if (v.error)
    {
      struct data_error e;
      memset (&e, 0, sizeof e);
      locate (f, cp, i, o, &e);
      e.c = cp[i];
      e.encoding = r->cfg.to->name;
      e.err.kind = ERR_UNENCODABLE;
      e.stopped = v.stop;
      f->stats.encode_errors++;
      record_error (r, f, &e);
      f->stop_offset = e.offset;
      f->stop_located = v.stop && o->off;
    }
  if (v.stop)
    return false;
  f->stats.dropped |= v.lost;
  if (v.raw_byte >= 0)
    put_raw_byte (r, f, (uint8_t) v.raw_byte);
  if (v.len > 0 && !put_known (r, &v))
    emit_replacement (r, f, v.cp, v.len);
  if (v.format)
    emit_formatted (r, f, &v, NULL);
  return true;
}

/* emit, which also says in *STOP where a strict error stopped it (N
   when none did).  */
static bool
emit_until (struct run *r, struct file *f, ucs4_t const *cp, size_t n,
            struct origin const *o, size_t *stop)
{
  size_t i = 0, used;

  while (encode_values (r, f, cp + i, n - i, &used) == ENCODE_UNENCODABLE)
    {
      i += used;
      if (!encode_error (r, f, cp, i, o))
        {
          *stop = i;
          return false;
        }
      i++;
    }
  *stop = n;
  return true;
}

/* Encode CP[0..N), from origin O, to the output.  Returns false when a
   strict error stopped the file.  */
static bool
emit (struct run *r, struct file *f, ucs4_t const *cp, size_t n,
      struct origin const *o)
{
  size_t stop;
  return emit_until (r, f, cp, n, o, &stop);
}

/* The file F stopped at a strict error at CP[FROM], of the decoded
   values CP[0..N): the U+000A the decoder counted from there on are no
   breaks that --report counts, which are the same at any block size.  */
static void
unread_from (struct file *f, ucs4_t const *cp, size_t from, size_t n)
{
  for (; from < n; from++)
    f->lf_unread += cp[from] == 0x0A;
}

/* Encode the values CP[START..END) of the decoder's origin O, where
   LINES U+000A come before START; after a strict stop, unread_from
   that of the N values at CP.  */
static bool
emit_part (struct run *r, struct file *f, ucs4_t const *cp, size_t start,
           size_t end, size_t n, struct origin const *o, uint64_t lines)
{
  struct origin sub = *o;
  size_t stop;
  if (start == end)
    return true;
  sub.off = o->off + start;
  sub.n = o->n + start;
  sub.lines = o->lines + lines;
  if (emit_until (r, f, cp + start, end - start, &sub, &stop))
    return true;
  unread_from (f, cp, start + stop, n);
  return false;
}

/* Write the break of --eol for a break read at offset BASE + OFF, after
   LINES U+000A; or, when LONE_CR, the lone CR that the stage held: data,
   written as it is (as dos2unix keeps it), unless --eol-from=cr makes
   it a break.  */
static bool
emit_break (struct run *r, struct file *f, bool lone_cr, uint64_t base,
            int64_t off, uint64_t lines)
{
  ucs4_t brk[2] = { 0x0D, 0x0A };
  int64_t offs[2] = { off, off };
  uint8_t nb[2] = { 1, 1 };
  struct origin b = { offs, nb, base, lines, NULL };
  unsigned int n = 1;
  if (!lone_cr || f->eol.cr_breaks)
    n = eol_break (f->eol.mode, brk);
  return emit (r, f, brk, n, &b);
}

/* Encode the decoded values CP[0..N), from the decoder's origin O,
   through the line-ending stage (eol.h).  Returns false when a strict
   error stopped the file.  */
static bool
emit_text (struct run *r, struct file *f, ucs4_t const *cp, size_t n,
           struct origin const *o)
{
  struct eol_state *st = &f->eol;
  size_t i, start = 0;
  uint64_t lines = 0, start_lines = 0;  /* U+000A before I, START.  */
  bool lf_too = eol_changes_lf (st->mode);

  if (st->mode == EOL_KEEP)
    {
      size_t stop;
      bool ok = emit_until (r, f, cp, n, o, &stop);
      if (r->eol_active)
        {
          /* Up to the value a strict error stopped at, which tells a
             CR written before it to be a lone one.  */
          eol_count_values (st, cp, stop < n && cp[stop] != 0x0A
                                    && cp[stop] != 0x0D ? stop + 1 : stop);
          unread_from (f, cp, stop, n);
        }
      return ok;
    }
  for (i = 0; i < n; i++)
    {
      ucs4_t c = cp[i];
      bool lf = c == 0x0A;
      if (st->held_cr)
        {
          /* Nothing came between the CR and CP[I]: START is I.  */
          st->held_cr = false;
          if (lf)
            st->crlf++;
          else
            st->cr++;
          if (!emit_break (r, f, !lf, o->base, o->off[i],
                           o->lines + lines))
            {
              unread_from (f, cp, i + 1, n);
              return false;
            }
          if (lf)
            {
              start = i + 1;
              start_lines = ++lines;
              continue;
            }
        }
      if (c == 0x0D || (lf && lf_too))
        {
          if (!emit_part (r, f, cp, start, i, n, o, start_lines))
            return false;
          start = i + 1;
          start_lines = lines + lf;
          if (c == 0x0D)
            st->held_cr = true;
          else if (!emit_break (r, f, false, o->base, o->off[i],
                                o->lines + lines))
            {
              unread_from (f, cp, i, n);
              return false;
            }
        }
      lines += lf;
    }
  return emit_part (r, f, cp, start, n, n, o, start_lines);
}

/* A CR held by the line-ending stage is lone: the file ends, or what
   follows is an error, at offset AT.  */
static bool
flush_held_cr (struct run *r, struct file *f, uint64_t at)
{
  if (!f->eol.held_cr)
    return true;
  f->eol.held_cr = false;
  f->eol.cr++;
  return (f->eol.mode == EOL_KEEP
          || emit_break (r, f, true, at, 0, f->dec.newlines));
}

/* Encode the values M that the mojibake stage gave out, from the
   origin O (with M's offsets): each repair is counted, and handed to
   the run's hook once its character is written.  */
static bool
emit_repaired (struct run *r, struct file *f, struct moji_out const *m,
               struct origin const *o)
{
  struct origin sub = *o;
  size_t k, i, start = 0;

  for (k = 0; k <= m->nrepairs; k++)
    {
      size_t end = k < m->nrepairs ? m->repairs[k].index + 1 : m->len;
      sub.off = m->off + start;
      sub.n = m->n + start;
      if (!emit_text (r, f, m->cp + start, end - start, &sub))
        return false;
      for (i = start; i < end; i++)
        sub.lines += m->cp[i] == 0x0A;
      start = end;
      if (k < m->nrepairs)
        {
          struct moji_repair rp = m->repairs[k];
          rp.line = sub.lines + 1;
          f->stats.mojibake_repairs++;
          if (r->cfg.on_repair)
            r->cfg.on_repair (r->cfg.error_arg, f->name, &rp);
        }
    }
  return true;
}

/* Encode the decoded values CP[0..N), from origin O, through the
   mojibake stage, when it runs, and the line-ending stage.  */
static bool
emit_decoded (struct run *r, struct file *f, ucs4_t const *cp, size_t n,
              struct origin const *o)
{
  if (!r->moji)
    return emit_text (r, f, cp, n, o);
  return emit_repaired (r, f, mojibake_feed (r->moji, cp, o->off, o->n, n,
                                             o->base), o);
}

/* What the mojibake stage holds goes out unrepaired: the file ends, or
   a decoding error follows.  Then a CR held is lone, at AT.  */
bool
flush_held (struct run *r, struct file *f, uint64_t at)
{
  struct origin o = { NULL, NULL, 0, 0, NULL };
  o.lines = f->dec.newlines;
  if (r->moji && mojibake_holds (r->moji)
      && !emit_repaired (r, f, mojibake_flush (r->moji), &o))
    return false;
  return flush_held_cr (r, f, at);
}

/* What the encoder holds back to see whether the next character joins
   it goes out as it is: a decoding error comes next.  */
static void
drain_encoder (struct run *r)
{
  if (r->cfg.to->drain)
    {
      make_room (r, 2 * MAX_ENCODED);
      r->out_len += r->cfg.to->drain (&r->enc, r->out + r->out_len);
    }
}

void
flush_encoder (struct run *r)
{
  if (r->cfg.to->flush)
    {
      make_room (r, 2 * MAX_ENCODED);
      r->out_len += r->cfg.to->flush (&r->enc, r->out + r->out_len);
    }
}

/* Whether decode_error_quick may take the decoding errors of the file
   F: nobody wants them located and described, and nothing waits to be
   written before them.  No error that it takes changes that.  */
static bool
quick_errors (struct run const *r, struct file const *f)
{
  return (!error_wanted (r, f, false) && r->bom != BOMS_WANTED
          && r->enc.pending == 0);
}

/* Handle the decoding error ERR, when quick_errors, if the policy's
   verdict on it is bytes known without the encoder; false if not.  It
   then costs no verdict, pivot or encoder.  */
static inline bool
decode_error_quick (struct run *r, struct file *f,
                    struct codec_error const *err)
{
  bool lost = false;
  int k;

  make_room (r, POLICY_BYTES_MAX);
  k = policy_bytes_write (&r->bytes, err, r->out + r->out_len, &lost);
  if (k < 0)
    return false;
  r->out_len += (size_t) k;
  f->stats.decode_errors[err->kind]++;
  f->stats.handled++;
  f->stats.dropped |= lost;
  return true;
}

/* Deal with the decoding error ERR, at offset AT of the file.  Returns
   false when the file must stop.  */
static bool
decode_error (struct run *r, struct file *f, struct codec_error const *err,
              uint64_t at)
{
  struct verdict v;
  unsigned int i;

  if (!flush_held (r, f, at))
    return false;
  drain_encoder (r);
  if (quick_errors (r, f) && decode_error_quick (r, f, err))
    return true;
  policy_decode_error (&r->cfg.policy, err, &v);
  f->stats.decode_errors[err->kind]++;
  if (!error_wanted (r, f, v.stop))
    f->stats.handled++;
  else
    {
      struct data_error e;
      struct detection det;
      memset (&e, 0, sizeof e);
      e.err = *err;
      e.offset = at;
      e.line = f->dec.newlines + 1;
      /* -f auto names the form it detected; until it has detected one,
         the wrapper's own name, which -f UTF-16 and -f UTF-32 (Unicode
         forms) always give.  */
      e.encoding = (f->reads && !(r->cfg.from->flags & CODEC_UNICODE)
                    ? f->reads : r->cfg.from)->name;
      /* The byte of a mixed file is invalid in its code page.  */
      if (err->kind == ERR_UNDEFINED && decoder_detected (&f->dec, &det)
          && det.legacy)
        e.encoding = det.legacy->name;
      e.stopped = v.stop;
      record_error (r, f, &e);
    }
  if (v.stop)
    return false;
  f->stats.dropped |= v.lost;
  if (v.raw_len > 0)
    {
      for (i = 0; i < v.raw_len; i++)
        put_raw_byte (r, f, v.raw[i]);
      return true;
    }
  if (v.len > 0 && put_known (r, &v))
    return true;
  {
    struct origin o = { NULL, NULL, at, f->dec.newlines, err };
    return (v.format ? emit_formatted (r, f, &v, &o)
            : emit (r, f, v.cp, v.len, &o));
  }
}

/* The first file F decides whether its signature is carried
   (--bom=auto, bom.h).  */
void
decide_bom (struct run *r, struct file const *f, bool signature)
{
  if (r->bom == BOMS_UNDECIDED)
    r->bom = bom_decide (signature, f->reads, r->cfg.to);
}

/* Read the file F with the codec READS, and its fast path, if it has
   one that the line-ending stage can follow.  Until -f auto has
   decided, UTF-8's fast path takes the ASCII that the wrapper does not
   hold (decoder_ascii_passed).  */
void
choose_fast (struct run *r, struct file *f, struct codec const *reads)
{
  f->reads = reads->flags & CODEC_WRAPPER ? NULL : reads;
  reads = f->fast_reads = f->reads ? reads : &codec_utf8;
  f->fast = fast_select (reads, r->cfg.to);
  if (!f->fast && f->dec.codec == reads)
    f->fast = fast_select_decoder (&f->dec, r->cfg.to);
  if (!f->fast)
    f->fast = fast_select_encoder (reads, &r->enc);
  f->eol_fast = EOL_FAST_NONE;
  /* Mojibake repair sees every character that is not ASCII.  */
  if (r->moji && !(reads->flags & CODEC_ASCII_BYTES))
    f->fast = NULL;
  f->fast_resume = f->fast ? fast_select_resume (reads, r->cfg.to) : NULL;
  if (!f->fast || !r->eol_active)
    return;
  if (r->cfg.to->flags & CODEC_ASCII_BYTES)
    f->eol_fast = EOL_FAST_OUTPUT;
  else if (reads->flags & CODEC_ASCII_BYTES)
    f->eol_fast = EOL_FAST_INPUT;
  else
    f->fast = NULL;
}

/* Once -f auto has detected the input's form, read it with its fast
   path.  */
static void
resolve (struct run *r, struct file *f)
{
  struct detection det;
  if (decoder_detected (&f->dec, &det))
    choose_fast (r, f, det.codec);
}

/* Whether the fast path may go on from here: nothing is held back in
   the decoder, the encoder, the BOM or (unless the stage follows the
   fast path's output) the line-ending stage.  */
static bool
fast_may_run (struct run const *r, struct file const *f)
{
  return (!f->at_start && !decoder_holds_input (&f->dec)
          && r->bom != BOMS_WANTED && r->enc.pending == 0
          && !(r->moji && mojibake_holds (r->moji))
          && !(f->eol.held_cr && f->eol_fast == EOL_FAST_INPUT
               && f->eol.mode != EOL_KEEP));
}

/* Let the fast path convert what it can of IN[POS..N).  Returns the new
   position; *ERR describes the ill-formed sequence that starts there,
   when the fast path found one (ERR->len is 0 otherwise).  */
static size_t
convert_fast (struct run *r, struct file *f, uint8_t const *in, size_t pos,
              size_t n, struct codec_error *err)
{
  size_t produced, used, end = n, cap, stop;
  uint64_t newlines;
  uint8_t *dst;
  bool convert = f->eol_fast != EOL_FAST_NONE && f->eol.mode != EOL_KEEP;

  make_room (r, FAST_ROOM);
  dst = r->out + r->out_len;
  cap = r->out_cap - r->out_len;
  if (convert && f->eol_fast == EOL_FAST_INPUT)
    end = pos + eol_plain_len (f->eol.mode, in + pos, n - pos);
  else if (convert && (f->eol.mode == EOL_CRLF || f->eol.held_cr
                       || f->eol_dos))
    {
      /* The breaks may take more room, or are likely to change (the
         last output held a CR): convert to the side first.  */
      dst = r->scratch;
      cap = (cap - 2) / 2;
    }
  /* With --fix-mojibake, and before -f auto has decided, the fast path
     stops before the first byte that is not ASCII, as before a break.  */
  stop = (r->moji || !f->reads ? pos + kernels->ascii_len (in + pos, end - pos)
          : end);
  used = f->fast (in + pos, stop - pos, dst, cap, &produced, &newlines,
                  err);
  if (used == 0 && !fast_lasts (f->fast))
    f->fast = NULL;
  decoder_ascii_passed (&f->dec, in + pos, used);
  if (r->moji && used > 0)
    mojibake_passed (r->moji, in[pos + used - 1]);
  /* The fast path bypasses the decoder, which counts the characters
     otherwise: in its input when that is UTF-8, UTF-16 or single-byte,
     or else in its output (a fast path from another encoding writes
     UTF-8 or UTF-16).  */
  if (r->cfg.report)
    f->stats.chars += (f->fast_reads == &codec_utf8
                       || f->fast_reads == &codec_utf16le
                       || f->fast_reads == &codec_utf16be
                       || (f->fast_reads->flags & CODEC_SINGLE_BYTE)
                       ? codec_count_chars (f->fast_reads, in + pos, used)
                       : codec_count_chars (r->cfg.to, dst, produced));
  f->at_break = convert && f->eol_fast == EOL_FAST_INPUT
    && pos + used == end && end < n;
  if (f->eol_fast == EOL_FAST_OUTPUT && convert)
    {
      uint64_t cr_before = f->eol.crlf + f->eol.cr + f->eol.held_cr;
      produced = (dst == r->scratch
                  ? eol_convert_bytes (&f->eol, dst, produced,
                                       r->out + r->out_len)
                  : eol_convert_in_place (&f->eol, dst, produced,
                                          r->scratch));
      f->eol_dos = f->eol.crlf + f->eol.cr + f->eol.held_cr != cr_before;
    }
  else if (f->eol_fast == EOL_FAST_OUTPUT)
    eol_count_bytes (&f->eol, dst, produced);
  else if (f->eol_fast == EOL_FAST_INPUT && !convert)
    eol_count_bytes (&f->eol, in + pos, used);
  r->out_len += produced;
  f->dec.newlines += newlines;
  return pos + used;
}

/* A strict encoding error stopped the file F in the N values of a
   window, from origin O, all of which were counted: count only those
   up to the one that stopped it, which was decoded (the rest were
   decoded only because the window held them, as many as its size).  */
static void
uncount_after_stop (struct file *f, struct origin const *o, size_t n)
{
  size_t k, after = 0;
  if (!f->stop_located)
    return;
  for (k = 0; k < n; k++)
    after += o->base + (uint64_t) o->off[k] > f->stop_offset;
  f->stats.chars -= after;
}

/* The fast path stopped at IN[POS..N) before the ill-formed sequence
   *ERR, with no line-ending stage: while decode_error_quick takes such
   errors, let the fast path go on after each, doing only what
   convert_fast does without the stage; its form for after an error,
   when there is one, carries from call to call what the validator
   checked (kernels.h).  Returns the new position, where ERR->len is 0 or
   the error is left to decode_error.  */
static size_t
convert_fast_through (struct run *r, struct file *f, uint8_t const *in,
                      size_t pos, size_t n, struct codec_error *err)
{
  struct utf8_resume rs = { NULL, NULL, 0, 0 };
  if (!quick_errors (r, f))
    return pos;
  drain_encoder (r);
  do
    {
      size_t produced, used;
      uint64_t newlines;
      if (!decode_error_quick (r, f, err))
        break;
      pos += err->len;
      make_room (r, FAST_ROOM);
      used = (f->fast_resume
              ? f->fast_resume (in + pos, n - pos, r->out + r->out_len,
                                r->out_cap - r->out_len, &produced, &newlines,
                                err, &rs)
              : f->fast (in + pos, n - pos, r->out + r->out_len,
                         r->out_cap - r->out_len, &produced, &newlines, err));
      r->out_len += produced;
      f->dec.newlines += newlines;
      pos += used;
    }
  while (err->len > 0);
  return pos;
}

/* Convert IN[0..N) of file F, which starts at offset BASE of the file.
   Returns false when a strict error stopped the file.  */
bool
convert_buffer (struct run *r, struct file *f, uint8_t const *in, size_t n,
                uint64_t base, bool last)
{
  struct pivot *p = &r->pivot;
  size_t pos = 0;

  f->buf = in;
  f->buf_base = base;
  for (;;)
    {
      struct origin o;
      size_t len, skip = 0;
      bool part_last = last;
      enum decode_status st;

      /* A fast path takes what it can once the file has started.  */
      if (f->fast && pos < n && fast_may_run (r, f))
        {
          struct codec_error err;
          pos = convert_fast (r, f, in, pos, n, &err);
          /* The fast path stopped before an ill-formed sequence and said
             what the decoder would: the policy takes it at once, unless
             a wrapper reads the input (-f auto may read it as CP1252).  */
          if (f->reads != r->cfg.from)
            err.len = 0;
          if (err.len > 0 && !r->eol_active && !r->moji)
            pos = convert_fast_through (r, f, in, pos, n, &err);
          if (err.len > 0)
            {
              pos += err.len;
              if (!decode_error (r, f, &err, base + pos - err.len))
                return false;
              continue;
            }
          if (pos < n && r->out_cap - r->out_len < FAST_ROOM)
            continue;
        }

      len = n - pos;
      if (f->fast && SCALAR_WINDOW < len)
        {
          /* A break that the fast path left takes 1 or 2 bytes; the
             rest of a character that the last window cut, a byte at a
             time, so that the fast path resumes right after it (with
             characters of two bytes, half the windows end inside one).  */
          len = (f->dec.carry_len > 0 ? 1 : f->at_break ? 2
                 : SCALAR_WINDOW);
          part_last = false;
        }
      f->at_break = false;
      p->len = 0;
      o.lines = f->dec.newlines;
      st = r->cfg.from->decode (&f->dec, in + pos, &len, part_last, p);
      if (!f->reads)
        resolve (r, f);
      o.base = base + pos;
      if (f->at_start && (p->len > 0 || st == DECODE_MALFORMED))
        {
          bool sig = (p->len > 0 && p->cp[0] == 0xFEFF
                      && o.base + (uint64_t) p->off[0] == 0);
          f->at_start = false;
          if (!r->any_file)
            decide_bom (r, f, sig);
          skip = sig;
          f->stats.bom_seen = sig;
        }
      f->stats.chars += p->len - skip;
      o.off = p->off + skip;
      o.n = p->n + skip;
      o.replaced = NULL;
      if (skip < p->len
          && !emit_decoded (r, f, p->cp + skip, p->len - skip, &o))
        {
          uncount_after_stop (f, &o, p->len - skip);
          return false;
        }
      pos += len;
      if (st == DECODE_MALFORMED)
        {
          if (!decode_error (r, f, &f->dec.error,
                             o.base + (uint64_t) f->dec.error.rel_offset))
            return false;
        }
      else if (st == DECODE_INPUT_EMPTY && pos == n)
        return true;
    }
}

void
pipeline_finish (struct run *r)
{
  write_out (r);
  encoder_release (&r->enc);
  free (r->in);
  free (r->pivot.cp);
  free (r->pivot.off);
  free (r->history);
  free (r->pivot.n);
  free (r->out);
  free (r->scratch);
  mojibake_free (r->moji);
  free (r);
}
