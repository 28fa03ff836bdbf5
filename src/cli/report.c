/* --report and --report-json (see report.h).  The wording of the text
   report is an interface and does not depend on the locale.  Counts are
   exact; bytes are counted in bytes ("B"), never rounded to KiB.  */

#include <config.h>

#include "report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "progname.h"
#include "xalloc.h"

#include "codecs/codecs.h"
#include "detect.h"
#include "json.h"
#include "progress.h"
#include "system.h"

/* The detected encodings of the total line, in order of first use.  */
enum { DETECTED_MAX = 8 };

struct report
{
  enum policy policy;
  enum eol_mode eol;
  bool text;
  FILE *json;
  uint64_t files;
  uint64_t outcomes[OUTCOME_COUNT];
  struct file_stats sum;        /* bytes_out and bom_written over the
                                   files written only.  */
  unsigned int bom_seen_written;        /* bom_seen of those files.  */
  uint64_t mixed;               /* Files whose breaks are of two kinds
                                   or more.  */
  /* The legacy code page of the files that fell back to one, and
     whether they used several.  */
  struct codec const *fallback_page;
  bool fallback_mixed;
  struct
  {
    struct codec const *codec;
    uint64_t files;
  } detected[DETECTED_MAX];
  unsigned int ndetected;
  bool any_detected;
  bool mojibake;                /* --fix-mojibake.  */
  bool check;                   /* --check: nothing is written.  */
};

static char const *const outcome_names[OUTCOME_COUNT] = {
  "converted", "unchanged", "skipped", "failed", "stopped", "valid",
  "invalid"
};

struct report *
report_start (enum policy policy, enum eol_mode eol, bool text, FILE *json)
{
  struct report *r = xzalloc (sizeof *r);
  r->policy = policy;
  r->eol = eol;
  r->text = text;
  r->json = json;
  return r;
}

void
report_fix_mojibake (struct report *r)
{
  r->mojibake = true;
}

void
report_check (struct report *r)
{
  r->check = true;
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

/* The counts of S, after "OUTCOME": WRITTEN says whether its output
   was written (out bytes and BOMs written), BOM_SEEN_WRITTEN how many
   of the BOMs seen belong to written files.  */
static void
print_counts (FILE *out, struct report const *r, struct file_stats const *s,
              bool written, unsigned int bom_seen_written)
{
  uint64_t errors = error_total (s);

  fprintf (out, ", in %" PRIu64 " B", s->bytes_in);
  if (written)
    fprintf (out, ", out %" PRIu64 " B", s->bytes_out);
  fputs (", ", out);
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
    }
  fprintf (out, ", BOM seen %u", s->bom_seen);
  if (written)
    fprintf (out, " written %u removed %u", s->bom_written,
             bom_seen_written > s->bom_written
             ? bom_seen_written - s->bom_written : 0);
}

/* Whether the line breaks of S are of two kinds or more.  */
static bool
mixed_breaks (struct file_stats const *s)
{
  return ((s->breaks_crlf > 0) + (s->breaks_lf > 0) + (s->breaks_cr > 0)
          > 1);
}

/* The --eol modes as JSON says them, and as the text says them.  */
static char const *const eol_names[] = { "keep", "lf", "crlf", "cr" };
static char const *const eol_text[] = { "", "LF", "CRLF", "CR" };

/* The line breaks of S, after the other counts.  WRITTEN says whether
   the output was written; MIXED, unless negative, is a number of files
   that mix their breaks (the total).  */
static void
print_breaks (FILE *out, struct report const *r, struct file_stats const *s,
              bool written, int64_t mixed)
{
  fprintf (out, ", line breaks CRLF %" PRIu64 " LF %" PRIu64 " CR %" PRIu64,
           s->breaks_crlf, s->breaks_lf, s->breaks_cr);
  if (mixed > 0)
    fprintf (out, " (%" PRId64 " mixed)", mixed);
  else if (mixed < 0 && mixed_breaks (s))
    fputs (" (mixed)", out);
  if (written && r->eol != EOL_KEEP)
    fprintf (out, " written as %s", eol_text[r->eol]);
}

/* The ill-formed UTF-8 sequences read in the legacy code page PAGE
   (NULL: the file's own, CP1252 when it has none).  */
static void
print_fallbacks (FILE *out, struct file_stats const *s, char const *page)
{
  struct detection const *d = &s->detected;
  char label[64];
  snprintf (label, sizeof label, "%s fallback",
            page ? page : d->legacy ? d->legacy->name : "CP1252");
  fputs (", ", out);
  count (out, d->fallback_seqs, label);
  fprintf (out, " (%" PRIu64 " B)", d->fallback_bytes);
}

/* What -f auto found in a file, after "detected": the encoding, the kind
   of decision, how a legacy code page was chosen, and the confidence:
   "KOI8-R (legacy, model, confidence 0.97)".  */
static void
print_detected (FILE *out, struct detection const *d)
{
  char enc[128];
  detect_encoding_name (d, enc, sizeof enc);
  /* A decoder that chose no kind (-f UTF-16 without BOM or NUL
     pattern) says how it chose.  */
  fprintf (out, ", detected %s (%s", enc,
           d->kind == KIND_NONE ? detect_how_text (d->how)
           : detect_kind_text (d->kind));
  if (d->kind == KIND_LEGACY || d->kind == KIND_MIXED)
    fprintf (out, ", %s", legacy_how_text (d->legacy_how));
  fprintf (out, ", confidence %u.%02u)", d->confidence / 100,
           d->confidence % 100);
}

/* --report-json: the legacy code page of -f auto (the cp1252_ names
   above count its fallbacks, whatever it is) and how it was chosen.  */
static void
json_detection (struct json *j, struct detection const *d)
{
  if (d->legacy)
    {
      json_string (j, "fallback_encoding", d->legacy->name);
      json_string (j, "fallback_by", legacy_how_text (d->legacy_how));
    }
  else
    {
      json_null (j, "fallback_encoding");
      json_null (j, "fallback_by");
    }
  json_uint (j, "confidence_percent", d->confidence);
}

static void
text_file (struct report *r, char const *name, struct file_outcome const *o)
{
  FILE *out = stderr;
  struct file_stats const *s = o->stats;

  fflush (stdout);
  progress_clear_active ();
  fprintf (out, "%s: report: %s: %s", program_name, quotef (name),
           outcome_names[o->outcome]);
  if (o->why)
    fprintf (out, " (%s)", o->why);
  if (s)
    {
      print_counts (out, r, s, o->written, s->bom_seen);
      print_breaks (out, r, s, o->written, -1);
      if (r->mojibake)
        fprintf (out, ", %" PRIu64 " mojibake repair%s", s->mojibake_repairs,
                 s->mojibake_repairs == 1 ? "" : "s");
      if (s->detected.codec)
        {
          print_detected (out, &s->detected);
          /* The fallback applies to UTF-8 only, and is named only
             when it was used: a code page that read nothing is not
             worth a word.  */
          if (s->detected.codec == &codec_utf8
              && s->detected.fallback_seqs > 0)
            print_fallbacks (out, s, NULL);
        }
    }
  putc ('\n', out);
}

static void
json_counts (struct json *j, struct report const *r,
             struct file_stats const *s, bool written)
{
  struct json kinds;
  int k;

  json_uint (j, "bytes_in", s->bytes_in);
  if (written)
    json_uint (j, "bytes_out", s->bytes_out);
  else
    json_null (j, "bytes_out");
  json_uint (j, "chars", s->chars);
  json_uint (j, "errors", error_total (s));
  json_begin_member (j, "decoding_errors", &kinds);
  for (k = 1; k < ERR_KIND_COUNT; k++)
    if (s->decode_errors[k] > 0)
      json_uint (&kinds, err_kind_text ((enum err_kind) k),
                 s->decode_errors[k]);
  json_end (&kinds);
  json_uint (j, "encoding_errors", s->encode_errors);
  json_uint (j, "handled", s->handled);
  json_begin_member (j, "line_breaks", &kinds);
  json_uint (&kinds, "crlf", s->breaks_crlf);
  json_uint (&kinds, "lf", s->breaks_lf);
  json_uint (&kinds, "cr", s->breaks_cr);
  json_end (&kinds);
  json_uint (j, "bom_seen", s->bom_seen);
  if (written)
    json_uint (j, "bom_written", s->bom_written);
  else
    json_null (j, "bom_written");
  if (r->mojibake)
    json_uint (j, "mojibake_repairs", s->mojibake_repairs);
}

static void
json_file (struct report *r, char const *name, struct file_outcome const *o)
{
  struct json j;
  struct file_stats const *s = o->stats;

  json_begin (&j, r->json);
  json_string (&j, "type", "file");
  json_string (&j, "file", name);
  json_string (&j, "outcome", outcome_names[o->outcome]);
  if (o->why)
    json_string (&j, "reason", o->why);
  else
    json_null (&j, "reason");
  if (o->binary_offset >= 0)
    json_uint (&j, "binary_offset", (uint64_t) o->binary_offset);
  if (s)
    {
      json_counts (&j, r, s, o->written);
      json_bool (&j, "mixed_breaks", mixed_breaks (s));
      if (o->written)
        json_string (&j, "breaks_written", eol_names[r->eol]);
      else
        json_null (&j, "breaks_written");
      if (s->detected.codec)
        {
          char enc[128];
          detect_encoding_name (&s->detected, enc, sizeof enc);
          json_string (&j, "detected", s->detected.codec->name);
          json_string (&j, "detected_by",
                       detect_how_text (s->detected.how));
          json_string (&j, "detected_encoding", enc);
          json_string (&j, "detected_kind",
                       detect_kind_text (s->detected.kind));
          json_uint (&j, "cp1252_fallbacks", s->detected.fallback_seqs);
          json_uint (&j, "cp1252_fallback_bytes",
                     s->detected.fallback_bytes);
          json_detection (&j, &s->detected);
        }
    }
  json_end (&j);
}

/* Add S, a file whose output was WRITTEN, to the total.  */
static void
add (struct report *r, struct file_stats const *s, bool written)
{
  int k;
  r->sum.bytes_in += s->bytes_in;
  r->sum.chars += s->chars;
  for (k = 0; k < ERR_KIND_COUNT; k++)
    r->sum.decode_errors[k] += s->decode_errors[k];
  r->sum.encode_errors += s->encode_errors;
  r->sum.handled += s->handled;
  r->sum.bom_seen += s->bom_seen;
  r->sum.breaks_crlf += s->breaks_crlf;
  r->sum.breaks_lf += s->breaks_lf;
  r->sum.breaks_cr += s->breaks_cr;
  r->sum.mojibake_repairs += s->mojibake_repairs;
  r->mixed += mixed_breaks (s);
  if (written)
    {
      r->sum.bytes_out += s->bytes_out;
      r->sum.bom_written += s->bom_written;
      r->bom_seen_written += s->bom_seen;
    }
  if (s->detected.fallback_seqs > 0 && s->detected.legacy)
    {
      if (!r->fallback_page)
        r->fallback_page = s->detected.legacy;
      else if (r->fallback_page != s->detected.legacy)
        r->fallback_mixed = true;
    }
  r->sum.detected.fallback_seqs += s->detected.fallback_seqs;
  r->sum.detected.fallback_bytes += s->detected.fallback_bytes;
  if (s->detected.codec)
    {
      unsigned int i;
      r->any_detected = true;
      for (i = 0; i < r->ndetected; i++)
        if (r->detected[i].codec == s->detected.codec)
          break;
      if (i == r->ndetected && i < DETECTED_MAX)
        {
          r->detected[i].codec = s->detected.codec;
          r->ndetected++;
        }
      if (i < r->ndetected)
        r->detected[i].files++;
    }
}

void
report_file (struct report *r, char const *name,
             struct file_outcome const *o)
{
  r->files++;
  r->outcomes[o->outcome]++;
  if (o->stats)
    add (r, o->stats, o->written);
  if (r->text)
    text_file (r, name, o);
  if (r->json)
    json_file (r, name, o);
}

void
report_error (struct report *r, char const *file, struct data_error const *e)
{
  struct json j;
  char buf[16];

  if (!r->json)
    return;
  json_begin (&j, r->json);
  json_string (&j, "type", "error");
  json_string (&j, "file", file);
  json_uint (&j, "line", e->line);
  json_uint (&j, "offset", e->offset);
  json_string (&j, "encoding", e->encoding);
  {
    char hex[2 * MAX_ERROR_BYTES + 1];
    unsigned int i;
    for (i = 0; i < e->err.len; i++)
      snprintf (hex + 2 * i, 3, "%02x", e->err.bytes[i]);
    hex[2 * e->err.len] = '\0';
    json_string (&j, "bytes", hex);
  }
  json_string (&j, "kind", err_kind_text (e->err.kind));
  if (e->err.kind == ERR_UNENCODABLE)
    {
      snprintf (buf, sizeof buf, "U+%04" PRIX32, e->c);
      json_string (&j, "char", buf);
    }
  json_string (&j, "action",
               e->stopped ? "stopped" : policy_verb (r->policy));
  json_end (&j);
}

/* The characters CP[0..N) in UTF-8, into BUF (room for 4N + 1).  */
static char *
to_utf8 (ucs4_t const *cp, size_t n, char *buf)
{
  char *p = buf;
  size_t i;
  for (i = 0; i < n; i++)
    {
      ucs4_t c = cp[i];
      if (c < 0x80)
        *p++ = (char) c;
      else if (c < 0x800)
        {
          *p++ = (char) (0xC0 | (c >> 6));
          *p++ = (char) (0x80 | (c & 0x3F));
        }
      else if (c < 0x10000)
        {
          *p++ = (char) (0xE0 | (c >> 12));
          *p++ = (char) (0x80 | ((c >> 6) & 0x3F));
          *p++ = (char) (0x80 | (c & 0x3F));
        }
      else
        {
          *p++ = (char) (0xF0 | (c >> 18));
          *p++ = (char) (0x80 | ((c >> 12) & 0x3F));
          *p++ = (char) (0x80 | ((c >> 6) & 0x3F));
          *p++ = (char) (0x80 | (c & 0x3F));
        }
    }
  *p = '\0';
  return buf;
}

void
report_repair (struct report *r, char const *file,
               struct moji_repair const *rp)
{
  struct json j;
  char buf[4 * MOJI_BEFORE_MAX + 1];

  if (!r->json)
    return;
  json_begin (&j, r->json);
  json_string (&j, "type", "repair");
  json_string (&j, "file", file);
  json_uint (&j, "line", rp->line);
  json_uint (&j, "offset", rp->offset);
  json_string (&j, "before", to_utf8 (rp->before, rp->nbefore, buf));
  json_string (&j, "after", to_utf8 (&rp->after, 1, buf));
  json_end (&j);
}

static void
text_total (struct report *r)
{
  FILE *out = stderr;
  char const *sep = " (";
  int k;

  fflush (stdout);
  progress_clear_active ();
  fprintf (out, "%s: report: total: ", program_name);
  count (out, r->files, "file");
  for (k = 0; k < OUTCOME_COUNT; k++)
    if (r->outcomes[k] > 0)
      {
        fprintf (out, "%s%" PRIu64 " %s", sep, r->outcomes[k],
                 outcome_names[k]);
        sep = ", ";
      }
  if (r->files > 0)
    putc (')', out);
  /* --check writes nothing, and says nothing of output.  */
  print_counts (out, r, &r->sum, !r->check, r->bom_seen_written);
  print_breaks (out, r, &r->sum, false, (int64_t) r->mixed);
  if (r->mojibake)
    fprintf (out, ", %" PRIu64 " mojibake repair%s", r->sum.mojibake_repairs,
             r->sum.mojibake_repairs == 1 ? "" : "s");
  if (r->any_detected)
    {
      unsigned int i;
      fputs (", detected", out);
      for (i = 0; i < r->ndetected; i++)
        fprintf (out, "%s %s %" PRIu64, i ? "," : "",
                 r->detected[i].codec->name, r->detected[i].files);
      /* The code page of the files that fell back, when they share
         one; "legacy" when they do not; nothing when none did.  */
      if (r->sum.detected.fallback_seqs > 0)
        print_fallbacks (out, &r->sum,
                         r->fallback_mixed ? "legacy"
                         : r->fallback_page ? r->fallback_page->name
                         : "CP1252");
    }
  putc ('\n', out);
}

static void
json_total (struct report *r)
{
  struct json j, o;
  int k;

  json_begin (&j, r->json);
  json_string (&j, "type", "total");
  json_uint (&j, "files", r->files);
  json_begin_member (&j, "outcomes", &o);
  for (k = 0; k < OUTCOME_COUNT; k++)
    json_uint (&o, outcome_names[k], r->outcomes[k]);
  json_end (&o);
  json_counts (&j, r, &r->sum, !r->check);
  json_uint (&j, "mixed_break_files", r->mixed);
  json_end (&j);
}

void
report_total (struct report *r)
{
  if (r->text)
    text_total (r);
  if (r->json)
    json_total (r);
  free (r);
}
