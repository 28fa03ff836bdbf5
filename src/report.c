/* --report: one summary line per file and a total line on standard
   error, after the run (see report.h for the format).  The wording is an
   interface and does not depend on the locale.  Counts are exact; bytes
   are counted in bytes ("B"), never rounded to KiB.  */

#include <config.h>

#include "report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detect.h"
#include "progname.h"
#include "xalloc.h"

/* The detected encodings of the total line, in order of first use.  */
enum { DETECTED_MAX = 8 };

struct report
{
  enum policy policy;
  uint64_t files;
  struct file_stats sum;
  struct
  {
    struct codec const *codec;
    uint64_t files;
  } detected[DETECTED_MAX];
  unsigned int ndetected;
  bool any_detected;
  uint64_t stopped;             /* Files a strict error stopped.  */
};

struct report *
report_start (enum policy policy)
{
  struct report *r = xzalloc (sizeof *r);
  r->policy = policy;
  return r;
}

/* "1 char", "2 chars".  */
static void
count (FILE *out, uint64_t n, char const *what)
{
  fprintf (out, "%" PRIu64 " %s%s", n, what, n == 1 ? "" : "s");
}

/* "1 invalid byte", "2 invalid bytes"; "beyond U+10FFFF" has no
   plural.  */
static void
count_kind (FILE *out, char const *sep, uint64_t n, enum err_kind k)
{
  char const *text = err_kind_text (k);
  fputs (sep, out);
  if (strncmp (text, "beyond ", 7) == 0)
    fprintf (out, "%" PRIu64 " %s", n, text);
  else
    count (out, n, text);
}

static uint64_t
error_total (struct file_stats const *s)
{
  uint64_t n = s->encode_errors;
  int k;
  for (k = 0; k < ERR_KIND_COUNT; k++)
    n += s->decode_errors[k];
  return n;
}

/* Everything after "FILE: " up to the detection.  STOPPED is the number
   of files that a strict error stopped; TOTAL says whether this is the
   total line, which gives that number.  */
static void
print_counts (FILE *out, struct report const *r, struct file_stats const *s,
              uint64_t stopped, bool total)
{
  uint64_t errors = error_total (s);

  fprintf (out, "in %" PRIu64 " B, out %" PRIu64 " B, ", s->bytes_in,
           s->bytes_out);
  count (out, s->chars, "char");
  fputs (", ", out);
  count (out, errors, "error");
  if (errors > 0)
    {
      /* The kinds: "(decoding: 1 truncated sequence, 2 invalid bytes;
         encoding: 1 unencodable character)".  */
      char const *sep = " (decoding: ";
      int k;
      for (k = 0; k < ERR_KIND_COUNT; k++)
        if (s->decode_errors[k] > 0)
          {
            count_kind (out, sep, s->decode_errors[k], (enum err_kind) k);
            sep = ", ";
          }
      if (s->encode_errors > 0)
        count_kind (out, (strcmp (sep, ", ") == 0 ? "; encoding: "
                          : " (encoding: "),
                    s->encode_errors, ERR_UNENCODABLE);
      putc (')', out);
      if (s->handled > 0)
        fprintf (out, ", %" PRIu64 " %s", s->handled,
                 policy_verb (r->policy));
      if (stopped > 0 && !total)
        fputs (", stopped", out);
      else if (stopped > 0)
        fprintf (out, ", %" PRIu64 " stopped", stopped);
    }
  fprintf (out, ", BOM seen %u written %u removed %u", s->bom_seen,
           s->bom_written,
           s->bom_seen > s->bom_written ? s->bom_seen - s->bom_written : 0);
}

static void
print_fallbacks (FILE *out, struct file_stats const *s)
{
  fputs (", ", out);
  count (out, s->fallback_seqs, "CP1252 fallback");
  fprintf (out, " (%" PRIu64 " B)", s->fallback_bytes);
}

void
report_file (struct report *r, char const *name, struct file_stats const *s)
{
  FILE *out = stderr;
  int k;

  fflush (stdout);
  r->files++;
  fprintf (out, "%s: report: %s: ", program_name, name);
  if (s->unread)
    {
      fputs ("unreadable\n", out);
      return;
    }
  print_counts (out, r, s, s->stopped, false);
  if (s->detected)
    {
      fprintf (out, ", detected %s (%s)", s->detected->name,
               detect_how_text (s->how));
      /* The fallback applies to UTF-8 only.  */
      if (strcmp (s->detected->name, "UTF-8") == 0)
        print_fallbacks (out, s);
    }
  putc ('\n', out);

  /* Add to the total.  */
  r->sum.bytes_in += s->bytes_in;
  r->sum.bytes_out += s->bytes_out;
  r->sum.chars += s->chars;
  for (k = 0; k < ERR_KIND_COUNT; k++)
    r->sum.decode_errors[k] += s->decode_errors[k];
  r->sum.encode_errors += s->encode_errors;
  r->sum.handled += s->handled;
  r->sum.bom_seen += s->bom_seen;
  r->sum.bom_written += s->bom_written;
  r->sum.fallback_seqs += s->fallback_seqs;
  r->sum.fallback_bytes += s->fallback_bytes;
  r->stopped += s->stopped;
  if (s->detected)
    {
      unsigned int i;
      r->any_detected = true;
      for (i = 0; i < r->ndetected; i++)
        if (r->detected[i].codec == s->detected)
          break;
      if (i == r->ndetected && i < DETECTED_MAX)
        {
          r->detected[i].codec = s->detected;
          r->ndetected++;
        }
      if (i < r->ndetected)
        r->detected[i].files++;
    }
}

void
report_total (struct report *r)
{
  FILE *out = stderr;

  fflush (stdout);
  fprintf (out, "%s: report: total: ", program_name);
  count (out, r->files, "file");
  fputs (", ", out);
  print_counts (out, r, &r->sum, r->stopped, true);
  if (r->any_detected)
    {
      unsigned int i;
      fputs (", detected", out);
      for (i = 0; i < r->ndetected; i++)
        fprintf (out, "%s %s %" PRIu64, i ? "," : "",
                 r->detected[i].codec->name, r->detected[i].files);
      print_fallbacks (out, &r->sum);
    }
  putc ('\n', out);
  free (r);
}

uint64_t
report_count_chars (struct codec const *from, uint8_t const *in, size_t n)
{
  uint64_t chars = 0;
  size_t i;

  if (from->flags & CODEC_SINGLE_BYTE)
    return n;
  if (from->flags & CODEC_WIDE_UNITS)
    {
      /* UTF-32: a unit a character.  UTF-16: every unit but the low
         surrogate of a pair (the run is well-formed).  */
      if (strncmp (from->name, "UTF-32", 6) == 0)
        return n / 4;
      for (i = 0; i + 1 < n; i += 2)
        {
          uint8_t hi = from->endian == ENDIAN_LITTLE ? in[i + 1] : in[i];
          chars += (hi & 0xFC) != 0xDC;
        }
      return chars;
    }
  /* UTF-8: every byte but the continuation bytes.  */
  for (i = 0; i < n; i++)
    chars += (in[i] & 0xC0) != 0x80;
  return chars;
}
