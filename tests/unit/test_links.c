// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Every relative link in the project's markdown resolves: README.md, the
 * .md files of docs/ and every .md file under results/, at any depth,
 * below the top directory (TOP_DIR).  A link is an inline link or image,
 * "[text](target)" or "![alt](target)", or a reference definition,
 * "[label]: target"; links inside fenced code blocks and `code spans` are
 * not links.  Targets with a scheme (https:, mailto:) are not checked;
 * the others are resolved against the linking file's directory (a leading
 * "/" against the top directory, as GitHub does) and must exist.  A
 * "#fragment" on a markdown target (or alone: the file itself) must name
 * one of its headings, by GitHub's anchor rule: lower case, punctuation
 * dropped, spaces to hyphens, "-1", "-2" for repeats.
 *
 * TAP: a self-test on a fixture tree with known broken links, one failing
 * case per broken link of the project, named FILE:LINE and the target
 * ("not ok 2 - README.md:45: docs/x.md: no such file or directory"), so
 * that "make check" says where to look, and a last case with the counts.
 * "test_links DIR" checks the markdown below DIR instead.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE		/* scandir, alphasort, mkdtemp */
#endif
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"

#ifndef TOP_DIR
#define TOP_DIR "."
#endif

#define MAX_PATH	4096

static const char *top = TOP_DIR;
static int n_files, n_links;	/* checked so far */

struct anchors {
	char **slug;
	size_t n, cap;
};

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		perror("test_links");
		exit(1);
	}
	return p;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* A fence line: up to three spaces, then ``` or ~~~. */
static bool is_fence(const char *line)
{
	int sp = 0;

	while (line[sp] == ' ' && sp < 4)
		sp++;
	return sp < 4 && (!strncmp(line + sp, "```", 3) ||
			  !strncmp(line + sp, "~~~", 3));
}

/*
 * GitHub's heading anchor: the heading's text in lower case, with
 * everything but letters, digits, "-", "_" and spaces dropped (U+2000 to
 * U+206F, general punctuation such as dashes and quotes, too), and each
 * space turned into "-".  Other non-ASCII bytes are kept.
 */
static char *slugify(const char *text, size_t len)
{
	char *s = xrealloc(NULL, len + 1);
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = text[i];

		if (c == 0xe2 && i + 2 < len &&
		    ((unsigned char)text[i + 1] == 0x80 ||
		     (unsigned char)text[i + 1] == 0x81)) {
			i += 2;
		} else if (c >= 0x80 || isalnum(c) || c == '-' || c == '_') {
			s[o++] = c >= 0x80 ? c : tolower(c);
		} else if (c == ' ') {
			s[o++] = '-';
		}
	}
	s[o] = '\0';
	return s;
}

static void add_anchor(struct anchors *a, char *slug)
{
	size_t base_len = strlen(slug);
	int dup = 0;

	/* A repeated heading gets "-1", "-2", ... */
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->slug[i], slug))
			dup++;
	if (dup) {
		slug = xrealloc(slug, base_len + 16);
		snprintf(slug + base_len, 16, "-%d", dup);
	}
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 32;
		a->slug = xrealloc(a->slug, a->cap * sizeof(*a->slug));
	}
	a->slug[a->n++] = slug;
}

/* The anchors of a markdown file's ATX headings ("## Text"). */
static void collect_anchors(const char *buf, struct anchors *a)
{
	bool fenced = false;

	for (const char *line = buf; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		size_t i = 0;

		if (is_fence(line)) {
			fenced = !fenced;
		} else if (!fenced && line[0] == '#') {
			while (i < len && line[i] == '#')
				i++;
			if (i <= 6 && i < len && line[i] == ' ') {
				size_t e = len;

				while (i < e && line[i] == ' ')
					i++;
				while (e > i && (line[e - 1] == '#' ||
						 line[e - 1] == ' '))
					e--;
				add_anchor(a, slugify(line + i, e - i));
			}
		}
		line = end ? end + 1 : line + len;
	}
}

static void free_anchors(struct anchors *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->slug[i]);
	free(a->slug);
	memset(a, 0, sizeof(*a));
}

static bool has_anchor(const char *path, const char *frag)
{
	struct anchors a = { 0 };
	char *buf = slurp(path);
	bool found = false;

	if (!buf)
		return false;
	collect_anchors(buf, &a);
	for (size_t i = 0; i < a.n && !found; i++)
		found = !strcmp(a.slug[i], frag);
	free_anchors(&a);
	free(buf);
	return found;
}

/* "https:", "mailto:": a scheme, not a relative path. */
static bool has_scheme(const char *t)
{
	size_t i = 0;

	if (!isalpha((unsigned char)t[0]))
		return false;
	while (isalnum((unsigned char)t[i]) || t[i] == '+' || t[i] == '-' ||
	       t[i] == '.')
		i++;
	return t[i] == ':';
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* %XX to its byte, in place. */
static void percent_decode(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '%' && isxdigit((unsigned char)s[1]) &&
		    isxdigit((unsigned char)s[2])) {
			char hex[3] = { s[1], s[2], '\0' };

			*o++ = (char)strtol(hex, NULL, 16);
			s += 2;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

struct file_tally {
	const char *rel;	/* the markdown file, from the top */
	const char *dir;	/* its directory, from the top ("" at the top) */
	int links, broken;
};

/* The broken links found, "FILE:LINE: TARGET: why", in the order found. */
static char **issues;
static size_t n_issues;

static void broken(struct file_tally *ft, int lineno, const char *target,
		   const char *why)
{
	size_t size = strlen(ft->rel) + strlen(target) + strlen(why) + 32;
	char *msg = xrealloc(NULL, size);

	if (lineno)
		snprintf(msg, size, "%s:%d: %s: %s", ft->rel, lineno, target,
			 why);
	else
		snprintf(msg, size, "%s: %s", target, why);
	issues = xrealloc(issues, (n_issues + 1) * sizeof(*issues));
	issues[n_issues++] = msg;
	ft->broken++;
}

static void forget_issues(void)
{
	for (size_t i = 0; i < n_issues; i++)
		free(issues[i]);
	free(issues);
	issues = NULL;
	n_issues = 0;
}

/* Checks one link target found at rel:lineno. */
static void check_target(struct file_tally *ft, int lineno, const char *raw,
			 size_t len)
{
	char target[MAX_PATH], path[2 * MAX_PATH + 2];
	const char *frag = NULL;
	struct stat st;
	char *hash;

	if (len == 0 || len >= sizeof(target))
		return;
	memcpy(target, raw, len);
	target[len] = '\0';
	if (has_scheme(target))
		return;
	ft->links++;
	hash = strchr(target, '#');
	if (hash) {
		*hash = '\0';
		frag = hash + 1;
	}
	target[strcspn(target, "?")] = '\0';
	percent_decode(target);
	if (!target[0])
		snprintf(path, sizeof(path), "%s/%s", top, ft->rel);
	else if (target[0] == '/')
		snprintf(path, sizeof(path), "%s%s", top, target);
	else
		snprintf(path, sizeof(path), "%s/%s%s%s", top, ft->dir,
			 ft->dir[0] ? "/" : "", target);
	if (stat(path, &st)) {
		broken(ft, lineno, target, "no such file or directory");
		return;
	}
	if (frag && frag[0] && S_ISREG(st.st_mode) &&
	    (ends_with(path, ".md") || !target[0]) &&
	    !has_anchor(path, frag)) {
		char what[2 * MAX_PATH + 2];

		snprintf(what, sizeof(what), "%s#%s",
			 target[0] ? target : ft->rel, frag);
		broken(ft, lineno, what, "no heading with that anchor");
	}
}

/*
 * The target of an inline link whose "](" is at p[0]: "<a b>" or up to the
 * first space (a title may follow) or the closing parenthesis, nested
 * parentheses allowed.  Sets *len; returns the start.
 */
static const char *inline_target(const char *p, size_t *len)
{
	const char *t = p + 2, *e;
	int depth = 0;

	while (*t == ' ')
		t++;
	if (*t == '<') {
		e = strchr(t + 1, '>');
		*len = e ? (size_t)(e - t - 1) : 0;
		return t + 1;
	}
	for (e = t; *e && *e != '\n' && *e != ' '; e++) {
		if (*e == '(')
			depth++;
		else if (*e == ')' && depth-- == 0)
			break;
	}
	*len = e - t;
	return t;
}

static void check_line(struct file_tally *ft, int lineno, char *line)
{
	const char *p = line, *t;
	size_t len;
	int sp = 0;

	/* `code spans` are not links: blank them out first. */
	for (char *c = line; (c = strchr(c, '`'));) {
		size_t ticks = strspn(c, "`");
		char *close = c + ticks;

		while ((close = strchr(close, '`')) &&
		       strspn(close, "`") != ticks)
			close += strspn(close, "`");
		if (!close)
			break;
		memset(c, ' ', close + ticks - c);
		c = close + ticks;
	}
	/* A reference definition: "[label]: target". */
	while (line[sp] == ' ' && sp < 4)
		sp++;
	if (sp < 4 && line[sp] == '[') {
		const char *close = strstr(line + sp, "]:");

		if (close && !memchr(line + sp, ']', close - line - sp) &&
		    close[2] == ' ') {
			t = close + 2;
			while (*t == ' ')
				t++;
			len = strcspn(t, " \n");
			if (*t == '<') {
				t++;
				len = strcspn(t, ">\n");
			}
			check_target(ft, lineno, t, len);
			return;
		}
	}
	while ((p = strstr(p, "]("))) {
		t = inline_target(p, &len);
		check_target(ft, lineno, t, len);
		p += 2;
	}
}

static void check_file(const char *rel)
{
	char path[2 * MAX_PATH + 2], dir[MAX_PATH];
	struct file_tally ft = { .rel = rel, .dir = dir };
	bool fenced = false;
	char *buf, *line, *slash;
	int lineno = 0;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	snprintf(dir, sizeof(dir), "%s", rel);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		dir[0] = '\0';
	buf = slurp(path);
	if (!buf) {
		broken(&ft, 0, rel, "cannot read");
		return;
	}
	for (line = buf; line && *line;) {
		char *end = strchr(line, '\n');

		if (end)
			*end = '\0';
		lineno++;
		if (is_fence(line))
			fenced = !fenced;
		else if (!fenced)
			check_line(&ft, lineno, line);
		line = end ? end + 1 : NULL;
	}
	free(buf);
	n_files++;
	n_links += ft.links;
}

/* The .md files of top/rel, in name order; into subdirectories if deep. */
static void check_dir(const char *rel, bool deep)
{
	char path[2 * MAX_PATH + 2], child[MAX_PATH];
	struct dirent **ents;
	int n;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	n = scandir(path, &ents, NULL, alphasort);
	if (n < 0) {
		struct file_tally ft = { .rel = rel, .dir = "" };

		broken(&ft, 0, rel, "cannot list the directory");
		return;
	}
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		struct stat st;

		snprintf(child, sizeof(child), "%s/%s", rel, name);
		snprintf(path, sizeof(path), "%s/%s", top, child);
		if (name[0] == '.' || stat(path, &st))
			;
		else if (S_ISDIR(st.st_mode) && deep)
			check_dir(child, deep);
		else if (S_ISREG(st.st_mode) && ends_with(name, ".md"))
			check_file(child);
		free(ents[i]);
	}
	free(ents);
}

/*
 * The checker on a tree of its own, whose broken links are known: what it
 * must find, and what it must not (schemes, code, fences, titles,
 * percent-escapes, parentheses, directories, repeated headings).
 */
static const struct {
	const char *path, *text;
} fixture[] = {
	{ "docs/a.md",
	  "# A heading\n"
	  "[up](../README.md#top-heading) [dup](#a-heading-1)\n"
	  "# A heading\n" },
	{ "docs/a_(b).md", "x\n" },
	{ "docs/with space.md", "x\n" },
	{ "results/pic.svg", "<svg/>\n" },
	{ "results/sub/r.md",
	  "# R\n"
	  "[back](../../docs/a.md) [bad](../x.md)\n" },
	{ "README.md",
	  "# Top heading\n"
	  "## Sub \xe2\x80\x94 heading (with `code`)\n"
	  "[ok](docs/a.md) [ok](docs/a.md#a-heading) [self](#sub--heading-with-code)\n"
	  "[missing](docs/missing.md) and ![pic](results/pic.svg)\n"
	  "[web](https://example.org/x) `[code](nowhere.md)` [mail](mailto:a@b)\n"
	  "```sh\n"
	  "[fenced](nowhere.md)\n"
	  "```\n"
	  "[anchor](docs/a.md#nope) [dir](results/) [paren](docs/a_(b).md)\n"
	  "[title](docs/a.md \"A title\") [esc](docs/with%20space.md)\n"
	  "[ref]: results/none.md\n"
	  "[root](/docs/a.md) [<angle>](<docs/a.md>)\n" },
};

static const char *const expected[] = {
	"README.md:4: docs/missing.md: no such file or directory",
	"README.md:9: docs/a.md#nope: no heading with that anchor",
	"README.md:11: results/none.md: no such file or directory",
	"results/sub/r.md:2: ../x.md: no such file or directory",
};

static bool write_fixture(const char *root)
{
	char path[2 * MAX_PATH + 2];

	for (size_t i = 0; i < sizeof(fixture) / sizeof(fixture[0]); i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", root, fixture[i].path);
		for (char *c = path + strlen(root) + 1; (c = strchr(c, '/'));
		     c++) {
			*c = '\0';
			mkdir(path, 0700);
			*c = '/';
		}
		f = fopen(path, "w");
		if (!f || fputs(fixture[i].text, f) < 0 || fclose(f))
			return false;
	}
	return true;
}

static void remove_fixture(const char *root)
{
	static const char *const dirs[] = {
		"results/sub", "results", "docs", "",
	};
	char path[2 * MAX_PATH + 2];

	for (size_t i = 0; i < sizeof(fixture) / sizeof(fixture[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, fixture[i].path);
		remove(path);
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		remove(path);
	}
}

static void check_tree(void)
{
	check_file("README.md");
	check_dir("docs", false);
	check_dir("results", true);
}

static void self_test(void)
{
	char root[] = "/tmp/ow-links.XXXXXX";
	const size_t n_expected = sizeof(expected) / sizeof(expected[0]);
	bool same;

	if (!mkdtemp(root) || !write_fixture(root)) {
		tap_ok(false, "self-test: cannot write the fixture tree");
		return;
	}
	top = root;
	check_tree();
	same = n_issues == n_expected;
	for (size_t i = 0; same && i < n_expected; i++)
		same = !strcmp(issues[i], expected[i]);
	if (!tap_ok(same && n_files == 5 && n_links == 17,
		    "self-test: finds exactly the %zu broken links of a "
		    "fixture tree, by FILE:LINE (5 files, 17 links)",
		    n_expected)) {
		tap_diag("%d files, %d links; found:", n_files, n_links);
		for (size_t i = 0; i < n_issues; i++)
			tap_diag("  %s", issues[i]);
	}
	remove_fixture(root);
	forget_issues();
	n_files = n_links = 0;
}

int main(int argc, char **argv)
{
	self_test();
	top = argc > 1 ? argv[1] : TOP_DIR;
	check_tree();
	for (size_t i = 0; i < n_issues; i++)
		tap_ok(false, "%s", issues[i]);
	tap_ok(!n_issues, "links: %d relative links in %d markdown files "
	       "(README.md, docs/, results/), %zu broken", n_links, n_files,
	       n_issues);
	forget_issues();
	return tap_done();
}
