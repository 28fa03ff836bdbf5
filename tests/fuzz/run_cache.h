/* Pipeline runs kept for their configuration, as the batch layer keeps
   one run for many files (pipeline_restart between them):
   pipeline_start's buffers (most of a megabyte) cost more under ASan
   than converting a fuzzer's input, and an execution of harness.c
   converts several times under a few configurations, which the next
   executions mostly share.  */

#ifndef UTF8CONV_FUZZ_RUN_CACHE_H
#define UTF8CONV_FUZZ_RUN_CACHE_H

#include "pipeline.h"

/* A run of CFG (made with memset, so compared byte by byte), ready for
   a file whose output goes to FD; the caller must not finish it.  */
struct run *fuzz_cached_run (struct run_config const *cfg, int fd);

#endif
