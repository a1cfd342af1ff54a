/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module_load.h - load a kernel module for a test and unload it
 * afterwards: the unload and that of every module it pulled in journaled
 * (journal.h "M" records), delete_module(2) when the journal is restored.
 */
#ifndef DEVPM_MODULE_LOAD_H
#define DEVPM_MODULE_LOAD_H

/*
 * Load a module if not loaded (modprobe module params, no shell),
 * journaling its removal (delete_module, O_NONBLOCK) and that of every
 * module /proc/modules gained meanwhile (its dependencies), unloaded
 * newest first.
 * -ENOENT with modprobe's complaint when it fails.  Under a sysfs root
 * nothing is loaded: a module absent from the tree is -ENOENT.
 */
int devpm_module_load(const char *module, const char *params);

/*
 * devpm_module_load() for devpm's own modules (fixtures/: no modprobe.d
 * options are theirs): when modules.dep lists it as a plain .ko that
 * needs no other module, finit_module(2) loads that file without a
 * modprobe process, ~8 ms less a load under TCG (the fixture loads
 * devpm_mock 32 times a run).  Otherwise, and under a sysfs root,
 * devpm_module_load().  The unload is journaled.
 */
int devpm_module_insert(const char *module, const char *params);

/* Journal module and what the diff says came with it (oldest first). */
int devpm_journal_loaded_modules(const char *module, const char *before,
				 const char *after);

#endif
