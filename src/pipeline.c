/* The conversion pipeline.

   Each input is read in buffers of the configured block size.  What one
   read() brought in is decoded into the pivot, passed through the policy,
   encoded, and written out before the next read() waits, so that
   `tail -f log | utf8conv' shows lines as they come.  Memory does not
   depend on the input size: the input buffer, the pivot and the output
   buffer are allocated once per run.

   Offsets are 64-bit and counted from the start of each file; line numbers
   count the U+000A values decoded.  Byte order marks are decided here:
   a leading U+FEFF of each input is a signature, and the output carries
   at most one BOM, written together with its first character.  */

#include <config.h>

#include "pipeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fast.h"
#include "readahead.h"
#include "full-write.h"
#include "safe-read.h"
#include "xalloc.h"

enum
{
  PIVOT_CAP = 8192,
  OUT_CAP = 1 << 18,
  /* With a fast path, the state machine takes this many bytes at a time,
     so that the fast path resumes soon after an error.  */
  SCALAR_WINDOW = 64,
  /* The fast path wants at least this much room in the output buffer.  */
  FAST_ROOM = 1 << 14
};

enum bom_state
{
  BOMS_UNDECIDED,               /* Until the first file's start is seen.  */
  BOMS_WANTED,                  /* Write one before the first character.  */
  BOMS_NONE                     /* Written already, or never.  */
};

struct run
{
  struct run_config cfg;
  int out_fd;
  uint8_t *in;
  struct pivot pivot;
  uint8_t *out;
  size_t out_len;
  struct encoder enc;
  fast_fn *fast;                /* NULL when there is none.  */
  struct codec const *fast_from;        /* The decoder's codec FAST is
                                           for (-f auto decides it).  */
  uint64_t out_total;           /* Bytes written out so far.  */
  struct file_stats last_stats; /* Of the last file, for --report.  */
  enum bom_state bom;
  bool any_file;                /* A file has been started.  */
  int write_errno;              /* The error of a failed write, after
                                   which the output is discarded; 0 when
                                   none.  */
  pipeline_write_fn *write;     /* Takes the output instead of OUT_FD.  */
  void *write_arg;
};

/* The state of the file being converted.  */
struct file
{
  char const *name;
  struct decoder dec;
  bool at_start;                /* Nothing decoded yet.  */
  struct file_stats stats;      /* For --report.  */
};

/* Where the values passed to `emit' came from: an array of offsets
   relative to BASE, or (OFF == NULL) all from BASE itself.  */
struct origin
{
  int64_t const *off;
  uint64_t base;
  uint64_t lines;               /* U+000A decoded before the first value.  */
  bool replaces_decode_error;   /* The values stand for a decoding error
                                   (replace's U+FFFD, surrogateescape's
                                   U+DCxx), which is counted already.  */
};

struct run *
pipeline_start (struct run_config const *cfg, int out_fd)
{
  struct run *r = xzalloc (sizeof *r);
  r->cfg = *cfg;
  r->out_fd = out_fd;
  r->in = xmalloc (cfg->block_size);
  r->pivot.cp = xnmalloc (PIVOT_CAP, sizeof *r->pivot.cp);
  r->pivot.off = xnmalloc (PIVOT_CAP, sizeof *r->pivot.off);
  r->pivot.cap = PIVOT_CAP;
  r->out = xmalloc (OUT_CAP);
  encoder_init (&r->enc, cfg->to);
  r->fast = fast_select (cfg->from, cfg->to);
  r->fast_from = cfg->from;
  pipeline_restart (r, out_fd, NULL, NULL);
  return r;
}

void
pipeline_restart (struct run *r, int out_fd, pipeline_write_fn *write,
                  void *arg)
{
  r->out_fd = out_fd;
  r->write = write;
  r->write_arg = arg;
  r->out_len = 0;
  r->out_total = 0;
  r->write_errno = 0;
  r->any_file = false;
  if (r->cfg.bom == BOM_STRIP)
    r->bom = BOMS_NONE;
  else if (r->cfg.bom == BOM_ADD || (r->cfg.to->flags & CODEC_BOM_ALWAYS))
    r->bom = BOMS_WANTED;
  else
    r->bom = BOMS_UNDECIDED;
}

static void
write_out (struct run *r)
{
  if (r->out_len == 0)
    return;
  r->out_total += r->out_len;
  if (r->write_errno == 0)
    {
      if (r->write)
        r->write_errno = r->write (r->write_arg, r->out, r->out_len);
      else if (0 <= r->out_fd
               && full_write (r->out_fd, r->out, r->out_len) != r->out_len)
        r->write_errno = errno;
    }
  r->out_len = 0;
}

/* Room for one more encoded value and a BOM.  */
static void
make_room (struct run *r)
{
  if (OUT_CAP - r->out_len < 2 * MAX_ENCODED)
    write_out (r);
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
  if (r->cfg.on_error)
    r->cfg.on_error (r->cfg.error_arg, f->name, e);
}

static bool emit (struct run *, struct file *, ucs4_t const *, size_t,
                  struct origin const *, bool);

/* Write what the policy put in SUB for the unencodable character of E:
   a byte, or characters to encode (dropped if they cannot be encoded
   either).  Returns false when the file must stop.  */
static bool
encode_substitute (struct run *r, struct file *f,
                   struct substitution const *sub,
                   struct data_error const *e)
{
  struct origin so;
  if (r->cfg.policy.policy == POLICY_IGNORE)
    f->stats.dropped = true;
  if (sub->raw_byte >= 0)
    {
      make_room (r);
      r->out[r->out_len++] = (uint8_t) sub->raw_byte;
    }
  so.off = NULL;
  so.base = e->offset;
  so.lines = e->line - 1;
  so.replaces_decode_error = false;
  return emit (r, f, sub->cp, sub->len, &so, true);
}

/* Deal with an unencodable value C from ORIGIN at index I.  Returns false
   when the file must stop.  */
static bool
encode_error (struct run *r, struct file *f, ucs4_t const *cp, size_t i,
              struct origin const *o)
{
  struct substitution sub;
  struct data_error e;
  struct encoder tmp;
  struct codec in_codec;
  struct codec const *ic = f->dec.codec;
  size_t k;

  policy_encode_error (&r->cfg.policy, cp[i], (r->cfg.to->flags
                                               & CODEC_UNICODE) != 0,
                       (r->cfg.to->flags & CODEC_WIDE_UNITS) == 0, &sub);

  memset (&e, 0, sizeof e);
  e.offset = o->base + (o->off ? o->off[i] : 0);
  e.line = o->lines + 1;
  if (o->off)
    for (k = 0; k < i; k++)
      e.line += cp[k] == 0x0A;
  e.c = cp[i];
  e.encoding = r->cfg.to->name;
  e.err.kind = ERR_UNENCODABLE;
  /* A byte that surrogateescape escaped on input and gives back here is
     not a second error, and neither is the U+FFFD of a decoding error
     that a legacy output writes as '?': nothing is reported or recorded,
     so the error's bytes are not needed.  */
  if (!sub.stop && (sub.raw_byte >= 0 || o->replaces_decode_error))
    return encode_substitute (r, f, &sub, &e);
  /* The input bytes of the character: encode it again in the input
     encoding, in the byte order the decoder found.  */
  if (f->dec.endian != ENDIAN_UNKNOWN && f->dec.endian != ic->endian)
    {
      /* A copy loses nothing here: a codec with an endianness is never
         CODEC_STATEFUL, whose struct codec is part of a larger one.  */
      in_codec = *ic;
      in_codec.endian = f->dec.endian;
      ic = &in_codec;
    }
  encoder_init (&tmp, ic);
  {
    uint8_t buf[2 * MAX_ENCODED];
    size_t one = 1, len = 0;
    if (ic->encode (&tmp, cp + i, &one, buf, &len, sizeof buf)
        == ENCODE_INPUT_EMPTY && len <= MAX_ERROR_BYTES)
      {
        if (ic->flush)
          len += ic->flush (&tmp, buf + len);
        if (len <= MAX_ERROR_BYTES)
          {
            memcpy (e.err.bytes, buf, len);
            e.err.len = (unsigned int) len;
          }
      }
  }
  encoder_release (&tmp);
  /* An escaped byte (surrogateescape) that cannot go back: the byte is
     what the input held.  */
  if (e.err.len == 0 && 0xDC80 <= cp[i] && cp[i] <= 0xDCFF)
    {
      e.err.bytes[0] = (uint8_t) (cp[i] - 0xDC00);
      e.err.len = 1;
    }

  f->stats.encode_errors++;
  e.stopped = sub.stop;
  record_error (r, f, &e);
  if (sub.stop)
    return false;
  return encode_substitute (r, f, &sub, &e);
}

/* Encode CP[0..N) to the output.  SUBSTITUTE says the values replace an
   error: if one of them cannot be encoded either, it is dropped.  Returns
   false when a strict error stopped the file.  */
static bool
emit (struct run *r, struct file *f, ucs4_t const *cp, size_t n,
      struct origin const *o, bool substitute)
{
  size_t i = 0;
  struct origin sub;

  while (i < n)
    {
      size_t count;
      enum encode_status st;

      if (r->bom == BOMS_WANTED)
        {
          /* Write the BOM with the first character, and take it back if
             that character wrote nothing.  */
          size_t before, with_bom;
          ucs4_t const feff = 0xFEFF;
          count = 1;
          /* Leave room enough that nothing is written out before the
             BOM can be taken back.  */
          if (r->out_len > OUT_CAP / 2)
            write_out (r);
          before = r->out_len;
          r->cfg.to->encode (&r->enc, &feff, &count, r->out, &r->out_len,
                             OUT_CAP);
          with_bom = r->out_len;
          r->bom = BOMS_NONE;
          sub = *o;
          if (o->off)
            sub.off = o->off + i;
          for (count = 0; count < i; count++)
            sub.lines += cp[count] == 0x0A;
          if (!emit (r, f, cp + i, 1, &sub, substitute))
            {
              r->out_len = before;
              r->bom = BOMS_WANTED;
              return false;
            }
          if (r->out_len == with_bom && r->enc.pending == 0)
            {
              r->out_len = before;
              r->bom = BOMS_WANTED;
            }
          else
            f->stats.bom_written = 1;
          i++;
          continue;
        }

      count = n - i;
      st = r->cfg.to->encode (&r->enc, cp + i, &count, r->out, &r->out_len,
                              OUT_CAP);
      i += count;
      if (st == ENCODE_OUTPUT_FULL)
        write_out (r);
      else if (st == ENCODE_UNENCODABLE)
        {
          if (substitute)
            {
              if (r->cfg.policy.policy == POLICY_IGNORE)
                f->stats.dropped = true;
            }
          else
            {
              sub = *o;
              if (!encode_error (r, f, cp, i, &sub))
                return false;
            }
          i++;
        }
    }
  return true;
}

static void
flush_encoder (struct run *r)
{
  if (r->cfg.to->flush)
    {
      make_room (r);
      r->out_len += r->cfg.to->flush (&r->enc, r->out + r->out_len);
    }
}

/* Deal with the decoding error the decoder reported, in a buffer whose
   start is at BASE.  Returns false when the file must stop.  */
static bool
decode_error (struct run *r, struct file *f, uint64_t base)
{
  struct substitution sub;
  struct data_error e;
  struct origin o;

  memset (&e, 0, sizeof e);
  e.err = f->dec.error;
  e.offset = base + (uint64_t) f->dec.error.rel_offset;
  e.line = f->dec.newlines + 1;
  /* The decoder's codec: under -f auto, the detected one.  */
  e.encoding = f->dec.codec->name;
  policy_decode_error (&r->cfg.policy, &f->dec.error, &sub);
  f->stats.decode_errors[e.err.kind]++;
  e.stopped = sub.stop;
  record_error (r, f, &e);
  if (sub.stop)
    return false;
  if (r->cfg.policy.policy == POLICY_IGNORE)
    f->stats.dropped = true;
  o.off = NULL;
  o.base = e.offset;
  o.lines = f->dec.newlines;
  o.replaces_decode_error = true;
  return emit (r, f, sub.cp, sub.len, &o, false);
}

/* The first file decides whether its signature is carried (--bom=auto).  */
static void
decide_bom (struct run *r, bool signature)
{
  if (r->bom == BOMS_UNDECIDED)
    r->bom = (signature && (r->cfg.to->flags & CODEC_UNICODE)
              ? BOMS_WANTED : BOMS_NONE);
}

/* Convert IN[0..N) of file F, which starts at offset BASE of the file.
   Returns false when a strict error stopped the file.  */
static bool
convert_buffer (struct run *r, struct file *f, uint8_t const *in, size_t n,
                uint64_t base, bool last)
{
  size_t pos = 0;

  for (;;)
    {
      struct origin o;
      size_t len, skip = 0;
      bool part_last = last;
      enum decode_status st;

      /* A fast path takes what it can once the file has started, when
         nothing is held back in the decoder, the encoder or the BOM.  */
      if (r->fast && pos < n && !f->at_start
          && !decoder_holds_input (&f->dec)
          && r->bom != BOMS_WANTED && r->enc.pending == 0)
        {
          size_t produced, used;
          uint64_t newlines;
          if (OUT_CAP - r->out_len < FAST_ROOM)
            write_out (r);
          used = r->fast (in + pos, n - pos, r->out + r->out_len,
                          OUT_CAP - r->out_len, &produced, &newlines);
          /* The fast path bypasses the decoder, which counts the
             characters otherwise.  */
          if (r->cfg.report)
            f->stats.chars += codec_count_chars (r->fast_from, in + pos,
                                                 used);
          pos += used;
          r->out_len += produced;
          f->dec.newlines += newlines;
          if (pos < n && OUT_CAP - r->out_len < FAST_ROOM)
            continue;
        }

      len = n - pos;
      if (r->fast && SCALAR_WINDOW < len)
        {
          len = SCALAR_WINDOW;
          part_last = false;
        }
      r->pivot.len = 0;
      o.lines = f->dec.newlines;
      st = r->cfg.from->decode (&f->dec, in + pos, &len, part_last,
                                &r->pivot);
      o.off = r->pivot.off;
      o.base = base + pos;
      o.replaces_decode_error = false;
      if (f->at_start && (r->pivot.len > 0 || st == DECODE_MALFORMED))
        {
          bool sig = (r->pivot.len > 0 && r->pivot.cp[0] == 0xFEFF
                      && o.base + (uint64_t) r->pivot.off[0] == 0);
          f->at_start = false;
          if (!r->any_file)
            decide_bom (r, sig);
          skip = sig;
          f->stats.bom_seen = sig;
        }
      f->stats.chars += r->pivot.len - skip;
      /* -f auto has decided on a codec that may have a fast path.  */
      if (f->dec.codec != r->fast_from)
        {
          r->fast = fast_select (f->dec.codec, r->cfg.to);
          r->fast_from = f->dec.codec;
        }
      if (!emit (r, f, r->pivot.cp + skip, r->pivot.len - skip,
                 &(struct origin) { o.off + skip, o.base, o.lines, false }, false))
        return false;
      pos += len;
      if (st == DECODE_MALFORMED)
        {
          if (!decode_error (r, f, o.base))
            return false;
        }
      else if (st == DECODE_INPUT_EMPTY && pos == n)
        return true;
    }
}

/* Keep the statistics of the file F, which held BYTES_IN bytes and
   started at OUT_START bytes of output, for pipeline_file_stats.  */
static void
keep_stats (struct run *r, struct file *f, uint64_t bytes_in,
            uint64_t out_start)
{
  struct file_stats *s = &f->stats;
  s->bytes_in = bytes_in;
  s->bytes_out = r->out_total + r->out_len - out_start;
  /* --check writes nothing.  */
  if (r->out_fd < 0 && !r->write)
    s->bytes_out = s->bom_written = 0;
  if (f->dec.detect.how != DETECT_UNDECIDED)
    {
      s->detected = f->dec.codec;
      s->how = f->dec.detect.how;
      s->fallback_seqs = f->dec.detect.fallback_seqs;
      s->fallback_bytes = f->dec.detect.fallback_bytes;
    }
  r->last_stats = *s;
}

void
pipeline_file_stats (struct run const *r, struct file_stats *s)
{
  *s = r->last_stats;
}

enum file_result
pipeline_convert_fd (struct run *r, int fd, char const *name)
{
  struct file f;
  uint64_t base = 0, out_start = r->out_total + r->out_len;
  bool ok = true, last = false;
  struct readahead *ra = NULL;

  memset (&f, 0, sizeof f);
  f.name = name;
  f.at_start = true;
  decoder_init (&f.dec, r->cfg.from);
  f.dec.lone_surrogates_ok
    = (!r->cfg.well_formed_input
       && (r->cfg.policy.policy == POLICY_SURROGATEESCAPE
           || (r->cfg.to->flags & CODEC_SURROGATE_CARRIER) != 0));
  if (f.dec.codec != r->fast_from)
    {
      r->fast = fast_select (f.dec.codec, r->cfg.to);
      r->fast_from = f.dec.codec;
    }

  while (ok && !last && r->write_errno == 0)
    {
      uint8_t *in = r->in;
      size_t n = (ra ? readahead_next (ra, &in)
                  : safe_read (fd, r->in, r->cfg.block_size));
      /* After the first block, a file that utf8conv opened (not standard
         input) may be read ahead by a second thread.  */
      if (base == 0 && 0 < n && n != SAFE_READ_ERROR && fd != STDIN_FILENO)
        ra = readahead_start (fd, r->cfg.block_size, in, n);
      if (n == SAFE_READ_ERROR)
        {
          f.stats.sys_errno = errno;
          flush_encoder (r);
          write_out (r);
          encoder_release (&r->enc);
          encoder_init (&r->enc, r->cfg.to);
          decoder_release (&f.dec);
          /* A file that could not be read at all does not decide the
             BOM; one that was cut short by a read error did.  */
          if (!f.at_start)
            r->any_file = true;
          keep_stats (r, &f, base, out_start);
          if (ra)
            readahead_stop (ra);
          return FILE_READ_ERROR;
        }
      last = n == 0;
      ok = convert_buffer (r, &f, in, n, base, last);
      base += n;
      if (!ok || last)
        flush_encoder (r);
      write_out (r);
      if (r->cfg.progress)
        r->cfg.progress (r->cfg.progress_arg, n);
    }
  if (ra)
    readahead_stop (ra);
  if (!r->any_file)
    decide_bom (r, false);
  r->any_file = true;
  encoder_release (&r->enc);
  encoder_init (&r->enc, r->cfg.to);
  decoder_release (&f.dec);
  keep_stats (r, &f, base, out_start);

  if (r->write_errno)
    {
      r->last_stats.sys_errno = r->write_errno;
      return FILE_WRITE_ERROR;
    }
  if (f.stats.stopped)
    return FILE_STOPPED;
  return f.stats.dropped ? FILE_DROPPED : FILE_OK;
}

void
pipeline_finish (struct run *r)
{
  write_out (r);
  encoder_release (&r->enc);
  free (r->in);
  free (r->pivot.cp);
  free (r->pivot.off);
  free (r->out);
  free (r);
}

/* The C0 controls that text holds: BS, TAB, LF, VT, FF, CR, SUB (the
   end of a DOS text file) and ESC (terminal colours).  */
#define TEXT_CONTROLS                                                   \
  ((1u << 0x08) | (1u << 0x09) | (1u << 0x0A) | (1u << 0x0B)           \
   | (1u << 0x0C) | (1u << 0x0D) | (1u << 0x1A) | (1u << 0x1B))

int64_t
pipeline_find_binary (struct codec const *from, uint8_t const *buf,
                      size_t n, bool complete, ucs4_t *c)
{
  enum { CAP = 1024 };
  ucs4_t cp[CAP];
  int64_t off[CAP];
  struct pivot p;
  struct decoder d;
  size_t pos = 0;
  int64_t found = -1;

  p.cp = cp;
  p.off = off;
  p.cap = CAP;
  decoder_init (&d, from);
  /* Only the characters count: nothing here is an error.  */
  d.lone_surrogates_ok = true;
  while (found < 0)
    {
      size_t len = n - pos, i;
      enum decode_status st;
      p.len = 0;
      st = from->decode (&d, buf + pos, &len, complete, &p);
      for (i = 0; i < p.len; i++)
        if (cp[i] < 0x20 && !(TEXT_CONTROLS >> cp[i] & 1))
          {
            found = (int64_t) pos + off[i];
            *c = cp[i];
            break;
          }
      pos += len;
      if (st == DECODE_INPUT_EMPTY && pos == n)
        break;
    }
  decoder_release (&d);
  return found;
}
