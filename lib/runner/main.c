// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - the devpm command line: global options, then one subcommand
 * (cli.h).  Exit 0 all pass/skip, 1 any failure, 2 usage or setup error.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/sysfs.h"
#include "core/version.h"
#include "harness/test.h"
#include "cli.h"
#include "util.h"

static int set_root(const char *dir, const char *from)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return rn_usage_error("%s %s: %s; give the directory of a recorded tree",
				      from, dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rn_usage_error("%s %s is not a directory; give the directory of a recorded tree",
				      from, dir);
	if (devpm_set_sysfs_root(dir) < 0) {
		/* "sysfs root DIR: why": DIR is named once, after from. */
		const char *e = devpm_error();
		char head[PATH_MAX + 16];

		snprintf(head, sizeof(head), "sysfs root %s", dir);
		if (!strncmp(e, head, strlen(head)))
			return rn_usage_error("%s %s%s", from, dir,
					      e + strlen(head));
		return rn_usage_error("%s %s: %s", from, dir,
				      e[0] ? e : "cannot be used");
	}
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "run", rn_cmd_run },
	{ "collect", rn_cmd_collect },
	{ "list", rn_cmd_list },
	{ "audit", rn_cmd_audit },
	{ "why", rn_cmd_why },
	{ "restore", rn_cmd_restore },
	{ "compare", rn_cmd_compare },
	{ "report", rn_cmd_report },
	{ "export", rn_cmd_export },
};

int main(int argc, char **argv)
{
	const char *root = getenv("DEVPM_SYSFS_ROOT");
	const char *from = "DEVPM_SYSFS_ROOT";
	size_t i;
	int a = 1;

	while (a < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			rn_help_overview();
			return RN_EXIT_OK;
		} else if (!strcmp(argv[a], "--version")) {
			printf("devpm %s\n", DEVPM_VERSION);
			return RN_EXIT_OK;
		} else if (!strcmp(argv[a], "--sysfs-root") && a + 1 < argc) {
			root = argv[++a];
			from = "--sysfs-root";
		} else if (!strncmp(argv[a], "--sysfs-root=", 13)) {
			root = argv[a] + 13;
			from = "--sysfs-root";
		} else if (!strcmp(argv[a], "--sysfs-root")) {
			return rn_usage_error("--sysfs-root needs a directory");
		} else {
			return rn_usage_error("unknown option '%s'; see devpm --help",
					      argv[a]);
		}
		a++;
	}
	if (a >= argc)
		return rn_usage_error("no command given; try 'devpm --help'");
	if (!strcmp(argv[a], "help")) {
		if (a + 2 < argc)
			return rn_usage_error("help takes one command: devpm help run");
		if (a + 1 < argc)
			return rn_help(argv[a + 1]);
		rn_help_overview();
		return RN_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[a], cmds[i].name))
			continue;
		if (rn_help_asked(argc - a, argv + a))
			return rn_help(cmds[i].name);
		/* An empty --sysfs-root is a mistake, not the real /sys. */
		if (root && !root[0] && !strcmp(from, "--sysfs-root"))
			return rn_usage_error("--sysfs-root needs a directory (it was empty); leave the option out for the real /sys");
		if (root && root[0] && set_root(root, from))
			return RN_EXIT_USAGE;
		return cmds[i].fn(argc - a, argv + a);
	}
	return rn_usage_error("unknown command '%s'; commands: run list audit why restore compare report export collect (see devpm --help)",
			      argv[a]);
}
