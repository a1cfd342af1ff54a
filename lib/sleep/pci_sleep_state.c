// SPDX-License-Identifier: GPL-2.0-only
/*
 * pci_sleep_state.c - the D-state system sleep left each PCI device in
 * (pci_sleep_state.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sleep/pci_sleep_state.h"
#include "core/error.h"
#include "core/path_trust.h"
#include "core/sysfs.h"
#include "state/journal.h"

#define STATE_MARK	": PCI PM: Suspend power state: "
#define SAVE_MARK	": saving config space at offset "
/* pm_print_times' line as the device's noirq callback starts. */
#define NOIRQ_MARK	": PM: calling pci_pm_suspend_noirq+"

static const char *const state_names[] = {
	"D0", "D1", "D2", "D3hot", "D3cold",
};

const char *devpm_pci_sleep_state_name(int state)
{
	if (state < 0 || state > 4)
		return "none";
	return state_names[state];
}

/* The dynamic debug sites devpm turns on. */
static const struct {
	const char *file, *func, *fmt;
} sites[] = {
	{ "drivers/pci/pci-driver.c", "pci_pm_suspend_noirq",
	  "PCI PM: Suspend power state" },
	{ "drivers/pci/pci.c", "pci_save_state", "saving config space" },
};

#define NSITES	(sizeof(sites) / sizeof(sites[0]))

/*
 * One control line: "drivers/pci/pci.c:1784 [pci]pci_save_state =_
 * \"saving config space ...\"".  The site's index with its line number
 * and flags, or -1.
 */
static int site_of(const char *l, unsigned int *lineno, char *flags,
		   size_t flen)
{
	const char *b, *f;
	size_t i, n;

	for (i = 0; i < NSITES; i++) {
		n = strlen(sites[i].file);
		if (strncmp(l, sites[i].file, n) || l[n] != ':' ||
		    !strstr(l, sites[i].fmt))
			continue;
		b = strchr(l, ']');
		if (sscanf(l + n + 1, "%u", lineno) != 1 || !b)
			continue;
		b++;
		n = strlen(sites[i].func);
		if (strncmp(b, sites[i].func, n) || strncmp(b + n, " =", 2))
			continue;
		f = b + n + 2;
		n = strcspn(f, "\n ");
		if (!n || n >= flen)
			continue;
		memcpy(flags, f, n);
		flags[n] = '\0';
		return (int)i;
	}
	return -1;
}

int devpm_pci_sleep_dbg_on(char *why, size_t len)
{
	char path[DEVPM_PATH_MAX], dir[DEVPM_PATH_MAX], line[1024];
	char flags[NSITES][16], fl[16], cmd[160];
	unsigned int lineno[NSITES], ln;
	bool found[NSITES] = { false };
	size_t i, nfound = 0;
	int dfd, fd, s, r = 0;
	char *slash;
	FILE *f;

	if (devpm_real_path(path, sizeof(path), DEVPM_DYNDBG_CONTROL)) {
		snprintf(why, len, "%s", devpm_error());
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	dfd = devpm_path_trust_open(dir, DEVPM_TRUST_DIR, 0, 0, NULL, 0);
	if (dfd == -ENOENT || dfd == -ENOTDIR) {
		snprintf(why, len, "no %s (CONFIG_DYNAMIC_DEBUG, debugfs mounted)",
			 path);
		return 1;
	}
	if (dfd < 0) {
		snprintf(why, len, "dynamic debug refused: %s", devpm_error());
		return -1;
	}
	fd = devpm_path_trust_file(dfd, "control", O_RDONLY, 0, 0);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		close(dfd);
		snprintf(why, len, "%s/control unreadable: %s", dir,
			 fd == -ENOENT ? "missing" : devpm_error());
		return fd == -ENOENT ? 1 : -1;
	}
	while (nfound < NSITES && fgets(line, sizeof(line), f)) {
		s = site_of(line, &ln, fl, sizeof(fl));
		if (s < 0 || found[s])
			continue;
		lineno[s] = ln;
		memcpy(flags[s], fl, sizeof(fl));
		found[s] = true;
		nfound++;
	}
	fclose(f);
	for (i = 0; i < NSITES && found[i]; i++)
		;
	if (i < NSITES) {
		close(dfd);
		snprintf(why, len, "%s has no %s:%s site (\"%s\")", path,
			 sites[i].file, sites[i].func, sites[i].fmt);
		return 1;
	}
	for (i = 0; i < NSITES && !r; i++) {
		if (strchr(flags[i], 'p'))
			continue;
		/* The old flags first: the restore writes them back. */
		snprintf(cmd, sizeof(cmd), "file %s line %u =%s",
			 sites[i].file, lineno[i], flags[i]);
		r = devpm_journal_undo_write(DEVPM_DYNDBG_CONTROL, cmd);
		if (r) {
			snprintf(why, len, "%s", devpm_error());
			break;
		}
		snprintf(cmd, sizeof(cmd), "file %s line %u +p\n",
			 sites[i].file, lineno[i]);
		fd = devpm_path_trust_file(dfd, "control", O_WRONLY, 0, 0);
		if (fd < 0 || write(fd, cmd, strlen(cmd)) < 0) {
			r = fd < 0 ? fd : -errno;
			snprintf(why, len, "%s/control: %s: %s", dir, cmd,
				 fd < 0 ? devpm_error() : strerror(-r));
		}
		if (fd >= 0)
			close(fd);
	}
	close(dfd);
	return r ? -1 : 0;
}

/*
 * "<driver> <dev>: <mark>...": dev and driver copied, the text after
 * the mark returned; NULL when the line is not one.
 */
static const char *dev_line(const char *line, const char *mark, char *dev,
			    size_t dlen, char *drv, size_t rlen)
{
	const char *at = strstr(line, mark), *sp = strchr(line, ' ');

	if (!at || !sp || sp > at || (size_t)(sp - line) >= rlen ||
	    (size_t)(at - sp - 1) >= dlen || at == sp + 1)
		return NULL;
	memcpy(drv, line, sp - line);
	drv[sp - line] = '\0';
	memcpy(dev, sp + 1, at - sp - 1);
	dev[at - sp - 1] = '\0';
	if (strchr(dev, ' '))
		return NULL;
	return at + strlen(mark);
}

static struct devpm_pci_sleep_seen *entry(struct devpm_pci_sleep_log *l,
					  const char *dev, const char *drv)
{
	struct devpm_pci_sleep_seen *s;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].dev, dev))
			return &l->v[i];
	if (l->n >= DEVPM_PCI_SLEEP_MAX)
		return NULL;
	s = &l->v[l->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->dev, sizeof(s->dev), "%s", dev);
	snprintf(s->driver, sizeof(s->driver), "%s", drv);
	s->state = -1;
	s->expect = -1;
	return s;
}

void devpm_pci_sleep_line(const char *line, void *arg)
{
	struct devpm_pci_sleep_log *l = arg;
	struct devpm_pci_sleep_seen *s;
	char dev[32], drv[64];
	const char *rest;
	size_t i, n;

	rest = dev_line(line, STATE_MARK, dev, sizeof(dev), drv, sizeof(drv));
	if (rest) {
		s = entry(l, dev, drv);
		if (!s)
			return;
		n = strcspn(rest, "\n ");
		for (i = 0; i < 5; i++)
			if (strlen(state_names[i]) == n &&
			    !strncmp(rest, state_names[i], n))
				s->state = (int)i;
		return;
	}
	if (dev_line(line, NOIRQ_MARK, dev, sizeof(dev), drv, sizeof(drv))) {
		s = entry(l, dev, drv);
		if (s)
			s->noirq = true;
		return;
	}
	if (dev_line(line, SAVE_MARK, dev, sizeof(dev), drv, sizeof(drv))) {
		s = entry(l, dev, drv);
		if (s && !s->noirq)
			s->saved_early = true;
	}
}

const struct devpm_pci_sleep_seen *
devpm_pci_sleep_find(const struct devpm_pci_sleep_log *l, const char *dev)
{
	size_t i;

	for (i = 0; l && i < l->n; i++)
		if (!strcmp(l->v[i].dev, dev))
			return &l->v[i];
	return NULL;
}

#define PMC_VERSION(pmc)	((pmc) & 0x7)
#define PMC_PME(pmc)		(((pmc) >> 11) & 0x1f)

int devpm_pci_sleep_expect(const struct devpm_pci_sleep_facts *f,
			   char *why_not, size_t len)
{
	unsigned int pme = PMC_PME(f->pmc);
	int state;

	if (f->saved_early) {
		snprintf(why_not, len, "its driver saved its state itself: it chose its state");
		return -1;
	}
	if (f->bridge) {
		snprintf(why_not, len, "a bridge: D0 while a child is (skip_bus_pm)");
		return -1;
	}
	if (f->platform) {
		snprintf(why_not, len, "the platform chooses its state (platform_pci_choose_state())");
		return -1;
	}
	if (!f->pm_cap || PMC_VERSION(f->pmc) > 3) {
		snprintf(why_not, len, "no PM capability the kernel uses");
		return -1;
	}
	/* drivers/pci/pci.c: pci_target_state() */
	if (f->wakeup && pme) {
		for (state = 3; state && !(pme & (1u << state)); state--)
			;
		if (state)
			return state;
		if (pme & 1)
			return 0;
	}
	return 3;
}

int devpm_pci_sleep_judge(const struct devpm_pci_sleep_seen *s, char *why,
			  size_t len)
{
	if (!s || s->expect < 0 || s->state < 0 || s->state >= s->expect)
		return 0;
	snprintf(why, len, "%s (%s): left in %s by system sleep (pci_prepare_to_sleep()), expected %s",
		 s->dev, s->driver, devpm_pci_sleep_state_name(s->state),
		 devpm_pci_sleep_state_name(s->expect));
	return 1;
}

void devpm_pci_sleep_facts_read(const char *dev,
				struct devpm_pci_sleep_facts *f)
{
	char path[DEVPM_PATH_MAX], val[32];

	snprintf(path, sizeof(path),
		 "/sys/bus/pci/devices/%s/firmware_node/power_state", dev);
	f->platform = devpm_exists(path);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/power/wakeup",
		 dev);
	f->wakeup = !devpm_read_str(path, val, sizeof(val)) &&
		    !strcmp(val, "enabled");
}
