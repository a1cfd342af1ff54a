/* SPDX-License-Identifier: GPL-2.0-only */
/* version.h - devpm's version, in every result file it writes. */
#ifndef DEVPM_VERSION_H
#define DEVPM_VERSION_H

#define DEVPM_VERSION "0.1.0"

#endif
