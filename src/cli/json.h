/* A small writer of JSON Lines (--report-json): one object a line.

   Strings are written as UTF-8.  A string that is not valid UTF-8 (a
   file name is any bytes but '/' and NUL) is written reversibly, as
   Python's surrogateescape error handler reads bytes: each byte of an
   ill-formed sequence becomes the escape \udcXX, XX being the byte, so
   that os.fsencode (json.loads (line)["file"]) gives the name back.  */

#ifndef UTF8CONV_JSON_H
#define UTF8CONV_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* An object being written to OUT.  */
struct json
{
  FILE *out;
  bool first;                   /* No member written yet.  */
  bool nested;                  /* A member of another object.  */
};

/* Begin an object on its own line.  */
void json_begin (struct json *, FILE *out);

/* Begin the object INNER as the member KEY of OUTER.  */
void json_begin_member (struct json *outer, char const *key,
                        struct json *inner);

/* End an object (a line, unless it is nested).  */
void json_end (struct json *);

void json_string (struct json *, char const *key, char const *s);
void json_bytes (struct json *, char const *key, uint8_t const *s,
                 size_t n);
void json_uint (struct json *, char const *key, uint64_t n);
void json_null (struct json *, char const *key);
void json_bool (struct json *, char const *key, bool b);

#endif
