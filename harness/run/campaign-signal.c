// SPDX-License-Identifier: GPL-2.0
/*
 * SIGINT/SIGTERM during a campaign: the scheduler passes it on to its
 * workers, a worker stops its guest and keeps what it sent, and the store
 * is left resumable.
 */
#include "campaign-priv.h"

#include <signal.h>

volatile int campaign_interrupted;

static void on_signal(int sig)
{
	campaign_interrupted = sig;
}

void campaign__signals_install(void)
{
	struct sigaction sa = { .sa_handler = on_signal }; /* no SA_RESTART: poll sees EINTR */

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
