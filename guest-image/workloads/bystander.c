// SPDX-License-Identifier: GPL-2.0
/*
 * ow-bystander: an idle process of realistic size (an sshd, a shell).
 *
 *   ow-bystander [-x EXIT_MS] MB
 *
 * Touches MB megabytes once, then sleeps until killed.  Tests assert that
 * the OOM killer never picks it while a hog is available.
 *
 * With -x it locks itself in memory (text and all: waking up must not
 * fault in a full node), exits by itself EXIT_MS after it started, and
 * prints "ow-bystander: exit_ns N" just before, N on CLOCK_MONOTONIC
 * (oomwatch's ts_ns): an ordinary exit that frees memory, not an OOM
 * victim's.  Its output goes where its first line went: a file's page
 * already there, so that the last line needs no new memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	long exit_ms = -1, page = sysconf(_SC_PAGESIZE);
	size_t mb, len;
	char *p;
	int opt;

	while ((opt = getopt(argc, argv, "x:")) != -1) {
		if (opt != 'x')
			return 2;
		exit_ms = strtol(optarg, NULL, 10);
	}
	mb = optind < argc ? strtoul(argv[optind], NULL, 0) : 8;
	len = mb << 20;
	if (exit_ms >= 0 && mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("ow-bystander: mlockall");
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("ow-bystander: mmap");
		return 3;
	}
	for (size_t off = 0; off < len; off += page)
		p[off] = 1;
	printf("ow-bystander: pid %d holding %zu MB\n", getpid(), mb);
	fflush(stdout);
	if (exit_ms < 0) {
		for (;;)
			pause();
	}
	sleep_ms(exit_ms);
	printf("ow-bystander: exit_ns %llu\n", now_ns());
	fflush(stdout);
	return 0;
}
