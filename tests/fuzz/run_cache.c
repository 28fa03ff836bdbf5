/* The pipeline runs of harness.c, kept across conversions (see
   run_cache.h).  */

#include <config.h>

#include "run_cache.h"

#include <string.h>

/* At most RUN_CACHE runs; the least recently used makes room for a new
   configuration.  */
enum { RUN_CACHE = 32 };
static struct cached_run
{
  struct run_config cfg;
  struct run *run;
  unsigned long used;
} run_cache[RUN_CACHE];

struct run *
fuzz_cached_run (struct run_config const *cfg, int fd)
{
  static unsigned long tick;
  size_t k, victim = 0;
  for (k = 0; k < RUN_CACHE; k++)
    {
      if (run_cache[k].run
          && memcmp (&run_cache[k].cfg, cfg, sizeof *cfg) == 0)
        {
          run_cache[k].used = ++tick;
          pipeline_restart (run_cache[k].run, fd, NULL, NULL);
          return run_cache[k].run;
        }
      if (run_cache[k].used < run_cache[victim].used)
        victim = k;
    }
  if (run_cache[victim].run)
    pipeline_finish (run_cache[victim].run);
  memcpy (&run_cache[victim].cfg, cfg, sizeof *cfg);
  run_cache[victim].used = ++tick;
  run_cache[victim].run = pipeline_start (cfg, fd);
  return run_cache[victim].run;
}
