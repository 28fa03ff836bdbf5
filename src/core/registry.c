/* Names and aliases -> codecs.  One table lists every built-in codec;
   a name is matched against each codec's name and aliases as ICU and
   WHATWG match labels (name_key).  Each built-in charset owns the
   aliases glibc's iconv knows it by, so that no name of it reaches
   glibc's table instead.  A name that is not built in is tried with
   iconv(3), through the bridge of codecs/iconv_bridge.c.  */

#include <config.h>

#include "registry.h"

#include <stdlib.h>
#include <string.h>

#include "c-ctype.h"
#include "xalloc.h"

#include "detect.h"
#include "codecs/codecs.h"
#include "codecs/iconv_bridge.h"


static struct codec const *const codecs[] = {
  &codec_utf8,
  &codec_cesu8, &codec_mutf8, &codec_wtf8,
  &codec_utf16, &codec_utf16le, &codec_utf16be,
  &codec_utf32, &codec_utf32le, &codec_utf32be,
  &codec_latin1, &codec_ascii, &codec_cp1252,
};

enum { CODEC_COUNT = sizeof codecs / sizeof codecs[0] };

/* The longest key compared; a longer name matches no built-in one.  */
enum { KEY_MAX = 64 };

/* Write to KEY (KEY_MAX bytes) what counts in the encoding name NAME,
   as ICU compares converter names: ASCII letters in lower case, the
   characters '-', '_', '.' and space left out, and a 0 that starts a
   number and is followed by a digit left out, so that "cp-1252",
   "Windows1252", "LATIN-1", "ISO_8859-1" and "ISO-8859-01" are the keys
   of "CP1252", "WINDOWS-1252", "LATIN1", "ISO-8859-1".  Returns false
   when the key does not fit.  */
static bool
name_key (char const *name, char *key)
{
  size_t k = 0;
  bool after_digit = false;

  for (; *name; name++)
    {
      char c = *name;
      if (c == '-' || c == '_' || c == '.' || c == ' ')
        {
          after_digit = false;
          continue;
        }
      if (c == '0' && !after_digit && c_isdigit (name[1]))
        continue;
      if (k + 1 == KEY_MAX)
        return false;
      key[k++] = (char) c_tolower (c);
      after_digit = c_isdigit (c) && c != '0' ? true
                    : c == '0' ? after_digit : false;
    }
  key[k] = '\0';
  return true;
}

/* Whether NAME's key is KEY.  */
static bool
key_is (char const *name, char const *key)
{
  char k[KEY_MAX];
  return name_key (name, k) && strcmp (k, key) == 0;
}

struct codec const *
registry_find (char const *name)
{
  char key[KEY_MAX];
  size_t i;

  if (!name_key (name, key))
    return NULL;
  /* -f auto is a decoder, not an encoding: not in the list.  */
  if (key_is (codec_auto->name, key))
    return codec_auto;
  for (i = 0; i < CODEC_COUNT; i++)
    {
      char const *const *a;
      if (key_is (codecs[i]->name, key))
        return codecs[i];
      for (a = codecs[i]->aliases; *a; a++)
        if (key_is (*a, key))
          return codecs[i];
    }
  return NULL;
}

/* Spellings that ICU's uconv or WHATWG accept and glibc's iconv(3)
   lacks, each with the name iconv(3) knows the charset by.  Matched by
   key, as every other name.  */
static char const *const extra_names[][2] = {
  { "macroman", "MACINTOSH" }, { "x-mac-roman", "MACINTOSH" },
  { "x-mac-cyrillic", "MAC-CYRILLIC" },
  { "x-mac-ukrainian", "MACUKRAINIAN" },
  { "win1250", "CP1250" }, { "win1251", "CP1251" }, { "win1252", "CP1252" },
  { "win1253", "CP1253" }, { "win1254", "CP1254" }, { "win1255", "CP1255" },
  { "win1256", "CP1256" }, { "win1257", "CP1257" }, { "win1258", "CP1258" },
  { "win874", "CP874" }, { "dos-874", "CP874" },
  { "x-cp1250", "CP1250" }, { "x-cp1251", "CP1251" },
  { "x-cp1253", "CP1253" }, { "x-cp1254", "CP1254" },
  { "x-cp1255", "CP1255" }, { "x-cp1256", "CP1256" },
  { "x-cp1257", "CP1257" }, { "x-cp1258", "CP1258" },
  { "latin2", "ISO-8859-2" }, { "latin3", "ISO-8859-3" },
  { "latin4", "ISO-8859-4" }, { "latin5", "ISO-8859-9" },
  { "latin6", "ISO-8859-10" }, { "latin7", "ISO-8859-13" },
  { "latin8", "ISO-8859-14" }, { "latin9", "ISO-8859-15" },
  { "latin10", "ISO-8859-16" },
  { "x-sjis", "SHIFT_JIS" }, { "ms932", "CP932" }, { "x-gbk", "GBK" },
  { "x-euc-jp", "EUC-JP" }, { "x-x-big5", "BIG5" },
};

/* The name iconv(3) knows for the extra spelling whose key is KEY, or
   NULL.  */
static char const *
extra_name (char const *key)
{
  size_t i;
  for (i = 0; i < sizeof extra_names / sizeof extra_names[0]; i++)
    if (key_is (extra_names[i][0], key))
      return extra_names[i][1];
  return NULL;
}

/* The first name of iconv(3)'s list whose key is KEY, as
   iconv_bridge_names finds it.  */
struct key_search
{
  char const *key;
  char *found;
};

static void
match_key (char const *name, void *arg)
{
  struct key_search *ks = arg;
  if (!ks->found && key_is (name, ks->key))
    ks->found = xstrdup (name);
}

struct codec const *
registry_lookup (char const *name)
{
  struct codec const *c = registry_find (name);
  char key[KEY_MAX];
  char const *extra;
  struct key_search ks;

  if (c || !name_key (name, key))
    return c;
  extra = extra_name (key);
  if (extra)
    return registry_lookup (extra);
  c = iconv_bridge_find (name, false, NULL);
  if (c)
    return c;
  /* iconv_open matches names nearly exactly ("CP-1250", "koi8_r" and
     "ISO 8859-15" are unknown to glibc): match them by key against
     every name it lists, so that its names are matched as loosely as
     the built-in ones.  */
  ks.key = key;
  ks.found = NULL;
  iconv_bridge_names (match_key, &ks);
  if (ks.found)
    {
      c = iconv_bridge_find (ks.found, false, NULL);
      free (ks.found);
    }
  return c;
}

struct codec const *
registry_lookup_translit (char const *name)
{
  struct codec const *c = registry_lookup (name);
  if (!c || c == codec_auto || (c->flags & CODEC_UNICODE))
    return c;
  /* A built-in legacy codec still encodes what it can, exactly.  */
  return iconv_bridge_find (c->name, true,
                            c->flags & CODEC_STATEFUL ? NULL : c);
}

/* The keys of the names that registry_list has printed.  */
struct printed
{
  char (*keys)[KEY_MAX];
  size_t n, cap;
};

/* Whether iconv(3)'s NAME is listed: not when it names a built-in
   charset (it is listed there), nor when a name with the same key was
   listed before.  */
static bool
list_keep (char const *name, void *arg)
{
  struct printed *p = arg;
  char key[KEY_MAX];
  size_t i;

  if (!name_key (name, key) || registry_find (name))
    return false;
  for (i = 0; i < p->n; i++)
    if (strcmp (p->keys[i], key) == 0)
      return false;
  if (p->n == p->cap)
    p->keys = x2nrealloc (p->keys, &p->cap, sizeof *p->keys);
  strcpy (p->keys[p->n++], key);
  return true;
}

void
registry_list (FILE *out)
{
  struct printed p = { NULL, 0, 0 };
  size_t i;
  for (i = 0; i < CODEC_COUNT; i++)
    {
      char const *const *a;
      fputs (codecs[i]->name, out);
      for (a = codecs[i]->aliases; *a; a++)
        fprintf (out, " %s", *a);
      putc ('\n', out);
    }
  iconv_bridge_list (out, list_keep, &p);
  free (p.keys);
}

/* The number of edits (insertions, deletions, substitutions, and swaps
   of two neighbours, as in "cp1525" for "cp1252") that make the key A
   into the key B: the optimal string alignment distance.  */
static size_t
edit_distance (char const *a, char const *b)
{
  size_t la = strlen (a), lb = strlen (b), i, j;
  size_t rows[3][KEY_MAX + 1];
  size_t *two = rows[0], *prev = rows[1], *cur = rows[2];

  for (j = 0; j <= lb; j++)
    prev[j] = j;
  for (i = 1; i <= la; i++)
    {
      size_t *t;
      cur[0] = i;
      for (j = 1; j <= lb; j++)
        {
          size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
          if (prev[j] + 1 < best)
            best = prev[j] + 1;
          if (cur[j - 1] + 1 < best)
            best = cur[j - 1] + 1;
          if (1 < i && 1 < j && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
              && two[j - 2] + 1 < best)
            best = two[j - 2] + 1;
          cur[j] = best;
        }
      t = two;
      two = prev;
      prev = cur;
      cur = t;
    }
  return prev[lb];
}

/* The names closest to an unknown one, as registry_suggest finds them.  */
struct suggestions
{
  char key[KEY_MAX];
  size_t limit;                 /* The most edits a suggestion may need.  */
  char **names;
  size_t *dist;
  size_t n, max;
};

static void
consider (char const *name, void *arg)
{
  struct suggestions *s = arg;
  char key[KEY_MAX] = { 0 };
  size_t d, i, k;

  if (!name_key (name, key))
    return;
  d = edit_distance (s->key, key);
  if (d > s->limit)
    return;
  /* One name for each key: the first met, built-in names first.  */
  for (i = 0; i < s->n; i++)
    if (key_is (s->names[i], key))
      return;
  /* Sorted by distance, in the order met.  */
  for (k = s->n; k > 0 && s->dist[k - 1] > d; k--)
    continue;
  if (k == s->max)
    return;
  if (s->n == s->max)
    free (s->names[--s->n]);
  memmove (s->names + k + 1, s->names + k, (s->n - k) * sizeof *s->names);
  memmove (s->dist + k + 1, s->dist + k, (s->n - k) * sizeof *s->dist);
  s->names[k] = xstrdup (name);
  s->dist[k] = d;
  s->n++;
}

size_t
registry_suggest (char const *name, char **out, size_t max)
{
  struct suggestions s;
  size_t i, len, found;

  memset (&s, 0, sizeof s);
  if (max == 0 || !name_key (name, s.key))
    return 0;
  len = strlen (s.key);
  if (len == 0)
    return 0;
  s.limit = len <= 4 ? 1 : 2;
  s.names = out;
  s.dist = xnmalloc (max, sizeof *s.dist);
  s.n = 0;
  s.max = max;
  for (i = 0; i < CODEC_COUNT; i++)
    {
      char const *const *a;
      consider (codecs[i]->name, &s);
      for (a = codecs[i]->aliases; *a; a++)
        consider (*a, &s);
    }
  for (i = 0; i < sizeof extra_names / sizeof extra_names[0]; i++)
    consider (extra_names[i][0], &s);
  iconv_bridge_names (consider, &s);
  found = s.n;
  free (s.dist);
  return found;
}
