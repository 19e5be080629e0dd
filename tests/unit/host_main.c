// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch-host: oomwatch's own main (cli.c) with every part but the live
 * tracer, which needs the BPF skeleton and a kernel to load it into.  The
 * host tests run it as a child: options, errors, exit codes, --replay,
 * --svg and --record are exactly the shipped binary's.
 */
#include <stdio.h>
#include "cli.h"

static int no_live(const struct ow_cli *cli)
{
	(void)cli;
	fprintf(stderr, "oomwatch: this is the host test build: no BPF, "
		"only --replay works\n");
	return OW_EXIT_SETUP;
}

/* argp names the program after argv[0]: name it as the shipped binary. */
int main(int argc, char **argv)
{
	char name[] = "oomwatch";

	if (argc > 0)
		argv[0] = name;
	return ow_main(argc, argv, no_live);
}
