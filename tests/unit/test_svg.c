// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The SVG picture: well formed (starts with <svg, ends with </svg>, every
 * tag closed in order, text escaped), and for the fixtures the number of
 * things drawn of each kind.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdlib.h>
#include <string.h>
#include "svg.h"

#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * A small XML well-formedness check: tags nest and close in order, every
 * '&' starts an entity, no '<' or '>' stray in text, attribute values
 * quoted.  Enough for what svg.c writes.
 */
static bool well_formed(const char *s, char *why, size_t size)
{
	char stack[32][24];
	int depth = 0, seen_root = 0;
	const char *p = s;

	while (*p) {
		if (*p == '&') {
			if (strncmp(p, "&lt;", 4) && strncmp(p, "&gt;", 4) &&
			    strncmp(p, "&amp;", 5) && strncmp(p, "&quot;", 6) &&
			    strncmp(p, "&#x", 3)) {
				snprintf(why, size, "bad entity at %zu", p - s);
				return false;
			}
			p++;
			continue;
		}
		if (*p == '>') {
			snprintf(why, size, "stray '>' at %zu", p - s);
			return false;
		}
		if (*p != '<') {
			if ((unsigned char)*p < 0x20 && *p != '\n') {
				snprintf(why, size, "control byte at %zu", p - s);
				return false;
			}
			p++;
			continue;
		}
		if (p[1] == '/') {
			size_t n = strcspn(p + 2, ">");

			if (!depth || strlen(stack[depth - 1]) != n ||
			    strncmp(stack[depth - 1], p + 2, n)) {
				snprintf(why, size, "unbalanced </%.*s> at %zu",
					 (int)n, p + 2, p - s);
				return false;
			}
			depth--;
			p += n + 3;
			continue;
		}
		{
			size_t n = strcspn(p + 1, " />");
			const char *end = p + 1;
			int quotes = 0;

			if (!n || n >= sizeof(stack[0])) {
				snprintf(why, size, "bad tag at %zu", p - s);
				return false;
			}
			while (*end && (*end != '>' || quotes % 2)) {
				if (*end == '"')
					quotes++;
				if (*end == '<' && quotes % 2 == 0) {
					snprintf(why, size, "'<' in a tag at %zu",
						 end - s);
					return false;
				}
				end++;
			}
			if (!*end) {
				snprintf(why, size, "unterminated tag at %zu",
					 p - s);
				return false;
			}
			if (end[-1] != '/') {
				if (depth == 32)
					return false;
				if (!depth && seen_root++) {
					snprintf(why, size, "two roots");
					return false;
				}
				memcpy(stack[depth], p + 1, n);
				stack[depth++][n] = '\0';
			}
			p = end + 1;
		}
	}
	if (depth) {
		snprintf(why, size, "<%s> not closed", stack[depth - 1]);
		return false;
	}
	return true;
}

static unsigned int count(const char *s, const char *cls)
{
	char needle[64];
	unsigned int n = 0;

	snprintf(needle, sizeof(needle), "class=\"%s\"", cls);
	for (const char *p = s; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* The picture of a fixture, as --svg draws it. */
static char *draw(const char *fixture)
{
	struct ow_svg *g = ow_svg_new();
	struct ow_header h, *hp = NULL;
	char path[512], *buf = NULL;
	struct ow_reader r;
	struct ow_record rec;
	size_t len = 0;
	FILE *in, *out;

	snprintf(path, sizeof(path), "%s/%s", FIXTURE_DIR, fixture);
	in = fopen(path, "r");
	if (!in || !g)
		return NULL;
	ow_reader_init(&r, in, fixture);
	while (ow_reader_next(&r, &rec) == 1) {
		if (rec.kind == OW_REC_HEADER) {
			h = rec.header;
			hp = &h;
		} else if (rec.kind == OW_REC_EVENT) {
			ow_svg_event(g, &rec.event);
		}
	}
	fclose(in);
	out = open_memstream(&buf, &len);
	ow_svg_write(g, out, hp);
	fclose(out);
	ow_svg_free(g);
	return buf;
}

struct expect {
	const char *cls;
	unsigned int n;
};

static void check_fixture(const char *fixture, const struct expect *want,
			  size_t n)
{
	char why[128] = "", *s = draw(fixture);
	size_t len = s ? strlen(s) : 0;
	bool ok;

	ok = s && !strncmp(s, "<svg ", 5) && len > 7 &&
	     !strcmp(s + len - 7, "</svg>\n") && well_formed(s, why, sizeof(why));
	if (!tap_ok(ok, "svg %s: starts with <svg, ends with </svg>, well formed",
		    fixture))
		tap_diag("%s", why);
	ok = s != NULL;
	for (size_t i = 0; s && i < n; i++) {
		unsigned int got = count(s, want[i].cls);

		if (got != want[i].n) {
			tap_diag("class %s: %u, want %u", want[i].cls, got,
				 want[i].n);
			ok = false;
		}
	}
	tap_ok(ok, "svg %s: the expected marks of each kind", fixture);
	free(s);
}

static void test_fixtures(void)
{
	static const struct expect arbiter[] = {
		{ "kill", 1 }, { "token", 1 }, { "bypass", 1 },
		{ "unrecl", 2 }, { "request", 2 }, { "defer", 1 },
		{ "veto", 1 }, { "grant", 1 }, { "fallback", 0 },
		{ "free", 2 }, { "min", 2 }, { "afree", 1 }, { "amin", 1 },
		{ "row", 5 },
	};
	static const struct expect stuck[] = {
		{ "kill", 0 }, { "token", 0 }, { "unrecl", 4 },
		{ "request", 1 }, { "defer", 2 }, { "fallback", 1 },
		{ "free", 0 }, { "min", 0 }, { "afree", 0 },
	};
	static const struct expect token[] = {
		{ "kill", 1 }, { "token", 1 }, { "bypass", 0 }, { "unrecl", 0 },
		{ "free", 0 }, { "min", 0 }, { "afree", 1 }, { "amin", 1 },
	};
	/* a thrashing lane under node 0's unreclaimable one */
	static const struct expect thrash[] = {
		{ "kill", 1 }, { "thrash", 1 }, { "tgrant", 1 }, { "take", 1 },
		{ "unrecl", 0 }, { "request", 0 }, { "grant", 0 },
		{ "row", 6 }, { "lg", 11 },
	};
	/* no thrash events: no lane, no legend for it */
	static const struct expect no_thrash[] = {
		{ "thrash", 0 }, { "tgrant", 0 }, { "take", 0 }, { "lg", 8 },
	};
	char *s;

	check_fixture("arbiter_ok.jsonl", arbiter, ARRAY_SIZE(arbiter));
	check_fixture("arbiter_ok.jsonl", no_thrash, ARRAY_SIZE(no_thrash));
	check_fixture("thrash_v3.jsonl", thrash, ARRAY_SIZE(thrash));
	check_fixture("stuck_request.jsonl", stuck, ARRAY_SIZE(stuck));
	check_fixture("token_bug_2004.jsonl", token, ARRAY_SIZE(token));
	s = draw("stuck_request.jsonl");
	tap_ok(s && strstr(s, "no zone evidence") &&
	       strstr(s, "stroke-dasharray=\"3 2\"><title>unreclaimable from "
		      "15.800000 s to the end: never cleared"),
	       "svg: a window still open at the end is drawn open, and a node "
	       "without zone evidence says so");
	free(s);
	s = draw("thrash_v3.jsonl");
	tap_ok(s && strstr(s, "bypass_priority 0, thrash 1, "
			   "thrash_timeout_ms 10000;") &&
	       strstr(s, "<text class=\"row\" x=\"8\" y=\"180.0\">node 0 "
		      "thrashing</text>") &&
	       strstr(s, "<title>thrashing from 1.000000 s to 14.000000 s "
		      "(13000 ms): calm</title>") &&
	       strstr(s, "oom_thrash_take by hog[200], order 0") &&
	       strstr(s, "oom_thrash_grant, thrashing 11010 ms, swap 0 of 0 "
		      "pages free") && !strstr(s, "thrash unknown"),
	       "svg: the thrash sysctls in the title, a thrashing lane with "
	       "its window, grant and take");
	free(s);
	s = draw("arbiter_ok.jsonl");
	tap_ok(s && !strstr(s, "thrash_timeout_ms") &&
	       !strstr(s, "thrashing") && !strstr(s, "thrash grant"),
	       "svg: a recording without the thrash sysctls says nothing of "
	       "them");
	free(s);
}

static void test_escaping(void)
{
	struct oomwatch_event ev = {
		.seq = 1, .ts_ns = 5, .type = OW_MARK_VICTIM,
		.victim = { .pid = 9, .comm = "<&\"\x01\xe9>]]>" },
	};
	struct ow_svg *g = ow_svg_new();
	char *buf = NULL, why[128] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool ok;

	ow_svg_event(g, &ev);
	ok = !ow_svg_write(g, f, NULL);
	fclose(f);
	ok = ok && well_formed(buf, why, sizeof(why)) &&
	     strstr(buf, "&lt;&amp;&quot;?&#xe9;&gt;]]&gt;[9]") &&
	     strstr(buf, "recording without a header");
	if (!tap_ok(ok, "svg: any comm byte is escaped; no header is said"))
		tap_diag("%s", why);
	free(buf);
	ow_svg_free(g);

	g = ow_svg_new();
	buf = NULL;
	f = open_memstream(&buf, &len);
	ok = !ow_svg_write(g, f, NULL);
	fclose(f);
	tap_ok(ok && well_formed(buf, why, sizeof(why)) && count(buf, "kill") == 0,
	       "svg: a picture of nothing is still well formed");
	free(buf);
	ow_svg_free(g);
}

int main(void)
{
	test_fixtures();
	test_escaping();
	return tap_done();
}
