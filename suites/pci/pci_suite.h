/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pci_suite.h - what the PCI suite's programs share: every PCI device with
 * its config-space identity and runtime-PM role, the devices that take part
 * in a case, and letting them suspend.
 *
 * A device takes part when it may runtime-suspend: unbound, or bound to a
 * driver that holds no usage reference beyond control=on's.  A bound
 * device whose driver holds references while it has active children is
 * "busy": the references may be its children's (libahci takes one per
 * active ata port), so its subtree is let suspend too and it is judged
 * afterwards.  Unbound devices with a PM capability are given to vfio-pci
 * (vfio.h) in the cases that ask for it: that is the runtime-D3hot path.
 */
#ifndef DEVPM_PCI_SUITE_H
#define DEVPM_PCI_SUITE_H

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devpm.h"

/* Beyond a device's autosuspend delays: a SATA chain under TCG takes 0.1 s. */
#define PCI_BOUND_MS 2000

/* A time in µs as ms, for messages. */
static inline double ms(uint64_t us)
{
	return us / 1000.0;
}

struct pdev {
	struct devpm_dev d;
	struct devpm_pci_info info;
	int info_r;			/* devpm_pci_info() result */
	char info_why[256];
	struct devpm_pci_role_info role;
	bool busy;			/* references held with active children */
	bool part;			/* takes part in the case */
	bool vfio;			/* given to vfio-pci by this case */
	bool no_bridge_d3;		/* a bridge pci_pm_init() denies D3 */
	char skip[384];			/* why it does not take part */
	long delay_ms;			/* longest autosuspend delay in its subtree */
	char on_status[16];		/* runtime_status right after control=on */
	uint64_t allow_us;		/* control=auto written */
	uint64_t deadline_us;		/* suspended by then */
};

struct pset {
	struct pdev *v;
	size_t n;
	struct devpm_pci *pci;
	struct devpm_trace *t;
	char trace_why[256];
	struct devpm_subtree_undo undo;	/* what subtree allows changed */
};

static inline bool pdev_on(const struct pdev *p)
{
	return p->d.rpm.have_control && !strcmp(p->d.rpm.control, "on");
}

static inline bool pdev_status_is(struct pdev *p, const char *status)
{
	char st[16];

	return !devpm_dev_status(&p->d, st, sizeof(st)) && !strcmp(st, status);
}

/* Is some active child of d kept active by control=on? */
static inline bool pdev_child_forbidden(const struct devpm_dev *d)
{
	struct devpm_dev *kids;
	bool yes = false;
	size_t i, n;

	if (devpm_dev_children(d, &kids, &n) < 0)
		return false;
	for (i = 0; i < n && !yes; i++)
		yes = !strcmp(kids[i].rpm.control, "on") &&
		      strcmp(kids[i].rpm.status, "suspended");
	free(kids);
	return yes;
}

/*
 * Role and "busy" from a fresh snapshot.  Busy: the driver holds no more
 * references than it has active children, and user space keeps one of
 * them active (control=on, the default of ata ports): then the references
 * may be the children's, so the device is judged with its subtree idle.
 */
static inline void pdev_classify(struct pdev *p)
{
	struct devpm_pci_role_info base;
	struct devpm_dev at;

	devpm_dev_snapshot(&p->d);
	devpm_pci_role(&p->d, &p->role);
	p->busy = p->role.role == DEVPM_PCI_HELD && p->d.rpm.have_active_kids &&
		  p->d.rpm.active_kids > 0 &&
		  p->role.held <= p->d.rpm.active_kids &&
		  pdev_child_forbidden(&p->d);
	/*
	 * Held now but capable at baseline: a reference taken during the
	 * run (a leak) is a failure to show, never an excuse to skip, so
	 * the device keeps its baseline role.  Held at baseline but not now
	 * is a knob the case set (children allowed to suspend): the live
	 * role stands.
	 */
	at = p->d;
	if (p->role.role != DEVPM_PCI_HELD || !devpm_baseline_apply(&at))
		return;
	devpm_pci_role(&at, &base);
	if (base.role == DEVPM_PCI_CAPABLE || base.role == DEVPM_PCI_UNBOUND) {
		p->role = base;
		p->busy = false;
	} else if (!p->busy) {
		size_t l = strlen(p->role.why);

		snprintf(p->role.why + l, sizeof(p->role.why) - l,
			 ", as at baseline: it never let runtime PM suspend the device");
	}
}

static inline struct pdev *pset_find(struct pset *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].d.name, name))
			return &s->v[i];
	return NULL;
}

/*
 * Put the subtrees back at once (devpm_subtree_undo); the journal restores
 * the rest, and this too if it did not happen.
 */
static inline void pset_close(struct pset *s)
{
	if (devpm_subtree_undo(&s->undo) < 0)
		devpm_note("putting subtrees back: %s (the journal will)",
			   devpm_error());
	if (s->t)
		devpm_trace_stop(s->t);
	devpm_pci_close(s->pci);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static inline int pdev_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pdev *)a)->d.path,
		      ((const struct pdev *)b)->d.path);
}

/*
 * Every PCI device with identity and role, parents first, and a trace of
 * them all (NULL when tracefs is unusable: waits then poll, trace_why says
 * why).  Read from /sys/bus/pci/devices: walking all of /sys/devices takes
 * seconds under TCG.
 */
static inline int pset_open(struct pset *s)
{
	char spec[DEVPM_PATH_MAX];
	const char **names;
	struct dirent *e;
	size_t i, cap = 0;
	DIR *dir;

	memset(s, 0, sizeof(*s));
	dir = devpm_opendir("/sys/bus/pci/devices");
	if (!dir)
		return -errno;
	while ((e = readdir(dir))) {
		struct pdev *grown;

		if (e->d_name[0] == '.')
			continue;
		if (s->n == cap) {
			cap = cap ? cap * 2 : 32;
			grown = realloc(s->v, cap * sizeof(*s->v));
			if (!grown) {
				closedir(dir);
				return devpm_fail(ENOMEM, "out of memory");
			}
			s->v = grown;
		}
		memset(&s->v[s->n], 0, sizeof(s->v[s->n]));
		if (devpm_fmt(spec, sizeof(spec), "/sys/bus/pci/devices/%s",
			      e->d_name) < 0 ||
		    devpm_dev_open(&s->v[s->n].d, spec) < 0)
			continue;	/* went away */
		s->n++;
	}
	closedir(dir);
	qsort(s->v, s->n, sizeof(*s->v), pdev_cmp);
	s->pci = devpm_pci_open();
	names = calloc(s->n + 1, sizeof(*names));
	if (!s->pci || !names) {
		free(names);
		return s->pci ? devpm_fail(ENOMEM, "out of memory") : -EIO;
	}
	for (i = 0; i < s->n; i++) {
		struct pdev *p = &s->v[i];

		names[i] = p->d.name;
		p->info_r = devpm_pci_info(s->pci, p->d.name, &p->info);
		if (p->info_r < 0)
			snprintf(p->info_why, sizeof(p->info_why), "%s",
				 devpm_error());
		pdev_classify(p);
	}
	s->t = devpm_trace_start(names);
	if (!s->t)
		snprintf(s->trace_why, sizeof(s->trace_why), "%s",
			 devpm_error());
	free(names);
	return 0;
}

/* A device below (or equal to) a mounted filesystem's may not be touched. */
static inline bool pdev_protected(struct pdev *p)
{
	char why[256];

	if (devpm_allow_disk() ||
	    !devpm_dev_protected(p->d.path, why, sizeof(why)))
		return false;
	snprintf(p->skip, sizeof(p->skip), "%s; needs --allow-disk", why);
	return true;
}

/* Give p to vfio-pci if it is eligible; a failure leaves it unbound. */
static inline void pdev_vfio(struct pdev *p)
{
	char why[256];

	if (p->info_r < 0 || !devpm_vfio_eligible(&p->d, p->info.pm_cap,
						  p->info.bridge, why,
						  sizeof(why)))
		return;
	if (strcmp(p->d.driver, DEVPM_VFIO_DRIVER)) {
		if (devpm_vfio_bind(&p->d) < 0) {
			devpm_note("%s: not given to vfio-pci: %s", p->d.name,
				   devpm_error());
			return;
		}
		p->vfio = true;
	}
	pdev_classify(p);
}

/* A case's choice of devices: true, or false with why (a SKIP). */
typedef bool pdev_want_fn(const struct pdev *p, char *why, size_t len);

/*
 * Decide who takes part: unbound, capable, busy (its subtree decides),
 * and wanted by the case (want NULL: all).  vfio: give eligible unbound
 * devices to vfio-pci first.
 */
static inline void pset_parts(struct pset *s, bool vfio, pdev_want_fn *want)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct pdev *p = &s->v[i];

		p->part = false;
		if (pdev_protected(p))
			continue;
		if (vfio)
			pdev_vfio(p);
		if (p->role.role == DEVPM_PCI_UNKNOWN && s->t &&
		    devpm_pci_role_probe(&p->d, s->t, &p->role) < 0)
			snprintf(p->skip, sizeof(p->skip), "role probe: %s",
				 devpm_error());
		if (p->skip[0])
			continue;
		if (want && !want(p, p->skip, sizeof(p->skip)))
			continue;
		if (p->info_r == 0 && p->info.bridge && !p->info.pm_cap &&
		    p->d.driver[0]) {
			p->no_bridge_d3 = true;
			snprintf(p->skip, sizeof(p->skip),
				 "bridge without PM capability: pci_pm_init() never allows it D3 (bridge_d3), so its driver %s refuses to idle (see bridge_order)",
				 p->d.driver);
			continue;
		}
		switch (p->role.role) {
		case DEVPM_PCI_UNBOUND:
		case DEVPM_PCI_CAPABLE:
			p->part = true;
			break;
		case DEVPM_PCI_HELD:
			if (p->busy)
				p->part = true;
			else
				snprintf(p->skip, sizeof(p->skip), "%s",
					 p->role.why);
			break;
		case DEVPM_PCI_UNKNOWN:
			snprintf(p->skip, sizeof(p->skip), "%s%s%s",
				 p->role.why, s->t ? "" : "; no trace: ",
				 s->t ? "" : s->trace_why);
			break;
		}
	}
}

static inline int pdev_control(struct pdev *p, const char *val)
{
	char k[DEVPM_PATH_MAX];
	int r;

	r = devpm_dev_attr(&p->d, "control", k, sizeof(k));
	return r < 0 ? r : devpm_knob_write(k, val);
}

/* A short autosuspend delay, for cases that do not measure the delay. */
#define PCI_SHORT_DELAY_MS 20

/*
 * Let every part suspend: its subtree first, then control=auto.  active:
 * write control=on before, so that each starts active (a measured
 * suspend).  short_delay: a longer autosuspend delay of a part is made
 * PCI_SHORT_DELAY_MS.  A write refused (protected) makes the device skip.
 */
static inline void pset_allow(struct pset *s, bool active, bool short_delay)
{
	uint64_t last = 0;
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct pdev *p = &s->v[i];
		long own;

		if (!p->part)
			continue;
		if (active && (pdev_control(p, "on") < 0 ||
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
		if (short_delay && own > PCI_SHORT_DELAY_MS) {
			char k[DEVPM_PATH_MAX];

			if (devpm_dev_attr(&p->d, "autosuspend_delay_ms", k,
					   sizeof(k)) < 0 ||
			    devpm_knob_write_long(k, PCI_SHORT_DELAY_MS) < 0) {
				snprintf(p->skip, sizeof(p->skip), "%s",
					 devpm_error());
				p->part = false;
				continue;
			}
			own = PCI_SHORT_DELAY_MS;
		}
		if (own > p->delay_ms)
			p->delay_ms = own;
	}
	for (i = 0; i < s->n; i++) {
		struct pdev *p = &s->v[i];

		if (!p->part)
			continue;
		p->allow_us = devpm_now_us();
		if (pdev_control(p, "auto") < 0) {
			snprintf(p->skip, sizeof(p->skip), "%s", devpm_error());
			p->part = false;
			continue;
		}
		p->deadline_us = p->allow_us +
				 (uint64_t)(p->delay_ms + PCI_BOUND_MS) * 1000;
		if (!p->busy && p->deadline_us > last)
			last = p->deadline_us;
	}
	/* A busy device is not waited for longer than the others. */
	for (i = 0; i < s->n; i++)
		if (s->v[i].part && s->v[i].busy && last &&
		    s->v[i].deadline_us > last)
			s->v[i].deadline_us = last;
}

static inline bool pdev_kids_idle(void *arg)
{
	struct pdev *p = arg;
	char k[DEVPM_PATH_MAX];
	long kids;

	return !devpm_dev_attr(&p->d, "runtime_active_kids", k, sizeof(k)) &&
	       !devpm_read_long(k, &kids) && kids == 0;
}

static inline int pdev_left_ms(const struct pdev *p)
{
	uint64_t now = devpm_now_us();

	return p->deadline_us > now ? (int)((p->deadline_us - now) / 1000) : 0;
}

/*
 * A busy device: wait for its children to suspend, then its references
 * show whether its driver holds any of its own.  0: it may suspend now,
 * 1: it does not take part (p->skip says why).
 */
static inline int pdev_unbusy(struct pdev *p)
{
	devpm_poll_until(pdev_kids_idle, p, pdev_left_ms(p));
	pdev_classify(p);
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

/*
 * Wait for p to be suspended until its deadline.  Returns 0 when it is,
 * 1 when it turned out not to take part (p->skip says why), -ETIMEDOUT
 * with w->why filled otherwise.
 */
static inline int pdev_wait_suspended(struct pset *s, struct pdev *p,
				      struct devpm_wait_result *w)
{
	int r;

	memset(w, 0, sizeof(*w));
	if (p->busy && pdev_unbusy(p))
		return 1;
	r = devpm_wait_status(&p->d, s->t, "suspended", pdev_left_ms(p), w);
	if (r != -ETIMEDOUT)
		return r;
	pdev_classify(p);
	/* References of its own, not of children that stayed active. */
	if (p->role.role == DEVPM_PCI_HELD &&
	    (!p->d.rpm.have_active_kids || p->d.rpm.active_kids == 0 ||
	     p->role.held > p->d.rpm.active_kids)) {
		snprintf(p->skip, sizeof(p->skip), "%s", p->role.why);
		return 1;
	}
	return r;
}

/* Every part suspended (those that fail to are marked: part = false). */
static inline void pset_settle(struct pset *s)
{
	struct devpm_wait_result w;
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct pdev *p = &s->v[i];

		if (!p->part)
			continue;
		if (pdev_wait_suspended(s, p, &w) != 0) {
			if (!p->skip[0])
				snprintf(p->skip, sizeof(p->skip),
					 "did not suspend: %s",
					 w.why[0] ? w.why : devpm_error());
			p->part = false;
		}
	}
}

/* "8086:2922 ahci" */
static inline const char *pdev_label(const struct pdev *p, char *buf,
				     size_t len)
{
	snprintf(buf, len, "%04x:%04x %s", p->info.vendor, p->info.device,
		 p->d.driver[0] ? p->d.driver : "(no driver)");
	return buf;
}

#endif
