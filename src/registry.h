/* Names and aliases of the built-in encodings.  */

#ifndef UTF8CONV_REGISTRY_H
#define UTF8CONV_REGISTRY_H

#include <stdio.h>

#include "codec.h"

/* The built-in codec called NAME (case-insensitive), or NULL.  */
struct codec const *registry_find (char const *name);

/* Print the built-in encodings, one a line, with their aliases.  */
void registry_list (FILE *out);

#endif
