/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fake_tree.h - sysfs trees for the device-model tests (on top of unit.h):
 * whole devices with a power/ directory, and the recorded trees under
 * fixtures/.
 *
 * Paths given to tree_put()/tree_link() are kernel paths ("/sys/...");
 * the tree's root directory is prepended.  Helpers abort the test program
 * on failure: a test must not run against a half-built tree.
 */
#ifndef DEVPM_TEST_FAKE_TREE_H
#define DEVPM_TEST_FAKE_TREE_H

#include <libgen.h>
#include <limits.h>

#include "devpm.h"
#include "unit.h"

static inline void tree_check(int r, const char *what, const char *path)
{
	if (!r)
		return;
	fprintf(stderr, "fake_tree: %s %s: %s\n", what, path, strerror(-r));
	abort();
}

/* A new empty tree under $TMPDIR; the caller frees it with tree_rm(). */
static inline char *tree_new(void)
{
	char *dir = malloc(UNIT_PATH_MAX);

	if (!dir)
		abort();
	tree_check(unit_mkdtemp(dir, UNIT_PATH_MAX), "mkdtemp", "$TMPDIR");
	return dir;
}

static inline void tree_rm(char *root)
{
	unit_rm_rf(root);
	free(root);
}

/* Write val plus a newline to <root><kpath>, making directories. */
static inline void tree_put(const char *root, const char *kpath,
			    const char *val)
{
	char v[UNIT_PATH_MAX];

	snprintf(v, sizeof(v), "%s\n", val);
	tree_check(unit_put(root, kpath + 1, v), "write", kpath);
}

/* Make <root><kpath> a symlink to target, replacing what was there. */
static inline void tree_link(const char *root, const char *kpath,
			     const char *target)
{
	char p[UNIT_PATH_MAX];

	snprintf(p, sizeof(p), "%s%s", root, kpath);
	unlink(p);
	tree_check(unit_link(root, kpath + 1, target), "symlink", kpath);
}

static inline void tree_dir(const char *root, const char *kpath)
{
	tree_check(unit_mkdir(root, kpath + 1), "mkdir", kpath);
}

/* Value of <root><kpath>, newline stripped; "(missing)" if unreadable. */
static inline const char *tree_val(const char *root, const char *kpath)
{
	static char buf[256];

	if (unit_get(root, kpath + 1, buf, sizeof(buf)))
		return "(missing)";
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/*
 * Make root the sysfs root with nothing mounted, and the journal live in
 * <root>/journal (its path to dir); no DEVPM_JOURNAL or --allow-disk from
 * the environment.  0 or the error of devpm_set_sysfs_root().
 */
static inline int tree_use(const char *root, char *dir, size_t len)
{
	int r;

	tree_put(root, "/proc/self/mountinfo", "");
	snprintf(dir, len, "%s/journal", root);
	r = devpm_set_sysfs_root(root);
	if (r)
		return r;
	setenv("DEVPM_JOURNAL_DIR", dir, 1);
	unsetenv("DEVPM_JOURNAL");
	unsetenv("DEVPM_ALLOW_DISK");
	devpm_safety_reset();
	return 0;
}

/* Undo tree_use() and remove the tree. */
static inline void tree_unuse(char *root)
{
	devpm_journal_close();
	devpm_set_sysfs_root(NULL);
	tree_rm(root);
}

/*
 * A device with a full power/ directory as a CONFIG_PM_ADVANCED_DEBUG
 * kernel shows it.  kpath is the device; bus and driver may be NULL.
 */
static inline void tree_device(const char *root, const char *kpath,
			       const char *bus, const char *driver,
			       const char *control, const char *status,
			       int usage, int kids)
{
	char p[PATH_MAX], t[PATH_MAX];
	const char *s;
	int depth = 0;

	for (s = kpath + 1; *s; s++)
		depth += *s == '/';
	snprintf(p, sizeof(p), "%s/uevent", kpath);
	tree_put(root, p, "");
#define PUT(attr, val) do { \
	snprintf(p, sizeof(p), "%s/power/" attr, kpath); \
	tree_put(root, p, val); \
} while (0)
	if (control)
		PUT("control", control);
	PUT("runtime_status", status);
	snprintf(t, sizeof(t), "%d", usage);
	PUT("runtime_usage", t);
	snprintf(t, sizeof(t), "%d", kids);
	PUT("runtime_active_kids", t);
	PUT("runtime_enabled",
	    !strcmp(status, "unsupported") ? "disabled" :
	    control && !strcmp(control, "on") ? "forbidden" : "enabled");
	PUT("async", "enabled");
	PUT("runtime_active_time", "1000");
	PUT("runtime_suspended_time", "0");
#undef PUT
	/* Relative links, as sysfs makes them: depth "../" reach /sys. */
	if (bus) {
		t[0] = '\0';
		for (int i = 0; i < depth; i++)
			strcat(t, "../");
		snprintf(p, sizeof(p), "%s/subsystem", kpath);
		snprintf(t + strlen(t), sizeof(t) - strlen(t), "bus/%s", bus);
		tree_link(root, p, t);
		snprintf(p, sizeof(p), "/sys/bus/%s/devices/%s", bus,
			 strrchr(kpath, '/') + 1);
		snprintf(t, sizeof(t), "../../..%s", kpath + strlen("/sys"));
		tree_link(root, p, t);
	}
	if (driver) {
		t[0] = '\0';
		for (int i = 0; i < depth; i++)
			strcat(t, "../");
		snprintf(p, sizeof(p), "%s/driver", kpath);
		snprintf(t + strlen(t), sizeof(t) - strlen(t),
			 "bus/%s/drivers/%s", bus ? bus : "none", driver);
		tree_link(root, p, t);
		snprintf(p, sizeof(p), "/sys/bus/%s/drivers/%s",
			 bus ? bus : "none", driver);
		tree_dir(root, p);
	}
}

/*
 * The fixtures/ directory: $DEVPM_FIXTURES, ./fixtures, or the one beside
 * the build directory this program was built in (build/tests/<prog>).
 */
static inline const char *fixtures_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX];
	const char *env = getenv("DEVPM_FIXTURES");
	struct stat st;
	ssize_t n;

	if (env && env[0])
		return env;
	if (!stat("fixtures/sysfs", &st))
		return "fixtures";
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		snprintf(dir, sizeof(dir), "%s/../../fixtures",
			 dirname(exe));
		if (!stat(dir, &st))
			return dir;
	}
	return "fixtures";
}

#endif
