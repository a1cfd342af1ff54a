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

static const char usage_text[] =
"usage: devpm [--sysfs-root DIR] COMMAND [OPTIONS]\n"
"Device power-management tests for Linux: runtime PM, system suspend,\n"
"wakeup, PM QoS.  Results are KTAP, JUnit XML and JSON.\n"
"\n"
"Commands:\n"
"  run [--suite S]... [--test GLOB] [--allow-sleep] [--allow-disk]\n"
"      [--output DIR] [--timeout S] [--stream FILE] [--env KEY=VALUE]...\n"
"      [--resume-budget-ms MS]\n"
"        run the test programs; results in DIR/<run-id> (default\n"
"        results/), DIR/latest points at them; KTAP also on stdout.\n"
"        --suite S       only suite S (repeatable)\n"
"        --test GLOB     only cases matching GLOB: 'case', 'program/case'\n"
"                        or 'suite/program/case'\n"
"        --allow-sleep   let tests enter system sleep\n"
"        --allow-disk    let tests touch devices holding mounted filesystems\n"
"        --timeout S     per-program timeout in seconds (default: the\n"
"                        program's own, else 60)\n"
"        --stream FILE   also append the run as a record stream to FILE\n"
"                        (a virtio-serial port in devpm's QEMU image)\n"
"        --env KEY=VALUE add to env.json\n"
"        --resume-budget-ms MS  a device whose system-resume callback\n"
"                        takes longer fails (async/sleep real_device_timing)\n"
"  collect STREAM [--output DIR] [--env KEY=VALUE]... [--crash TEXT]\n"
"        rebuild results from a stream; a case the machine died in fails\n"
"        with 'guest crashed during this case: TEXT'\n"
"  list [--suite S]... [--test GLOB]\n"
"        every suite, program and case with what it needs\n"
"  list --write-cache\n"
"        record every program's answers in SUITES_DIR/.probe-cache (keyed\n"
"        by a hash of the program): run and list then need not ask it\n"
"  audit [--json]\n"
"        read-only: every device's runtime PM status and, for each that\n"
"        is not suspended, why\n"
"  why DEVICE\n"
"        the same for one device (a /sys/devices path or a name)\n"
"  restore\n"
"        put back every knob a crashed or killed run left changed\n"
"  compare OLD NEW\n"
"        regressions between two run directories, or two KTAP files\n"
"        of any runner (KUnit, kselftest, results.ktap); exit 1 if any\n"
"  report DIR\n"
"        DIR/report.html: verdicts, failures with the kernel log around\n"
"        them, timelines of suspend cycles and runtime-PM transitions\n"
"\n"
"Global options:\n"
"  --sysfs-root DIR  read /sys, /proc and /dev under DIR (a recorded tree);\n"
"                    also DEVPM_SYSFS_ROOT; passed on to test programs\n"
"  --help, --version\n"
"\n"
"Environment: DEVPM_SUITES_DIR (test programs), DEVPM_JOURNAL_DIR\n"
"(journal and lock, default /run/devpm), DEVPM_SYSFS_ROOT.\n"
"Exit status: 0 all pass or skip, 1 any failure, 2 usage or setup error.\n"
"See devpm(1).\n";

static int set_root(const char *dir, const char *from)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return rn_usage_error("%s %s: %s; give the directory of a recorded tree",
				      from, dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return rn_usage_error("%s %s is not a directory; give the directory of a recorded tree",
				      from, dir);
	if (devpm_set_sysfs_root(dir) < 0)
		return rn_usage_error("%s %s: %s", from, dir,
				      devpm_error()[0] ? devpm_error() :
				      "cannot be used");
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
};

int main(int argc, char **argv)
{
	const char *root = getenv("DEVPM_SYSFS_ROOT");
	const char *from = "DEVPM_SYSFS_ROOT";
	size_t i;
	int a = 1;

	while (a < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			fputs(usage_text, stdout);
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
		fputs(usage_text, stdout);
		return RN_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[a], cmds[i].name))
			continue;
		if (a + 1 < argc && !strcmp(argv[a + 1], "--help")) {
			fputs(usage_text, stdout);
			return RN_EXIT_OK;
		}
		/* An empty --sysfs-root is a mistake, not the real /sys. */
		if (root && !root[0] && !strcmp(from, "--sysfs-root"))
			return rn_usage_error("--sysfs-root needs a directory (it was empty); leave the option out for the real /sys");
		if (root && root[0] && set_root(root, from))
			return RN_EXIT_USAGE;
		return cmds[i].fn(argc - a, argv + a);
	}
	return rn_usage_error("unknown command '%s'; commands: run collect list audit why restore compare report (see devpm --help)",
			      argv[a]);
}
