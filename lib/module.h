/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module.h - load a kernel module for a test and unload it afterwards
 * (after LTP's tst_module.c, IGT's igt_kmod.c): modprobe without a shell,
 * the unload and that of every module it pulled in journaled (journal.h
 * "M" records), delete_module(2) when the journal is restored.
 */
#ifndef DEVPM_MODULE_H
#define DEVPM_MODULE_H

#include <stdbool.h>
#include <stddef.h>

/* Longest module name devpm handles, with its NUL (MODULE_NAME_LEN). */
#define DEVPM_MODULE_NAME_MAX 64

/* Letters, digits, '_' and '-' only, not empty: safe on a command line. */
bool devpm_module_name_ok(const char *module);

/* Is it loaded (or built in)?  '-' and '_' alike, as modprobe takes them. */
bool devpm_module_loaded(const char *module);

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
 * needs no other module, finit_module(2) loads that file (root's, only
 * root may write it) without a modprobe process, ~8 ms less a load under
 * TCG (the fixture loads devpm_mock 32 times a run).  Otherwise, and
 * under a sysfs root, devpm_module_load().  The unload is journaled.
 */
int devpm_module_insert(const char *module, const char *params);

/*
 * The path of module name ('_' for '-') in a modules.dep text, into rel:
 * 1 when it is listed as a plain .ko (not compressed) that needs no other
 * module, its path relative and without "..", shorter than len; else 0.
 */
int devpm_module_dep_plain(const char *dep, const char *name, char *rel,
			   size_t len);

/*
 * Unload a module (delete_module, O_NONBLOCK: never waits for its users);
 * 0 when it is gone or the kernel has no modules, else -errno
 * (devpm_error() says why).  Only system calls and snprintf: the journal
 * restores from a signal handler.
 */
int devpm_module_unload(const char *module);

/*
 * Modules listed in after (/proc/modules text) and not in before, in
 * after's order (newest first); returns how many (at most max).
 */
int devpm_module_diff(const char *before, const char *after,
		      char names[][64], int max);
/* Journal module and what the diff says came with it (oldest first). */
int devpm_journal_loaded_modules(const char *module, const char *before,
				 const char *after);

#endif
