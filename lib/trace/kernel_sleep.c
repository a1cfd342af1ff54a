// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_sleep.c - the kernel's msleep() and usleep_range_state() calls,
 * sampled by perf kprobes with their first argument (kernel_sleep.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/kernel_sleep.h"
#include "core/kprobe_count.h"
#include "core/sysfs.h"

#if defined(__x86_64__)
#include <asm/perf_regs.h>
#define ARG0_REG PERF_REG_X86_DI
#elif defined(__aarch64__)
#include <asm/perf_regs.h>
#define ARG0_REG PERF_REG_ARM64_X0
#else
#define ARG0_REG 0
#define NO_ARG0_REG
#endif

#define KSLEEP_MAX_CPUS 512
/* 32 data pages a ring: 3,000 sleeps a CPU between two reads. */
#define RING_PAGES 32

/*
 * The probes: a sleep's first argument counts unit_us µs; a work
 * function's entry (edge 1) and return (edge -1, a kretprobe) bound a
 * window (least_time_sleeps.h).  Optional ones (a module's) come last and are
 * left out, entry and return together, where the kernel lacks them.
 */
static const struct {
	const char *func;
	uint64_t unit_us;
	int edge;
	bool optional;
} probed[] = {
	{ "msleep", 1000, 0, false },		/* unsigned int msecs */
	{ "usleep_range_state", 1, 0, false },	/* unsigned long min (µs) */
	/* usbcore's hub work: port resume, debounce, enumeration */
	{ "hub_event", 0, 1, true },
	{ "hub_event", 0, -1, true },
};
#define NPROBED (sizeof(probed) / sizeof(probed[0]))
#define RETPROBE 1ULL	/* config:0 of the kprobe PMU's format/retprobe */

struct ring {
	int fd;
	size_t k;		/* in probed[] */
	const char *func;
	uint64_t unit_us;
	struct perf_event_mmap_page *page;	/* then the data pages */
	const unsigned char *data;
	size_t size;				/* of the data */
};

/*
 * The kernel does not copy a perf buffer's mapping into a child
 * (perf_mmap(): VM_DONTCOPY), and the harness forks each case: a process
 * other than mapped_by maps the buffers again (the same buffers: the
 * opener's mapping keeps them) before it reads.
 */
struct devpm_kernel_sleep_probe {
	pid_t mapped_by;
	size_t nring;
	size_t page_size;
	struct ring ring[];
};

static int perf_open(struct perf_event_attr *a, int cpu)
{
	return (int)syscall(SYS_perf_event_open, a, -1, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

int devpm_kernel_sleep_parse_record(const void *rec, size_t len, uint64_t unit_us,
			      struct devpm_kernel_sleep *out, uint64_t *lost)
{
	const unsigned char *p = rec;
	struct perf_event_header h;
	uint64_t t, abi, arg, lo;
	uint32_t pid;

	if (len < sizeof(h))
		return -EINVAL;
	memcpy(&h, p, sizeof(h));
	if (h.size != len)
		return -EINVAL;
	if (h.type == PERF_RECORD_LOST) {
		if (len < sizeof(h) + 16)
			return -EINVAL;
		memcpy(&lo, p + sizeof(h) + 8, sizeof(lo));
		*lost += lo;
		return 0;
	}
	if (h.type != PERF_RECORD_SAMPLE)
		return 0;
	/*
	 * TID (pid, tid), TIME, REGS_INTR (abi, then the one register).  The
	 * task is the thread: a trace line's pid is its tid, and a program
	 * that resumes its devices from threads sleeps in them.
	 */
	if (len < sizeof(h) + 24)
		return -EINVAL;
	memcpy(&pid, p + sizeof(h) + 4, sizeof(pid));
	memcpy(&t, p + sizeof(h) + 8, sizeof(t));
	memcpy(&abi, p + sizeof(h) + 16, sizeof(abi));
	if (!abi)
		return 0;	/* no registers: no length known */
	if (len < sizeof(h) + 32)
		return -EINVAL;
	memcpy(&arg, p + sizeof(h) + 24, sizeof(arg));
	/* A length beyond a day is no delay (and would overflow). */
	if (unit_us && arg > 86400ULL * 1000000 / unit_us)
		return -EINVAL;
	out->pid = (int)pid;
	out->at_us = t / 1000;
	out->len_us = arg * unit_us;
	out->edge = 0;
	return 1;
}

static void ring_drop(const struct devpm_kernel_sleep_probe *p, struct ring *r)
{
	if (r->page && p->mapped_by == getpid())
		munmap(r->page, r->size + p->page_size);
	close(r->fd);
}

void devpm_kernel_sleep_close(struct devpm_kernel_sleep_probe *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nring; i++)
		ring_drop(p, &p->ring[i]);
	free(p);
}

static int ring_map(const struct devpm_kernel_sleep_probe *p, struct ring *r)
{
	void *m = mmap(NULL, r->size + p->page_size, PROT_READ | PROT_WRITE,
		       MAP_SHARED, r->fd, 0);

	if (m == MAP_FAILED)
		return devpm_fail(errno, "kernel sleeps: mmap of the %s probe's buffer: %s",
				  r->func, strerror(errno));
	r->page = m;
	r->data = (const unsigned char *)m + p->page_size;
	return 0;
}

/* -errno of perf_event_open, or 1 when the mmap failed (said). */
static int ring_open(struct devpm_kernel_sleep_probe *p, long type, size_t k,
		     int cpu)
{
	struct ring *r = &p->ring[p->nring];
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (uint32_t)type;
	a.config = probed[k].edge < 0 ? RETPROBE : 0;
	a.config1 = (uint64_t)(uintptr_t)probed[k].func;	/* kprobe_func */
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_REGS_INTR;
	a.sample_regs_intr = 1ULL << ARG0_REG;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	r->fd = perf_open(&a, cpu);
	if (r->fd < 0)
		return -errno;
	r->k = k;
	r->unit_us = probed[k].unit_us;
	r->func = probed[k].func;
	r->size = RING_PAGES * p->page_size;
	if (ring_map(p, r)) {
		close(r->fd);
		return 1;
	}
	p->nring++;
	return 0;
}

int devpm_kernel_sleep_open(struct devpm_kernel_sleep_probe **out)
{
	struct devpm_kernel_sleep_probe *p;
	long ncpu, psz, type;
	size_t k, optional_from = 0;	/* 1 + its first ring; 0 none */
	int cpu, r;

	*out = NULL;
#ifdef NO_ARG0_REG
	return devpm_fail(EOPNOTSUPP, "kernel sleeps: no argument register known for this architecture");
#endif
	if (devpm_sysfs_root()[0])
		return devpm_fail(EOPNOTSUPP, "kernel sleeps: need the live kernel, not a sysfs root");
	if (devpm_read_long(DEVPM_KPROBE_PMU, &type))
		return devpm_fail(ENOENT, "kernel sleeps: no kprobe PMU (%s): needs CONFIG_KPROBE_EVENTS and CONFIG_PERF_EVENTS",
				  DEVPM_KPROBE_PMU);
	ncpu = sysconf(_SC_NPROCESSORS_CONF);
	psz = sysconf(_SC_PAGESIZE);
	if (ncpu < 1 || ncpu > KSLEEP_MAX_CPUS || psz <= 0)
		return devpm_fail(ERANGE, "kernel sleeps: %ld CPUs", ncpu);
	p = calloc(1, sizeof(*p) + NPROBED * (size_t)ncpu * sizeof(p->ring[0]));
	if (!p)
		return devpm_fail(ENOMEM, "kernel sleeps: out of memory");
	p->page_size = (size_t)psz;
	p->mapped_by = getpid();
	for (k = 0; k < NPROBED; k++) {
		if (probed[k].optional && !optional_from)
			optional_from = p->nring + 1;
		for (cpu = 0; cpu < ncpu; cpu++) {
			r = ring_open(p, type, k, cpu);
			/* An offline CPU sleeps nothing. */
			if (r == -ENODEV)
				continue;
			if (r && optional_from) {
				/* None of the optional ones, then. */
				while (p->nring >= optional_from)
					ring_drop(p, &p->ring[--p->nring]);
				*out = p;
				return 0;
			}
			if (r == -EINVAL && p->nring)
				continue;
			if (r) {
				devpm_kernel_sleep_close(p);
				if (r > 0)
					return -ENOMEM;	/* mmap: said */
				return devpm_fail(-r, "kernel sleeps: probe of %s on cpu %d: perf_event_open: %s%s",
						  probed[k].func, cpu,
						  strerror(-r),
						  r == -EACCES || r == -EPERM ?
						  " (needs root or CAP_PERFMON)" : "");
			}
		}
	}
	*out = p;
	return 0;
}

/* Copy len bytes at offset off of the ring's data, which wraps. */
static void ring_copy(const struct ring *r, uint64_t off, void *dst,
		      size_t len)
{
	size_t at = off % r->size, first = r->size - at;

	if (first > len)
		first = len;
	memcpy(dst, r->data + at, first);
	memcpy((unsigned char *)dst + first, r->data, len - first);
}

static int push(struct devpm_kernel_sleep **v, size_t *n, size_t *cap,
		const struct devpm_kernel_sleep *s)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct devpm_kernel_sleep *nv = realloc(*v, c * sizeof(**v));

		if (!nv)
			return devpm_fail(ENOMEM, "kernel sleeps: out of memory");
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = *s;
	return 0;
}

static int ring_read(struct ring *r, struct devpm_kernel_sleep **v, size_t *n,
		     size_t *cap, uint64_t *lost)
{
	uint64_t head, tail;
	unsigned char rec[256];
	struct perf_event_header h;
	struct devpm_kernel_sleep s;
	int got = 0, ret = 0;

	head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	tail = r->page->data_tail;
	while (tail + sizeof(h) <= head) {
		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;	/* torn: drop the rest */
		if (h.size <= sizeof(rec)) {
			ring_copy(r, tail, rec, h.size);
			if (devpm_kernel_sleep_parse_record(rec, h.size, r->unit_us,
						      &s, lost) == 1) {
				s.edge = probed[r->k].edge;
				ret = push(v, n, cap, &s);
				if (ret < 0)
					break;
				got++;
			}
		}
		tail += h.size;
	}
	__atomic_store_n(&r->page->data_tail, head, __ATOMIC_RELEASE);
	return ret < 0 ? ret : got;
}

static int by_time(const void *a, const void *b)
{
	const struct devpm_kernel_sleep *x = a, *y = b;

	return x->at_us < y->at_us ? -1 : x->at_us > y->at_us;
}

int devpm_kernel_sleep_read(struct devpm_kernel_sleep_probe *p, struct devpm_kernel_sleep **v,
		      size_t *n, size_t *cap, uint64_t *lost)
{
	size_t i, first = *n;
	int r;

	if (!p)
		return devpm_fail(EINVAL, "kernel sleeps: not sampling");
	if (p->mapped_by != getpid()) {
		for (i = 0; i < p->nring; i++) {
			r = ring_map(p, &p->ring[i]);
			if (r < 0)
				return r;
		}
		p->mapped_by = getpid();
	}
	for (i = 0; i < p->nring; i++) {
		r = ring_read(&p->ring[i], v, n, cap, lost);
		if (r < 0)
			return r;
	}
	qsort(*v + first, *n - first, sizeof(**v), by_time);
	return (int)(*n - first);
}

/* --- the runner's probes, shared with its programs --------------------- */

int devpm_kernel_sleep_share(struct devpm_kernel_sleep_probe *p)
{
	char v[4096];
	size_t i, off;
	int n;

	if (!p)
		return devpm_fail(EINVAL, "kernel sleeps: not sampling");
	off = (size_t)snprintf(v, sizeof(v), "%d", (int)getpid());
	for (i = 0; i < p->nring; i++) {
		n = snprintf(v + off, sizeof(v) - off, " %d:%zu",
			     p->ring[i].fd, p->ring[i].k);
		if (n < 0 || (size_t)n >= sizeof(v) - off)
			return devpm_fail(E2BIG, "kernel sleeps: %zu probes",
					  p->nring);
		off += (size_t)n;
	}
	/* The programs inherit them; nothing else the runner starts reads. */
	for (i = 0; i < p->nring; i++)
		if (fcntl(p->ring[i].fd, F_SETFD, 0))
			return devpm_fail(errno, "kernel sleeps: %s",
					  strerror(errno));
	return setenv(DEVPM_KERNEL_SLEEP_ENV, v, 1) ? -errno : 0;
}

/* fd is a perf event the runner opened (and we inherited). */
static bool perf_fd(int fd)
{
	char link[64], target[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return !strcmp(target, "anon_inode:[perf_event]");
}

int devpm_kernel_sleep_attach(struct devpm_kernel_sleep_probe **out)
{
	const char *v = getenv(DEVPM_KERNEL_SLEEP_ENV);
	struct devpm_kernel_sleep_probe *p;
	struct ring *r;
	int pid, fd, used;
	size_t k;
	long psz = sysconf(_SC_PAGESIZE);

	*out = NULL;
	if (!v || sscanf(v, "%d%n", &pid, &used) != 1 || pid != getppid())
		return devpm_fail(ENOENT, "kernel sleeps: no probes of devpm run to attach to");
	p = calloc(1, sizeof(*p) +
		   NPROBED * KSLEEP_MAX_CPUS * sizeof(p->ring[0]));
	if (!p || psz <= 0) {
		free(p);
		return devpm_fail(ENOMEM, "kernel sleeps: out of memory");
	}
	p->page_size = (size_t)psz;
	p->mapped_by = getpid();
	v += used;
	while (sscanf(v, " %d:%zu%n", &fd, &k, &used) == 2) {
		v += used;
		r = &p->ring[p->nring];
		if (p->nring == NPROBED * KSLEEP_MAX_CPUS || k >= NPROBED ||
		    fd < 0 || !perf_fd(fd)) {
			devpm_kernel_sleep_close(p);
			return devpm_fail(EINVAL, "kernel sleeps: %s names no probe of devpm run",
					  DEVPM_KERNEL_SLEEP_ENV);
		}
		r->fd = fd;
		r->k = k;
		r->unit_us = probed[k].unit_us;
		r->func = probed[k].func;
		r->size = RING_PAGES * p->page_size;
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		if (ring_map(p, r)) {
			devpm_kernel_sleep_close(p);
			return -ENOMEM;
		}
		p->nring++;
		/* What the runner and the last program left is not ours. */
		__atomic_store_n(&r->page->data_tail,
				 __atomic_load_n(&r->page->data_head,
						 __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
	}
	if (!p->nring || *v) {
		devpm_kernel_sleep_close(p);
		return devpm_fail(EINVAL, "kernel sleeps: %s names no probe of devpm run",
				  DEVPM_KERNEL_SLEEP_ENV);
	}
	*out = p;
	return 0;
}
