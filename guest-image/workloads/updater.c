// SPDX-License-Identifier: GPL-2.0
/*
 * ow-updater: the 2004 "yum update": a process whose working set is most
 * of RAM, walked over and over, so that it thrashes once anything else
 * wants memory.
 *
 *   ow-updater MB PASSES [PAUSE_MS]
 *
 * Maps MB megabytes, then walks all of it PASSES times, writing one byte
 * per page, pausing PAUSE_MS between passes (default 0) so that the run
 * lasts while other processes allocate.  Prints the wall time of each
 * pass and of the whole run; exits 0 when all passes completed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
	long passes = argc > 2 ? strtol(argv[2], NULL, 0) : 4;
	long pause_ms = argc > 3 ? strtol(argv[3], NULL, 0) : 0;
	size_t len = mb << 20;
	long page = sysconf(_SC_PAGESIZE);
	double start = now_s();
	char *p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("ow-updater: mmap");
		return 3;
	}
	printf("ow-updater: pid %d walking %zu MB %ld times\n",
	       getpid(), mb, passes);
	for (long i = 0; i < passes; i++) {
		double t = now_s();

		for (size_t off = 0; off < len; off += page)
			p[off] = (char)(i + 1);
		printf("ow-updater: pass %ld %.2f s\n", i + 1, now_s() - t);
		if (pause_ms > 0)
			usleep(pause_ms * 1000);
	}
	printf("ow-updater: done in %.2f s\n", now_s() - start);
	return 0;
}
