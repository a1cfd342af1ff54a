// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_main.c - the part of every test program's main() that is not the
 * harness: options, needs, journal (test.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devpm.h"
#include "test_info.h"

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--list | --needs | -t GLOB]\n"
		"A devpm test program; run it through 'devpm run' for results.\n",
		prog);
}

/* Returns an exit code, or -1 to go on and run the harness. */
int devpm_test_begin(const struct devpm_test_info *info, int argc,
		     char **argv, enum devpm_test_mode *mode,
		     const char **glob)
{
	char why[512];
	int i, r;

	*mode = DEVPM_MODE_RUN;
	*glob = getenv("DEVPM_TEST_GLOB");
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			*mode = DEVPM_MODE_LIST;
		} else if (!strcmp(argv[i], "--needs")) {
			*mode = DEVPM_MODE_NEEDS;
		} else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
			*glob = argv[++i];
		} else {
			fprintf(stderr, "%s: unknown option '%s'\n", argv[0],
				argv[i]);
			usage(argv[0]);
			return DEVPM_EXIT_USAGE;
		}
	}
	if (*mode == DEVPM_MODE_NEEDS) {
		printf("# NEEDS timeout_s: %d\n",
		       info->timeout_s ? info->timeout_s : 60);
		devpm_needs_print(&info->needs);
		return 0;
	}
	if (*mode == DEVPM_MODE_LIST)
		return -1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (devpm_sysfs_root_from_env() < 0) {
		printf("TAP version 13\n1..0 # SKIP %s\n", devpm_error());
		return DEVPM_EXIT_SKIP;
	}
	r = devpm_needs_check(&info->needs, why, sizeof(why));
	if (r) {
		printf("TAP version 13\n1..0 # SKIP %s\n",
		       r > 0 ? why : devpm_error());
		return DEVPM_EXIT_SKIP;
	}
	/* Only tests that write knobs need the journal; those need root. */
	if (devpm_is_root() || devpm_sysfs_root()[0]) {
		r = devpm_journal_attach();
		if (r < 0) {
			printf("TAP version 13\n1..0 # SKIP journal: %s\n",
			       devpm_error());
			return DEVPM_EXIT_SKIP;
		}
	}
	return -1;
}

off_t devpm_case_setup(void)
{
	return devpm_journal_mark();
}

void devpm_case_teardown(off_t mark)
{
	if (devpm_journal_restore_since(mark) < 0)
		fprintf(stderr, "# restore: %s\n", devpm_error());
}
