// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch --replay; replay.h says what it promises.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cgroup.h"
#include "replay.h"
#include "session.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/*
 * SIGINT and SIGTERM end a replay as they end a live run: with the
 * summary of what was read.  No SA_RESTART, so that a read blocked on a
 * pipe (--replay -) returns.
 */
static void catch_signals(struct sigaction *old_int, struct sigaction *old_term)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	sigaction(SIGINT, &sa, old_int);
	sigaction(SIGTERM, &sa, old_term);
}

static void restore_signals(const struct sigaction *old_int,
			    const struct sigaction *old_term)
{
	sigaction(SIGINT, old_int, NULL);
	sigaction(SIGTERM, old_term, NULL);
}

/* --record or --svg naming the input under another spelling. */
static bool same_file(FILE *in, const char *path)
{
	struct stat a, b;

	return path && !fstat(fileno(in), &a) && !stat(path, &b) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static FILE *open_input(const struct ow_cli *cli, FILE *err)
{
	FILE *in = strcmp(cli->replay, "-") ? fopen(cli->replay, "r") : stdin;

	if (!in) {
		fprintf(err, "oomwatch: --replay %s: %s\n", cli->replay,
			strerror(errno));
		return NULL;
	}
	if (same_file(in, cli->record) || same_file(in, cli->svg) ||
	    same_file(in, cli->metrics)) {
		fprintf(err, "oomwatch: --replay %s: --%s would overwrite it\n",
			cli->replay, same_file(in, cli->record) ? "record" :
			same_file(in, cli->svg) ? "svg" : "metrics");
		if (in != stdin)
			fclose(in);
		return NULL;
	}
	return in;
}

/*
 * -c on a recording: a memcg id, or a cgroup path as the recording names
 * it.  Never this machine's tree: the recording may come from another
 * machine, or from this one before a reboot, where the same ids and
 * paths meant other cgroups.
 */
static int resolve_cgroup(const struct ow_cli *cli, FILE *err,
			  struct ow_cgroup_set **set)
{
	char why[OW_CGROUP_PATH_MAX + 160];

	*set = NULL;
	if (!cli->cgroup)
		return 0;
	*set = malloc(sizeof(**set));
	if (!*set) {
		fprintf(err, "oomwatch: out of memory\n");
		return OW_EXIT_SETUP;
	}
	if (ow_cgroup_resolve_recorded(*set, cli->cgroup, why, sizeof(why))) {
		fprintf(err, "oomwatch: %s\n", why);
		return OW_EXIT_SETUP;
	}
	return 0;
}

/*
 * The first record decides the configuration (a header, or none) and the
 * version, which what is written keeps.  A version 1 recording names no
 * cgroup by path: -c PATH could match nothing there.
 */
static int start(struct ow_session *s, const struct ow_cgroup_set *set,
		 const struct ow_record *rec, const char *name, FILE *err)
{
	if (set && set->path[0] && rec->version < 2) {
		fprintf(err, "oomwatch: --cgroup %s: %s is a version 1 "
			"recording, which names no cgroup by path: give a memcg "
			"id\n", set->path, name);
		return OW_EXIT_SETUP;
	}
	if (rec->kind == OW_REC_HEADER)
		return ow_session_start(s, &rec->header, rec->version);
	fprintf(err, "oomwatch: %s: no header line: configuration unknown, "
		"only record_whole is checked\n", name);
	return ow_session_start(s, NULL, rec->version);
}

static int feed(struct ow_session *s, const struct ow_cgroup_set *set,
		struct ow_reader *r, const char *name, FILE *err,
		unsigned long long *last)
{
	struct ow_record rec;
	bool started = false;
	int ret = 0;

	while (!interrupted && (ret = ow_reader_next(r, &rec)) == 1) {
		if (!started) {
			started = true;
			ret = start(s, set, &rec, name, err);
			if (ret)
				return ret;
		}
		if (rec.kind == OW_REC_EVENT) {
			ow_session_event(s, &rec.event);
			*last = rec.event.ts_ns;
		} else if (rec.kind == OW_REC_LOST) {
			ow_session_lost(s, rec.lost.cpu, rec.lost.count);
		} else if (rec.kind == OW_REC_MEMCG) {
			ow_session_memcg(s, rec.memcg.id, rec.memcg.path);
		} else if (rec.kind == OW_REC_SHED) {
			ow_session_shed(s, rec.shed);
		}
	}
	if (interrupted) {
		/* What was read is summarised; a line cut short is not. */
		fprintf(err, "oomwatch: %s: interrupted after line %lu\n",
			name, r->line);
		return started ? 0 : ow_session_start(s, NULL,
						      OOMWATCH_FORMAT_VERSION);
	}
	if (ret < 0) {
		if (started)
			ow_session_flush(s);	/* what came before, then why */
		fprintf(err, "oomwatch: %s\n", ow_reader_error(r));
		return OW_EXIT_SETUP;
	}
	if (!started) {
		fprintf(err, "oomwatch: %s: empty file, not an oomwatch "
			"recording\n", name);
		return OW_EXIT_SETUP;
	}
	return 0;
}

int ow_replay(const struct ow_cli *cli, FILE *out, FILE *err)
{
	struct ow_session_opts so = { .cli = cli, .out = out, .err = err };
	struct sigaction old_int, old_term;
	const char *name = strcmp(cli->replay, "-") ? cli->replay : "<stdin>";
	unsigned long long last = 0;
	struct ow_session *s = NULL;
	struct ow_reader *r = NULL;
	int ret;
	FILE *in;

	ret = resolve_cgroup(cli, err, &so.cgroup);
	if (ret)
		goto out_free;
	in = open_input(cli, err);
	if (!in) {
		ret = OW_EXIT_SETUP;
		goto out_free;
	}
	r = malloc(sizeof(*r));
	s = ow_session_new(&so);
	if (!r || !s) {
		ret = OW_EXIT_SETUP;
		goto out_close;
	}
	ow_reader_init(r, in, name);
	catch_signals(&old_int, &old_term);
	ret = feed(s, so.cgroup, r, name, err, &last);
	if (!ret)
		ret = ow_session_finish(s, last);
	restore_signals(&old_int, &old_term);
out_close:
	if (in != stdin)
		fclose(in);
out_free:
	ow_session_free(s);
	free(r);
	free(so.cgroup);
	return ret;
}
