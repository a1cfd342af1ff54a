// SPDX-License-Identifier: GPL-2.0-only
/* path_trust.c - opening paths devpm did not make (path_trust.h). */
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "core/path_trust.h"

int devpm_path_trust_beneath(int dfd, const char *rel, int flags)
{
	struct open_how how = {
		.flags = flags | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};

	return syscall(SYS_openat2, dfd, rel, &how, sizeof(how));
}
