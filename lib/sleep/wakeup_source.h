/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wakeup_source.h - the kernel's wakeup sources, /sys/class/wakeup/wakeupN
 * (drivers/base/power/wakeup_stats.c): who reported wakeup events and who
 * holds the system awake.
 *
 * A device's power/wakeup_count only counts while /sys/power/wakeup_count
 * is armed; event_count and active_count here count always.
 */
#ifndef DEVPM_WAKEUP_SOURCE_H
#define DEVPM_WAKEUP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

struct devpm_wakeup_source {
	char id[16];			/* "wakeup3" */
	char name[64];			/* "devpm_mock.0", "alarmtimer.0.auto" */
	unsigned long active_count, event_count, wakeup_count, expire_count;
	long long active_time_ms;	/* > 0 while it is active */
	long long prevent_suspend_time_ms;	/* autosleep's only */
	char dev[128];			/* its device ("": a virtual one) */
	char driver[64];		/* the device's driver ("" none) */
};

/*
 * A source held: active for longer than this with no event reported
 * since the run's baseline.  The suites wait DEVPM_WAKE_COUNT_MS (5 s)
 * for a wakeup_count read, for the kernel's own holds: an alarm due in
 * under 2 s holds alarmtimer's source 2 s (kernel/time/alarmtimer.c:
 * alarmtimer_suspend()), a driver's pm_wakeup_event(dev, ms) the ms it
 * asks for.  A hold past the same bound, without a new event to explain
 * it, is a pm_stay_awake() that was never relaxed (drivers/base/power/
 * wakeup.c: only __pm_relax() deactivates a source).
 */
#define DEVPM_WAKE_HELD_MS	5000

/*
 * Every source, sorted by id.  *ws is malloc'd (free it); 0 or -errno
 * (-ENOENT: no /sys/class/wakeup, CONFIG_PM_SLEEP off).
 */
int devpm_wakeup_sources_read(struct devpm_wakeup_source **ws, size_t *n);
/* The same, only the sources active now (the others cost one read each). */
int devpm_wakeup_sources_read_active(struct devpm_wakeup_source **ws,
				     size_t *n);
/* The first source of that name, or NULL. */
const struct devpm_wakeup_source *
devpm_wakeup_source_find(const struct devpm_wakeup_source *ws, size_t n,
			 const char *name);
/*
 * The sources whose event_count grew from a to b, as "name(+N) ...", or
 * "" when none; sources new in b count from 0.  0 or -ENAMETOOLONG.
 */
int devpm_wakeup_sources_diff(const struct devpm_wakeup_source *a,
			      size_t na,
			      const struct devpm_wakeup_source *b, size_t nb,
			      char *buf, size_t len);
/*
 * The sources active now, "name (device, driver) active N ms ...", ""
 * when none.
 */
int devpm_wakeup_sources_active(const struct devpm_wakeup_source *ws,
				size_t n, char *buf, size_t len);

/*
 * The first source of a device held (DEVPM_WAKE_HELD_MS above) in ws,
 * against base (a snapshot taken before, e.g. the run's baseline: its
 * event_count unchanged since; NULL: active time alone), or NULL.
 * Sources without a device (EPOLLWAKEUP's, user space's) are not judged.
 */
const struct devpm_wakeup_source *
devpm_wakeup_source_held(const struct devpm_wakeup_source *ws, size_t n,
			 const struct devpm_wakeup_source *base, size_t nbase);
/* "wakeup source X of D (drv) active N ms with no event since ..." */
void devpm_wakeup_source_held_words(const struct devpm_wakeup_source *w,
				    char *buf, size_t len);

/*
 * The run's snapshot of the sources at its baseline: the runner writes
 * <dir>/wakeup_sources.tsv when it takes the baseline; programs read it
 * beside DEVPM_BASELINE (a program run by hand: its first read).  0 or
 * -errno.  devpm_wakeup_baseline(): NULL when none (n set to 0).
 */
#define DEVPM_WAKEUP_BASELINE_FILE	"wakeup_sources.tsv"
int devpm_wakeup_baseline_write(const char *dir);
const struct devpm_wakeup_source *devpm_wakeup_baseline(size_t *n);

/*
 * A held source, judged: outside the judging case (sleep_verdict.h) the
 * case is blamed and the source recorded in the run; in it, recorded
 * only (its own line fails).  1 with why (and its device in dev, unless
 * NULL) when one is held, else 0.
 */
int devpm_wakeup_held_check(char *dev, size_t dlen, char *why, size_t len);
/*
 * devpm_wakeup_held_check() after waiting, bounded by DEVPM_WAKE_HELD_MS,
 * for the device sources active now to be relaxed or held: a source a
 * driver took shortly before cannot be judged at once.  The judging case
 * calls it before its cycles.
 */
int devpm_wakeup_held_check_wait(char *dev, size_t dlen, char *why,
				 size_t len);
/* Has this case, or the run before it, found a source held? */
bool devpm_wakeup_held_known(void);
/* The same on a snapshot already read; dev may be NULL. */
int devpm_wakeup_held_judge(const struct devpm_wakeup_source *ws, size_t n,
			    char *dev, size_t dlen, char *why, size_t len);

#endif
