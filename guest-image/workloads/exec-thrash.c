// SPDX-License-Identifier: GPL-2.0
/*
 * ow-exec-thrash: the "executables" of a running system.
 *
 *   ow-exec-thrash FILE PASSES_PER_S [LOG]
 *
 * Maps FILE read-only and executable, the way the loader maps a program's
 * text, and reads one byte of every page PASSES_PER_S times a second, as
 * running programs would.  When anonymous memory squeezes the page cache,
 * these clean file pages are what reclaim takes, and every pass reads them
 * back from disk: the system thrashes on its own code before the OOM
 * killer fires.  On SIGTERM it prints one line and exits 0:
 *
 *   exec-thrash: passes=N slowest_ms=X mean_ms=Y
 *
 * A pass slower than its period shows up as slowest_ms: what a user sees
 * as a frozen machine.  With LOG, every pass is written there as it
 * ends, "END_MS PASS_MS" (CLOCK_MONOTONIC: the clock of trace timestamps,
 * and of /proc/uptime in a guest that never suspends), unbuffered: the programs' latency over time,
 * which survives the process being killed.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

static unsigned int read_pages(const volatile char *p, size_t len, long page)
{
	unsigned int sum = 0;

	for (size_t off = 0; off < len; off += page)
		sum += p[off];
	return sum;
}

/* One pass to the log: a failed write is not worth stopping for. */
static void log_pass(int fd, long long end_us, long long pass_us)
{
	char line[64];
	int n;

	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%lld %lld\n", end_us / 1000,
		     pass_us / 1000);
	if (write(fd, line, n) != n)
		return;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	long long slowest = 0, total = 0, t;
	unsigned long passes = 0;
	long page = sysconf(_SC_PAGESIZE);
	int per_s, fd, log = -1;
	struct stat st;
	char *p;

	if ((argc != 3 && argc != 4) || (per_s = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: ow-exec-thrash FILE PASSES_PER_S [LOG]\n");
		return 2;
	}
	if (argc == 4) {
		log = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND,
			   0644);
		if (log < 0) {
			perror("ow-exec-thrash: log");
			return 3;
		}
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror("ow-exec-thrash: open");
		return 3;
	}
	p = mmap(NULL, st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror("ow-exec-thrash: mmap");
		return 3;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop) {
		t = now_us();
		read_pages(p, st.st_size, page);
		t = now_us() - t;
		log_pass(log, now_us(), t);
		passes++;
		total += t;
		if (t > slowest)
			slowest = t;
		if (t < 1000000 / per_s)
			usleep(1000000 / per_s - t);
	}
	printf("exec-thrash: passes=%lu slowest_ms=%lld mean_ms=%lld\n",
	       passes, slowest / 1000, passes ? total / passes / 1000 : 0);
	return 0;
}
