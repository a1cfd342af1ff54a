// SPDX-License-Identifier: GPL-2.0-only
/*
 * pci_settle.c - letting a PCI set's parts runtime-suspend, and waiting
 * for each (pci_settle.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bus/pci/pci_settle.h"
#include "bus/pci/pci_role.h"
#include "bus/pci/pci_set.h"
#include "core/clock.h"
#include "core/poll.h"
#include "core/sysfs.h"
#include "rpm/device.h"
#include "rpm/subtree.h"
#include "rpm/wait.h"

int devpm_pci_dev_control(struct devpm_pci_dev *p, const char *val)
{
	return devpm_dev_knob_write(&p->d, "control", val);
}

void devpm_pci_set_allow(struct devpm_pci_set *s, bool active,
			 bool short_delay)
{
	uint64_t last = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct devpm_pci_dev *p = &s->v[i];
		long own;

		if (!p->part)
			continue;
		if (active && (devpm_pci_dev_control(p, "on") < 0 ||
			       devpm_dev_status(&p->d, p->on_status,
						sizeof(p->on_status)) < 0)) {
			snprintf(p->skip, sizeof(p->skip), "%s", devpm_error());
			p->part = false;
			continue;
		}
		if (devpm_subtree_allow(&p->d, false, &p->delay_ms,
					&s->undo) < 0) {
			snprintf(p->skip, sizeof(p->skip), "%s", devpm_error());
			p->part = false;
			continue;
		}
		own = p->d.rpm.have_autosuspend ? p->d.rpm.autosuspend_delay_ms :
						  0;
		if (short_delay && own > DEVPM_PCI_SHORT_DELAY_MS) {
			char v[24];

			snprintf(v, sizeof(v), "%d", DEVPM_PCI_SHORT_DELAY_MS);
			if (devpm_dev_knob_write(&p->d, "autosuspend_delay_ms",
						 v) < 0) {
				snprintf(p->skip, sizeof(p->skip), "%s",
					 devpm_error());
				p->part = false;
				continue;
			}
			own = DEVPM_PCI_SHORT_DELAY_MS;
		}
		if (own > p->delay_ms)
			p->delay_ms = own;
	}
	for (i = 0; i < s->n; i++) {
		struct devpm_pci_dev *p = &s->v[i];

		if (!p->part)
			continue;
		p->allow_us = devpm_now_us();
		if (devpm_pci_dev_control(p, "auto") < 0) {
			snprintf(p->skip, sizeof(p->skip), "%s", devpm_error());
			p->part = false;
			continue;
		}
		p->deadline_us = p->allow_us +
				 (uint64_t)(p->delay_ms + DEVPM_PCI_BOUND_MS) *
				 1000;
		if (!p->busy && p->deadline_us > last)
			last = p->deadline_us;
	}
	/* A busy device is not waited for longer than the others. */
	for (i = 0; i < s->n; i++)
		if (s->v[i].part && s->v[i].busy && last &&
		    s->v[i].deadline_us > last)
			s->v[i].deadline_us = last;
}

static bool kids_idle(void *arg)
{
	struct devpm_pci_dev *p = arg;
	char k[DEVPM_PATH_MAX];
	long kids;

	return !devpm_dev_attr(&p->d, "runtime_active_kids", k, sizeof(k)) &&
	       !devpm_read_long(k, &kids) && kids == 0;
}

int devpm_pci_dev_left_ms(const struct devpm_pci_dev *p)
{
	uint64_t now = devpm_now_us();

	return p->deadline_us > now ? (int)((p->deadline_us - now) / 1000) : 0;
}

int devpm_pci_dev_unbusy(struct devpm_pci_dev *p)
{
	devpm_poll_until(kids_idle, p, devpm_pci_dev_left_ms(p));
	devpm_pci_dev_classify(p);
	if (p->d.rpm.have_active_kids && p->d.rpm.active_kids > 0) {
		snprintf(p->skip, sizeof(p->skip),
			 "driver %s holds %ld usage references and %ld children stayed active",
			 p->d.driver, p->role.held, p->d.rpm.active_kids);
		return 1;
	}
	p->busy = false;
	if (p->role.role == DEVPM_PCI_HELD) {
		snprintf(p->skip, sizeof(p->skip),
			 "%s (with its subtree suspended)", p->role.why);
		return 1;
	}
	return 0;
}

int devpm_pci_dev_wait_suspended(struct devpm_pci_set *s,
				 struct devpm_pci_dev *p,
				 struct devpm_wait_result *w)
{
	int r;

	memset(w, 0, sizeof(*w));
	if (p->busy && devpm_pci_dev_unbusy(p))
		return 1;
	r = devpm_wait_status(&p->d, s->t, "suspended",
			      devpm_pci_dev_left_ms(p), w);
	if (r != -ETIMEDOUT)
		return r;
	devpm_pci_dev_classify(p);
	/* References of its own, not of children that stayed active. */
	if (p->role.role == DEVPM_PCI_HELD &&
	    (!p->d.rpm.have_active_kids || p->d.rpm.active_kids == 0 ||
	     p->role.held > p->d.rpm.active_kids)) {
		snprintf(p->skip, sizeof(p->skip), "%s", p->role.why);
		return 1;
	}
	return r;
}

void devpm_pci_set_settle(struct devpm_pci_set *s)
{
	struct devpm_wait_result w;
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct devpm_pci_dev *p = &s->v[i];

		if (!p->part)
			continue;
		if (devpm_pci_dev_wait_suspended(s, p, &w) != 0) {
			if (!p->skip[0])
				snprintf(p->skip, sizeof(p->skip),
					 "did not suspend: %s",
					 w.why[0] ? w.why : devpm_error());
			p->part = false;
		}
	}
}
