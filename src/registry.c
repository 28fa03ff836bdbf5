/* Names and aliases -> codecs.  One table lists every built-in codec;
   a name is matched against each codec's name and aliases, ignoring
   case.  */

#include <config.h>

#include "registry.h"

#include <strings.h>

extern struct codec const codec_utf8;
extern struct codec const codec_utf16, codec_utf16le, codec_utf16be;
extern struct codec const codec_utf32, codec_utf32le, codec_utf32be;

static struct codec const *const codecs[] = {
  &codec_utf8,
  &codec_utf16, &codec_utf16le, &codec_utf16be,
  &codec_utf32, &codec_utf32le, &codec_utf32be,
};

enum { CODEC_COUNT = sizeof codecs / sizeof codecs[0] };

struct codec const *
registry_find (char const *name)
{
  size_t i;
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
}
