/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module.h - kernel modules without the journal (after LTP's
 * tst_module.c, IGT's igt_kmod.c): names, modprobe without a shell,
 * finit_module(2) of a plain .ko, delete_module(2).  Loading for a test,
 * with the unload journaled, is module_load.h; the journal's restore
 * unloads with devpm_module_unload().
 */
#ifndef DEVPM_MODULE_H
#define DEVPM_MODULE_H

#include <stdbool.h>
#include <stddef.h>

/* Longest module name devpm handles, with its NUL (MODULE_NAME_LEN). */
#define DEVPM_MODULE_NAME_MAX 64

/* Letters, digits, '_' and '-' only, not empty: safe on a command line. */
bool devpm_module_name_ok(const char *module);

/*
 * The kernel's name of module ('-' as '_') into name; -EINVAL with
 * devpm_error() for a bad or too long name.
 */
int devpm_module_kernel_name(const char *module, char *name, size_t len);

/* Is it loaded (or built in)?  '-' and '_' alike, as modprobe takes them. */
bool devpm_module_loaded(const char *module);

/* /proc/modules, whole, malloc'd (NULL when unreadable). */
char *devpm_module_list(void);

/* modprobe module params...: 0, or -ENOENT with its complaint as error. */
int devpm_modprobe(const char *module, const char *params);

/*
 * finit_module(2) of module name's file (root's, only root may write it)
 * when modules.dep lists it as a plain .ko needing no other: 0 loaded, 1
 * not such a file here (modprobe it), -errno with devpm_error() when the
 * kernel refused it.
 */
int devpm_module_finit(const char *name, const char *params);

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

#endif
