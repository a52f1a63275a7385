// SPDX-License-Identifier: GPL-2.0
/* The signals that end a bisection (bisect-priv.h). */
#include "bisect-priv.h"

#include <signal.h>

volatile sig_atomic_t bisect_interrupted;

/*
 * Ctrl-C reaches the whole process group: git, the step and its campaign stop
 * on their own. lrubench's own process only notes it and cleans up after
 * them. (A handler, not SIG_IGN: an ignored signal would stay ignored in
 * everything exec'd.)
 */
static void on_signal(int sig)
{
	(void)sig;
	bisect_interrupted = 1;
}

void bisect_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
