// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Runs each test binary named on the command line, passes its TAP through,
 * and ends with the one line the top-level test script folds in:
 * "N passed, N failed".  A binary that dies (a sanitizer abort, a signal)
 * or whose plan does not match what it printed counts as one more failure,
 * so a crash can never look like a pass.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

struct tally {
	int passed;
	int failed;
};

static void run_one(const char *path, struct tally *t)
{
	int ok = 0, not_ok = 0, plan = -1, status;
	char line[8192];
	FILE *p;

	fflush(stdout);
	p = popen(path, "r");
	if (!p) {
		printf("not ok - %s: cannot run\n", path);
		t->failed++;
		return;
	}
	while (fgets(line, sizeof(line), p)) {
		fputs(line, stdout);
		if (!strncmp(line, "ok ", 3))
			ok++;
		else if (!strncmp(line, "not ok ", 7))
			not_ok++;
		else if (!strncmp(line, "1..", 3))
			plan = atoi(line + 3);
	}
	status = pclose(p);
	t->passed += ok;
	t->failed += not_ok;
	if (status == -1 || !WIFEXITED(status) ||
	    (WEXITSTATUS(status) && !not_ok)) {
		printf("not ok - %s: died (status 0x%x)\n", path, status);
		t->failed++;
	} else if (plan != ok + not_ok) {
		printf("not ok - %s: planned %d cases, ran %d\n", path, plan,
		       ok + not_ok);
		t->failed++;
	}
}

int main(int argc, char **argv)
{
	struct tally t = { 0, 0 };

	for (int i = 1; i < argc; i++)
		run_one(argv[i], &t);
	printf("%d passed, %d failed\n", t.passed, t.failed);
	return t.failed ? 1 : 0;
}
