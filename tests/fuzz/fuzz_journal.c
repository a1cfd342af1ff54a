// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_journal.c - the journal's reading of its own file
 * (lib/state/journal_restore.c, as `devpm restore` reads what a killed run
 * left).
 *
 * Each record is checked and carried out in one step (restore_record()
 * in lib/state/journal_restore.c): there is no parse apart.  So
 * this harness goes through the public devpm_journal_restore_all(), which
 * executes what it parses, and confines it:
 *   - as root it first becomes nobody (65534): no module is unloaded, no
 *     file but its own is written, unlinked or removed;
 *   - every record's path is moved under a scratch directory of its own,
 *     and a record whose path holds ".." is dropped, so that even
 *     nobody's writable files (/proc/self/..., /dev/...) are not touched;
 *   - the journal opens with the line of that scratch tree (its device
 *     and inode), the sysfs root of the harness: "W /sys/x" records are
 *     carried out in the tree.
 * The record syntax (type letter, space, '/', tab, value, newline, a cut
 * last line) is fuzzed all the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/sysfs.h"
#include "state/journal.h"
#include "fuzz.h"

static char scratch[64], journal[128], header[256];

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* The journal's own exit hook restores first: registered before it. */
static void cleanup(void)
{
	nftw(scratch, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[128];
	struct stat st;
	int fd;

	(void)argc;
	(void)argv;
	if (geteuid() == 0 && (setgroups(0, NULL) || setgid(65534) ||
			       setuid(65534) || !setuid(0))) {
		fprintf(stderr, "fuzz_journal: cannot drop root to nobody: %s\n",
			strerror(errno));
		exit(2);
	}
	snprintf(scratch, sizeof(scratch), "/tmp/devpm-fuzz-journal-XXXXXX");
	if (!mkdtemp(scratch)) {
		fprintf(stderr, "fuzz_journal: mkdtemp: %s\n", strerror(errno));
		exit(2);
	}
	atexit(cleanup);
	snprintf(path, sizeof(path), "%s/j", scratch);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/t", scratch);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/t/sys", scratch);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/t/sys/t", scratch);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/t/sys/t/knob", scratch);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd >= 0)
		close(fd);
	snprintf(journal, sizeof(journal), "%s/j/journal", scratch);
	snprintf(path, sizeof(path), "%s/t", scratch);
	if (devpm_set_sysfs_root(path) || stat(path, &st)) {
		fprintf(stderr, "fuzz_journal: %s: %s\n", path, devpm_error());
		exit(2);
	}
	snprintf(header, sizeof(header), "R %s\t%llu:%llu\n", devpm_sysfs_root(),
		 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	snprintf(path, sizeof(path), "%s/j", scratch);
	setenv("DEVPM_JOURNAL_DIR", path, 1);
	return 0;
}

/* The input with each record's path put under scratch/t. */
static size_t confine(const char *in, char *out)
{
	const char *line = in, *nl;
	size_t o = 0, n;

	while (*line) {
		nl = strchr(line, '\n');
		n = nl ? (size_t)(nl - line) + 1 : strlen(line);
		if (memmem(line, n, "/..", 3)) {
			line += n;
			continue;
		}
		if (n > 2 && line[1] == ' ' && line[2] == '/') {
			memcpy(out + o, line, 2);
			o += 2;
			o += sprintf(out + o, "%s/t", scratch);
			memcpy(out + o, line + 2, n - 2);
			o += n - 2;
		} else {
			memcpy(out + o, line, n);
			o += n;
		}
		line += n;
	}
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_text(data, size);
	/* Each line grows by at most the scratch prefix. */
	char *out = malloc(size * (sizeof(scratch) + 3) + 1);
	size_t n;
	int fd;

	if (!out)
		abort();
	n = confine(text, out);
	fd = open(journal, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, header, strlen(header)) != (ssize_t)strlen(header) ||
	    write(fd, out, n) != (ssize_t)n) {
		fprintf(stderr, "fuzz_journal: %s: %s\n", journal,
			strerror(errno));
		abort();
	}
	close(fd);
	devpm_journal_restore_all();
	free(out);
	free(text);
	return 0;
}
