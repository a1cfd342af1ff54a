// SPDX-License-Identifier: GPL-2.0-only
/*
 * mock.c - devpm_mock.ko's mock platform devices over sysfs (mock.h,
 * docs/fixtures.md).  Every device and link made here is journaled
 * (delete_device / link_del "... missing_ok", so an explicit delete
 * before the restore is no error) and so is the module load.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mock/mock.h"
#include "core/sysfs.h"
#include "rpm/device.h"
#include "state/journal.h"
#include "state/module_load.h"

static const char * const cb_names[DEVPM_MOCK_NR_CB] = {
	"prepare", "suspend", "suspend_late", "suspend_noirq",
	"resume_noirq", "resume_early", "resume", "complete",
	"runtime_suspend", "runtime_resume",
};

static const char * const wake_names[] = { "soft", "hard", "stay", "relax" };

const char *devpm_mock_cb_name(enum devpm_mock_cb cb)
{
	if ((unsigned int)cb >= DEVPM_MOCK_NR_CB)
		return NULL;
	return cb_names[cb];
}

static int check_id(int id)
{
	if (id < 0 || id >= DEVPM_MOCK_MAX)
		return devpm_fail(EINVAL, "mock id %d out of range 0..%d",
				  id, DEVPM_MOCK_MAX - 1);
	return 0;
}

static int ctl_write(const char *file, const char *val)
{
	char k[DEVPM_PATH_MAX];
	int r;

	r = devpm_fmt(k, sizeof(k), DEVPM_MOCK_CTL "/%s", file);
	if (r)
		return r;
	r = devpm_write_str(k, val);
	if (r)
		return devpm_fail(-r, "devpm_mock %s '%s': %s (details in dmesg)",
				  file, val, strerror(-r));
	return 0;
}

int devpm_mock_load(bool cpuidle, char *why, size_t len)
{
	int r;

	if (why && len)
		why[0] = '\0';
	r = devpm_module_insert("devpm_mock", cpuidle ? "cpuidle=1" : NULL);
	if (r == -ENOENT) {
		if (why && len)
			snprintf(why, len, "no devpm_mock module (make fixtures KDIR=...): %s",
				 devpm_error());
		return 1;
	}
	if (r)
		return r;
	if (!devpm_exists(DEVPM_MOCK_CTL))
		return devpm_fail(ENODEV, "devpm_mock is loaded but %s is missing",
				  DEVPM_MOCK_CTL);
	return 0;
}

int devpm_mock_create(int id, const struct devpm_mock_opts *opts)
{
	struct devpm_mock_opts o = {
		.parent = DEVPM_MOCK_NO_PARENT, .async = 1,
	};
	char val[160], del[DEVPM_PATH_MAX], num[16];
	size_t n;
	int r;

	r = check_id(id);
	if (r)
		return r;
	if (opts)
		o = *opts;
	/* A zeroed struct for id 0 has parent 0: itself, so none. */
	if (o.parent == id)
		o.parent = DEVPM_MOCK_NO_PARENT;
	if (o.parent != DEVPM_MOCK_NO_PARENT && check_id(o.parent))
		return devpm_fail(EINVAL, "mock %d: parent %d out of range 0..%d (or DEVPM_MOCK_NO_PARENT)",
				  id, o.parent, DEVPM_MOCK_MAX - 1);
	if (o.async < 0 || o.async > 1)
		return devpm_fail(EINVAL, "mock %d: async=%d, want 0 or 1",
				  id, o.async);
	if (o.autosuspend_ms < 0 || o.probe_ref_ms < -1)
		return devpm_fail(EINVAL, "mock %d: autosuspend_ms=%d probe_ref_ms=%d: want >= 0 and >= -1",
				  id, o.autosuspend_ms, o.probe_ref_ms);
	n = snprintf(val, sizeof(val), "%d async=%d wakeup=%d", id, o.async,
		     !o.no_wakeup);
	if (o.parent != DEVPM_MOCK_NO_PARENT)
		n += snprintf(val + n, sizeof(val) - n, " parent=%d", o.parent);
	if (o.autosuspend_ms)
		n += snprintf(val + n, sizeof(val) - n, " autosuspend_ms=%d",
			      o.autosuspend_ms);
	if (o.probe_ref_ms == -1)
		snprintf(val + n, sizeof(val) - n, " probe_ref=keep");
	else if (o.probe_ref_ms > 0)
		snprintf(val + n, sizeof(val) - n, " probe_ref=late:%d",
			 o.probe_ref_ms);
	r = ctl_write("new_device", val);
	if (r)
		return r;
	/* Journal at once: from here on a kill must not leave the device. */
	snprintf(num, sizeof(num), "%d missing_ok", id);
	snprintf(del, sizeof(del), DEVPM_MOCK_CTL "/delete_device");
	return devpm_journal_undo_write(del, num);
}

/* Write a mock device's ID to one of the control device's attributes. */
static int ctl_write_id(const char *attr, int id)
{
	char num[16];
	int r;

	r = check_id(id);
	if (r)
		return r;
	snprintf(num, sizeof(num), "%d", id);
	return ctl_write(attr, num);
}

int devpm_mock_delete(int id)
{
	return ctl_write_id("delete_device", id);
}

/* Not journaled: an action, nothing to put back (mock.h). */
int devpm_mock_reprobe(int id)
{
	return ctl_write_id("reprobe", id);
}

const char *devpm_mock_name(int id)
{
	static char names[DEVPM_MOCK_MAX][32];

	if (id < 0 || id >= DEVPM_MOCK_MAX)
		return "devpm_mock.?";
	if (!names[id][0])
		snprintf(names[id], sizeof(names[id]), "devpm_mock.%d", id);
	return names[id];
}

int devpm_mock_path(int id, char *buf, size_t len)
{
	char link[DEVPM_PATH_MAX];
	int r;

	r = check_id(id);
	if (r)
		return r;
	snprintf(link, sizeof(link), "/sys/bus/platform/devices/devpm_mock.%d",
		 id);
	if (!devpm_exists(link))
		return devpm_fail(ENOENT, "no mock device devpm_mock.%d", id);
	return devpm_resolve(link, buf, len);
}

int devpm_mock_dev(int id, struct devpm_dev *d)
{
	char p[DEVPM_PATH_MAX];
	int r;

	r = devpm_mock_path(id, p, sizeof(p));
	if (r)
		return r;
	return devpm_dev_open(d, p);
}

int devpm_mock_link_add(int consumer, int supplier, bool pm_runtime)
{
	char val[64], del[DEVPM_PATH_MAX];
	int r;

	r = check_id(consumer);
	if (!r)
		r = check_id(supplier);
	if (r)
		return r;
	snprintf(val, sizeof(val), "%d %d%s", consumer, supplier,
		 pm_runtime ? " pm_runtime" : "");
	r = ctl_write("link_add", val);
	if (r)
		return r;
	snprintf(val, sizeof(val), "%d %d missing_ok", consumer, supplier);
	snprintf(del, sizeof(del), DEVPM_MOCK_CTL "/link_del");
	return devpm_journal_undo_write(del, val);
}

int devpm_mock_link_del(int consumer, int supplier)
{
	char val[32];
	int r;

	r = check_id(consumer);
	if (!r)
		r = check_id(supplier);
	if (r)
		return r;
	snprintf(val, sizeof(val), "%d %d", consumer, supplier);
	return ctl_write("link_del", val);
}

static int attr_path(int id, const char *attr, char *buf, size_t len)
{
	char dev[DEVPM_PATH_MAX];
	int r;

	if (!attr || !*attr || strchr(attr, '/') || strstr(attr, ".."))
		return devpm_fail(EINVAL, "bad mock attribute name '%s'",
				  attr ? attr : "(null)");
	r = devpm_mock_path(id, dev, sizeof(dev));
	if (r)
		return r;
	return devpm_fmt(buf, len, "%s/mock/%s", dev, attr);
}

/*
 * The mock/ files are the fixture's own test knobs, not PM state of a
 * real device: the device is deleted on restore, so they are written
 * raw, not journaled.
 */
int devpm_mock_set(int id, const char *attr, const char *val)
{
	char k[DEVPM_PATH_MAX];
	int r;

	r = attr_path(id, attr, k, sizeof(k));
	if (r)
		return r;
	r = devpm_write_str(k, val);
	if (r)
		return devpm_fail(-r, "devpm_mock.%d mock/%s '%s' refused: %s (details in dmesg)",
				  id, attr, val, strerror(-r));
	return 0;
}

int devpm_mock_get(int id, const char *attr, char *buf, size_t len)
{
	char k[DEVPM_PATH_MAX];
	int r;

	r = attr_path(id, attr, k, sizeof(k));
	if (r)
		return r;
	return devpm_read_str(k, buf, len);
}

int devpm_mock_set_cb(int id, enum devpm_mock_cb cb, long delay_us,
		      int error)
{
	char attr[48], val[24];
	int r;

	if (!devpm_mock_cb_name(cb))
		return devpm_fail(EINVAL, "unknown mock callback %d", cb);
	if (delay_us < 0 || delay_us > 10000000)
		return devpm_fail(EINVAL, "mock %s delay %ld us out of range 0..10000000",
				  cb_names[cb], delay_us);
	if (error > 0 || error < -4095)
		return devpm_fail(EINVAL, "mock %s error %d: want 0 or a negative errno",
				  cb_names[cb], error);
	snprintf(attr, sizeof(attr), "%s_delay_us", cb_names[cb]);
	snprintf(val, sizeof(val), "%ld", delay_us);
	r = devpm_mock_set(id, attr, val);
	if (r)
		return r;
	snprintf(attr, sizeof(attr), "%s_error", cb_names[cb]);
	snprintf(val, sizeof(val), "%d", error);
	return devpm_mock_set(id, attr, val);
}

long devpm_mock_count(int id, enum devpm_mock_cb cb)
{
	char attr[48], k[DEVPM_PATH_MAX];
	long v;
	int r;

	if (!devpm_mock_cb_name(cb))
		return devpm_fail(EINVAL, "unknown mock callback %d", cb);
	snprintf(attr, sizeof(attr), "%s_count", cb_names[cb]);
	r = attr_path(id, attr, k, sizeof(k));
	if (!r)
		r = devpm_read_long(k, &v);
	return r ? r : v;
}

int devpm_mock_reset_counts(int id)
{
	return devpm_mock_set(id, "reset_counts", "1");
}

int devpm_mock_bug(int id, const char *bug)
{
	if (!bug || !*bug)
		return devpm_fail(EINVAL, "empty mock bug name");
	return devpm_mock_set(id, "bug", bug);
}

int devpm_mock_wakeup_fire(int id, enum devpm_mock_wake kind)
{
	if ((unsigned int)kind > DEVPM_MOCK_RELAX)
		return devpm_fail(EINVAL, "unknown wakeup kind %d", kind);
	return devpm_mock_set(id, "wakeup_fire", wake_names[kind]);
}

int devpm_mock_wakeup_arm(int id, const char *point, long offset_us,
			  enum devpm_mock_wake kind)
{
	char val[64];

	if (kind != DEVPM_MOCK_SOFT && kind != DEVPM_MOCK_HARD)
		return devpm_fail(EINVAL, "wakeup_arm: only soft or hard events can be armed");
	if (!point || offset_us < 0 || offset_us > 10000000)
		return devpm_fail(EINVAL, "wakeup_arm: want a point and an offset 0..10000000 us");
	if (devpm_fmt(val, sizeof(val), "%s %ld %s", point, offset_us,
		      wake_names[kind]))
		return -ENAMETOOLONG;
	return devpm_mock_set(id, "wakeup_arm", val);
}

int devpm_mock_wakeup_disarm(int id)
{
	return devpm_mock_set(id, "wakeup_arm", "off");
}

int devpm_mock_events_open(int id)
{
	char k[64], real[DEVPM_PATH_MAX];
	int fd, r;

	r = check_id(id);
	if (r)
		return r;
	snprintf(k, sizeof(k), "/dev/devpm_mock.%d", id);
	r = devpm_real_path(real, sizeof(real), k);
	if (r)
		return r;
	fd = open(real, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return devpm_fail(errno, "%s: %s", k, strerror(errno));
	return fd;
}

/*
 * "SEQ KIND POINT T_NS MONO_NS" (or without MONO_NS, from an older
 * module): 0, or -EINVAL naming the line.
 */
static int parse_event(const char *line, struct devpm_mock_event *e)
{
	char end;
	int n;

	memset(e, 0, sizeof(*e));
	n = sscanf(line, "%" SCNu64 " %7s %15s %" SCNu64 " %" SCNu64 " %c",
		   &e->seq, e->kind, e->point, &e->t_ns, &e->mono_ns, &end);
	if (n != 4 && n != 5)
		return devpm_fail(EINVAL, "devpm_mock event record '%s' is not \"SEQ KIND POINT T_NS MONO_NS\"",
				  line);
	return 0;
}

int devpm_mock_events_read(int fd, struct devpm_mock_event *ev, size_t max)
{
	char buf[4096], *line, *save = NULL;
	size_t cnt = 0;
	ssize_t n;
	int r;

	/* The module hands out whole lines only, as many as fit. */
	while (cnt < max) {
		/* ~60 bytes a record: never take more than max can hold. */
		size_t want = (max - cnt) * 64;

		n = read(fd, buf, want < sizeof(buf) - 1 ? want : sizeof(buf) - 1);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			return devpm_fail(errno, "devpm_mock events: %s",
					  strerror(errno));
		}
		if (n == 0)
			break;
		buf[n] = '\0';
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (cnt == max)
				return devpm_fail(EOVERFLOW, "devpm_mock events: more records than asked for");
			r = parse_event(line, &ev[cnt]);
			if (r)
				return r;
			cnt++;
		}
	}
	return (int)cnt;
}

static int qos_write(int id, const char *op, int handle, int value_us,
		     bool with_value)
{
	char val[48];

	if (handle < 0 || handle > 7)
		return devpm_fail(EINVAL, "mock QoS handle %d out of range 0..7",
				  handle);
	if (with_value && value_us < 0)
		return devpm_fail(EINVAL, "mock QoS value %d us: want >= 0",
				  value_us);
	if (with_value)
		snprintf(val, sizeof(val), "%s %d %d", op, handle, value_us);
	else
		snprintf(val, sizeof(val), "%s %d", op, handle);
	return devpm_mock_set(id, "qos_req", val);
}

int devpm_mock_qos_add(int id, int handle, int value_us)
{
	return qos_write(id, "add", handle, value_us, true);
}

int devpm_mock_qos_update(int id, int handle, int value_us)
{
	return qos_write(id, "update", handle, value_us, true);
}

int devpm_mock_qos_remove(int id, int handle)
{
	return qos_write(id, "remove", handle, 0, false);
}
