// SPDX-License-Identifier: GPL-2.0-only
/*
 * usb_bus.c - every USB device made ready to autosuspend (usb_bus.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/usb/usb_bus.h"
#include "bus/usb/usb.h"
#include "core/clock.h"
#include "core/note.h"
#include "core/sysfs.h"
#include "judge/block.h"
#include "rpm/wait.h"
#include "state/journal.h"
#include "trace/trace.h"

int devpm_usb_left_ms(uint64_t deadline)
{
	uint64_t now = devpm_now_us();

	return now + 1000 >= deadline ? 1 : (int)((deadline - now) / 1000);
}

void devpm_usb_item_out(struct devpm_usb_item *it, bool failed,
			const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(it->why, sizeof(it->why), fmt, ap);
	va_end(ap);
	it->ok = false;
	it->failed = failed;
}

void devpm_usb_item_still_in(struct devpm_block *b,
			     const struct devpm_usb_item *it)
{
	if (it->ok)
		return;
	if (it->failed)
		devpm_block_abort(b, "%s", it->why);
	devpm_block_skip(b, "%s", it->why);
}

int devpm_usb_control(const struct devpm_usb *u, const char *val)
{
	return devpm_knob_writef(val, "%s/power/control", u->dev.path);
}

/* A device with a device below it that cannot suspend cannot either. */
static void mark_blocked(struct devpm_usb_bus *b)
{
	size_t i, j;

	for (i = 0; i < b->n; i++) {
		if (b->it[i].ok)
			continue;
		for (j = 0; j < b->n; j++)
			if (j != i && b->it[j].ok &&
			    devpm_usb_below(&b->it[j].u, b->it[i].u.dev.path))
				devpm_usb_item_out(&b->it[j], false,
						   "%s below it cannot suspend: %.400s",
						   b->it[i].u.dev.name,
						   b->it[i].why);
	}
}

void devpm_usb_bus_wait(struct devpm_usb_bus *b, const char *status,
			uint64_t deadline, const char *what)
{
	struct devpm_wait_result res;
	size_t i;
	int r;

	for (i = 0; i < b->n; i++) {
		struct devpm_usb_item *it = &b->it[i];

		if (!it->ok)
			continue;
		r = devpm_wait_status(&it->u.dev, b->t, status,
				      devpm_usb_left_ms(deadline), &res);
		if (r)
			devpm_usb_item_out(it, true, "%s: %s", what,
					   r == -ETIMEDOUT ? res.why :
					   devpm_error());
	}
}

int devpm_usb_bus_load(struct devpm_usb_bus *b, long delay_ms,
		       long disk_delay_ms, bool trace)
{
	struct devpm_usb *list;
	char why[512], what[96];
	size_t i;
	int r;

	memset(b, 0, sizeof(*b));
	b->delay_ms = delay_ms;
	r = devpm_usb_list(&list, &b->n);
	if (r)
		return r;
	b->it = calloc(b->n + 1, sizeof(*b->it));
	b->names = calloc(b->n + 1, sizeof(*b->names));
	if (!b->it || !b->names) {
		free(list);
		return devpm_fail(ENOMEM, "out of memory");
	}
	for (i = 0; i < b->n; i++) {
		b->it[i].u = list[i];
		b->it[i].ok = true;
		b->names[i] = b->it[i].u.dev.name;
	}
	free(list);
	b->t = trace ? devpm_trace_start(b->names) : NULL;
	if (trace && !b->t)
		devpm_note("no trace (%s): polling runtime_status",
			   devpm_error());
	for (i = 0; i < b->n; i++) {
		struct devpm_usb_item *it = &b->it[i];

		if (devpm_usb_blocker(&it->u, why, sizeof(why)) > 0) {
			devpm_usb_item_out(it, false, "%s", why);
			continue;
		}
		r = devpm_usb_allow_autosuspend(&it->u, delay_ms,
						disk_delay_ms);
		if (r)
			devpm_usb_item_out(it, r != -EPERM, "%s",
					   devpm_error());
	}
	mark_blocked(b);
	/* A hub waits for the level below: a delay per level. */
	snprintf(what, sizeof(what),
		 "idle with control=auto and a %ld ms delay, not suspended",
		 delay_ms);
	devpm_usb_bus_wait(b, "suspended", devpm_now_us() +
			   (uint64_t)(4 * delay_ms + 2 * disk_delay_ms +
				      DEVPM_USB_BOUND_MS) * 1000, what);
	mark_blocked(b);
	return 0;
}

void devpm_usb_bus_free(struct devpm_usb_bus *b)
{
	if (b->t)
		devpm_trace_stop(b->t);
	free(b->it);
	free(b->names);
	memset(b, 0, sizeof(*b));
}

struct devpm_usb_hold {
	size_t n;
	struct devpm_usbfs **h;
};

struct hold_job {
	const struct devpm_usb *u;
	struct devpm_usbfs **h;
	pthread_t th;
	bool started;
};

static void *hold_one(void *arg)
{
	struct hold_job *j = arg;

	/* A device that cannot be opened is only not held: no error. */
	if (devpm_usbfs_open(j->u, j->h))
		*j->h = NULL;
	return NULL;
}

struct devpm_usb_hold *devpm_usb_hold(const struct devpm_usb *const *u,
				      size_t n)
{
	struct devpm_usb_hold *h = calloc(1, sizeof(*h));
	struct hold_job *j = calloc(n + 1, sizeof(*j));
	size_t i;

	if (h)
		h->h = calloc(n + 1, sizeof(*h->h));
	if (!h || !h->h || !j) {
		devpm_usb_release(h);
		free(j);
		return NULL;
	}
	h->n = n;
	for (i = 0; i < n; i++) {
		j[i].u = u[i];
		j[i].h = &h->h[i];
		j[i].started = !pthread_create(&j[i].th, NULL, hold_one, &j[i]);
		if (!j[i].started)
			hold_one(&j[i]);
	}
	for (i = 0; i < n; i++)
		if (j[i].started)
			pthread_join(j[i].th, NULL);
	free(j);
	return h;
}

struct devpm_usb_hold *devpm_usb_bus_hold(const struct devpm_usb_bus *b)
{
	const struct devpm_usb **u = calloc(b->n + 1, sizeof(*u));
	struct devpm_usb_hold *h;
	size_t i;

	if (!u)
		return NULL;
	for (i = 0; i < b->n; i++)
		u[i] = &b->it[i].u;
	h = devpm_usb_hold(u, b->n);
	free(u);
	return h;
}

void devpm_usb_release(struct devpm_usb_hold *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; h->h && i < h->n; i++)
		devpm_usbfs_close(h->h[i]);
	free(h->h);
	free(h);
}
