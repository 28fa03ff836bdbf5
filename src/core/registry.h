/* Names and aliases of the encodings: the built-in ones, then iconv(3)'s
   through the bridge.  */

#ifndef UTF8CONV_REGISTRY_H
#define UTF8CONV_REGISTRY_H

#include <stdio.h>

#include "codec.h"

/* The built-in codec called NAME (case-insensitive), or NULL.  */
struct codec const *registry_find (char const *name);

/* What the command line uses: the built-in codec called NAME, else a
   codec that bridges NAME through iconv(3), or NULL if iconv(3) does not
   know it either.  */
struct codec const *registry_lookup (char const *name);

/* The codec for NAME as a target with iconv's //TRANSLIT: one that asks
   iconv(3) to transliterate what it cannot encode (legacy encodings,
   built-in ones included), or the built-in codec of a Unicode form,
   which can encode every character anyway; NULL if unknown.  */
struct codec const *registry_lookup_translit (char const *name);

/* Up to MAX known names closest to NAME, which is unknown, into
   OUT[0..result): built-in names and aliases and iconv(3)'s, at most
   one or two edits away (one for a name of up to four letters and
   digits), the closest first.  The caller frees each OUT[i].  */
size_t registry_suggest (char const *name, char **out, size_t max);

/* Print the built-in encodings, one a line, with their aliases, then
   a heading and the names iconv(3) offers.  */
void registry_list (FILE *out);

#endif
