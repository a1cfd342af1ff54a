// SPDX-License-Identifier: GPL-2.0-only
/* journal_hooks.c - restore at exit, on a signal, with the parent (journal_hooks.h). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "state/journal_hooks.h"

static void (*hook_restore)(void);
static pid_t pdeath;		/* this process dies with its parent */

static const int hook_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void at_exit(void)
{
	hook_restore();
}

static void on_signal(int sig)
{
	sigset_t set;

	hook_restore();
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

void devpm_journal_hooks_install(void (*restore)(void))
{
	struct sigaction sa, old;
	size_t i;

	if (hook_restore)
		return;
	hook_restore = restore;
	atexit(at_exit);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(hook_signals) / sizeof(hook_signals[0]); i++)
		sigaddset(&sa.sa_mask, hook_signals[i]);
	for (i = 0; i < sizeof(hook_signals) / sizeof(hook_signals[0]); i++) {
		/* Started with the signal ignored (nohup): keep it so. */
		if (sigaction(hook_signals[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(hook_signals[i], &sa, NULL);
	}
}

void devpm_journal_hooks_die_with_parent(bool owner)
{
	if (owner || pdeath == getpid())
		return;
	pdeath = getpid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}
