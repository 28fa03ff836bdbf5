/* libFuzzer target: UTF-8 and its variants (CESU-8, MUTF-8, WTF-8 when
   built in) as input, every policy, every built-in output; see harness.c
   for the input layout and the properties checked.  */

#include <config.h>

#include "harness.h"

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  fuzz_one (FAMILY_UTF8, data, size);
  return 0;
}
