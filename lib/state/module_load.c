// SPDX-License-Identifier: GPL-2.0-only
/*
 * module_load.c - load a module for a test, journal its unload and that
 * of the modules it pulled in (module_load.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/module_load.h"
#include "core/module.h"
#include "core/sysfs.h"
#include "state/journal.h"

int devpm_journal_loaded_modules(const char *module, const char *before,
				 const char *after)
{
	char names[64][64];
	bool named = false;
	int n, i, r;

	n = devpm_module_diff(before, after, names, 64);
	for (i = 0; i < n; i++)
		named |= !strcmp(names[i], module);
	/* Loaded by someone else meanwhile, yet ours to unload: last. */
	if (!named) {
		r = devpm_journal_undo_module(module);
		if (r)
			return r;
	}
	/*
	 * The kernel lists the newest module first and loads a module's
	 * dependencies before it; restore walks backwards: journaled oldest
	 * first, unloaded newest first.
	 */
	for (i = n - 1; i >= 0; i--) {
		r = devpm_journal_undo_module(names[i]);
		if (r)
			return r;
	}
	return 0;
}

int devpm_module_insert(const char *module, const char *params)
{
	char name[DEVPM_MODULE_NAME_MAX];
	int r;

	if (devpm_module_kernel_name(module, name, sizeof(name)))
		return -EINVAL;
	if (devpm_module_loaded(name) || devpm_sysfs_root()[0])
		return devpm_module_load(module, params);
	r = devpm_module_finit(name, params);
	if (r == 1)
		return devpm_module_load(module, params);
	return r ? r : devpm_journal_undo_module(name);
}

int devpm_module_load(const char *module, const char *params)
{
	char name[64], kpath[DEVPM_PATH_MAX], *before, *after;
	int r;

	if (devpm_module_kernel_name(module, name, sizeof(name)))
		return -EINVAL;
	if (devpm_module_loaded(name))
		return 0;
	if (devpm_sysfs_root()[0])
		return devpm_fail(ENOENT, "module %s is not loaded in the recorded tree %s (a tree cannot load modules)",
				  name, devpm_sysfs_root());
	before = devpm_module_list();
	r = devpm_modprobe(module, params);
	after = r ? NULL : devpm_module_list();
	/* Built in (no initstate): loaded, but nothing to unload. */
	snprintf(kpath, sizeof(kpath), "/sys/module/%s/initstate", name);
	if (!r && devpm_exists(kpath))
		r = before && after ?
			devpm_journal_loaded_modules(name, before, after) :
			devpm_journal_undo_module(name);
	free(before);
	free(after);
	return r;
}
