/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * journal_hooks.h - when the journal is put back without being asked:
 * at exit, on SIGINT/SIGTERM/SIGHUP (then the signal is raised again),
 * and when the parent of a process that writes for it dies.
 */
#ifndef DEVPM_JOURNAL_HOOKS_H
#define DEVPM_JOURNAL_HOOKS_H

#include <stdbool.h>

/*
 * Call restore at exit and on SIGINT/SIGTERM/SIGHUP (a signal ignored at
 * start stays ignored), once per process image.  restore must be
 * async-signal-safe.
 */
void devpm_journal_hooks_install(void (*restore)(void));

/*
 * A process that writes knobs for someone else (a test program, a case
 * the harness forked) dies with its parent (PR_SET_PDEATHSIG): nothing
 * may write after the runner is gone and `devpm restore` has put the
 * knobs back.  Nothing for the owner itself (owner true).
 */
void devpm_journal_hooks_die_with_parent(bool owner);

#endif
