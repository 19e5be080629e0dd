// SPDX-License-Identifier: GPL-2.0
/*
 * ow-bystander: an idle process of realistic size (an sshd, a shell).
 *
 *   ow-bystander MB
 *
 * Touches MB megabytes once, then sleeps until killed.  Tests assert that
 * the OOM killer never picks it while a hog is available.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 0) : 8;
	size_t len = mb << 20;
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("ow-bystander: mmap");
		return 3;
	}
	for (size_t off = 0; off < len; off += page)
		p[off] = 1;
	printf("ow-bystander: pid %d holding %zu MB\n", getpid(), mb);
	fflush(stdout);
	for (;;)
		pause();
}
