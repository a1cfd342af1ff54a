/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * note.h - diagnostic lines of a test program, flushed at once (the
 * harness forks, and the runner timestamps what it reads):
 *
 *	# <note>
 *	# METRIC <device or -> <key>=<value>
 *
 * The runner collects metrics into summary.json with their units.
 */
#ifndef DEVPM_NOTE_H
#define DEVPM_NOTE_H

void devpm_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void devpm_metric(const char *dev, const char *key, double value);

#endif
