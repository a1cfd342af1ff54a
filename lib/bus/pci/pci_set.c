// SPDX-License-Identifier: GPL-2.0-only
/*
 * pci_set.c - every PCI device, its role, and who takes part in a case
 * (pci_set.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/pci/pci_set.h"
#include "judge/block.h"
#include "bus/pci/pci.h"
#include "bus/pci/pci_role.h"
#include "bus/pci/vfio.h"
#include "core/note.h"
#include "core/safety.h"
#include "core/sysfs.h"
#include "judge/baseline.h"
#include "rpm/device.h"
#include "rpm/subtree.h"
#include "trace/trace.h"

bool devpm_pci_dev_status_is(struct devpm_pci_dev *p, const char *status)
{
	char st[16];

	return !devpm_dev_status(&p->d, st, sizeof(st)) && !strcmp(st, status);
}

/* Is some active child of d kept active by control=on? */
static bool child_forbidden(const struct devpm_dev *d)
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

void devpm_pci_dev_classify(struct devpm_pci_dev *p)
{
	struct devpm_pci_role_info base;
	struct devpm_dev at;

	devpm_dev_snapshot(&p->d);
	devpm_pci_role(&p->d, &p->role);
	p->busy = p->role.role == DEVPM_PCI_HELD && p->d.rpm.have_active_kids &&
		  p->d.rpm.active_kids > 0 &&
		  p->role.held <= p->d.rpm.active_kids &&
		  child_forbidden(&p->d);
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

struct devpm_pci_dev *devpm_pci_set_find(struct devpm_pci_set *s,
					 const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].d.name, name))
			return &s->v[i];
	return NULL;
}

void devpm_pci_set_close(struct devpm_pci_set *s)
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

static int dev_cmp(const void *a, const void *b)
{
	return strcmp(((const struct devpm_pci_dev *)a)->d.path,
		      ((const struct devpm_pci_dev *)b)->d.path);
}

int devpm_pci_set_open(struct devpm_pci_set *s)
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
		struct devpm_pci_dev *grown;

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
	qsort(s->v, s->n, sizeof(*s->v), dev_cmp);
	s->pci = devpm_pci_open();
	names = calloc(s->n + 1, sizeof(*names));
	if (!s->pci || !names) {
		free(names);
		return s->pci ? devpm_fail(ENOMEM, "out of memory") : -EIO;
	}
	for (i = 0; i < s->n; i++) {
		struct devpm_pci_dev *p = &s->v[i];

		names[i] = p->d.name;
		p->info_r = devpm_pci_info(s->pci, p->d.name, &p->info);
		if (p->info_r < 0)
			snprintf(p->info_why, sizeof(p->info_why), "%s",
				 devpm_error());
		devpm_pci_dev_classify(p);
	}
	s->t = devpm_trace_start(names);
	if (!s->t)
		snprintf(s->trace_why, sizeof(s->trace_why), "%s",
			 devpm_error());
	free(names);
	return 0;
}

bool devpm_pci_dev_protected(struct devpm_pci_dev *p)
{
	char why[256];

	if (devpm_allow_disk() ||
	    !devpm_dev_protected(p->d.path, why, sizeof(why)))
		return false;
	snprintf(p->skip, sizeof(p->skip), "%s; needs --allow-disk", why);
	return true;
}

/* Give p to vfio-pci if it is eligible; a failure leaves it unbound. */
static void give_vfio(struct devpm_pci_dev *p)
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
	devpm_pci_dev_classify(p);
}

void devpm_pci_set_parts(struct devpm_pci_set *s, bool vfio,
			 devpm_pci_want_fn *want)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct devpm_pci_dev *p = &s->v[i];

		p->part = false;
		if (devpm_pci_dev_protected(p))
			continue;
		if (vfio)
			give_vfio(p);
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

const char *devpm_pci_dev_label(const struct devpm_pci_dev *p, char *buf,
				size_t len)
{
	snprintf(buf, len, "%04x:%04x %s", p->info.vendor, p->info.device,
		 p->d.driver[0] ? p->d.driver : "(no driver)");
	return buf;
}

void devpm_pci_set_each(struct devpm_subtest *sub, struct devpm_pci_set *s,
			devpm_block_fn *fn, void *arg, size_t *at,
			struct devpm_pci_dev **dev)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		*at = i;
		*dev = &s->v[i];
		devpm_block_run(sub, s->v[i].d.name, fn, arg);
	}
}
