/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * device.h - the device model: every device with a power/ directory.
 *
 * A device is named by its kernel path under /sys/devices.  Attributes that
 * a kernel may lack (runtime_usage & co need CONFIG_PM_ADVANCED_DEBUG) are
 * flagged absent, never guessed.
 */
#ifndef DEVPM_DEVICE_H
#define DEVPM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/sysfs.h"

/* Runtime-PM snapshot of power/.  have_* says whether the file exists. */
struct devpm_rpm {
	bool have_control;	/* absent: pm_runtime_no_callbacks() */
	char control[8];	/* "auto" | "on" */
	bool have_status;
	char status[16];	/* active|suspended|suspending|resuming|error|unsupported */
	bool have_usage;
	long usage;		/* runtime_usage (ADVANCED_DEBUG) */
	bool have_active_kids;
	long active_kids;	/* runtime_active_kids (ADVANCED_DEBUG) */
	bool have_enabled;
	char enabled[24];	/* enabled|disabled|forbidden|disabled & forbidden */
	bool have_autosuspend;	/* autosuspend_delay_ms readable (else -EIO) */
	long autosuspend_delay_ms;
	bool have_times;
	long long active_ms, suspended_ms;
	bool have_qos_latency;
	bool qos_latency_na;	/* "n/a": request 0 = never suspend */
	long qos_latency_us;	/* 0 = no constraint */
	bool have_no_power_off;
	long no_power_off;
	bool have_async;
	char async[12];
};

struct devpm_wakeup {
	bool capable;		/* power/wakeup exists and is not empty */
	bool enabled;
	long event_count;	/* from /sys/class/wakeup/<source>, -1 unknown */
};

struct devpm_dev {
	char path[DEVPM_PATH_MAX];	/* /sys/devices/... (kernel path) */
	char name[128];			/* basename: "0000:00:1f.2", "1-1", "0:0:0:0", "sda" */
	char bus[32];			/* subsystem: pci, usb, ... or a class ("" none) */
	char driver[64];		/* bound driver name ("" unbound) */
	char parent[DEVPM_PATH_MAX];	/* nearest ancestor with power/ ("" none) */
	struct devpm_rpm rpm;
	struct devpm_wakeup wakeup;
};

/*
 * Resolve a user-given device: a /sys/devices path, a /sys/bus/.../devices/X
 * or /sys/class/... link, or a bare name found under /sys/bus/{pci,usb,i2c,
 * scsi,platform}/devices, then any other bus, then any class.  Symlinks are
 * followed inside the sysfs root only.  The result must be a device (a
 * uevent or power/) under /sys/devices: -EINVAL otherwise ("X is not a
 * device under /sys/devices"), -ENOENT if it does not exist ("no device
 * X").  Fills path/name/bus/driver/parent and takes a snapshot.
 */
int devpm_dev_open(struct devpm_dev *d, const char *spec);

/* Re-read power/ and wakeup state; -ENOENT if the device went away. */
int devpm_dev_snapshot(struct devpm_dev *d);

/* Path of an attribute of the device: "<path>/power/<attr>". */
int devpm_dev_attr(const struct devpm_dev *d, const char *attr, char *buf,
		   size_t len);
/*
 * Write power/<attr> through the journal (devpm_knob_write(): put back at
 * exit); 0 or -errno with devpm_error() naming the file.  Every caller
 * checks it: a refused write must not become a misleading verdict.
 */
int devpm_dev_knob_write(const struct devpm_dev *d, const char *attr,
			 const char *val);
/* Read power/<attr>; 0 or -errno. */
int devpm_dev_attr_read(const struct devpm_dev *d, const char *attr,
			char *buf, size_t len);

/*
 * Every device under /sys/devices with a power/ directory, sorted by path
 * (parents before children).  bus may be NULL (all) or a subsystem name
 * (a bus or a class).  Symlinks are not followed; wakeup sources
 * (<dev>/wakeup/wakeupN) are not devices here.  The caller frees *list
 * with free().
 */
int devpm_dev_list(const char *bus, struct devpm_dev **list, size_t *n);

/*
 * The same list with only what the runtime-PM rules read in each rpm
 * (control, runtime_status, _usage, _active_kids, _enabled,
 * autosuspend_delay_ms, pm_qos_resume_latency_us); the rest of rpm and
 * wakeup stay zero.  For the run's baseline of every device, before the
 * first test: 7 reads a device instead of 12 and its wakeup/ directory
 * (421 devices under TCG, warm: 149 ms against 200-216 ms).
 */
int devpm_dev_list_rpm(const char *bus, struct devpm_dev **list, size_t *n);

/* Read the runtime status only: 0 with "" when absent, else -errno. */
int devpm_dev_status(const struct devpm_dev *d, char *buf, size_t len);

/*
 * Children of d in the model: the nearest devices with a power/ directory
 * below it (through glue directories such as net/ or block/), sorted.
 */
int devpm_dev_children(const struct devpm_dev *d, struct devpm_dev **list,
		       size_t *n);

/*
 * A result name that does not depend on probe order.  The kernel numbers
 * some devices in the order they come (an IDA or a counter at each
 * registration): input%d (and the LEDs named after it, input%d::numlock),
 * event%d, mouse%d, js%d, hidraw%d, sg%d, wakeup%d, and HID devices
 * BBBB:VVVV:PPPP.NNNN.  For such a device (its kernel path given), buf gets
 * its nearest ancestor the kernel names by place ("1-1:1.0", "serio0",
 * "6:0:0:0") and its own name without the number: "1-1:1.0/input",
 * "1-1:1.0/input::numlock", "6:0:0:0/sg".  Returns 1 when it made one,
 * 0 when the name is stable as it is (buf untouched).
 */
int devpm_dev_stable_name(const char *path, char *buf, size_t len);

/*
 * Its number, for ordering devices that get the same stable name below
 * one ancestor: input12 -> 12 (-1 when the name has none).
 */
long devpm_dev_probe_number(const char *name);

/*
 * The kernel path of a device a class lists by name (/sys/class/<c>/name:
 * input12, input12::numlock in leds, sg0, hidraw0), for a device no bus
 * lists (or one made after the run's baseline).  0 or -errno.
 */
int devpm_dev_class_path(const char *name, char *buf, size_t len);

/*
 * Among the devices in kpath's directory that differ from it only by
 * their number (input12, input13 in one input/ directory), its place in
 * number order from 1, and how many there are (*n).  0 or -errno.
 */
int devpm_dev_probe_rank(const char *kpath, int *rank, int *n);

#endif
