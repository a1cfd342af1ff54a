// SPDX-License-Identifier: GPL-2.0-only
/*
 * kprobe_count.c - counting a kernel function's calls (kprobe_count.h).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/kprobe_count.h"
#include "core/sysfs.h"

#define KCOUNT_MAX_CPUS 512

struct devpm_kprobe_count {
	char func[128];
	int nfd;
	int fd[];
};

static int perf_open(struct perf_event_attr *a, int cpu)
{
	return (int)syscall(SYS_perf_event_open, a, -1, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

int devpm_kprobe_count_open(const char *func, struct devpm_kprobe_count **out)
{
	struct perf_event_attr a;
	struct devpm_kprobe_count *c;
	long type, ncpu;
	int cpu, fd, err;

	*out = NULL;
	if (!func || !func[0] || strlen(func) >= sizeof(c->func))
		return devpm_fail(EINVAL, "kprobe count: bad function name");
	if (devpm_sysfs_root()[0])
		return devpm_fail(EOPNOTSUPP, "kprobe count of %s: needs the live kernel, not a sysfs root",
				  func);
	if (devpm_read_long(DEVPM_KPROBE_PMU, &type))
		return devpm_fail(ENOENT, "kprobe count of %s: no kprobe PMU (%s): needs CONFIG_KPROBE_EVENTS and CONFIG_PERF_EVENTS",
				  func, DEVPM_KPROBE_PMU);
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1 || ncpu > KCOUNT_MAX_CPUS)
		return devpm_fail(ERANGE, "kprobe count: %ld CPUs", ncpu);
	c = calloc(1, sizeof(*c) + (size_t)ncpu * sizeof(int));
	if (!c)
		return devpm_fail(ENOMEM, "kprobe count: out of memory");
	strcpy(c->func, func);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.config = 0;				/* entry, not return */
	a.config1 = (uint64_t)(uintptr_t)c->func;	/* kprobe_func */
	a.config2 = 0;				/* probe_offset */
	for (cpu = 0; cpu < ncpu; cpu++) {
		fd = perf_open(&a, cpu);
		if (fd < 0) {
			err = errno;
			/* An offline CPU has nothing to count. */
			if (err == ENODEV || (err == EINVAL && c->nfd))
				continue;
			devpm_kprobe_count_close(c);
			return devpm_fail(err, "kprobe count of %s on cpu %d: perf_event_open: %s%s",
					  func, cpu, strerror(err),
					  err == EACCES || err == EPERM ?
					  " (needs root or CAP_PERFMON)" :
					  err == ENOENT || err == EINVAL ?
					  " (no such probeable function)" : "");
		}
		c->fd[c->nfd++] = fd;
	}
	if (!c->nfd) {
		devpm_kprobe_count_close(c);
		return devpm_fail(ENODEV, "kprobe count of %s: no CPU to count on",
				  func);
	}
	*out = c;
	return 0;
}

int64_t devpm_kprobe_count_read(const struct devpm_kprobe_count *c)
{
	uint64_t v;
	int64_t sum = 0;
	int i;

	if (!c)
		return -EINVAL;
	for (i = 0; i < c->nfd; i++) {
		if (read(c->fd[i], &v, sizeof(v)) != (ssize_t)sizeof(v))
			return devpm_fail(EIO, "kprobe count of %s: short read",
					  c->func);
		sum += (int64_t)v;
	}
	return sum;
}

void devpm_kprobe_count_close(struct devpm_kprobe_count *c)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < c->nfd; i++)
		close(c->fd[i]);
	free(c);
}
