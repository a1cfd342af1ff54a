// SPDX-License-Identifier: GPL-2.0-only
/*
 * restore.c - `devpm restore`: put back every knob a crashed or killed run
 * left changed (taking the journal as its owner replays it).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/sysfs.h"
#include "state/journal.h"
#include "cli.h"
#include "util.h"

int rn_cmd_restore(int argc, char **argv)
{
	int r;

	if (argc > 1)
		return rn_usage_error("restore takes no argument ('%s'); see 'devpm restore --help'",
				      argv[1]);
	/* Not yet open: it opens as owner, which restores, and counts. */
	r = devpm_journal_restore_all();
	/*
	 * A journal directory not ours, a lock held, a record refused or
	 * not put back, or not one valid line: exit 2, said on stderr.
	 */
	if (r < 0)
		return rn_usage_error("restore: %s", devpm_error()[0] ?
				      devpm_error() : strerror(-r));
	if (r)
		printf("devpm: restored %d knob(s) left changed by an interrupted run\n",
		       r);
	else
		printf("devpm: nothing to restore\n");
	devpm_journal_close();
	return RN_EXIT_OK;
}
