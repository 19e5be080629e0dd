/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Running the host build of oomwatch (oomwatch-host) as a child, with its
 * stdout, stderr and exit status captured, and scratch files for it in a
 * private temporary directory that is removed at exit (proc.c).  Failures
 * to set up (mkdtemp, writing a scratch file, memory) exit the test.
 */
#ifndef OW_TEST_PROC_H
#define OW_TEST_PROC_H

#include <stddef.h>

struct proc_result {
	int status;		/* exit status, or 128 + signal */
	char *out;		/* NUL-terminated */
	size_t out_len;
	char *err;
	size_t err_len;
};

/*
 * Runs argv[0] with argv, stdin from stdin_path (NULL: /dev/null); fills
 * r, which proc_free() releases.  Returns 0, or -1 if it could not run or
 * collect the child.
 */
int proc_run(const char *const argv[], const char *stdin_path,
	     struct proc_result *r);
void proc_free(struct proc_result *r);

/* A path named name in the scratch directory; the file is removed at exit. */
const char *proc_path(const char *name);
/* Writes len bytes of data to proc_path(name) and returns that path. */
const char *proc_write(const char *name, const void *data, size_t len);
/* The whole of a file, NUL-terminated, its length in *len; NULL: no file. */
char *proc_slurp(const char *path, size_t *len);

#endif /* OW_TEST_PROC_H */
