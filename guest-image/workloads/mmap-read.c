// SPDX-License-Identifier: GPL-2.0
/*
 * ow-mmap-read: read a file through a shared mapping, over and over, as a
 * database or a search index larger than memory does (sqlite with
 * mmap_size, LMDB, Lucene's MMapDirectory).
 *
 *   ow-mmap-read [-r] FILE SECONDS
 *
 * Touches one byte of every page of FILE in order, pass after pass, for
 * SECONDS; with -r, pages at random instead (a fixed seed).  Prints
 * "pages=N passes=P ms=T" and exits 0; exits 1 when the file cannot be
 * mapped.  Every page it touches is a page fault when the file is larger
 * than the memory left to its page cache: the thrash rule must tell this
 * healthy program from a freeze.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

static void usage(void)
{
	fprintf(stderr, "usage: ow-mmap-read [-r] FILE SECONDS\n");
	exit(2);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* xorshift64: reproducible random pages without libc's state. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

int main(int argc, char **argv)
{
	const volatile unsigned char *map;
	unsigned long long pages = 0, passes = 0;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	long long start, deadline;
	size_t npages, i;
	unsigned int sum = 0;
	struct stat st;
	int rnd = 0, fd, opt;
	char *end;
	long secs;

	while ((opt = getopt(argc, argv, "r")) != -1) {
		if (opt != 'r')
			usage();
		rnd = 1;
	}
	if (argc - optind != 2)
		usage();
	secs = strtol(argv[optind + 1], &end, 10);
	if (*end || secs <= 0)
		usage();
	fd = open(argv[optind], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || st.st_size < page) {
		fprintf(stderr, "ow-mmap-read: %s: %s\n", argv[optind],
			fd < 0 ? strerror(errno) : "too small");
		return 1;
	}
	npages = st.st_size / page;
	map = mmap(NULL, npages * page, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "ow-mmap-read: mmap: %s\n", strerror(errno));
		return 1;
	}
	start = now_ms();
	deadline = start + secs * 1000;
	while (now_ms() < deadline) {
		for (i = 0; i < npages; i++) {
			size_t p = rnd ? next_random(&seed) % npages : i;

			sum += map[p * page];
			pages++;
			/* The clock now and then: a pass can be long. */
			if (!(i & 1023) && now_ms() >= deadline)
				break;
		}
		if (i == npages)
			passes++;
	}
	printf("pages=%llu passes=%llu ms=%lld sum=%u\n", pages, passes,
	       now_ms() - start, sum);
	return 0;
}
