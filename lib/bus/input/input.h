/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * input.h - evdev nodes of a device, read through libevdev with a bound.
 *
 * An input device (inputN) hangs below the HID device of a USB interface;
 * its evdev node is eventN.  Events are stamped with CLOCK_MONOTONIC
 * (EVIOCSCLOCKID), the clock of devpm_now_us() and of the trace, so the
 * time from a resume to the key it carried can be measured.
 *
 * Every keyboard is kept open by the kernel's VT keyboard handler (kbd), so
 * closing our node does not close the device: inputN/inhibited (5.11+)
 * closes it for every user (the driver's close runs).
 */
#ifndef DEVPM_INPUT_H
#define DEVPM_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/input.h>
#include "core/sysfs.h"

struct devpm_key {
	int code;		/* KEY_A ... */
	int value;		/* 1 press, 0 release */
	uint64_t ts_us;		/* event time, CLOCK_MONOTONIC */
};

struct devpm_input_node {
	char name[16];		/* "event3" */
};

/*
 * The evdev nodes whose input device lies below the kernel path devpath,
 * sorted.  Returns how many (at most max are stored) or -errno.
 */
int devpm_input_find(const char *devpath, struct devpm_input_node *nodes,
		     int max);

/* Kernel path of the input device (inputN) behind an evdev node. */
int devpm_input_dev_path(const char *event, char *buf, size_t len);

struct devpm_input;

/* Open /dev/input/<event> non-blocking through libevdev. */
int devpm_input_open(const char *event, struct devpm_input **in);
void devpm_input_close(struct devpm_input *in);

const char *devpm_input_name(const struct devpm_input *in);
/* A keyboard: it has EV_KEY with the letter keys. */
bool devpm_input_is_keyboard(const struct devpm_input *in);

/*
 * Read key events until want of them were read or timeout_ms passed;
 * autorepeats (value 2, made by the input core, not the device) and other
 * event types are skipped.  Stores at most max in keys; returns how many
 * were read (0 on timeout) or -errno.  A dropped-events notice from the
 * kernel (SYN_DROPPED) is -EOVERFLOW: events were lost in the buffer.
 */
int devpm_input_read_keys(struct devpm_input *in, struct devpm_key *keys,
			  int max, int want, int timeout_ms);

/*
 * Is the event a key press or release (not an autorepeat, value 2, nor
 * another type)?  Fills k when it is.  Exposed for unit tests.
 */
bool devpm_input_key_event(const struct input_event *e, struct devpm_key *k);

/*
 * Compare key events with keys pressed and released in turn (qcodes
 * "abc": a down, a up, b down, ...).  0 when they match one for one, 1
 * when not, why naming the first difference: a wrong event, a lost one or
 * an extra one.  -EINVAL for a qcode with no evdev code.
 */
int devpm_input_check_keys(const struct devpm_key *got, int n,
			   const char *qcodes, char *why, size_t len);

/* QMP qcode of a letter or digit ("a", "7") to its evdev code, -EINVAL. */
int devpm_input_qcode_key(const char *qcode);
/* HID usage (keyboard page) of the same, -EINVAL. */
int devpm_input_qcode_hid(const char *qcode);
/* "KEY_A" for diagnostics. */
const char *devpm_input_key_name(int code);

#endif
