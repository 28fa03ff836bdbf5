/* libFuzzer target: UTF-16LE/BE/UTF-16 and UTF-32LE/BE/UTF-32 as input,
   every policy, every built-in output; see harness.c for the input layout
   and the properties checked.  */

#include <config.h>

#include "harness.h"

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  fuzz_one (FAMILY_WIDE, data, size);
  return 0;
}
