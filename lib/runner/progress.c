// SPDX-License-Identifier: GPL-2.0-only
/* progress.c - the runner's live line and heartbeats (progress.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"

bool rn_progress_live(int fd)
{
	const char *term = getenv("TERM");

	return isatty(fd) && term && term[0] && strcmp(term, "dumb");
}

void rn_progress_init(struct rn_progress *pg, FILE *out, bool tty)
{
	memset(pg, 0, sizeof(*pg));
	pg->out = out;
	pg->tty = tty;
	pg->every_s = tty ? RN_HEARTBEAT_TTY_S : RN_HEARTBEAT_LOG_S;
}

void rn_progress_text(const struct rn_progress *pg, const char *kase,
		      unsigned int done, uint64_t now_us, char *buf,
		      size_t len)
{
	int w = snprintf(NULL, 0, "%zu", pg->n);
	uint64_t s = now_us > pg->start_us ? (now_us - pg->start_us) / 1000000 :
		     0;
	int k;

	k = snprintf(buf, len, "[%*zu/%zu] %s: ", w, pg->i + 1, pg->n,
		     pg->name);
	if (k < 0 || (size_t)k >= len)
		return;
	if (!s) {
		snprintf(buf + k, len - k, "running (timeout %d s)",
			 pg->timeout_s);
		return;
	}
	k += snprintf(buf + k, len - k, "%llu s of %d s",
		      (unsigned long long)s, pg->timeout_s);
	if ((size_t)k < len && kase && kase[0])
		k += snprintf(buf + k, len - k, ", in case %s", kase);
	if ((size_t)k < len)
		snprintf(buf + k, len - k, ", %u case%s done", done,
			 done == 1 ? "" : "s");
}

static void put(struct rn_progress *pg, const char *text)
{
	if (pg->tty) {
		/* Back to the line's start, the line erased. */
		fprintf(pg->out, "\r\033[K%s", text);
		pg->live = true;
	} else {
		fprintf(pg->out, "  ... %s\n", text);
	}
	fflush(pg->out);
}

void rn_progress_start(struct rn_progress *pg, size_t i, size_t n,
		       const char *name, int timeout_s, uint64_t now_us)
{
	char text[512];

	pg->i = i;
	pg->n = n;
	snprintf(pg->name, sizeof(pg->name), "%s", name);
	pg->timeout_s = timeout_s;
	pg->start_us = now_us;
	pg->next_us = now_us + pg->every_s * 1000000ULL;
	if (!pg->tty)
		return;
	rn_progress_text(pg, NULL, 0, now_us, text, sizeof(text));
	put(pg, text);
}

void rn_progress_tick(struct rn_progress *pg, const char *kase,
		      unsigned int done, uint64_t now_us)
{
	char text[512];

	if (!pg->out || !pg->start_us || now_us < pg->next_us)
		return;
	pg->next_us += pg->every_s * 1000000ULL;
	if (pg->next_us <= now_us)
		pg->next_us = now_us + pg->every_s * 1000000ULL;
	rn_progress_text(pg, kase, done, now_us, text, sizeof(text));
	put(pg, text);
}

void rn_progress_end(struct rn_progress *pg)
{
	if (pg->live) {
		fputs("\r\033[K", pg->out);
		fflush(pg->out);
	}
	pg->live = false;
	pg->start_us = 0;
}
