// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream.c - the few records of the runner's stream (lib/runner/stream.h)
 * the agent acts on: PROG sets how long the guest may stay silent, END
 * clears it, DONE ends the run.  Everything is saved as it came; `devpm
 * collect` reads the file afterwards.
 *	PROG <mono_us> <suite>/<prog> <timeout_s>
 *	END <mono_us> <suite>/<prog> <duration_ms> <status>
 *	DONE <mono_us> <exit code>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

void stream_record(const char *line, struct record *rec)
{
	char kind[8], prog[sizeof(rec->prog)];
	unsigned long long us;
	int v, n;

	memset(rec, 0, sizeof(*rec));
	rec->kind = REC_OTHER;
	n = sscanf(line, "%7s %llu %127s %d", kind, &us, prog, &v);
	if (n < 3)
		return;
	if (!strcmp(kind, "PROG")) {
		rec->kind = REC_PROG;
		snprintf(rec->prog, sizeof(rec->prog), "%s", prog);
		/* The runner's default when the program gave none. */
		rec->value = n == 4 && v > 0 && v < 100000 ? v : 60;
	} else if (!strcmp(kind, "END")) {
		rec->kind = REC_END;
		snprintf(rec->prog, sizeof(rec->prog), "%s", prog);
	} else if (!strcmp(kind, "DONE")) {
		rec->kind = REC_DONE;
		v = atoi(prog);
		rec->value = v >= 0 && v < 256 ? v : 2;
	}
}
