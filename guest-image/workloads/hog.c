// SPDX-License-Identifier: GPL-2.0
/*
 * ow-hog: allocate anonymous memory step by step and touch every page.
 *
 *   ow-hog [-l] [-s STEP_MB] [-d DELAY_MS] [-H HOLD_S [-i]] [-n NODE [-b]] MB
 *
 * Grows to MB megabytes in STEP_MB steps (default 16), sleeping DELAY_MS
 * between steps (default 0) and printing progress, then holds the memory
 * for HOLD_S seconds (default 0), re-touching it so it stays in use; with
 * -i it holds it idle instead, never touching it again, so what reclaim
 * pushes to swap stays there (a full swap that nothing reads back).
 * With -l every page is locked (mlockall): an allocator whose memory
 * reclaim cannot take, like a database with locked buffers.
 * With -n its memory comes from NUMA node NODE first (MPOL_PREFERRED), or
 * from that node only with -b (MPOL_BIND): an allocation bound to a node.
 * It prints "ow-hog: start_ns N" first and "ow-hog: end_ns N" last, N
 * the CLOCK_MONOTONIC time in ns (bpf_ktime_get_ns(), oomwatch's ts_ns):
 * a scenario places its start and end in a recording afterwards, instead
 * of running commands around it that would themselves fault.
 * Exits 0 when done; an OOM kill ends it first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define MB (1024UL * 1024UL)

static void touch(char *p, size_t len, unsigned char val)
{
	long page = sysconf(_SC_PAGESIZE);

	for (size_t off = 0; off < len; off += page)
		p[off] = (char)val;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void usage(void)
{
	fprintf(stderr, "usage: ow-hog [-l] [-s STEP_MB] [-d DELAY_MS] "
		"[-H HOLD_S [-i]] [-n NODE [-b]] MB\n");
	exit(2);
}

/* <linux/mempolicy.h> values; the static guest build has no libnuma. */
#define OW_MPOL_PREFERRED 1
#define OW_MPOL_BIND 2

static int set_node_policy(int node, int bind)
{
	unsigned long mask = 1UL << node;
	int mode = bind ? OW_MPOL_BIND : OW_MPOL_PREFERRED;

	if (node < 0 || node >= (int)(8 * sizeof(mask)))
		return -1;
	return syscall(SYS_set_mempolicy, mode, &mask, 8 * sizeof(mask));
}

int main(int argc, char **argv)
{
	size_t total, step = 16, have = 0, n = 0;
	long hold = 0, delay_ms = 0;
	int lock = 0, node = -1, bind = 0, idle = 0, opt;
	char **chunks;
	size_t *lens;
	time_t end;

	while ((opt = getopt(argc, argv, "ls:d:H:in:b")) != -1) {
		switch (opt) {
		case 'l': lock = 1; break;
		case 'n': node = atoi(optarg); break;
		case 'b': bind = 1; break;
		case 's': step = strtoul(optarg, NULL, 0); break;
		case 'd': delay_ms = strtol(optarg, NULL, 0); break;
		case 'H': hold = strtol(optarg, NULL, 0); break;
		case 'i': idle = 1; break;
		default: usage();
		}
	}
	if (optind != argc - 1 || !step || (bind && node < 0))
		usage();
	if (node >= 0 && set_node_policy(node, bind)) {
		perror("ow-hog: set_mempolicy");
		return 3;
	}
	total = strtoul(argv[optind], NULL, 0);
	chunks = calloc(total / step + 1, sizeof(*chunks));
	lens = calloc(total / step + 1, sizeof(*lens));
	if (!chunks || !lens)
		return 3;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ow-hog: start_ns %llu\n", now_ns());
	if (lock && mlockall(MCL_CURRENT | MCL_FUTURE)) {
		perror("ow-hog: mlockall");
		return 3;
	}
	printf("ow-hog: pid %d growing to %zu MB%s", getpid(), total,
	       lock ? " (locked)" : "");
	if (node >= 0)
		printf(", %s node %d", bind ? "bound to" : "preferring", node);
	printf("\n");
	while (have < total) {
		size_t mb = total - have < step ? total - have : step;

		lens[n] = mb * MB;
		chunks[n] = mmap(NULL, lens[n], PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (chunks[n] == MAP_FAILED) {
			perror("ow-hog: mmap");
			return 3;
		}
		touch(chunks[n], lens[n], 1);
		n++;
		have += mb;
		printf("ow-hog: %zu MB\n", have);
		if (delay_ms)
			usleep(delay_ms * 1000);
	}
	/* The hold begins: a freeze is judged from here (thrash.sh). */
	printf("ow-hog: full_ns %llu\n", now_ns());
	end = time(NULL) + hold;
	while (idle && time(NULL) < end)
		sleep(1);
	for (unsigned char v = 2; time(NULL) < end; v++)
		for (size_t i = 0; i < n; i++)
			touch(chunks[i], lens[i], v);
	printf("ow-hog: done\n");
	printf("ow-hog: end_ns %llu\n", now_ns());
	return 0;
}
