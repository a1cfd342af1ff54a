// SPDX-License-Identifier: GPL-2.0-only
/*
 * fake_sysfs.c - build/bench/fake-sysfs DIR N: a sysfs tree of N devices
 * for `devpm --sysfs-root DIR audit` to be timed on (bench/audit.sh).
 *
 * The devices form an 8-ary tree under /sys/devices/pci0000:00 (depth 5
 * at 10,000), each with the power/ files of a CONFIG_PM_ADVANCED_DEBUG
 * kernel, a subsystem link to /sys/bus/pci and, when bound, a driver
 * link.  In turn: suspended; active with control=on; active holding a
 * usage count with control=auto; runtime PM unsupported (no driver).
 * Each parent's runtime_active_kids counts its active children, as the
 * kernel's would.  DIR must not exist.  Exit 0, 2 on bad input or a
 * failed write.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FANOUT 8
#define MAX_DEVICES 1000000

static const char *top;

static void fail(const char *what, const char *path)
{
	fprintf(stderr, "fake-sysfs: cannot %s %s: %s\n", what, path,
		strerror(errno));
	exit(2);
}

static void put(const char *dir, const char *name, const char *fmt, long v)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		fail("write", path);
	fprintf(f, fmt, v);
	fputc('\n', f);
	if (fclose(f))
		fail("write", path);
}

static void md(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		fail("make", path);
}

/* ln -s TARGET DIR/NAME, TARGET relative: ups times "../", then rest. */
static void rel_link(const char *dir, const char *name, int ups,
		     const char *rest)
{
	char path[PATH_MAX], target[PATH_MAX] = "";
	int i;

	for (i = 0; i < ups; i++)
		strcat(target, "../");
	strcat(target, rest);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (symlink(target, path))
		fail("link", path);
}

/* 0 suspended, 1 active control=on, 2 active usage held, 3 unsupported. */
static int kind(long i)
{
	return i ? i % 4 : 1;
}

static void device(long i, long n, char **paths, int *depth)
{
	static const char *const status[] = { "suspended", "active", "active",
		"unsupported" };
	char *dir, pw[PATH_MAX];
	long c, kids = 0, p = (i - 1) / FANOUT;
	int k = kind(i);

	if (i == 0) {
		dir = malloc(PATH_MAX);
		snprintf(dir, PATH_MAX, "%s/sys/devices/pci0000:00", top);
		depth[0] = 1;
	} else {
		dir = malloc(PATH_MAX);
		snprintf(dir, PATH_MAX, "%s/0000:%02lx:%02lx.%ld", paths[p],
			 (i / 256) % 256, (i / 8) % 32, i % 8);
		depth[i] = depth[p] + 1;
	}
	if (!dir)
		fail("allocate", "paths");
	paths[i] = dir;
	md(dir);
	snprintf(pw, sizeof(pw), "%s/power", dir);
	md(pw);
	for (c = i * FANOUT + 1; c <= i * FANOUT + FANOUT && c < n; c++)
		kids += kind(c) == 1 || kind(c) == 2;
	put(pw, "control", k == 1 ? "on" : "auto", 0);
	put(pw, "runtime_status", status[k], 0);
	put(pw, "runtime_usage", "%ld", k == 1 || k == 2);
	put(pw, "runtime_active_kids", "%ld", kids);
	put(pw, "runtime_enabled", k == 3 ? "disabled" : "enabled", 0);
	put(pw, "autosuspend_delay_ms", "%ld", 100);
	put(pw, "async", "enabled", 0);
	put(pw, "runtime_active_time", "%ld", 1000);
	put(pw, "runtime_suspended_time", "%ld", k ? 0 : 5000);
	put(dir, "uevent", k == 3 ? "PCI_SLOT_NAME=fake" :
	    "DRIVER=fake_pm", 0);
	/* From DIR/sys/devices/<depth parts>: up to sys, then bus/pci. */
	rel_link(dir, "subsystem", depth[i] + 1, "bus/pci");
	if (k != 3)
		rel_link(dir, "driver", depth[i] + 1,
			 "bus/pci/drivers/fake_pm");
}

int main(int argc, char **argv)
{
	char path[PATH_MAX], *end, **paths;
	int *depth;
	long n, i;

	if (argc != 3) {
		fprintf(stderr, "usage: fake-sysfs DIR N (DIR must not exist; N devices, 1 to %d)\n",
			MAX_DEVICES);
		return 2;
	}
	top = argv[1];
	n = strtol(argv[2], &end, 10);
	if (*end || end == argv[2] || n < 1 || n > MAX_DEVICES) {
		fprintf(stderr, "fake-sysfs: N '%s': give a device count, 1 to %d\n",
			argv[2], MAX_DEVICES);
		return 2;
	}
	if (mkdir(top, 0755)) {
		fprintf(stderr, "fake-sysfs: cannot make %s: %s; give a directory that does not exist yet\n",
			top, strerror(errno));
		return 2;
	}
	snprintf(path, sizeof(path), "%s/sys", top);
	md(path);
	snprintf(path, sizeof(path), "%s/sys/devices", top);
	md(path);
	snprintf(path, sizeof(path), "%s/sys/bus", top);
	md(path);
	snprintf(path, sizeof(path), "%s/sys/bus/pci", top);
	md(path);
	snprintf(path, sizeof(path), "%s/sys/bus/pci/drivers", top);
	md(path);
	snprintf(path, sizeof(path), "%s/sys/bus/pci/drivers/fake_pm", top);
	md(path);
	snprintf(path, sizeof(path), "%s/proc", top);
	md(path);
	snprintf(path, sizeof(path), "%s/proc/self", top);
	md(path);
	put(path, "mountinfo", "", 0);

	paths = calloc(n, sizeof(*paths));
	depth = calloc(n, sizeof(*depth));
	if (!paths || !depth)
		fail("allocate", "paths");
	for (i = 0; i < n; i++)
		device(i, n, paths, depth);
	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(depth);
	return 0;
}
