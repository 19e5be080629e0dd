// SPDX-License-Identifier: GPL-2.0
/*
 * ow-forkstorm: many processes appearing at once, each wanting memory.
 *
 *   ow-forkstorm [-H HOLD_S] [-S SEED] N MB
 *
 * Forks N children as fast as it can; each touches between MB/2 and MB
 * megabytes (drawn from SEED, default 1) and holds them for HOLD_S
 * seconds (default 2), then exits.  The parent waits for all of them and
 * prints one line:
 *
 *   forkstorm: children=N exited=E killed=K failed_fork=F wall_ms=W
 *
 * Like a build spawning compilers, or a server's worker pool answering a
 * burst: the OOM killer has many equal candidates, each short-lived.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

static int child(size_t mb, int hold_s)
{
	size_t len = mb << 20;
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	time_t end;

	if (p == MAP_FAILED)
		return 3;
	for (size_t off = 0; off < len; off += page)
		p[off] = 1;
	/* Keep using it: an idle child's memory would just go to swap. */
	end = time(NULL) + hold_s;
	while (time(NULL) < end) {
		for (size_t off = 0; off < len; off += page)
			p[off]++;
		usleep(100 * 1000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int hold_s = 2, n, opt, exited = 0, killed = 0, failed = 0, status;
	unsigned int seed = 1;
	long long t0;
	size_t mb;

	while ((opt = getopt(argc, argv, "H:S:")) != -1) {
		switch (opt) {
		case 'H': hold_s = atoi(optarg); break;
		case 'S': seed = strtoul(optarg, NULL, 0); break;
		default: goto usage;
		}
	}
	if (optind != argc - 2)
		goto usage;
	n = atoi(argv[optind]);
	mb = strtoul(argv[optind + 1], NULL, 0);
	if (n <= 0 || mb < 2)
		goto usage;

	srand(seed);
	t0 = now_ms();
	for (int i = 0; i < n; i++) {
		size_t want = mb / 2 + (size_t)rand() % (mb - mb / 2 + 1);
		pid_t pid = fork();

		if (pid == 0)
			_exit(child(want, hold_s));
		if (pid < 0)
			failed++;
	}
	while (wait(&status) > 0) {
		if (WIFSIGNALED(status))
			killed++;
		else
			exited++;
	}
	printf("forkstorm: children=%d exited=%d killed=%d failed_fork=%d wall_ms=%lld\n",
	       n, exited, killed, failed, now_ms() - t0);
	return killed ? 1 : 0;
usage:
	fprintf(stderr, "usage: ow-forkstorm [-H HOLD_S] [-S SEED] N MB\n");
	return 2;
}
