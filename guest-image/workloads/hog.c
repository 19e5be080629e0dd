// SPDX-License-Identifier: GPL-2.0
/*
 * ow-hog: allocate anonymous memory step by step and touch every page.
 *
 *   ow-hog MB [STEP_MB] [HOLD_S]
 *
 * Grows to MB megabytes in STEP_MB steps (default 16), printing progress,
 * then holds the memory for HOLD_S seconds (default 0) re-touching it so
 * the pages stay in use.  Exits 0 when done; an OOM kill ends it first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#define MB (1024UL * 1024UL)

static void touch(char *p, size_t len, unsigned char val)
{
	long page = sysconf(_SC_PAGESIZE);

	for (size_t off = 0; off < len; off += page)
		p[off] = (char)val;
}

int main(int argc, char **argv)
{
	size_t total = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
	size_t step = argc > 2 ? strtoul(argv[2], NULL, 0) : 16;
	long hold = argc > 3 ? strtol(argv[3], NULL, 0) : 0;
	char **chunks = calloc(total / step + 1, sizeof(*chunks));
	size_t have = 0, n = 0;
	time_t end;

	if (!chunks || !step)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ow-hog: pid %d growing to %zu MB\n", getpid(), total);
	while (have < total) {
		size_t len = (total - have < step ? total - have : step) * MB;

		chunks[n] = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (chunks[n] == MAP_FAILED) {
			perror("ow-hog: mmap");
			return 3;
		}
		touch(chunks[n++], len, 1);
		have += len / MB;
		printf("ow-hog: %zu MB\n", have);
	}
	end = time(NULL) + hold;
	for (unsigned char v = 2; time(NULL) < end; v++)
		for (size_t i = 0; i < n; i++)
			touch(chunks[i], (i + 1 < n || total % step == 0 ?
					  step : total % step) * MB, v);
	printf("ow-hog: done\n");
	return 0;
}
