/* The fatal signals (see fatal.h).  One handler runs every hook, in the
   order they were added, then dies of the same signal, so that the
   parent sees how the program ended.  */

#include <config.h>

#include "fatal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int const fatal[] = { SIGHUP, SIGINT, SIGTERM };
enum { NFATAL = sizeof fatal / sizeof fatal[0], HOOKS_MAX = 4 };

static void (*hooks[HOOKS_MAX]) (void);
static int nhooks;
static sigset_t fatal_set;

static void
on_fatal (int sig)
{
  int i;
  for (i = 0; i < nhooks; i++)
    hooks[i] ();
  /* The signal is blocked until this handler returns.  */
  signal (sig, SIG_DFL);
  raise (sig);
}

static void
install (void)
{
  static bool done;
  size_t i;

  if (done)
    return;
  done = true;
  sigemptyset (&fatal_set);
  for (i = 0; i < NFATAL; i++)
    sigaddset (&fatal_set, fatal[i]);
  for (i = 0; i < NFATAL; i++)
    {
      struct sigaction old, sa;
      if (sigaction (fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        continue;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = on_fatal;
      sa.sa_mask = fatal_set;
      sigaction (fatal[i], &sa, NULL);
    }
}

void
fatal_on_signal (void (*hook) (void))
{
  sigset_t old;
  install ();
  if (nhooks == HOOKS_MAX)
    abort ();
  fatal_block (&old);
  hooks[nhooks++] = hook;
  fatal_unblock (&old);
}

void
fatal_block (sigset_t *old)
{
  install ();
  sigprocmask (SIG_BLOCK, &fatal_set, old);
}

void
fatal_unblock (sigset_t const *old)
{
  sigprocmask (SIG_SETMASK, old, NULL);
}
