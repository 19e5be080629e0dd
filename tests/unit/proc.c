// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Running the host build of oomwatch (oomwatch-host: the real main and
 * replay, no BPF) as a child, with its stdout, stderr and exit status
 * captured, and scratch files for it in a private temporary directory
 * that is removed at exit.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "proc.h"

#define MAX_FILES	64

static char dir[256];
static char files[MAX_FILES][320];
static int nr_files;

static void cleanup(void)
{
	for (int i = 0; i < nr_files; i++)
		unlink(files[i]);
	if (dir[0])
		rmdir(dir);
}

/* A path in the scratch directory; the file is removed at exit. */
const char *proc_path(const char *name)
{
	const char *tmp = getenv("TMPDIR");

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s/oomwatch-unit.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir)) {
			perror("mkdtemp");
			exit(1);
		}
		atexit(cleanup);
	}
	for (int i = 0; i < nr_files; i++)
		if (!strcmp(strrchr(files[i], '/') + 1, name))
			return files[i];
	if (nr_files == MAX_FILES) {
		fprintf(stderr, "proc_path: too many files\n");
		exit(1);
	}
	snprintf(files[nr_files], sizeof(files[0]), "%s/%s", dir, name);
	return files[nr_files++];
}

const char *proc_write(const char *name, const void *data, size_t len)
{
	const char *p = proc_path(name);
	FILE *f = fopen(p, "wb");

	if (!f || fwrite(data, 1, len, f) != len || fclose(f)) {
		perror(p);
		exit(1);
	}
	return p;
}

char *proc_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (n + 4096 + 1 > cap) {
			cap = (n + 4096 + 1) * 2;
			buf = realloc(buf, cap);
			if (!buf)
				exit(1);
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static void redirect(const char *path, int fd, int flags)
{
	int f = open(path, flags, 0600);

	if (f < 0 || dup2(f, fd) < 0)
		_exit(126);
	close(f);
}

int proc_run(const char *const argv[], const char *stdin_path,
	     struct proc_result *r)
{
	const char *out = proc_path("child.out"), *err = proc_path("child.err");
	int status;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		redirect(stdin_path ? stdin_path : "/dev/null", 0, O_RDONLY);
		redirect(out, 1, O_WRONLY | O_CREAT | O_TRUNC);
		redirect(err, 2, O_WRONLY | O_CREAT | O_TRUNC);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) :
		    128 + WTERMSIG(status);
	r->out = proc_slurp(out, &r->out_len);
	r->err = proc_slurp(err, &r->err_len);
	if (!r->out || !r->err)
		return -1;
	return 0;
}

void proc_free(struct proc_result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}
