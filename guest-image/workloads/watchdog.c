// SPDX-License-Identifier: GPL-2.0
/*
 * ow-watchdog: have the kernel say what every task waits on, if a run
 * hangs.
 *
 *   ow-watchdog SECS LABEL
 *
 * Locks itself in memory and opens /proc/sysrq-trigger at once, then
 * sleeps SECS seconds; if nobody killed it by then, prints
 * "# watchdog: LABEL still going after SECS s: sysrq w and m follow" and
 * triggers sysrq w (blocked tasks) and m (memory) on the console.  A
 * shell could not do this when it matters: its pages may be in swap
 * behind the very I/O that hangs, and it forks for everything.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

static void trigger(int fd, char key)
{
	if (write(fd, &key, 1) != 1)
		perror("ow-watchdog: sysrq");
}

/*
 * sysrq w prints the blocked tasks' stacks at KERN_INFO, below the
 * guest's console loglevel (5): raise it to 7, or the stacks never reach
 * the log.  The guest ends soon after this anyway.
 */
static void console_verbose(void)
{
	int fd = open("/proc/sys/kernel/printk", O_WRONLY);

	if (fd < 0 || write(fd, "7", 1) != 1)
		perror("ow-watchdog: /proc/sys/kernel/printk");
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	struct timespec t = { 0, 0 };
	char line[256];
	int fd, n;

	if (argc != 3 || (t.tv_sec = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: ow-watchdog SECS LABEL\n");
		return 2;
	}
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (fd < 0) {
		perror("ow-watchdog: /proc/sysrq-trigger");
		return 3;
	}
	n = snprintf(line, sizeof(line),
		     "# watchdog: %s still going after %ld s: sysrq w and m follow\n",
		     argv[2], (long)t.tv_sec);
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		perror("ow-watchdog: mlockall (going on unlocked)");
	while (nanosleep(&t, &t))
		;
	if (write(STDOUT_FILENO, line, n) != n)
		return 1;
	console_verbose();
	trigger(fd, 'w');
	trigger(fd, 'm');
	return 0;
}
