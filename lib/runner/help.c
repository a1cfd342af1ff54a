// SPDX-License-Identifier: GPL-2.0-only
/*
 * help.c - `devpm --help` (the commands, one line each) and each
 * command's own help: `devpm help CMD`, `devpm CMD --help` or `-h`.
 * docs/devpm.1 says the same at length.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "util.h"

static const char overview[] =
"usage: devpm [--sysfs-root DIR] COMMAND [OPTIONS]\n"
"Device power-management tests for Linux: runtime PM, system suspend,\n"
"wakeup, PM QoS.  Results are KTAP, JUnit XML and JSON.\n"
"\n"
"Commands:\n"
"  run       run the test programs, write results/<run-id>\n"
"  list      every suite, program and case, its needs, which are met here\n"
"  audit     read-only: the devices with runtime PM, why each is awake\n"
"  why       the same for one device\n"
"  restore   put back the knobs a crashed or killed run left changed\n"
"  compare   regressions between two runs (or KTAP files)\n"
"  report    report.html of a run\n"
"  export    a run in another format (--kcidb: KernelCI's KCIDB v4)\n"
"  collect   rebuild a run's results from its record stream\n"
"  help      this, or 'devpm help COMMAND' for a command's options\n"
"\n"
"Global options:\n"
"  --sysfs-root DIR  read /sys, /proc and /dev under DIR (a recorded tree);\n"
"                    also DEVPM_SYSFS_ROOT; passed on to test programs\n"
"  -h, --help        this help; COMMAND --help: that command's\n"
"  --version\n"
"\n"
"Environment: DEVPM_SUITES_DIR (test programs), DEVPM_JOURNAL_DIR\n"
"(journal and lock, default /run/devpm as root, else\n"
"$XDG_RUNTIME_DIR/devpm or /tmp/devpm-<uid>), DEVPM_SYSFS_ROOT.\n"
"Exit status: 0 all pass or skip, 1 any failure, 2 usage or setup error,\n"
"4 nothing tested (every program skipped).\n"
"Examples:\n"
"  sudo devpm run --suite pci --test 'idle_*'\n"
"  devpm audit\n"
"  devpm help run\n"
"See devpm(1).\n";

static const struct {
	const char *cmd, *text;
} helps[] = {
	{ "run",
"usage: devpm run [--suite S]... [--test GLOB] [--allow-sleep] [--allow-disk]\n"
"                 [--output DIR] [--timeout S] [--stream FILE]\n"
"                 [--env KEY=VALUE]... [--env-hook PROG]\n"
"                 [--resume-budget-ms MS]\n"
"Run the test programs.  Results go to DIR/<run-id> (default results/),\n"
"DIR/latest points at them; KTAP also on stdout, a line per program on\n"
"stderr (on a terminal: which program runs, its timeout, every 10 s).\n"
"Every PM knob written is journaled and put back (devpm restore).\n"
"\n"
"  --suite S        only suite S (repeatable); 'devpm list' shows them\n"
"  --test GLOB      only cases matching GLOB: 'case', 'program/case' or\n"
"                   'suite/program/case' (fnmatch: 'idle_*')\n"
"  --allow-sleep    let tests enter system sleep (suspend-to-idle, S3)\n"
"  --allow-disk     let tests touch devices holding mounted filesystems\n"
"  --output DIR     where results go (default results/)\n"
"  --timeout S      per-program timeout in seconds, 1 to 86400 (default:\n"
"                   the program's own, else 60)\n"
"  --stream FILE    also append the run as a record stream to FILE (a\n"
"                   virtio-serial port in devpm's QEMU image)\n"
"  --env KEY=VALUE  add to env.json and the results' properties\n"
"  --env-hook PROG  the environment's hook (qemu/README): it sets devices\n"
"                   aside for programs that sleep with their own devices\n"
"  --resume-budget-ms MS  a device whose system-resume callback takes\n"
"                   longer fails (async/sleep real_device_timing)\n"
"\n"
"Exit: 0 all passed or skipped, 1 a failure, 2 a usage or setup error,\n"
"4 nothing was tested (every program skipped).\n"
"Example: sudo devpm run --suite usb --allow-sleep\n" },
	{ "collect",
"usage: devpm collect STREAM [--output DIR] [--env KEY=VALUE]... [--crash TEXT]\n"
"Rebuild a run's results from the record stream 'devpm run --stream'\n"
"wrote (the host side of a QEMU run).  A case the machine died in fails\n"
"with 'guest crashed during this case: TEXT'; the cases it left unrun\n"
"are reported not_run.\n"
"\n"
"  --output DIR     where results go (default results/)\n"
"  --env KEY=VALUE  add to env.json and the results' properties\n"
"  --crash TEXT     the console's last line when the guest died\n" },
	{ "list",
"usage: devpm list [--suite S]... [--test GLOB] [--json]\n"
"       devpm list --write-cache\n"
"Every suite, program and case with what the program needs, and for each\n"
"need whether this host meets it (met, NOT MET and why, or opt-in: a\n"
"'devpm run' option); a program whose needs are not met SKIPs.\n"
"\n"
"  --suite S        only suite S (repeatable)\n"
"  --test GLOB      only the cases matching GLOB (as run takes it)\n"
"  --json           the same as JSON: programs, needs with met, cases\n"
"  --write-cache    record every program's answers in\n"
"                   SUITES_DIR/.probe-cache (keyed by a hash of the\n"
"                   program): run and list then need not ask it\n" },
	{ "audit",
"usage: devpm audit [--all] [--json]\n"
"Read-only: the devices with runtime PM (runtime_status other than\n"
"'unsupported'), each with its bus, driver and status and, when it is not\n"
"suspended, every reason the kernel has to keep it awake (control=on,\n"
"usage count, active children, PM QoS, runtime_error, no callbacks,\n"
"autosuspend delay).  Never writes; needs no root.\n"
"\n"
"  --all            every device with a power/ directory\n"
"  --json           the same as JSON\n"
"Example: devpm audit | grep -v suspended\n" },
	{ "why",
"usage: devpm why DEVICE\n"
"One device's runtime PM: its knobs and counts and, when it is not\n"
"suspended, why.  DEVICE is a /sys/devices path or a name such as\n"
"0000:00:1f.2 or 1-1 (what /sys/bus/*/devices lists).  Read-only.\n"
"Example: devpm why /sys/devices/pci0000:00/0000:00:1f.3\n" },
	{ "restore",
"usage: devpm restore\n"
"Put back every value a crashed or killed run left changed, from the\n"
"journal (DEVPM_JOURNAL_DIR, default /run/devpm/journal as root, else\n"
"under $XDG_RUNTIME_DIR/devpm or /tmp/devpm-<uid>), and end what is left\n"
"of its test programs first.  Run it as the user that ran.\n" },
	{ "compare",
"usage: devpm compare OLD NEW\n"
"Regressions between two run directories (pass or skip in OLD, fail or\n"
"not run in NEW), or between two KTAP files of any runner (KUnit,\n"
"kselftest, results.ktap).  Exit 1 if any.\n"
"Example: devpm compare results/20250101-120000 results/latest\n" },
	{ "report",
"usage: devpm report DIR\n"
"DIR/report.html, one self-contained page: a verdict banner with the\n"
"counts, each failure with its reason, the kernel log around it and its\n"
"devices' runtime-PM timeline, the suspend cycles' timelines (the\n"
"slowest devices first), and every case with an anchor (#suite/prog/case).\n"
"Example: devpm report results/latest\n" },
	{ "export",
"usage: devpm export --kcidb DIR [--origin NAME] [-o|--output FILE]\n"
"The run in DIR as a KCIDB v4 submission (KernelCI's common database):\n"
"a checkout and build for the kernel, a test per case at\n"
"devpm.<suite>.<program>.<case>, a test per metric below it.  To stdout,\n"
"or FILE.\n"
"\n"
"  --kcidb          the format (the only one)\n"
"  --origin NAME    the submitter, lowercase letters, digits and _\n"
"                   (default devpm)\n"
"  -o, --output F   write F instead of stdout\n"
"Example: devpm export --kcidb results/latest -o kcidb.json\n" },
	{ "help",
"usage: devpm help [COMMAND]\n"
"The commands, or one command's options.\n" },
};

void rn_help_overview(void)
{
	fputs(overview, stdout);
}

int rn_help(const char *cmd)
{
	size_t i;

	for (i = 0; i < sizeof(helps) / sizeof(helps[0]); i++)
		if (!strcmp(helps[i].cmd, cmd)) {
			fputs(helps[i].text, stdout);
			return RN_EXIT_OK;
		}
	return rn_usage_error("help: no command '%s'; 'devpm help' lists them",
			      cmd);
}

bool rn_help_asked(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	}
	return false;
}
