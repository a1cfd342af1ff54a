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
};

/*
 * Every source, sorted by id.  *ws is malloc'd (free it); 0 or -errno
 * (-ENOENT: no /sys/class/wakeup, CONFIG_PM_SLEEP off).
 */
int devpm_wakeup_sources_read(struct devpm_wakeup_source **ws, size_t *n);
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
/* The sources active now ("name ..."), "" when none. */
int devpm_wakeup_sources_active(const struct devpm_wakeup_source *ws,
				size_t n, char *buf, size_t len);

#endif
