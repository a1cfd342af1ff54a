// SPDX-License-Identifier: GPL-2.0-only
/*
 * agent.c - devpm-qemu-agent: runs QEMU and stays with it to the end.
 *
 *	devpm-qemu-agent [options] -- qemu-system-x86_64 ARGS...
 *	devpm-qemu-agent --summary summary.json
 *
 * In the run directory it listens on qmp.sock, console.sock, agent.sock
 * and results.sock; QEMU connects to them as a client (run.sh builds the
 * -chardev options).  Then, until QEMU is gone:
 *  - console: saved to console.log and echoed (the runner's progress
 *    lines); kernel crash lines are remembered, a panic ends the run;
 *  - results: the runner's record stream, saved to stream.log as it comes;
 *  - agent: the guest's requests (lib/core/host.h), answered through QMP
 *    (serve.c, which also wakes a sleeping guest);
 *  - watchdog: a run must start within --boot-timeout, a program must not
 *    stay silent longer than its timeout plus --margin, the whole run
 *    must end within --timeout; else QMP quit, then SIGKILL.
 * It writes the outcome (status, crash text, boot_s, first_test_s, run_s,
 * wall_s) to the file "outcome" for run.sh, which rebuilds results/ with
 * `devpm collect`.
 *
 * Exit: 0 the stream is complete, 1 the guest crashed or hung, 2 QEMU
 * did not start or bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "qmp.h"
#include "state.h"

static const char *const chan_sock[CH_N] = {
	"console.sock", "results.sock", "agent.sock", "qmp.sock"
};

static volatile sig_atomic_t interrupted;

static int listen_on(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(fd, 1)) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

static int spawn_qemu(struct agent *a, char **argv)
{
	int pipefd[2], devnull;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	a->qemu = fork();
	if (a->qemu < 0)
		return -errno;
	if (!a->qemu) {
		/*
		 * Its own process group: a terminal ^C reaches the agent,
		 * which ends QEMU properly; dies with the agent.
		 */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		devnull = open("/dev/null", O_RDWR);
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(pipefd[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	a->qemu_err = pipefd[0];
	a->t0 = now_us();
	a->t_last = a->t0;
	return 0;
}

static void reap(struct agent *a)
{
	int st;

	if (a->qemu_gone || waitpid(a->qemu, &st, WNOHANG) != a->qemu)
		return;
	a->qemu_gone = true;
	a->qemu_status = st;
	logf_(a, "qemu exited: %s %d",
	      WIFEXITED(st) ? "status" : "signal",
	      WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

/* Accept QEMU's connections: the console always, the rest unless probing. */
static int accept_all(struct agent *a)
{
	uint64_t end = now_us() + 20000000;
	int need = a->probe_s ? 1 : CH_N, have = 0, i;

	while (have < need) {
		struct pollfd p[CH_N];
		int n = 0;

		for (i = 0; i < CH_N; i++) {
			p[i].fd = a->fd[i] < 0 ? a->lfd[i] : -1;
			p[i].events = POLLIN;
		}
		n = poll(p, CH_N, 100);
		for (i = 0; n > 0 && i < CH_N; i++) {
			if (!(p[i].revents & POLLIN))
				continue;
			a->fd[i] = accept4(a->lfd[i], NULL, NULL, SOCK_CLOEXEC);
			if (a->fd[i] >= 0 && (i == CH_CONSOLE || !a->probe_s))
				have++;
		}
		reap(a);
		if (a->qemu_gone || interrupted || now_us() > end)
			return -1;
	}
	return 0;
}

static void remember_crash(struct agent *a, const char *line)
{
	const char *s = strstr(line, "] ");
	size_t o = strlen(a->crash);

	/* Without the printk timestamp. */
	s = line[0] == '[' && s ? s + 2 : line;
	if (o && o + 3 < sizeof(a->crash))
		o += snprintf(a->crash + o, sizeof(a->crash) - o, "; ");
	if (o + 1 < sizeof(a->crash))
		snprintf(a->crash + o, sizeof(a->crash) - o, "%s", s);
}

static void on_console_line(struct agent *a, const char *line)
{
	bool fatal, crash = console_crash_line(line, &fatal);
	int code;

	/*
	 * Progress lines; of the kernel's only the crashes (all of it is in
	 * console.log and dmesg.log).
	 */
	if (!a->quiet && (crash || !console_kernel_line(line)))
		printf("%s\n", line);
	if (!strcmp(line, "DEVPM-PROBE-OK"))
		a->probe_ok = true;
	if (console_guest_exit(line, &code)) {
		a->guest_exit = code;
		/*
		 * The guest says its exit code after its results and its
		 * sync: nothing more is to come, and its poweroff may hang
		 * (after S3) or take a while.
		 */
		if (a->status == ST_DONE)
			stop_qemu(a, 0);
	}
	if (crash) {
		/* Keep the first oops line and the first panic line. */
		if (!a->crash[0] || (fatal && !a->crash_fatal))
			remember_crash(a, line);
		if (fatal) {
			a->crash_fatal = true;
			end_run(a, ST_CRASH, AFTER_PANIC_S, "%s", a->crash);
		}
	}
}

static void on_results_line(struct agent *a, const char *line)
{
	struct record rec;

	if (!a->records++) {
		a->t_first = now_us();
		logf_(a, "first record after %.1f s", secs(a->t_first - a->t0));
		if (!a->quiet)
			printf("  guest up: first record %.1f s after QEMU start\n",
			       secs(a->t_first - a->t0));
	}
	stream_record(line, &rec);
	switch (rec.kind) {
	case REC_PROG:
		if (!a->t_first_prog) {
			a->t_first_prog = now_us();
			logf_(a, "first test after %.1f s",
			      secs(a->t_first_prog - a->t0));
		}
		snprintf(a->prog, sizeof(a->prog), "%s", rec.prog);
		a->prog_timeout = rec.value;
		break;
	case REC_END:
		a->prog[0] = '\0';
		a->prog_timeout = 0;
		break;
	case REC_DONE:
		a->done_code = rec.value;
		/*
		 * Stopped when the guest's exit line comes (on_console_line),
		 * or came first; else after a while: after an S3 cycle
		 * poweroff hangs.
		 */
		end_run(a, ST_DONE, a->guest_exit >= 0 ? 0 :
			a->s3_seen ? AFTER_DONE_S3_S : AFTER_DONE_S,
			"run complete, exit %d", rec.value);
		break;
	default:
		break;
	}
}

/* Split new bytes of a channel into lines. */
static void feed(struct agent *a, int ch, struct linebuf *lb,
		 const char *data, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char c = data[i];

		if (c == '\r')
			continue;
		if (c != '\n' && lb->len < sizeof(lb->buf) - 1) {
			lb->buf[lb->len++] = c;
			continue;
		}
		lb->buf[lb->len] = '\0';
		if (ch == CH_CONSOLE)
			on_console_line(a, lb->buf);
		else if (ch == CH_RESULTS)
			on_results_line(a, lb->buf);
		else if (ch == CH_AGENT)
			on_agent_line(a, lb->buf);
		else if (ch == -1 && !a->qemu_msg[0])
			/* QEMU's first complaint says most. */
			snprintf(a->qemu_msg, sizeof(a->qemu_msg), "%s",
				 lb->buf);
		lb->len = 0;
		if (c != '\n')	/* over-long line: keep the byte */
			lb->buf[lb->len++] = c;
	}
	if (!a->quiet && ch == CH_CONSOLE)
		fflush(stdout);
}

static void on_readable(struct agent *a, int ch)
{
	char buf[16384];
	ssize_t n;

	if (ch == CH_QMP) {
		if (qmp_pump(&a->qmp) < 0) {
			a->qmp_up = false;
			close(a->fd[CH_QMP]);
			a->fd[CH_QMP] = -1;
		}
		return;
	}
	n = read(a->fd[ch], buf, sizeof(buf));
	if (n <= 0) {
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		close(a->fd[ch]);
		a->fd[ch] = -1;
		return;
	}
	a->t_last = now_us();
	if (ch == CH_CONSOLE && a->console_log)
		fwrite(buf, 1, n, a->console_log), fflush(a->console_log);
	if (ch == CH_RESULTS && write(a->stream_fd, buf, n) != n)
		logf_(a, "stream.log write: %s", strerror(errno));

	feed(a, ch, &a->lb[ch], buf, n);
}

static void on_qemu_stderr(struct agent *a)
{
	char buf[4096];
	ssize_t n = read(a->qemu_err, buf, sizeof(buf));

	if (n <= 0) {
		close(a->qemu_err);
		a->qemu_err = -1;
		return;
	}
	/*
	 * QEMU's own complaints: the user must see them; those that stop
	 * it from starting come in the outcome's one line instead.
	 */
	if (a->started && write(2, buf, n) < 0)
		logf_(a, "stderr: %s", strerror(errno));
	if (a->log)
		fwrite(buf, 1, n, a->log);
	feed(a, -1, &a->errlb, buf, n);
}

static void watchdog(struct agent *a)
{
	uint64_t t = now_us();
	int quiet_s = (int)((t - a->t_last) / 1000000);
	int bound;

	if (a->status != ST_RUNNING)
		return;
	if (interrupted) {
		end_run(a, ST_INTR, 0, "interrupted");
		return;
	}
	if (a->probe_s) {
		if (a->probe_ok)
			end_run(a, ST_DONE, 0, "probe reached its marker");
		else if (t - a->t0 > (uint64_t)a->probe_s * 1000000)
			end_run(a, ST_HANG, 0,
				"probe: no marker within %d s", a->probe_s);
		return;
	}
	if (t - a->t0 > (uint64_t)a->timeout_s * 1000000) {
		end_run(a, ST_HANG, 0, "guest hung: the run did not end within %d s",
			a->timeout_s);
		return;
	}
	if (!a->records) {
		if (t - a->t0 > (uint64_t)a->boot_timeout_s * 1000000)
			end_run(a, ST_HANG, 0,
				"guest hung: no record from the guest within %d s of boot",
				a->boot_timeout_s);
		return;
	}
	bound = (a->prog_timeout ? a->prog_timeout : 60) + a->margin_s;
	if (quiet_s > bound)
		end_run(a, ST_HANG, 0, "guest hung: no output for %d s", quiet_s);
}

/* Status and timing for run.sh, one key=value a line. */
static void write_outcome(struct agent *a)
{
	FILE *f = fopen("outcome", "w");
	uint64_t end = a->t_end ? a->t_end : now_us();
	char crash[700] = "";

	if (!f)
		return;
	if (a->status == ST_CRASH || a->status == ST_HANG)
		snprintf(crash, sizeof(crash), "%s",
			 a->status == ST_CRASH && a->crash[0] ? a->crash : a->why);
	fprintf(f, "status=%s\n", status_names[a->status]);
	fprintf(f, "why=%s\n", a->why);
	fprintf(f, "crash=%s\n", crash);
	fprintf(f, "exit=%d\n", a->status == ST_DONE ? a->done_code : -1);
	fprintf(f, "guest_exit=%d\n", a->guest_exit);
	fprintf(f, "records=%ld\n", a->records);
	if (a->records) {
		fprintf(f, "boot_s=%.1f\n", secs(a->t_first - a->t0));
		fprintf(f, "run_s=%.1f\n", secs(end - a->t_first));
	} else {
		fprintf(f, "boot_s=\nrun_s=\n");
	}
	if (a->t_first_prog)
		fprintf(f, "first_test_s=%.2f\n",
			secs(a->t_first_prog - a->t0));
	else
		fprintf(f, "first_test_s=\n");
	fprintf(f, "wall_s=%.1f\n", secs(now_us() - a->t0));
	fprintf(f, "qemu_msg=%s\n", a->qemu_msg);
	fclose(f);
}

/* QEMU gone or the run decided: what the status is when it just ended. */
static void qemu_ended(struct agent *a)
{
	int st = a->qemu_status;

	if (a->status != ST_RUNNING)
		return;
	if (a->probe_s) {
		end_run(a, ST_HANG, 0, "probe: QEMU ended before the marker%s%s",
			a->qemu_msg[0] ? ": " : "", a->qemu_msg);
		return;
	}
	if (!a->records && !a->crash[0] && WIFEXITED(st) &&
	    WEXITSTATUS(st)) {
		end_run(a, ST_ERROR, 0, "QEMU failed (exit %d): %s",
			WEXITSTATUS(st), a->qemu_msg[0] ? a->qemu_msg :
			"see its messages above");
		return;
	}
	if (a->crash[0]) {
		end_run(a, ST_CRASH, 0, "%s", a->crash);
		return;
	}
	if (a->guest_exit >= 0) {
		end_run(a, ST_CRASH, 0,
			"devpm run in the guest exited %d without finishing its stream",
			a->guest_exit);
		return;
	}
	end_run(a, ST_CRASH, 0, "guest stopped: QEMU exited (%s %d) mid-run",
		WIFEXITED(st) ? "status" : "signal",
		WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

static void loop(struct agent *a)
{
	struct pollfd p[CH_N + 1];
	int i, n;
	char reply[256];
	bool quit_sent = false;

	for (;;) {
		for (i = 0; i < CH_N; i++) {
			p[i].fd = a->fd[i];
			p[i].events = POLLIN;
			p[i].revents = 0;
		}
		p[CH_N].fd = a->qemu_err;
		p[CH_N].events = POLLIN;
		p[CH_N].revents = 0;
		n = poll(p, CH_N + 1, 50);
		for (i = 0; n > 0 && i < CH_N; i++)
			if (p[i].revents & (POLLIN | POLLHUP | POLLERR))
				on_readable(a, i);
		if (n > 0 && p[CH_N].revents & (POLLIN | POLLHUP | POLLERR))
			on_qemu_stderr(a);
		reap(a);
		if (a->qemu_gone) {
			/* Take what is still in flight, then stop. */
			for (i = 0; i < CH_N; i++)
				while (a->fd[i] >= 0 && i != CH_QMP) {
					struct pollfd q = { a->fd[i], POLLIN, 0 };

					if (poll(&q, 1, 200) <= 0)
						break;
					on_readable(a, i);
				}
			while (a->qemu_err >= 0)
				on_qemu_stderr(a);
			qemu_ended(a);
			return;
		}
		poll_sleep(a);
		do_wake(a, wake_tick(&a->wake, now_us()));
		watchdog(a);
		if (a->stop_at && now_us() >= a->stop_at && !quit_sent) {
			logf_(a, "stopping QEMU: QMP quit");
			if (qmp(a, "{\"execute\":\"quit\"}", reply,
				sizeof(reply)))
				kill(a->qemu, SIGKILL);
			quit_sent = true;
			a->kill_at = now_us() + QUIT_TO_KILL_S * 1000000ULL;
		}
		if (a->kill_at && now_us() >= a->kill_at) {
			logf_(a, "QEMU still there: SIGKILL");
			kill(a->qemu, SIGKILL);
			a->kill_at = now_us() + 1000000;
		}
	}
}

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: devpm-qemu-agent [--dir DIR] [--boot-timeout S] [--margin S]\n"
		"                        [--timeout S] [--probe S] [--sleep-dev QOM-PATH]\n"
		"                        [--quiet] -- QEMU ARGS...\n"
		"       devpm-qemu-agent --summary summary.json\n"
		"Runs QEMU (qemu/run.sh builds its arguments), serves the guest's\n"
		"requests over QMP, saves stream.log and console.log in DIR, ends a\n"
		"guest that crashes or hangs, and writes DIR/outcome.\n");
}

static int parse_secs(const char *s, int *v)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (*end || n <= 0 || n > 86400)
		return -1;
	*v = (int)n;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "boot-timeout", required_argument, NULL, 'b' },
		{ "margin", required_argument, NULL, 'm' },
		{ "timeout", required_argument, NULL, 't' },
		{ "probe", required_argument, NULL, 'p' },
		{ "sleep-dev", required_argument, NULL, 'w' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "summary", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct agent a = {
		.boot_timeout_s = 120, .margin_s = 30, .timeout_s = 1800,
		.sleep_dev = "/machine/peripheral/vser/virtio-backend",
		.guest_exit = -1, .done_code = -1,
		.stream_fd = -1,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	const char *dir = ".";
	int c, i, r;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		int *v = NULL;

		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'b':
			v = &a.boot_timeout_s;
			break;
		case 'm':
			v = &a.margin_s;
			break;
		case 't':
			v = &a.timeout_s;
			break;
		case 'p':
			v = &a.probe_s;
			break;
		case 'w':
			a.sleep_dev = optarg;
			break;
		case 'q':
			a.quiet = true;
			break;
		case 's':
			r = summary_print(optarg, stdout);
			if (r < 0) {
				fprintf(stderr, "devpm-qemu-agent: %s: %s; was the run collected?\n",
					optarg, strerror(-r));
				return 2;
			}
			return r ? 1 : 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		if (v && parse_secs(optarg, v)) {
			fprintf(stderr, "devpm-qemu-agent: bad number of seconds '%s'\n",
				optarg);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "devpm-qemu-agent: no QEMU command after '--'\n");
		usage(stderr);
		return 2;
	}
	if (chdir(dir)) {
		fprintf(stderr, "devpm-qemu-agent: run directory %s: %s\n", dir,
			strerror(errno));
		return 2;
	}
	for (i = 0; i < CH_N; i++) {
		a.fd[i] = -1;
		a.lfd[i] = listen_on(chan_sock[i]);
		if (a.lfd[i] < 0) {
			fprintf(stderr, "devpm-qemu-agent: socket %s/%s: %s\n",
				dir, chan_sock[i], strerror(-a.lfd[i]));
			return 2;
		}
	}
	a.stream_fd = open("stream.log", O_WRONLY | O_CREAT | O_TRUNC |
			   O_CLOEXEC, 0644);
	a.console_log = fopen("console.log", "we");
	a.log = fopen("agent.log", "we");
	if (a.stream_fd < 0 || !a.console_log || !a.log) {
		fprintf(stderr, "devpm-qemu-agent: cannot write logs in %s: %s\n",
			dir, strerror(errno));
		return 2;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	r = spawn_qemu(&a, argv + optind);
	if (r) {
		fprintf(stderr, "devpm-qemu-agent: cannot start %s: %s\n",
			argv[optind], strerror(-r));
		return 2;
	}
	logf_(&a, "qemu pid %d", a.qemu);
	if (accept_all(&a) < 0) {
		if (!a.qemu_gone)
			kill(a.qemu, SIGKILL);
		while (a.qemu_err >= 0)
			on_qemu_stderr(&a);
		waitpid(a.qemu, NULL, 0);
		a.status = interrupted ? ST_INTR : ST_ERROR;
		snprintf(a.why, sizeof(a.why), "QEMU did not connect its sockets%s%s",
			 a.qemu_msg[0] ? ": " : "", a.qemu_msg);
		write_outcome(&a);
		return 2;
	}
	for (i = 0; i < CH_N; i++)
		close(a.lfd[i]);
	if (a.fd[CH_QMP] >= 0) {
		a.qmp.on_event = on_qmp_event;
		a.qmp.ctx = &a;
		/* QMP answers once QEMU made its devices: it started. */
		r = qmp_open(&a.qmp, a.fd[CH_QMP], 30000);
		a.qmp_up = !r;
		a.started = !r;
		if (r)
			logf_(&a, "qmp handshake: %s", strerror(-r));
	}
	a.status = ST_RUNNING;
	loop(&a);
	waitpid(a.qemu, NULL, WNOHANG);
	write_outcome(&a);
	switch (a.status) {
	case ST_DONE:
		return 0;
	case ST_CRASH:
	case ST_HANG:
		return 1;
	default:
		return 2;
	}
}
