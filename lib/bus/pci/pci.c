// SPDX-License-Identifier: GPL-2.0-only
/*
 * pci.c - PCI config space through libpci (pci.h).
 *
 * libpci reports fatal errors through a callback that must not return:
 * ours longjmp()s back to the call that started the libpci operation, so
 * an unreadable device is an error code here, never an exit().  Warnings
 * (a failed config read) are remembered and turned into errors too:
 * libpci itself would hand back 0xff bytes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pci/pci.h>

#include "bus/pci/pci.h"
#include "core/sysfs.h"

struct devpm_pci {
	struct pci_access *a;
};

static __thread jmp_buf *pci_jmp;
static __thread char pci_msg[256];
static __thread bool pci_warned;

static void __attribute__((noreturn)) pci_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof(pci_msg), msg, ap);
	va_end(ap);
	if (pci_jmp)
		longjmp(*pci_jmp, 1);
	/* Only reached if a libpci call was made outside PCI_TRY. */
	fprintf(stderr, "devpm: libpci: %s\n", pci_msg);
	abort();
}

static void pci_warning(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof(pci_msg), msg, ap);
	va_end(ap);
	pci_warned = true;
}

static void pci_debug(char *msg, ...)
{
	(void)msg;
}

struct devpm_pci *devpm_pci_open(void)
{
	char path[DEVPM_PATH_MAX];
	struct devpm_pci *p;
	jmp_buf jb;

	if (devpm_real_path(path, sizeof(path), "/sys/bus/pci") < 0)
		return NULL;
	if (!devpm_exists("/sys/bus/pci/devices")) {
		devpm_fail(ENOENT, "%s/devices: no PCI bus in sysfs", path);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		devpm_fail(ENOMEM, "out of memory");
		return NULL;
	}
	p->a = pci_alloc();
	if (!p->a) {
		free(p);
		devpm_fail(ENOMEM, "libpci: pci_alloc failed");
		return NULL;
	}
	p->a->error = pci_error;
	p->a->warning = pci_warning;
	p->a->debug = pci_debug;
	p->a->method = PCI_ACCESS_SYS_BUS_PCI;
	if (setjmp(jb)) {
		pci_jmp = NULL;
		devpm_fail(EIO, "libpci: %s", pci_msg);
		/* pci_cleanup() could call error() again; leak it instead. */
		free(p);
		return NULL;
	}
	pci_jmp = &jb;
	if (pci_set_param(p->a, "sysfs.path", path))
		pci_error("no sysfs.path parameter in this libpci");
	pci_init(p->a);
	pci_jmp = NULL;
	return p;
}

void devpm_pci_close(struct devpm_pci *p)
{
	if (!p)
		return;
	pci_cleanup(p->a);
	free(p);
}

int devpm_pci_parse_name(const char *name, int *domain, int *bus, int *dev,
			 int *func)
{
	unsigned int d, b, s, f;
	int n = -1;

	if (sscanf(name, "%x:%x:%x.%x%n", &d, &b, &s, &f, &n) != 4 ||
	    n < 0 || name[n] || d > 0xffff || b > 0xff || s > 0x1f || f > 7)
		return devpm_fail(EINVAL,
				  "'%s' is not a PCI device name (like 0000:00:1f.3)",
				  name);
	*domain = d;
	*bus = b;
	*dev = s;
	*func = f;
	return 0;
}

/* Config file of a device: its absence means no such device. */
static int pci_dev_exists(const char *name)
{
	char kpath[DEVPM_PATH_MAX];
	int r;

	r = devpm_fmt(kpath, sizeof(kpath), "/sys/bus/pci/devices/%s/config",
		      name);
	if (r < 0)
		return r;
	if (!devpm_exists(kpath))
		return devpm_fail(ENOENT, "no PCI device %s", name);
	return 0;
}

/* Check the name before any libpci call: libpci cannot say "no such". */
static int pci_check(const char *name, int *domain, int *bus, int *dev,
		     int *func)
{
	int r;

	r = devpm_pci_parse_name(name, domain, bus, dev, func);
	if (r < 0)
		return r;
	return pci_dev_exists(name);
}

/*
 * The PM capability of d: offset, or 0 if none.  Fails when the reads of
 * the capability list failed (a non-root reader gets 64 bytes only).
 */
static int pci_pm_cap(struct pci_dev *d, const char *name)
{
	struct pci_cap *cap;
	u8 head[256];

	/* libpci reads a short config file as 0xff, without a warning. */
	pci_msg[0] = '\0';
	pci_warned = false;
	if (!pci_read_block(d, 0, head, sizeof(head)))
		pci_warned = true;
	else
		pci_fill_info(d, PCI_FILL_CAPS);
	if (pci_warned)
		return devpm_fail(geteuid() ? EACCES : EIO,
				  "%s: capability list unreadable%s%s%s", name,
				  geteuid() ? " (config space beyond 64 bytes needs root)" : "",
				  pci_msg[0] ? ": " : "", pci_msg);
	cap = pci_find_cap(d, PCI_CAP_ID_PM, PCI_CAP_NORMAL);
	return cap ? cap->addr : 0;
}

int devpm_pci_info(struct devpm_pci *p, const char *name,
		   struct devpm_pci_info *info)
{
	struct pci_dev *volatile d = NULL;
	int domain, bus, dev, func;
	jmp_buf jb;
	int r;

	memset(info, 0, sizeof(*info));
	r = pci_check(name, &domain, &bus, &dev, &func);
	if (r < 0)
		return r;
	if (setjmp(jb)) {
		pci_jmp = NULL;
		if (d)
			pci_free_dev(d);
		return devpm_fail(EIO, "%s: libpci: %s", name, pci_msg);
	}
	pci_jmp = &jb;
	d = pci_get_dev(p->a, domain, bus, dev, func);
	pci_warned = false;
	pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_CLASS_EXT);
	if (pci_warned) {
		r = devpm_fail(EIO, "%s: %s", name, pci_msg);
		goto out;
	}
	info->vendor = d->vendor_id;
	info->device = d->device_id;
	info->class_code = d->device_class;
	info->prog_if = d->prog_if;
	info->bridge = (pci_read_byte(d, PCI_HEADER_TYPE) & 0x7f) ==
		       PCI_HEADER_TYPE_BRIDGE;
	r = pci_pm_cap(d, name);
	if (r < 0)
		goto out;
	info->pm_cap = r;
	if (r) {
		info->pmc = pci_read_word(d, r + PCI_CAP_FLAGS);
		info->d3hot_pme = info->pmc & PCI_PM_CAP_PME_D3_HOT;
	}
	r = 0;
out:
	pci_free_dev(d);
	pci_jmp = NULL;
	return r;
}

void devpm_pci_names(struct devpm_pci *p, struct devpm_pci_info *info)
{
	jmp_buf jb;

	if (setjmp(jb)) {
		pci_jmp = NULL;
		fprintf(stderr, "devpm: pci.ids: %s\n", pci_msg);
		snprintf(info->class_name, sizeof(info->class_name),
			 "Class %04x", info->class_code);
		snprintf(info->name, sizeof(info->name), "Device %04x:%04x",
			 info->vendor, info->device);
		return;
	}
	pci_jmp = &jb;
	pci_lookup_name(p->a, info->class_name, sizeof(info->class_name),
			PCI_LOOKUP_CLASS, info->class_code);
	pci_lookup_name(p->a, info->name, sizeof(info->name),
			PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE, info->vendor,
			info->device);
	pci_jmp = NULL;
}

int devpm_pci_pmcsr(struct devpm_pci *p, const char *name,
		    unsigned int *pmcsr)
{
	struct pci_dev *volatile d = NULL;
	int domain, bus, dev, func;
	jmp_buf jb;
	unsigned int v;
	int r;

	r = pci_check(name, &domain, &bus, &dev, &func);
	if (r < 0)
		return r;
	if (setjmp(jb)) {
		pci_jmp = NULL;
		if (d)
			pci_free_dev(d);
		return devpm_fail(EIO, "%s: libpci: %s", name, pci_msg);
	}
	pci_jmp = &jb;
	d = pci_get_dev(p->a, domain, bus, dev, func);
	r = pci_pm_cap(d, name);
	if (r == 0)
		r = devpm_fail(ENODEV, "%s: no PM capability", name);
	if (r < 0)
		goto out;
	pci_warned = false;
	v = pci_read_word(d, r + PCI_PM_CTRL);
	if (pci_warned) {
		r = devpm_fail(EIO, "%s: PMCSR read failed: %s", name, pci_msg);
		goto out;
	}
	if (pmcsr)
		*pmcsr = v;
	/* A function in D3cold (or gone) answers config reads with ~0. */
	r = v == 0xffff ? DEVPM_PCI_D3COLD : (int)(v & PCI_PM_CTRL_STATE_MASK);
out:
	pci_free_dev(d);
	pci_jmp = NULL;
	return r;
}

int devpm_pci_read_config(struct devpm_pci *p, const char *name, void *buf,
			  size_t len)
{
	struct pci_dev *volatile d = NULL;
	int domain, bus, dev, func;
	jmp_buf jb;
	int r;

	if (len > 4096)
		return devpm_fail(EINVAL, "%s: config space is 4096 bytes",
				  name);
	r = pci_check(name, &domain, &bus, &dev, &func);
	if (r < 0)
		return r;
	if (setjmp(jb)) {
		pci_jmp = NULL;
		if (d)
			pci_free_dev(d);
		return devpm_fail(EIO, "%s: libpci: %s", name, pci_msg);
	}
	pci_jmp = &jb;
	d = pci_get_dev(p->a, domain, bus, dev, func);
	r = 0;
	pci_warned = false;
	if (!pci_read_block(d, 0, buf, len) || pci_warned)
		r = devpm_fail(EIO, "%s: config read of %zu bytes failed: %s",
			       name, len, pci_msg);
	pci_free_dev(d);
	pci_jmp = NULL;
	return r;
}

static const char *const dstate_names[] = {
	"D0", "D1", "D2", "D3hot", "D3cold",
};

const char *devpm_pci_dstate_name(int state)
{
	if (state < 0 || state > DEVPM_PCI_D3COLD)
		return "unknown";
	return dstate_names[state];
}

int devpm_pci_dstate_parse(const char *s)
{
	int i;

	for (i = 0; i <= DEVPM_PCI_D3COLD; i++)
		if (!strcmp(s, dstate_names[i]))
			return i;
	return -1;
}
