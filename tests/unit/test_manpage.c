// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch(8) and "oomwatch --help" name the same options and the same
 * exit statuses.  The help is argp's, from the option table of
 * userspace/cli.c, run through oomwatch-host; the man page is
 * man/oomwatch.8.  Options are the "-x" and "--name" of the help's option
 * lines and of the tags (the line after ".TP") of the man page's OPTIONS
 * section; exit statuses the "    N  " lines of the help's EXIT STATUS and
 * the tags of the man page's.  Each side's extra names are listed when
 * they differ.  And the page renders without a groff warning, where groff
 * is installed.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "tap.h"

#ifndef TOP_DIR
#define TOP_DIR "."
#endif
#define MAN_PAGE	TOP_DIR "/man/oomwatch.8"
#define GROFF		"/usr/bin/groff"

#define MAX_NAMES	64

struct names {
	char *name[MAX_NAMES];
	int n;
};

static void add_name(struct names *s, const char *name, size_t len)
{
	for (int i = 0; i < s->n; i++)
		if (strlen(s->name[i]) == len && !strncmp(s->name[i], name, len))
			return;
	if (s->n < MAX_NAMES)
		s->name[s->n++] = strndup(name, len);
}

static bool has_name(const struct names *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return true;
	return false;
}

static void free_names(struct names *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->name[i]);
	s->n = 0;
}

/*
 * The option names at the start of text, up to the description: "-x",
 * "--name" (its "=ARG" dropped), separated by ", ".
 */
static void option_names(const char *text, struct names *s)
{
	const char *p = text;

	for (;;) {
		size_t len;

		while (*p == ' ' || *p == ',')
			p++;
		if (p[0] != '-')
			return;
		if (p[1] == '-') {
			len = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");
		} else {
			len = 2;
		}
		add_name(s, p, len);
		p += len;
		if (*p == '=')
			p += strcspn(p, " ,");
		/* Two spaces: the description begins. */
		if (p[0] == ' ' && p[1] == ' ')
			return;
	}
}

/* argp's option lines: "  -c, --cgroup=CGROUP   ..." or "      --assert". */
static void help_options(const char *help, struct names *opts,
			 struct names *status)
{
	bool in_status = false;

	for (const char *line = help; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t sp = strspn(line, " ");

		if (!strncmp(line, "EXIT STATUS:", 12))
			in_status = true;
		else if (in_status && sp == 4 && isdigit((unsigned char)line[4]))
			add_name(status, line + 4, strspn(line + 4, "0123456789"));
		else if (!in_status && (sp == 2 || sp == 6) && line[sp] == '-')
			option_names(line + sp, opts);
		line = end ? end + 1 : NULL;
	}
}

/*
 * A man page line as text: font escapes (\fB, \fR, \fI, \fP) dropped,
 * "\-" as "-", "\&" as nothing, and the quotes of .BR arguments gone;
 * the macro itself (".BR ") too.
 */
static char *man_text(const char *line, size_t len)
{
	char *t = malloc(len + 1);
	size_t o = 0, i = 0;

	if (!t)
		exit(1);
	if (line[0] == '.')
		i = strcspn(line, " ");
	for (; i < len; i++) {
		if (line[i] == '\\' && i + 1 < len) {
			if (line[i + 1] == 'f' && i + 2 < len)
				i += 2;
			else if (line[i + 1] == '-')
				t[o++] = '-', i++;
			else if (line[i + 1] == '&')
				i++;
			else
				t[o++] = line[i];
		} else if (line[i] != '"') {
			t[o++] = line[i];
		}
	}
	t[o] = '\0';
	return t;
}

/* The tags of .TP paragraphs in the man page's OPTIONS and EXIT STATUS. */
static void man_options(const char *page, struct names *opts,
			struct names *status)
{
	enum { OTHER, OPTIONS, STATUS } section = OTHER;
	bool tag = false;

	for (const char *line = page; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (!strncmp(line, ".SH ", 4)) {
			section = !strncmp(line + 4, "OPTIONS", 7) ? OPTIONS :
				  !strncmp(line + 4, "EXIT STATUS", 11) ?
				  STATUS : OTHER;
			tag = false;
		} else if (!strncmp(line, ".TP", 3)) {
			tag = true;
		} else if (tag) {
			char *t = man_text(line, len);

			/* ".BR -j ", " --json" reads "-j, --json". */
			for (char *c = t; (c = strstr(c, " , "));)
				memmove(c, c + 1, strlen(c));
			if (section == OPTIONS)
				option_names(t + strspn(t, " "), opts);
			else if (section == STATUS)
				add_name(status, t + strspn(t, " "),
					 strspn(t + strspn(t, " "),
						"0123456789"));
			free(t);
			tag = false;
		}
		line = end ? end + 1 : NULL;
	}
}

/* The names of a not in b, for the failure's diagnostics. */
static void diag_missing(const char *what, const struct names *a,
			 const struct names *b)
{
	for (int i = 0; i < a->n; i++)
		if (!has_name(b, a->name[i]))
			tap_diag("%s: %s", what, a->name[i]);
}

static bool same_names(const struct names *a, const struct names *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (!has_name(b, a->name[i]))
			return false;
	return true;
}

int main(void)
{
	const char *argv[] = { OOMWATCH_BIN, "--help", NULL };
	struct names help_opts = { 0 }, man_opts = { 0 };
	struct names help_status = { 0 }, man_status = { 0 };
	struct proc_result r;
	char *page;
	size_t len;

	page = proc_slurp(MAN_PAGE, &len);
	if (!tap_ok(page != NULL, "man/oomwatch.8 is there") ||
	    !tap_ok(proc_run(argv, NULL, &r) == 0 && r.status == 0,
		    "oomwatch --help runs"))
		return tap_done();
	help_options(r.out, &help_opts, &help_status);
	man_options(page, &man_opts, &man_status);

	tap_ok(help_opts.n >= 20 && has_name(&help_opts, "--replay") &&
	       has_name(&help_opts, "-?") && help_status.n == 4,
	       "the parser finds --help's %d option names and %d exit "
	       "statuses", help_opts.n, help_status.n);
	if (!tap_ok(same_names(&help_opts, &man_opts),
		    "oomwatch(8) and --help name the same %d options",
		    help_opts.n)) {
		diag_missing("in --help, not in the man page", &help_opts,
			     &man_opts);
		diag_missing("in the man page, not in --help", &man_opts,
			     &help_opts);
	}
	if (!tap_ok(same_names(&help_status, &man_status),
		    "oomwatch(8) and --help list the same %d exit statuses",
		    help_status.n)) {
		diag_missing("in --help, not in the man page", &help_status,
			     &man_status);
		diag_missing("in the man page, not in --help", &man_status,
			     &help_status);
	}

	if (access(GROFF, X_OK) == 0) {
		const char *groff[] = {
			GROFF, "-man", "-ww", "-z", "-Tutf8", MAN_PAGE, NULL,
		};
		struct proc_result g;

		if (!tap_ok(proc_run(groff, NULL, &g) == 0 && g.status == 0 &&
			    g.err_len == 0,
			    "man/oomwatch.8 renders without a groff warning") &&
		    g.err)
			tap_diag("%s", g.err);
		proc_free(&g);
	} else {
		tap_ok(true, "# SKIP no %s to render man/oomwatch.8", GROFF);
	}

	free_names(&help_opts);
	free_names(&man_opts);
	free_names(&help_status);
	free_names(&man_status);
	proc_free(&r);
	free(page);
	return tap_done();
}
