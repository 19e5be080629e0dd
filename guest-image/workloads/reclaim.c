// SPDX-License-Identifier: GPL-2.0
/*
 * ow-reclaim: ask a memory cgroup to reclaim, a few times, without
 * faulting.
 *
 *   ow-reclaim [-n COUNT] [-i INTERVAL_MS] [-w WAIT_MS] FILE AMOUNT
 *
 * Writes AMOUNT (as memory.reclaim reads it: "64M") to FILE COUNT times
 * (default 3), INTERVAL_MS apart (default 3000), then sleeps WAIT_MS
 * (default 0) and exits 0.  A write that reclaimed less than asked fails
 * with EAGAIN: that is reported and is not an error.
 *
 * Why not a shell loop: every command a swapped-out shell runs faults its
 * pages (and busybox's text) back from swap, and a major fault asks for
 * the swap token.  A test that must see reclaim, and nobody else, judge
 * an idle token holder needs a driver that never faults: this program
 * locks itself in memory (mlockall) before it starts, and the shell that
 * runs it waits in wait4() meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

static void usage(void)
{
	fprintf(stderr, "usage: ow-reclaim [-n COUNT] [-i INTERVAL_MS] "
		"[-w WAIT_MS] FILE AMOUNT\n");
	exit(2);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Parses a non-negative decimal number; exits with usage() otherwise. */
static long parse_num(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		usage();
	return v;
}

/* One write of @amount to @path: 0, or 1 when less was reclaimed. */
static int reclaim_once(const char *path, const char *amount)
{
	size_t len = strlen(amount);
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "ow-reclaim: %s: %s\n", path, strerror(errno));
		exit(3);
	}
	n = write(fd, amount, len);
	if (n < 0 && errno != EAGAIN) {
		fprintf(stderr, "ow-reclaim: write %s to %s: %s\n", amount,
			path, strerror(errno));
		exit(3);
	}
	close(fd);
	return n < 0;
}

int main(int argc, char **argv)
{
	long count = 3, interval_ms = 3000, wait_ms = 0;
	int opt;

	while ((opt = getopt(argc, argv, "n:i:w:")) != -1) {
		switch (opt) {
		case 'n': count = parse_num(optarg); break;
		case 'i': interval_ms = parse_num(optarg); break;
		case 'w': wait_ms = parse_num(optarg); break;
		default: usage();
		}
	}
	if (optind != argc - 2)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		perror("ow-reclaim: mlockall");
		return 3;
	}
	for (long i = 1; i <= count; i++) {
		int partial = reclaim_once(argv[optind], argv[optind + 1]);

		printf("ow-reclaim: pass %ld of %ld%s\n", i, count,
		       partial ? " (reclaimed less than asked)" : "");
		if (i < count)
			sleep_ms(interval_ms);
	}
	sleep_ms(wait_ms);
	return 0;
}
