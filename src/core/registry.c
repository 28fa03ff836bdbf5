/* Names and aliases -> codecs.  One table lists every built-in codec;
   a name is matched against each codec's name and aliases, ignoring
   case.  A name that is not built in is tried with iconv(3), through
   the bridge of codecs/iconv_bridge.c.  */

#include <config.h>

#include "registry.h"

#include <strings.h>

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

struct codec const *
registry_find (char const *name)
{
  size_t i;
  /* -f auto is a decoder, not an encoding: not in the list.  */
  if (strcasecmp (name, codec_auto->name) == 0)
    return codec_auto;
  for (i = 0; i < CODEC_COUNT; i++)
    {
      char const *const *a;
      if (strcasecmp (name, codecs[i]->name) == 0)
        return codecs[i];
      for (a = codecs[i]->aliases; *a; a++)
        if (strcasecmp (name, *a) == 0)
          return codecs[i];
    }
  return NULL;
}

struct codec const *
registry_lookup (char const *name)
{
  struct codec const *c = registry_find (name);
  return c ? c : iconv_bridge_find (name, false, NULL);
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

void
registry_list (FILE *out)
{
  size_t i;
  for (i = 0; i < CODEC_COUNT; i++)
    {
      char const *const *a;
      fputs (codecs[i]->name, out);
      for (a = codecs[i]->aliases; *a; a++)
        fprintf (out, " %s", *a);
      putc ('\n', out);
    }
  iconv_bridge_list (out);
}
