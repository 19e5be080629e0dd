// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into the kernel tree's selftests we run in the guest.  Their
 * output goes to a file there, so stdout is fully buffered, and every
 * fork() copies what is still in the buffer: each case's result would be
 * printed once per child.  Line buffering before main() keeps one line
 * per result, with no change to the tree's sources.
 */
#include <stdio.h>

__attribute__((constructor)) static void selftest_line_buffered(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	setvbuf(stderr, NULL, _IONBF, 0);
}
