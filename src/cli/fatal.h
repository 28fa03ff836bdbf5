/* The signals that end the program (SIGHUP, SIGINT, SIGTERM): what must
   be undone before they kill it.  */

#ifndef UTF8CONV_FATAL_H
#define UTF8CONV_FATAL_H

#include <signal.h>

/* Run HOOK when a fatal signal arrives, before the program dies of it.
   HOOK runs in a signal handler: it may only call async-signal-safe
   functions.  A signal that the parent ignored (nohup) stays ignored.  */
void fatal_on_signal (void (*hook) (void));

/* Block the fatal signals while a hook's data changes, so that the
   hook never sees it half made; OLD receives the mask for
   fatal_unblock.  */
void fatal_block (sigset_t *old);
void fatal_unblock (sigset_t const *old);

#endif
