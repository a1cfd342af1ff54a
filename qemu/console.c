// SPDX-License-Identifier: GPL-2.0-only
/*
 * console.c - what the guest's serial console says about its health.
 * Only kernel lines count: the pattern must open the line or follow the
 * printk timestamp, so a test's progress line quoting "BUG:" is no crash.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"

static const struct {
	const char *prefix;
	bool fatal;
} crash_lines[] = {
	{ "Kernel panic - not syncing", true },
	{ "---[ end Kernel panic", true },
	{ "BUG: ", false },		/* NULL deref, soft lockup, ... */
	{ "kernel BUG at ", false },
	{ "Oops: ", false },
	{ "general protection fault", false },
	{ "watchdog: BUG: ", false },
	{ "INFO: task ", false },	/* hung task */
	{ "rcu: INFO: ", false },	/* RCU stall */
};

/* Skip "[   12.345678] ", the printk timestamp. */
static const char *skip_stamp(const char *s)
{
	const char *p = s;

	if (*p != '[')
		return s;
	for (p++; *p == ' '; p++)
		;
	if (!isdigit((unsigned char)*p))
		return s;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '.' || !isdigit((unsigned char)*p))
		return s;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != ']')
		return s;
	while (*p == ' ')
		p++;
	return p;
}

bool console_kernel_line(const char *line)
{
	return skip_stamp(line) != line;
}

bool console_crash_line(const char *line, bool *fatal)
{
	const char *s = skip_stamp(line);
	size_t i;

	for (i = 0; i < sizeof(crash_lines) / sizeof(crash_lines[0]); i++) {
		if (!strncmp(s, crash_lines[i].prefix,
			     strlen(crash_lines[i].prefix))) {
			*fatal = crash_lines[i].fatal;
			return true;
		}
	}
	return false;
}

int console_guest_exit(const char *line, int *code)
{
	static const char tag[] = "DEVPM-GUEST-EXIT ";
	char *end;
	long v;

	if (strncmp(line, tag, sizeof(tag) - 1))
		return 0;
	v = strtol(line + sizeof(tag) - 1, &end, 10);
	if (end == line + sizeof(tag) - 1 || v < 0 || v > 255)
		return 0;
	*code = (int)v;
	return 1;
}
