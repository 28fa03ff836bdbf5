/* The checks shared by the fuzz targets (see harness.c).  */

#ifndef UTF8CONV_FUZZ_HARNESS_H
#define UTF8CONV_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

/* Which decoders a target drives.  */
enum fuzz_family
{
  FAMILY_UTF8,                  /* UTF-8 and its variants.  */
  FAMILY_WIDE                   /* UTF-16 and UTF-32, both byte orders.  */
};

/* Run every check on one fuzzer input; abort () on a violation.  */
void fuzz_one (enum fuzz_family, uint8_t const *data, size_t size);

#endif
