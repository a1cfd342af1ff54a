/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mock.h - devpm_mock.ko's mock platform devices (docs/fixtures.md).
 *
 * Tests never write the module's files by hand.  Every device created here
 * is journaled (deleted on restore, children first) and so is the module
 * load.  Mock devices are named devpm_mock.ID; a struct devpm_dev for one
 * comes from devpm_mock_dev().  The journal's undo records carry
 * "missing_ok", so deleting a device (or link) by hand first is no restore
 * error; but a knob of it written with devpm_knob_write() cannot be put
 * back once it is gone: delete before writing its knobs, or leave the
 * deleting to the restore.  The mock/ files themselves are written raw
 * (devpm_mock_set): they die with the device.
 *
 *	if (devpm_mock_load(false, why, sizeof(why)))
 *		SKIP(return, "%s", why);
 *	devpm_mock_create(0, &(struct devpm_mock_opts){ .async = 1 });
 *	devpm_mock_set_cb(0, DEVPM_MOCK_RESUME, 50000, 0);
 */
#ifndef DEVPM_MOCK_H
#define DEVPM_MOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rpm/device.h"

#define DEVPM_MOCK_MAX		64
#define DEVPM_MOCK_CTL		"/sys/devices/platform/devpm_mock_ctl"
#define DEVPM_MOCK_NO_PARENT	(-1)

enum devpm_mock_cb {
	DEVPM_MOCK_PREPARE,
	DEVPM_MOCK_SUSPEND,
	DEVPM_MOCK_SUSPEND_LATE,
	DEVPM_MOCK_SUSPEND_NOIRQ,
	DEVPM_MOCK_RESUME_NOIRQ,
	DEVPM_MOCK_RESUME_EARLY,
	DEVPM_MOCK_RESUME,
	DEVPM_MOCK_COMPLETE,
	DEVPM_MOCK_RUNTIME_SUSPEND,
	DEVPM_MOCK_RUNTIME_RESUME,
	DEVPM_MOCK_NR_CB
};

/* "prepare", "suspend_late", ... (the file names' stem). */
const char *devpm_mock_cb_name(enum devpm_mock_cb cb);

/* A device cannot be its own parent: parent == id means none. */
struct devpm_mock_opts {
	int parent;		/* DEVPM_MOCK_NO_PARENT or a mock id */
	int async;		/* 1 (default when the struct is NULL), 0 */
	int autosuspend_ms;	/* 0 means the module's default, 100 */
	int probe_ref_ms;	/* 0: dropped in probe; -1: never; N: late */
	bool no_wakeup;		/* not wakeup capable */
};

/*
 * Load devpm_mock (journaled unload).  cpuidle: ask for the mock cpuidle
 * driver.  0 loaded, 1 not available (why says so: no module for this
 * kernel, "make fixtures"), -errno on error.
 */
int devpm_mock_load(bool cpuidle, char *why, size_t len);

/* Create devpm_mock.ID (journaled delete); opts NULL = defaults. */
int devpm_mock_create(int id, const struct devpm_mock_opts *opts);
int devpm_mock_delete(int id);
/*
 * Unbind devpm_mock.ID's driver and probe it again (the control device's
 * reprobe: drivers/base/bus.c device_reprobe()); 0 once it is bound
 * again, -errno (devpm_error() says so) when not.  Not journaled: an
 * action, with nothing to put back.
 */
int devpm_mock_reprobe(int id);
/* Kernel path of the device directory, e.g. for devpm_dev_open(). */
int devpm_mock_path(int id, char *buf, size_t len);
/* "devpm_mock.<id>", the device's name (a static buffer per id). */
const char *devpm_mock_name(int id);
int devpm_mock_dev(int id, struct devpm_dev *d);

/* Links between mock devices (journaled link_del). */
int devpm_mock_link_add(int consumer, int supplier, bool pm_runtime);
int devpm_mock_link_del(int consumer, int supplier);

/* mock/<cb>_delay_us and mock/<cb>_error; error 0 or -errno. */
int devpm_mock_set_cb(int id, enum devpm_mock_cb cb, long delay_us,
		      int error);
/* mock/<cb>_count, or -errno. */
long devpm_mock_count(int id, enum devpm_mock_cb cb);
int devpm_mock_reset_counts(int id);

/* mock/bug: "none", "leak_on_resume", "leak_every_nth:3", ... */
int devpm_mock_bug(int id, const char *bug);
/* Any other mock/ attribute by name ("resume_budget_us", "states"...). */
int devpm_mock_set(int id, const char *attr, const char *val);
int devpm_mock_get(int id, const char *attr, char *buf, size_t len);

/* Wakeup: fire now, or arm an hrtimer after a point of the suspend. */
enum devpm_mock_wake { DEVPM_MOCK_SOFT, DEVPM_MOCK_HARD, DEVPM_MOCK_STAY,
		       DEVPM_MOCK_RELAX };
int devpm_mock_wakeup_fire(int id, enum devpm_mock_wake kind);
/*
 * point: "pm_prepare", "prepare", "suspend", "suspend_late",
 * "suspend_noirq"
 */
int devpm_mock_wakeup_arm(int id, const char *point, long offset_us,
			  enum devpm_mock_wake kind);
int devpm_mock_wakeup_disarm(int id);

/* The event queue, /dev/devpm_mock.ID (O_RDONLY|O_NONBLOCK|O_CLOEXEC). */
struct devpm_mock_event {
	uint64_t seq;
	char kind[8];		/* soft, hard, stay */
	char point[16];		/* now, pm_prepare, suspend_late, ... */
	uint64_t t_ns;		/* CLOCK_BOOTTIME when it fired */
	/*
	 * CLOCK_MONOTONIC (the kernel's fast accessor, the trace clock
	 * "mono") when it fired: places it among trace events exactly,
	 * whatever sleep time BOOTTIME took in meanwhile.  0 from a module
	 * older than this field.
	 */
	uint64_t mono_ns;
};
int devpm_mock_events_open(int id);
/* Read what is queued now (never blocks): count read, or -errno. */
int devpm_mock_events_read(int fd, struct devpm_mock_event *ev, size_t max);

/* Kernel-side DEV_PM_QOS_RESUME_LATENCY requests, handle 0..7. */
int devpm_mock_qos_add(int id, int handle, int value_us);
int devpm_mock_qos_update(int id, int handle, int value_us);
int devpm_mock_qos_remove(int id, int handle);

#endif
