// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * ow-report: result lines to markdown tables and SVG plots; report.h says
 * what a record is.
 *
 * The matrix table has one row per scenario and mode (the scenario named
 * on its first row only, so the groups stand out):
 *
 *   runs                    records
 *   kills                   sum of kills=, and "(n/runs runs)" with a kill
 *   spurious kills          sum of spurious=
 *   unreclaimable→kill ms   set_to_kill_ms=: median (min–max)
 *   completion s            wall_ms= in seconds: median (min–max)
 *   invariants              assert=: "ok", "FAIL k/n", "ok (k/n checked)"
 *                           when some runs said na, "–" when none checked
 *
 * "–" where no run has a number for the column.  The bench tables and
 * plots take every numeric key (or the --metrics ones) of a scenario:
 * "median (min–max) ×ratio to the baseline's median".  A scenario whose
 * runs carry exec_lat= (report.h) also gets a latency plot: a line per
 * mode over the seconds since the hog started.
 *
 * No libm (isfinite() is a macro): the axis rounds small numbers by hand,
 * and the latency plot takes its logarithms by hand (log10_of()).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "report.h"
#include "xml.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define RESULT_PREFIX	"# result:"
#define EN_DASH		"\u2013"	/* "–": ranges, and no value */
#define EM_DASH		"\u2014"
#define TIMES		"\u00d7"
#define DEFAULT_BASELINE "stock"
#define QUOTE_MAX	40	/* of a token quoted in an error */
/* Fixed point below 1e15 with at most 6 decimals, else %g: 40 is enough. */
#define NUM_MAX		64
#define MAX_DECIMALS	6
#define MAX_FIXED	1e15

/* How a metric is shown: key suffix, header unit, divisor, decimals. */
struct unit {
	const char *suffix;	/* keys ending so, first match wins */
	size_t strip;		/* how much of the key the label drops */
	const char *label;	/* NULL: shown raw, under its own key */
	double scale;
	int decimals;		/* < 0: as few as needed, at most 2 */
};

/*
 * Durations in seconds; latencies (a worst case, a percentile, a slowest
 * pass) and CPU times (oomwatch's own, its BPF programs') stay in
 * milliseconds, where their differences are; shares in percent.
 */
static const struct unit units[] = {
	{ "_max_ms", 3, "ms", 1, 1 },
	{ "_p99_ms", 3, "ms", 1, 1 },
	{ "_slowest_ms", 3, "ms", 1, 0 },
	{ "_cpu_ms", 3, "ms", 1, 1 },
	{ "_bpf_ms", 3, "ms", 1, 1 },
	{ "_pct", 4, "%", 1, 2 },
	{ "_ms", 3, "s", 1000, 2 },
	{ "_mb", 3, "MB", 1, 0 },
};
static const struct unit raw_unit = { "", 0, NULL, 1, -1 };

/* The runs of one mode of a scenario. */
struct group {
	const char *mode;
	const struct ow_rec **rec;	/* in input order */
	size_t n;
};

/* A scenario's runs, grouped by mode in display order. */
struct scene {
	const char *name;
	struct group *g;
	size_t ng;
	const struct ow_rec **all;	/* the groups' rec arrays, in a row */
	size_t n;
};

/* ------------------------------------------------------------ parsing */

void ow_report_init(struct ow_report *r)
{
	memset(r, 0, sizeof(*r));
}

void ow_report_free(struct ow_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->rec[i].line);
		free(r->rec[i].f);
	}
	free(r->rec);
	ow_report_init(r);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* A finite number and nothing else: "nan" or "1e999" are text. */
static bool parse_num(const char *s, double *out)
{
	char *end;

	if (!*s)
		return false;
	*out = strtod(s, &end);
	return !*end && isfinite(*out);
}

/* Long enough for any number a pass could take, and short to quote. */
#define LAT_ITEM_MAX	24

/* Item k (from 1) of a series, s[0..len), into *ms; false with why. */
static bool lat_item(const char *s, size_t len, long k, double *ms,
		     char *why, size_t size)
{
	char buf[LAT_ITEM_MAX + 1];

	if (len == 1 && *s == '-') {
		*ms = OW_REPORT_LAT_NONE;
		return true;
	}
	if (len > LAT_ITEM_MAX) {
		snprintf(why, size, OW_REPORT_LAT_KEY "= item %ld: longer "
			 "than %d characters", k, LAT_ITEM_MAX);
		return false;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!parse_num(buf, ms))
		snprintf(why, size, OW_REPORT_LAT_KEY "= item %ld \"%s\": "
			 "not a number of ms or \"-\"", k, buf);
	else if (*ms < 0 || *ms > OW_REPORT_LAT_MS_MAX)
		snprintf(why, size, OW_REPORT_LAT_KEY "= item %ld \"%s\": "
			 "not within 0..%d ms", k, buf, OW_REPORT_LAT_MS_MAX);
	else
		return true;
	return false;
}

long ow_report_lat_parse(const char *s, double *v, char *why, size_t size)
{
	long n = 0;

	for (;;) {
		size_t len = strcspn(s, ",");
		double ms;

		/* Checked before the item: v has room for the cap only. */
		if (n == OW_REPORT_LAT_MAX) {
			snprintf(why, size, OW_REPORT_LAT_KEY "= has more than "
				 "%d items (seconds)", OW_REPORT_LAT_MAX);
			return -1;
		}
		if (!lat_item(s, len, n + 1, &ms, why, size))
			return -1;
		if (v)
			v[n] = ms;
		n++;
		if (!s[len])
			return n;
		s += len + 1;
	}
}

/*
 * Where the key=value tokens start: after blanks and "# result:".  NULL
 * for any other '#' line: a comment, whatever it holds.
 */
static char *body_of(char *s)
{
	while (is_space(*s))
		s++;
	if (*s != '#')
		return s;
	if (strncmp(s, RESULT_PREFIX, strlen(RESULT_PREFIX)))
		return NULL;
	return s + strlen(RESULT_PREFIX);
}

static size_t count_tokens(const char *s)
{
	size_t n = 0;

	while (*s) {
		while (is_space(*s))
			s++;
		if (!*s)
			break;
		n++;
		while (*s && !is_space(*s))
			s++;
	}
	return n;
}

/* Cuts s into tokens in place; val stays NULL in a token without '='. */
static void split(char *s, struct ow_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *eq;

		while (is_space(*s))
			s++;
		f[i].key = s;
		while (*s && !is_space(*s))
			s++;
		if (*s)
			*s++ = '\0';
		eq = strchr(f[i].key, '=');
		if (eq) {
			*eq = '\0';
			f[i].val = eq + 1;
			f[i].numeric = parse_num(f[i].val, &f[i].num);
		}
	}
}

static const char *value_of(const struct ow_field *f, size_t n,
			    const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].val && !strcmp(f[i].key, key))
			return f[i].val;
	return NULL;
}

/* The keys whose values have a form: why one is off, in err. */
static bool bad_value(const struct ow_field *f, size_t n, char *err,
		      size_t size)
{
	const char *a = value_of(f, n, "assert");
	const char *lat = value_of(f, n, OW_REPORT_LAT_KEY);

	if (a && strcmp(a, "ok") && strcmp(a, "fail") && strcmp(a, "na")) {
		snprintf(err, size, "assert=%.*s: expected ok, fail or na",
			 QUOTE_MAX, a);
		return true;
	}
	/* Here, not when plotting: a bad series names its file and line. */
	return lat && ow_report_lat_parse(lat, NULL, err, size) < 0;
}

/* Why the fields of a record are not clean, in err; false if they are. */
static bool malformed(const struct ow_field *f, size_t n, char *err,
		      size_t size)
{
	static const char *const named[] = { "scenario", "mode", "run" };

	for (size_t i = 0; i < n; i++) {
		if (!f[i].val) {
			snprintf(err, size, "\"%.*s\" is not key=value",
				 QUOTE_MAX, f[i].key);
			return true;
		}
		if (!*f[i].key) {
			snprintf(err, size, "\"=%.*s\" has no key", QUOTE_MAX,
				 f[i].val);
			return true;
		}
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(f[i].key, f[j].key)) {
				snprintf(err, size, "%.*s= given twice",
					 QUOTE_MAX, f[i].key);
				return true;
			}
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		if (!*value_of(f, n, named[i])) {
			snprintf(err, size, "%s= is empty", named[i]);
			return true;
		}
	}
	return bad_value(f, n, err, size);
}

static int keep(struct ow_report *r, char *line, struct ow_field *f,
		size_t n)
{
	struct ow_rec *rec;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;

		rec = realloc(r->rec, cap * sizeof(*rec));
		if (!rec)
			return -1;
		r->rec = rec;
		r->cap = cap;
	}
	rec = &r->rec[r->n++];
	rec->line = line;
	rec->f = f;
	rec->nf = n;
	rec->scenario = value_of(f, n, "scenario");
	rec->mode = value_of(f, n, "mode");
	rec->run = value_of(f, n, "run");
	return 0;
}

int ow_report_line(struct ow_report *r, const char *line, const char *file,
		   unsigned long lineno, char *err, size_t size)
{
	size_t len = strlen(line), n;
	struct ow_field *f = NULL;
	char *copy, *body, why[128];

	r->lines++;
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (len > OW_REPORT_LINE_MAX) {
		snprintf(err, size, "%s:%lu: line longer than %d characters",
			 file, lineno, OW_REPORT_LINE_MAX);
		return -1;
	}
	copy = strndup(line, len);
	if (!copy)
		goto oom;
	body = body_of(copy);
	n = body ? count_tokens(body) : 0;
	if (!n)
		goto ignore;
	f = calloc(n, sizeof(*f));
	if (!f)
		goto oom;
	split(body, f, n);
	if (!value_of(f, n, "scenario") || !value_of(f, n, "mode") ||
	    !value_of(f, n, "run"))
		goto ignore;
	if (malformed(f, n, why, sizeof(why))) {
		snprintf(err, size, "%s:%lu: %s", file, lineno, why);
		free(f);
		free(copy);
		return -1;
	}
	if (keep(r, copy, f, n))
		goto oom;
	return 1;
ignore:
	free(f);
	free(copy);
	return 0;
oom:
	snprintf(err, size, "%s:%lu: out of memory", file, lineno);
	free(f);
	free(copy);
	return -1;
}

int ow_report_read(struct ow_report *r, FILE *f, const char *file,
		   char *err, size_t size)
{
	unsigned long lineno = 0;
	size_t cap = 0;
	char *line = NULL;
	int ret = 0;

	r->files++;
	errno = 0;
	while (getline(&line, &cap, f) >= 0) {
		if (ow_report_line(r, line, file, ++lineno, err, size) < 0) {
			ret = -1;
			break;
		}
		errno = 0;
	}
	if (!ret && ferror(f)) {
		snprintf(err, size, "%s: %s", file,
			 strerror(errno ? errno : EIO));
		ret = -1;
	}
	free(line);
	return ret;
}

const struct ow_field *ow_rec_field(const struct ow_rec *rec,
				    const char *key)
{
	for (size_t i = 0; i < rec->nf; i++)
		if (!strcmp(rec->f[i].key, key))
			return &rec->f[i];
	return NULL;
}

/* -------------------------------------------------------------- stats */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Not ow_percentiles(): that one is nearest rank on integers, and a
 * benchmark median of an even count is the mean of the middle two.
 */
int ow_range_of(double *v, size_t n, struct ow_range *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return -1;
	qsort(v, n, sizeof(*v), cmp_double);
	out->n = n;
	out->min = v[0];
	out->max = v[n - 1];
	/* Halves first: the sum of two large values could overflow. */
	out->median = n % 2 ? v[n / 2] : v[n / 2 - 1] / 2 + v[n / 2] / 2;
	return 0;
}

/* The numbers key has in g's runs, into v (room for g->n); their count. */
static size_t values_of(const struct group *g, const char *key, double *v)
{
	size_t n = 0;

	for (size_t i = 0; i < g->n; i++) {
		const struct ow_field *f = ow_rec_field(g->rec[i], key);

		if (f && f->numeric)
			v[n++] = f->num;
	}
	return n;
}

/* ----------------------------------------------------------- grouping */

static bool is_set(const char *s)
{
	return s && *s;
}

/* Position of name in a comma-separated list (empty items skipped). */
static long list_index(const char *list, const char *name)
{
	size_t len = strlen(name);
	long i = 0;

	if (!list)
		return -1;
	while (*list) {
		size_t n = strcspn(list, ",");

		if (n == len && !strncmp(list, name, n))
			return i;
		i += n > 0;
		list += n + (list[n] == ',');
	}
	return -1;
}

/* Listed modes first, in list order; the rest keep their order. */
static bool goes_before(const char *order, const char *a, const char *b)
{
	long ia = list_index(order, a), ib = list_index(order, b);

	return ia >= 0 && (ib < 0 || ia < ib);
}

/* Distinct scenarios in first-appearance order, into out (room r->n). */
static size_t scenario_names(const struct ow_report *r, const char **out)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++) {
		size_t j = 0;

		while (j < n && strcmp(out[j], r->rec[i].scenario))
			j++;
		if (j == n)
			out[n++] = r->rec[i].scenario;
	}
	return n;
}

static void scene_free(struct scene *s)
{
	free(s->g);
	free(s->all);
	memset(s, 0, sizeof(*s));
}

/* Distinct modes of s's runs into s->g, first-appearance order. */
static void find_modes(struct scene *s, const struct ow_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct ow_rec *rec = &r->rec[i];
		size_t j = 0;

		if (strcmp(rec->scenario, s->name))
			continue;
		while (j < s->ng && strcmp(s->g[j].mode, rec->mode))
			j++;
		if (j == s->ng)
			s->g[s->ng++].mode = rec->mode;
	}
}

/* 0, or -1 with errno ENOMEM. */
static int scene_build(struct scene *s, const struct ow_report *r,
		       const char *name, const char *order)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
	for (size_t i = 0; i < r->n; i++)
		s->n += !strcmp(r->rec[i].scenario, name);
	s->g = calloc(s->n ? s->n : 1, sizeof(*s->g));
	s->all = calloc(s->n ? s->n : 1, sizeof(*s->all));
	if (!s->g || !s->all) {
		scene_free(s);
		errno = ENOMEM;
		return -1;
	}
	find_modes(s, r);
	/* Insertion sort: stable, and there are a handful of modes. */
	for (size_t i = 1; i < s->ng; i++) {
		struct group g = s->g[i];
		size_t j = i;

		while (j > 0 && goes_before(order, g.mode, s->g[j - 1].mode)) {
			s->g[j] = s->g[j - 1];
			j--;
		}
		s->g[j] = g;
	}
	for (size_t i = 0, pos = 0; i < s->ng; i++) {
		struct group *g = &s->g[i];

		g->rec = s->all + pos;
		for (size_t j = 0; j < r->n; j++)
			if (!strcmp(r->rec[j].scenario, name) &&
			    !strcmp(r->rec[j].mode, g->mode))
				g->rec[g->n++] = &r->rec[j];
		pos += g->n;
	}
	return 0;
}

/* ------------------------------------------------------------ numbers */

/* "-0" and "-0.00" say nothing a plain zero does not. */
static void drop_minus_zero(char *buf)
{
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
}

/*
 * v with that many decimals, or (< 0) as few as needed up to two; in %g
 * when that would take hundreds of digits or too many decimals.
 */
static const char *fmt_num(char *buf, double v, int decimals)
{
	if (v >= MAX_FIXED || v <= -MAX_FIXED || decimals > MAX_DECIMALS) {
		snprintf(buf, NUM_MAX, "%.6g", v);
		return buf;
	}
	snprintf(buf, NUM_MAX, "%.*f", decimals < 0 ? 2 : decimals, v);
	if (decimals < 0 && strchr(buf, '.')) {
		size_t len = strlen(buf);

		while (buf[len - 1] == '0')
			buf[--len] = '\0';
		if (buf[len - 1] == '.')
			buf[--len] = '\0';
	}
	drop_minus_zero(buf);
	return buf;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

static const struct unit *unit_of(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (ends_with(key, units[i].suffix))
			return &units[i];
	return &raw_unit;
}

/* "median (min–max)", the value alone for one number, "–" for none. */
static void put_range(FILE *f, const struct ow_range *g,
		      const struct unit *u)
{
	char a[NUM_MAX], b[NUM_MAX];

	if (!g->n) {
		fputs(EN_DASH, f);
		return;
	}
	fputs(fmt_num(a, g->median / u->scale, u->decimals), f);
	if (g->n > 1)
		fprintf(f, " (%s" EN_DASH "%s)",
			fmt_num(a, g->min / u->scale, u->decimals),
			fmt_num(b, g->max / u->scale, u->decimals));
}

/* ---------------------------------------------------------- markdown */

/* A table cell: a '|' would end it. */
static void md_put(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void preamble(FILE *f, const struct ow_report_opts *o)
{
	if (is_set(o->title))
		fprintf(f, "### %s\n\n", o->title);
	if (is_set(o->commit) && is_set(o->date))
		fprintf(f, "Commit %s, %s.\n\n", o->commit, o->date);
	else if (is_set(o->commit))
		fprintf(f, "Commit %s.\n\n", o->commit);
	else if (is_set(o->date))
		fprintf(f, "%s.\n\n", o->date);
}

static int write_status(FILE *f)
{
	if (fflush(f) || ferror(f)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

static void kills_cell(FILE *f, const struct group *g)
{
	size_t seen = 0, with = 0;
	double total = 0;
	char num[NUM_MAX];

	for (size_t i = 0; i < g->n; i++) {
		const struct ow_field *k = ow_rec_field(g->rec[i], "kills");

		if (!k || !k->numeric)
			continue;
		seen++;
		total += k->num;
		with += k->num >= 1;
	}
	if (!seen) {
		fputs(EN_DASH, f);
		return;
	}
	fputs(fmt_num(num, total, -1), f);
	if (g->n > 1)
		fprintf(f, " (%zu/%zu runs)", with, g->n);
}

static void sum_cell(FILE *f, const struct group *g, const char *key,
		     double *v)
{
	size_t n = values_of(g, key, v);
	double total = 0;
	char num[NUM_MAX];

	for (size_t i = 0; i < n; i++)
		total += v[i];
	fputs(n ? fmt_num(num, total, -1) : EN_DASH, f);
}

static void range_cell(FILE *f, const struct group *g, const char *key,
		       const struct unit *u, double *v)
{
	struct ow_range rg;

	ow_range_of(v, values_of(g, key, v), &rg);
	put_range(f, &rg, u);
}

static void invariants_cell(FILE *f, const struct group *g)
{
	size_t ok = 0, fail = 0;

	for (size_t i = 0; i < g->n; i++) {
		const struct ow_field *a = ow_rec_field(g->rec[i], "assert");

		ok += a && !strcmp(a->val, "ok");
		fail += a && !strcmp(a->val, "fail");
	}
	if (fail)
		fprintf(f, "FAIL %zu/%zu", fail, g->n);
	else if (ok == g->n)
		fputs("ok", f);
	else if (ok)
		fprintf(f, "ok (%zu/%zu checked)", ok, g->n);
	else
		fputs(EN_DASH, f);
}

static void matrix_row(FILE *f, const struct scene *s, size_t i, double *v)
{
	static const struct unit ms = { "", 0, NULL, 1, 0 };
	static const struct unit secs = { "", 0, NULL, 1000, 1 };
	const struct group *g = &s->g[i];

	fputs("| ", f);
	md_put(f, i ? "" : s->name);
	fputs(" | ", f);
	md_put(f, g->mode);
	fprintf(f, " | %zu | ", g->n);
	kills_cell(f, g);
	fputs(" | ", f);
	sum_cell(f, g, "spurious", v);
	fputs(" | ", f);
	range_cell(f, g, "set_to_kill_ms", &ms, v);
	fputs(" | ", f);
	range_cell(f, g, "wall_ms", &secs, v);
	fputs(" | ", f);
	invariants_cell(f, g);
	fputs(" |\n", f);
}

int ow_report_matrix(FILE *f, const struct ow_report *r,
		     const struct ow_report_opts *o)
{
	const char **names = calloc(r->n ? r->n : 1, sizeof(*names));
	double *v = calloc(r->n ? r->n : 1, sizeof(*v));
	size_t nr = names ? scenario_names(r, names) : 0;
	int ret = 0;

	if (!names || !v) {
		errno = ENOMEM;
		ret = -1;
		goto out;
	}
	errno = 0;
	preamble(f, o);
	fputs("| scenario | mode | runs | kills | spurious kills | "
	      "unreclaimable\u2192kill ms | completion s | invariants |\n"
	      "|---|---|---:|---:|---:|---:|---:|---|\n", f);
	for (size_t i = 0; i < nr; i++) {
		struct scene s;

		if (scene_build(&s, r, names[i], o->order)) {
			ret = -1;
			goto out;
		}
		for (size_t j = 0; j < s.ng; j++)
			matrix_row(f, &s, j, v);
		scene_free(&s);
	}
	ret = write_status(f);
out:
	free(names);
	free(v);
	return ret;
}

/* -------------------------------------------------------------- bench */

static bool has_number(const struct scene *s, const char *key)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct ow_field *f = ow_rec_field(s->all[i], key);

		if (f && f->numeric)
			return true;
	}
	return false;
}

static bool is_listed(const char **keys, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

static size_t nr_fields(const struct scene *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->all[i]->nf;
	return n;
}

/*
 * The metrics of a scene into keys (room for nr_fields()): the wanted
 * list's keys that have a number here, in its order, or else every key
 * with a number in first-appearance order.  The keys point into records.
 */
static size_t metrics_of(const struct scene *s, const char *wanted,
			 const char **keys)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct ow_rec *rec = s->all[i];

		for (size_t j = 0; j < rec->nf; j++) {
			const char *key = rec->f[j].key;

			/* exec_lat=5, a one-second series, is no metric. */
			if (!strcmp(key, "scenario") || !strcmp(key, "mode") ||
			    !strcmp(key, "run") ||
			    !strcmp(key, OW_REPORT_LAT_KEY) ||
			    is_listed(keys, n, key) ||
			    (wanted && list_index(wanted, key) < 0) ||
			    !has_number(s, key))
				continue;
			keys[n++] = key;
		}
	}
	/* Into the list's order; list_index() is unique per key. */
	for (size_t i = 1; wanted && i < n; i++) {
		const char *key = keys[i];
		size_t j = i;

		for (; j > 0 && list_index(wanted, key) <
			       list_index(wanted, keys[j - 1]); j--)
			keys[j] = keys[j - 1];
		keys[j] = key;
	}
	return n;
}

/* "wall (s)" for wall_ms, "swap_peak (MB)" for swap_peak_mb. */
static void put_label(FILE *f, const char *key,
		      void (*put)(FILE *f, const char *s))
{
	const struct unit *u = unit_of(key);
	char *name = strdup(key);

	if (!name || !u->label) {
		put(f, key);
		free(name);
		return;
	}
	name[strlen(name) - u->strip] = '\0';
	put(f, name);
	fprintf(f, " (%s)", u->label);
	free(name);
}

static const struct group *find_group(const struct scene *s,
				      const char *mode)
{
	for (size_t i = 0; i < s->ng; i++)
		if (!strcmp(s->g[i].mode, mode))
			return &s->g[i];
	return NULL;
}

static void bench_cell(FILE *f, const struct group *g, const char *key,
		       const struct group *base, double *v)
{
	struct ow_range rg, rb;

	ow_range_of(v, values_of(g, key, v), &rg);
	put_range(f, &rg, unit_of(key));
	if (!rg.n || !base || base == g)
		return;
	ow_range_of(v, values_of(base, key, v), &rb);
	if (rb.n && rb.median != 0)
		fprintf(f, " " TIMES "%.2f", rg.median / rb.median);
}

static void bench_table(FILE *f, const struct scene *s, const char **keys,
			size_t nk, const struct ow_report_opts *o, double *v)
{
	const struct group *base = find_group(s, is_set(o->baseline) ?
					      o->baseline : DEFAULT_BASELINE);

	fputs("#### ", f);
	md_put(f, s->name);
	fputs("\n\n| mode | runs |", f);
	for (size_t k = 0; k < nk; k++) {
		fputc(' ', f);
		put_label(f, keys[k], md_put);
		fputs(" |", f);
	}
	fputs("\n|---|---:|", f);
	for (size_t k = 0; k < nk; k++)
		fputs("---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < s->ng; i++) {
		fputs("| ", f);
		md_put(f, s->g[i].mode);
		fprintf(f, " | %zu |", s->g[i].n);
		for (size_t k = 0; k < nk; k++) {
			fputc(' ', f);
			bench_cell(f, &s->g[i], keys[k], base, v);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* ---------------------------------------------------------------- svg */

#define WIDTH		900
#define LEFT		150	/* mode names */
#define RIGHT		110	/* medians */
#define PLOT		(WIDTH - LEFT - RIGHT)
#define TOP		60	/* title and subtitle */
#define HEAD		22	/* metric name above its panel */
#define LANE		20
#define AXIS		28	/* axis and tick labels under the lanes */
#define GAP		12
#define BOTTOM		8
#define TICKS		5	/* about; 3 to 6 */
#define DOT_R		4

static const char *const mode_colour[] = {
	"#1b9e77", "#d95f02", "#7570b3", "#e7298a",
	"#66a61e", "#e6ab02", "#a6761d", "#666666",
};

/* From k0 * step to k1 * step, step 1, 2, 2.5 or 5 times a power of 10. */
struct axis {
	long long k0;
	long long k1;
	double step;
	int decimals;		/* of the tick labels */
};

/* Only for |x| small enough for a long long: the axis's few steps. */
static long long floor_ll(double x)
{
	long long k = (long long)x;

	return k > x ? k - 1 : k;
}

static long long ceil_ll(double x)
{
	long long k = (long long)x;

	return k < x ? k + 1 : k;
}

/* Starts at 0 (or below, for negative values) and ends past vmax. */
static void axis_of(double vmin, double vmax, struct axis *ax)
{
	static const double mult[] = { 1, 2, 2.5, 5, 10 };
	double lo = vmin < 0 ? vmin : 0, hi = vmax > 0 ? vmax : 0;
	/* Divided first: hi - lo can overflow (from -1e308 to 1e308). */
	double want = hi > lo ? hi / TICKS - lo / TICKS : 1.0 / TICKS, p = 1;
	int e = 0;
	size_t i = 0;

	while (p * 10 <= want && e < 307) {
		p *= 10;
		e++;
	}
	while (p > want && e > -300) {
		p /= 10;
		e--;
	}
	while (i < ARRAY_SIZE(mult) - 1 && mult[i] * p < want)
		i++;
	ax->step = mult[i] * p;
	/* 10^e needs -e decimals, 2.5 * 10^e one more; 10 * 10^e one less. */
	ax->decimals = -e + (mult[i] == 2.5) - (mult[i] == 10);
	if (ax->decimals < 0)
		ax->decimals = 0;
	/* step >= (hi - lo) / TICKS: these quotients are a few units. */
	ax->k0 = floor_ll(lo / ax->step);
	ax->k1 = ceil_ll(hi / ax->step);
	if (ax->k1 == ax->k0)		/* all zero: 0 to 1 */
		ax->k1 = ax->k0 + TICKS;
}

/* In steps, not in values: k1 * step - k0 * step can overflow. */
static double x_of(const struct axis *ax, double v)
{
	return LEFT + (v / ax->step - ax->k0) / (ax->k1 - ax->k0) * PLOT;
}

/* What sets one kind of plot apart from the other in the shared parts. */
struct svg_kind {
	const char *what;	/* after the scenario in the title, or NULL */
	const char *style;	/* the kind's own CSS rules */
	const char *key;	/* how to read it, top right */
};

static const struct svg_kind scene_kind = {
	.what = NULL,
	.style = "",
	.key = "dot: one run; bar: median",
};

/* "<scenario>[: <what>] — <title>", or without the title. */
static void put_title(FILE *f, const char *scenario,
		      const struct svg_kind *k, const struct ow_report_opts *o)
{
	xml_puts(f, scenario);
	if (k->what) {
		fputs(": ", f);
		xml_puts(f, k->what);
	}
	if (is_set(o->title)) {
		fputs(" " EM_DASH " ", f);
		xml_puts(f, o->title);
	}
}

static void svg_head(FILE *f, int height, const char *scenario,
		     const struct svg_kind *k, const struct ow_report_opts *o)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"11\">\n<title>",
		WIDTH, height, WIDTH, height);
	put_title(f, scenario, k, o);
	fprintf(f, "</title>\n<style type=\"text/css\">\n"
		".title{font-size:15px;font-weight:bold}\n"
		".sub{fill:#555}\n"
		".metric{font-size:12px;font-weight:bold}\n"
		".tick{fill:#555;font-size:10px}\n"
		".axis{stroke:#333}\n"
		".grid{stroke:#e4e4e4}\n"
		".track{stroke:#f0f0f0}\n"
		".run{fill-opacity:.6}\n"
		".median{stroke-width:2.5}\n"
		"%s</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"#fff\"/>\n", k->style, WIDTH, height);
}

/* The commit and date at Y, and how to read the picture, right. */
static void svg_subtitle(FILE *f, const struct svg_kind *k,
			 const struct ow_report_opts *o, int y)
{
	fprintf(f, "<text class=\"sub\" x=\"8\" y=\"%d\">", y);
	if (is_set(o->commit)) {
		fputs("Commit ", f);
		xml_puts(f, o->commit);
		fputs(is_set(o->date) ? ", " : "", f);
	}
	if (is_set(o->date))
		xml_puts(f, o->date);
	fprintf(f, "</text>\n<text class=\"sub\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"end\">%s</text>\n", WIDTH - 8, y, k->key);
}

static void svg_title(FILE *f, const char *scenario,
		      const struct svg_kind *k, const struct ow_report_opts *o)
{
	fputs("<text class=\"title\" x=\"8\" y=\"22\">", f);
	put_title(f, scenario, k, o);
	fputs("</text>\n", f);
	svg_subtitle(f, k, o, 42);
}

static void svg_axis(FILE *f, const struct axis *ax, int top, int base)
{
	char num[NUM_MAX];

	for (long long k = ax->k0; k <= ax->k1; k++) {
		double x = x_of(ax, k * ax->step);

		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\"/>\n", x, top, x, base + 4);
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" "
			"text-anchor=\"middle\">%s</text>\n", x, base + 16,
			k ? fmt_num(num, k * ax->step, ax->decimals) : "0");
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\"/>\n", LEFT, base, LEFT + PLOT, base);
}

/* A number in the metric's unit, for the reader: "31.50 s". */
static void put_value(FILE *f, double v, const struct unit *u)
{
	char num[NUM_MAX];

	fputs(fmt_num(num, v / u->scale, u->decimals), f);
	if (u->label)
		fprintf(f, " %s", u->label);
}

static void svg_runs(FILE *f, const struct group *g, const char *key,
		     const struct axis *ax, int mid, const char *colour)
{
	const struct unit *u = unit_of(key);

	for (size_t i = 0; i < g->n; i++) {
		const struct ow_field *v = ow_rec_field(g->rec[i], key);

		if (!v || !v->numeric)
			continue;
		fprintf(f, "<circle class=\"run\" cx=\"%.1f\" cy=\"%d\" "
			"r=\"%d\" fill=\"%s\"><title>", x_of(ax, v->num /
			u->scale), mid, DOT_R, colour);
		xml_puts(f, g->mode);
		fputs(" run ", f);
		xml_puts(f, g->rec[i]->run);
		fputs(": ", f);
		put_value(f, v->num, u);
		fputs("</title></circle>\n", f);
	}
}

static void svg_lane(FILE *f, const struct group *g, size_t i,
		     const char *key, const struct axis *ax, int y, double *v)
{
	const char *colour = mode_colour[i % ARRAY_SIZE(mode_colour)];
	int mid = y + LANE / 2;
	struct ow_range rg;

	fprintf(f, "<g class=\"lane\">\n<text class=\"mode\" x=\"%d\" "
		"y=\"%d\" text-anchor=\"end\">", LEFT - 8, mid + 4);
	xml_puts(f, g->mode);
	fprintf(f, "</text>\n<line class=\"track\" x1=\"%d\" y1=\"%d\" "
		"x2=\"%d\" y2=\"%d\"/>\n", LEFT, mid, LEFT + PLOT, mid);
	svg_runs(f, g, key, ax, mid, colour);
	ow_range_of(v, values_of(g, key, v), &rg);
	if (rg.n) {
		double x = x_of(ax, rg.median / unit_of(key)->scale);

		fprintf(f, "<line class=\"median\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>\n", x,
			mid - LANE / 2 + 2, x, mid + LANE / 2 - 2, colour);
	}
	fprintf(f, "<text class=\"med\" x=\"%d\" y=\"%d\">", LEFT + PLOT + 8,
		mid + 4);
	if (rg.n)
		put_value(f, rg.median, unit_of(key));
	else
		fputs(EN_DASH, f);
	fputs("</text>\n</g>\n", f);
}

static int panel_height(const struct scene *s)
{
	return HEAD + (int)s->ng * LANE + AXIS + GAP;
}

static void svg_panel(FILE *f, const struct scene *s, const char *key,
		      int y, double *v)
{
	double scale = unit_of(key)->scale, lo = 0, hi = 0;
	int lanes = y + HEAD, base = lanes + (int)s->ng * LANE;
	struct axis ax;

	for (size_t i = 0; i < s->ng; i++) {
		size_t n = values_of(&s->g[i], key, v);

		for (size_t j = 0; j < n; j++) {
			lo = v[j] / scale < lo ? v[j] / scale : lo;
			hi = v[j] / scale > hi ? v[j] / scale : hi;
		}
	}
	axis_of(lo, hi, &ax);
	fprintf(f, "<g class=\"panel\">\n<text class=\"metric\" x=\"8\" "
		"y=\"%d\">", y + 15);
	put_label(f, key, xml_puts);
	fputs("</text>\n", f);
	svg_axis(f, &ax, lanes, base);
	for (size_t i = 0; i < s->ng; i++)
		svg_lane(f, &s->g[i], i, key, &ax, lanes + (int)i * LANE, v);
	fputs("</g>\n", f);
}

static void svg_scene(FILE *f, const struct scene *s, const char **keys,
		      size_t nk, const struct ow_report_opts *o, double *v)
{
	int y = TOP;

	svg_head(f, TOP + (nk ? (int)nk * panel_height(s) : LANE) + BOTTOM,
		 s->name, &scene_kind, o);
	svg_title(f, s->name, &scene_kind, o);
	for (size_t k = 0; k < nk; k++, y += panel_height(s))
		svg_panel(f, s, keys[k], y, v);
	if (!nk)
		fprintf(f, "<text class=\"sub\" x=\"8\" y=\"%d\">no numeric "
			"metric in these runs</text>\n", y + 14);
	fputs("</svg>\n", f);
}

/* What a scenario needs, its metrics and scratch room, in one place. */
struct plan {
	struct scene s;
	const char **keys;
	size_t nk;
	double *v;
};

static void plan_free(struct plan *p)
{
	scene_free(&p->s);
	free(p->keys);
	free(p->v);
}

/* 0, or -1 with errno ENOMEM. */
static int plan_build(struct plan *p, const struct ow_report *r,
		      const char *scenario, const struct ow_report_opts *o)
{
	memset(p, 0, sizeof(*p));
	if (scene_build(&p->s, r, scenario, o->order))
		return -1;
	p->keys = calloc(nr_fields(&p->s) + 1, sizeof(*p->keys));
	p->v = calloc(p->s.n + 1, sizeof(*p->v));
	if (!p->keys || !p->v) {
		plan_free(p);
		errno = ENOMEM;
		return -1;
	}
	p->nk = metrics_of(&p->s, is_set(o->metrics) ? o->metrics : NULL,
			   p->keys);
	return 0;
}

int ow_report_svg(FILE *f, const struct ow_report *r, const char *scenario,
		  const struct ow_report_opts *o)
{
	struct plan p;

	if (plan_build(&p, r, scenario, o))
		return -1;
	errno = 0;
	svg_scene(f, &p.s, p.keys, p.nk, o, p.v);
	plan_free(&p);
	return write_status(f);
}

/* ------------------------------------------------------- latency plot */

/*
 * exec_lat= per mode: the programs' slowest pass per second since the hog
 * started, on a log scale from 1 ms (the text in the page cache) to 10 s
 * (a freeze), where a linear one would flatten all but the worst second.
 * Second t is drawn at x = t.
 */
#define LAT_LEFT	70	/* the y ticks' labels and the axis's name */
#define LAT_RIGHT	200	/* the legend */
#define LAT_W		(WIDTH - LAT_LEFT - LAT_RIGHT)
#define LAT_TOP		(TOP + 10)
#define LAT_DECADE	80	/* px per factor of 10 */
#define LAT_DECADES	4	/* 1 ms to 10 s */
#define LAT_BASE	(LAT_TOP + LAT_DECADES * LAT_DECADE)
#define LAT_HEIGHT	(LAT_BASE + 44 + BOTTOM)
#define LAT_MS_LO	1.0
#define LAT_MS_HI	10000.0
#define LAT_PERIOD_MS	200	/* the programs': 5 passes a second */
#define LAT_XTICKS	10	/* at most, after 0 */
#define LAT_ROW		18	/* a legend line */
#define LAT_SWATCH	20
#define LN10		2.302585092994046

static const struct svg_kind latency_kind = {
	.what = "the programs' latency",
	.style = ".line{fill:none;stroke-width:2;stroke-linejoin:round;"
		 "stroke-linecap:round}\n"
		 ".swatch{stroke-width:3}\n"
		 ".period{stroke:#888;stroke-dasharray:6 4}\n",
	.key = "line: per second, the median over the runs",
};

/* One mode's line: per second, the median of its runs' items. */
struct lat_line {
	double *med;	/* OW_REPORT_LAT_NONE where no run has a value */
	size_t len;
	size_t runs;	/* that have a series */
};

/* A scenario's lines, one per mode in display order. */
struct lat_plot {
	const struct scene *s;
	struct lat_line *line;
	size_t len;	/* the longest series */
};

/* The x axis: 0 to end seconds, a tick every step. */
struct lat_x {
	int step;
	int end;
};

static bool has_lat(const struct scene *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (ow_rec_field(s->all[i], OW_REPORT_LAT_KEY))
			return true;
	return false;
}

/*
 * rec's series into *v (NULL, *n 0, without one); 0, or -1 when out of
 * memory.  A series the reader let through always parses; one that did
 * not would count as none.
 */
static int lat_series(const struct ow_rec *rec, double **v, size_t *n)
{
	const struct ow_field *f = ow_rec_field(rec, OW_REPORT_LAT_KEY);
	double *room, *fit;
	char why[128];
	long k;

	*v = NULL;
	*n = 0;
	if (!f)
		return 0;
	room = malloc(OW_REPORT_LAT_MAX * sizeof(*room));
	if (!room)
		return -1;
	k = ow_report_lat_parse(f->val, room, why, sizeof(why));
	if (k <= 0) {
		free(room);
		return 0;
	}
	/* The cap's room for one series at a time, not for every run. */
	fit = realloc(room, k * sizeof(*fit));
	*v = fit ? fit : room;
	*n = k;
	return 0;
}

/* The median of the runs' items at second t, or none if no run has one. */
static double lat_median(double *const *v, const size_t *n, size_t nr,
			 size_t t, double *col)
{
	struct ow_range rg;
	size_t k = 0;

	for (size_t i = 0; i < nr; i++)
		if (t < n[i] && v[i][t] >= 0)
			col[k++] = v[i][t];
	return ow_range_of(col, k, &rg) ? OW_REPORT_LAT_NONE : rg.median;
}

static void lat_line_free(struct lat_line *l)
{
	free(l->med);
	memset(l, 0, sizeof(*l));
}

/* g's runs' series, v[i] of n[i] items; l's runs and len.  0 or -1. */
static int lat_load(const struct group *g, double **v, size_t *n,
		    struct lat_line *l)
{
	for (size_t i = 0; i < g->n; i++) {
		if (lat_series(g->rec[i], &v[i], &n[i]))
			return -1;
		l->runs += v[i] != NULL;
		l->len = n[i] > l->len ? n[i] : l->len;
	}
	return 0;
}

/* 0, or -1 with errno ENOMEM. */
static int lat_line_build(struct lat_line *l, const struct group *g)
{
	double **v = calloc(g->n + 1, sizeof(*v));
	size_t *n = calloc(g->n + 1, sizeof(*n));
	double *col = calloc(g->n + 1, sizeof(*col));
	int ret = -1;

	memset(l, 0, sizeof(*l));
	if (!v || !n || !col || lat_load(g, v, n, l))
		goto out;
	l->med = calloc(l->len + 1, sizeof(*l->med));
	if (!l->med)
		goto out;
	for (size_t t = 0; t < l->len; t++)
		l->med[t] = lat_median(v, n, g->n, t, col);
	ret = 0;
out:
	for (size_t i = 0; v && i < g->n; i++)
		free(v[i]);
	free(v);
	free(n);
	free(col);
	if (ret) {
		lat_line_free(l);
		errno = ENOMEM;
	}
	return ret;
}

static void lat_plot_free(struct lat_plot *p)
{
	for (size_t i = 0; p->line && i < p->s->ng; i++)
		lat_line_free(&p->line[i]);
	free(p->line);
	p->line = NULL;
}

/* 0, or -1 with errno ENOMEM. */
static int lat_plot_build(struct lat_plot *p, const struct scene *s)
{
	memset(p, 0, sizeof(*p));
	p->s = s;
	p->line = calloc(s->ng + 1, sizeof(*p->line));
	if (!p->line) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < s->ng; i++) {
		if (lat_line_build(&p->line[i], &s->g[i])) {
			lat_plot_free(p);
			errno = ENOMEM;
			return -1;
		}
		if (p->line[i].len > p->len)
			p->len = p->line[i].len;
	}
	return 0;
}

static bool lat_drawn(const struct lat_line *l)
{
	for (size_t t = 0; t < l->len; t++)
		if (l->med[t] >= 0)
			return true;
	return false;
}

/*
 * log10 without libm, for v from 1 to 1e4: whole decades by division
 * (exact at the ticks), then ln m = 2 atanh((m - 1) / (m + 1)) for the
 * m in [1, 10) left, a series whose terms fall by (9/11)^2 at worst.
 */
static double log10_of(double v)
{
	double d = 0, z, z2, term, sum = 0;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	z = (v - 1) / (v + 1);
	z2 = z * z;
	term = z;
	for (int k = 1; term > 1e-12; k += 2) {
		sum += term / k;
		term *= z2;
	}
	return d + 2 * sum / LN10;
}

/* Clamped to the plot: 0 ms at the bottom, past 10 s at the top. */
static double lat_y(double ms)
{
	ms = ms < LAT_MS_LO ? LAT_MS_LO : ms > LAT_MS_HI ? LAT_MS_HI : ms;
	return LAT_BASE - log10_of(ms) * LAT_DECADE;
}

static double lat_xpos(const struct lat_x *ax, double t)
{
	return LAT_LEFT + t * LAT_W / ax->end;
}

/* Every 30 s for a hold of minutes; never more than LAT_XTICKS ticks. */
static void lat_x_of(size_t len, struct lat_x *ax)
{
	static const int steps[] = { 5, 10, 30, 60, 120, 300, 600 };
	size_t last = len ? len - 1 : 0, i = 0;

	while (i < ARRAY_SIZE(steps) - 1 &&
	       last > (size_t)steps[i] * LAT_XTICKS)
		i++;
	ax->step = steps[i];
	ax->end = (int)((last + ax->step - 1) / ax->step) * ax->step;
	if (!ax->end)
		ax->end = ax->step;
}

static void lat_yaxis(FILE *f)
{
	static const char *const label[LAT_DECADES + 1] = {
		"1 ms", "10 ms", "100 ms", "1 s", "10 s",
	};

	for (int d = 0; d <= LAT_DECADES; d++) {
		int y = LAT_BASE - d * LAT_DECADE;

		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" "
			"x2=\"%d\" y2=\"%d\"/>\n", LAT_LEFT - 4, y,
			LAT_LEFT + LAT_W, y);
		fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" "
			"text-anchor=\"end\">%s</text>\n", LAT_LEFT - 8,
			y + 4, label[d]);
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\"/>\n", LAT_LEFT, LAT_TOP, LAT_LEFT, LAT_BASE);
	fprintf(f, "<text class=\"sub\" transform=\"rotate(-90)\" "
		"x=\"%d\" y=\"14\" text-anchor=\"middle\">slowest pass "
		"(ms, log scale)</text>\n", -(LAT_TOP + LAT_BASE) / 2);
}

static void lat_xaxis(FILE *f, const struct lat_x *ax)
{
	for (int t = 0; t <= ax->end; t += ax->step) {
		double x = lat_xpos(ax, t);

		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\"/>\n", x, LAT_TOP, x,
			LAT_BASE + 4);
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" "
			"text-anchor=\"middle\">%d</text>\n", x,
			LAT_BASE + 16, t);
	}
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\"/>\n", LAT_LEFT, LAT_BASE, LAT_LEFT + LAT_W,
		LAT_BASE);
	fprintf(f, "<text class=\"sub\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"middle\">seconds since the hog started</text>\n",
		LAT_LEFT + LAT_W / 2, LAT_BASE + 36);
}

/* Above it, a pass took longer than the programs' period. */
static void lat_period(FILE *f)
{
	double y = lat_y(LAT_PERIOD_MS);

	fprintf(f, "<line class=\"period\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
		"y2=\"%.1f\"/>\n", LAT_LEFT, y, LAT_LEFT + LAT_W, y);
	fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%.1f\" "
		"text-anchor=\"end\">period</text>\n", LAT_LEFT + LAT_W - 4,
		y - 4);
}

/* The medians in exec_lat's own form, for a reader (and the tests). */
static void lat_desc(FILE *f, const struct lat_line *l)
{
	char num[NUM_MAX];

	fputs("<desc>median ms per second: ", f);
	for (size_t t = 0; t < l->len; t++) {
		fputs(t ? "," : "", f);
		fputs(l->med[t] < 0 ? "-" : fmt_num(num, l->med[t], -1), f);
	}
	fputs("</desc>\n", f);
}

/* One path per mode, a new "M" after each second no run has a value. */
static void lat_path(FILE *f, const struct lat_line *l,
		     const struct lat_x *ax, const char *colour)
{
	bool gap = true;

	fputs("<path class=\"line\" d=\"", f);
	for (size_t t = 0; t < l->len; t++) {
		if (l->med[t] < 0) {
			gap = true;
			continue;
		}
		fprintf(f, "%c%.1f,%.1f", gap ? 'M' : 'L', lat_xpos(ax, t),
			lat_y(l->med[t]));
		gap = false;
	}
	fprintf(f, "\" stroke=\"%s\"/>\n", colour);
}

/* A mode's line, data and legend entry: "stock (5 runs)". */
static void lat_mode(FILE *f, const struct lat_plot *p, size_t i,
		     const struct lat_x *ax)
{
	const char *colour = mode_colour[i % ARRAY_SIZE(mode_colour)];
	const struct lat_line *l = &p->line[i];
	const char *runs = l->runs == 1 ? "run" : "runs";
	int x = LAT_LEFT + LAT_W + 16, y = LAT_TOP + 8 + (int)i * LAT_ROW;

	fputs("<g class=\"series\">\n<title>", f);
	xml_puts(f, p->s->g[i].mode);
	fprintf(f, ": %zu %s</title>\n", l->runs, runs);
	lat_desc(f, l);
	if (lat_drawn(l))
		lat_path(f, l, ax, colour);
	fprintf(f, "<line class=\"swatch\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" stroke=\"%s\"/>\n<text class=\"mode\" x=\"%d\" "
		"y=\"%d\">", x, y, x + LAT_SWATCH, y, colour,
		x + LAT_SWATCH + 6, y + 4);
	xml_puts(f, p->s->g[i].mode);
	fprintf(f, " (%zu %s)</text>\n</g>\n", l->runs, runs);
}

static void svg_latency(FILE *f, const struct lat_plot *p,
			const struct ow_report_opts *o)
{
	bool drawn = false;
	struct lat_x ax;

	lat_x_of(p->len, &ax);
	svg_head(f, LAT_HEIGHT, p->s->name, &latency_kind, o);
	svg_title(f, p->s->name, &latency_kind, o);
	lat_yaxis(f);
	lat_xaxis(f, &ax);
	lat_period(f);
	for (size_t i = 0; i < p->s->ng; i++) {
		lat_mode(f, p, i, &ax);
		drawn = drawn || lat_drawn(&p->line[i]);
	}
	if (!drawn)
		fprintf(f, "<text class=\"sub\" x=\"%d\" y=\"%d\">no "
			OW_REPORT_LAT_KEY " value in these runs</text>\n",
			LAT_LEFT + 8, LAT_TOP + 16);
	fputs("</svg>\n", f);
}

int ow_report_latency_svg(FILE *f, const struct ow_report *r,
			  const char *scenario,
			  const struct ow_report_opts *o)
{
	struct lat_plot p;
	struct scene s;
	int ret = -1;

	if (scene_build(&s, r, scenario, o->order))
		return -1;
	if (!lat_plot_build(&p, &s)) {
		errno = 0;
		svg_latency(f, &p, o);
		ret = write_status(f);
		lat_plot_free(&p);
	}
	scene_free(&s);
	return ret;
}

/* ------------------------------------------------------- bench, files */

/* The scenario names a file in dir: no path, no hidden file. */
static bool file_name_ok(const char *s)
{
	if (*s == '.' || strlen(s) > 200)
		return false;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789._+-") == strlen(s);
}

/* mkdir -p; 0, or -1 with errno. */
static int make_dir(const char *dir)
{
	char *p = strdup(dir);
	struct stat st;
	int ret = 0;

	if (!p)
		return -1;
	for (char *q = p + 1; *q && !ret; q++) {
		if (*q != '/')
			continue;
		*q = '\0';
		if (mkdir(p, 0777) && errno != EEXIST)
			ret = -1;
		*q = '/';
	}
	if (!ret && mkdir(p, 0777) && errno != EEXIST)
		ret = -1;
	if (!ret && stat(p, &st))
		ret = -1;
	if (!ret && !S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		ret = -1;
	}
	free(p);
	return ret;
}

/* dir/<name><suffix>.svg for writing, its path in *path; NULL with err. */
static FILE *svg_create(const char *dir, const char *name,
			const char *suffix, char **path, char *err,
			size_t size)
{
	FILE *f;

	*path = malloc(strlen(dir) + strlen(name) + strlen(suffix) + 6);
	if (!*path) {
		snprintf(err, size, "out of memory");
		return NULL;
	}
	sprintf(*path, "%s/%s%s.svg", dir, name, suffix);
	f = fopen(*path, "w");
	if (!f) {
		snprintf(err, size, "%s: %s", *path, strerror(errno));
		free(*path);
		return NULL;
	}
	errno = 0;	/* what a failed write sets, not a stale value */
	return f;
}

/* Closes what svg_create() opened, frees path; 0, or -1 with err. */
static int svg_finish(FILE *f, char *path, char *err, size_t size)
{
	int ret = write_status(f);

	if (fclose(f))
		ret = -1;
	if (ret)
		snprintf(err, size, "%s: %s", path,
			 strerror(errno ? errno : EIO));
	free(path);
	return ret;
}

static int write_svg(const char *dir, const struct plan *p,
		     const struct ow_report_opts *o, char *err, size_t size)
{
	char *path;
	FILE *f = svg_create(dir, p->s.name, "", &path, err, size);

	if (!f)
		return -1;
	svg_scene(f, &p->s, p->keys, p->nk, o, p->v);
	return svg_finish(f, path, err, size);
}

/* dir/<scenario>-latency.svg, only where some run has a series. */
static int write_latency_svg(const char *dir, const struct scene *s,
			     const struct ow_report_opts *o, char *err,
			     size_t size)
{
	struct lat_plot p;
	char *path;
	FILE *f;
	int ret;

	if (!has_lat(s))
		return 0;
	if (lat_plot_build(&p, s)) {
		snprintf(err, size, "out of memory");
		return -1;
	}
	f = svg_create(dir, s->name, "-latency", &path, err, size);
	if (!f) {
		lat_plot_free(&p);
		return -1;
	}
	svg_latency(f, &p, o);
	ret = svg_finish(f, path, err, size);
	lat_plot_free(&p);
	return ret;
}

static int bench_scenario(FILE *md, const struct ow_report *r,
			  const char *name, const struct ow_report_opts *o,
			  const char *dir, char *err, size_t size)
{
	struct plan p;
	int ret;

	if (plan_build(&p, r, name, o)) {
		snprintf(err, size, "out of memory");
		return -1;
	}
	bench_table(md, &p.s, p.keys, p.nk, o, p.v);
	ret = write_svg(dir, &p, o, err, size);
	if (!ret)
		ret = write_latency_svg(dir, &p.s, o, err, size);
	plan_free(&p);
	return ret;
}

int ow_report_bench(FILE *md, const struct ow_report *r,
		    const struct ow_report_opts *o, const char *dir,
		    char *err, size_t size)
{
	const char **names = calloc(r->n ? r->n : 1, sizeof(*names));
	size_t nr = names ? scenario_names(r, names) : 0;
	int ret = -1;

	if (!names) {
		snprintf(err, size, "out of memory");
		return -1;
	}
	/* Refuse before writing anything. */
	for (size_t i = 0; i < nr; i++) {
		if (!file_name_ok(names[i])) {
			snprintf(err, size, "scenario \"%.*s\" cannot name a "
				 "file (letters, digits, \"._+-\", no leading "
				 "dot)", QUOTE_MAX, names[i]);
			goto out;
		}
	}
	if (make_dir(dir)) {
		snprintf(err, size, "%s: %s", dir, strerror(errno));
		goto out;
	}
	errno = 0;
	preamble(md, o);
	for (size_t i = 0; i < nr; i++)
		if (bench_scenario(md, r, names[i], o, dir, err, size))
			goto out;
	ret = write_status(md);
	if (ret)
		snprintf(err, size, "writing the tables: %s",
			 strerror(errno ? errno : EIO));
out:
	free(names);
	return ret;
}

/* -------------------------------------------------------- field bench */

/*
 * The field bench's trade-off: per machine shape (mem_mb=, nodes=,
 * swap_mb=: none when absent, cpus=: one when absent, as every guest had
 * before its config had ACPI) and setting (mode=), how long the freezes
 * lasted (group=freeze: freeze_ms, capped at OW_FIELD_CAP_MS) against
 * how many survivable runs (group=survivable) lost a process (surv_lost()).
 */
struct fcell {
	const char *mode;
	const char *mem;	/* mem_mb=, or "?" */
	const char *nodes;	/* nodes=, or "?" */
	const char *swap;	/* swap_mb=, or "0" */
	const char *cpus;	/* cpus=, or "1" */
	const char *kernel;	/* kernel= of its first run, or "?" */
	double *freeze;		/* ms, capped */
	size_t nfreeze;		/* freeze runs with a freeze_ms */
	size_t freeze_runs;
	size_t freeze_lost;	/* freeze runs that lost another process */
	size_t hog_killed;	/* freeze runs whose hog died of a signal */
	size_t surv;
	size_t lost;
	long shape;		/* index among the shapes, in order */
	long order;		/* of mode in --order, or -1 */
	size_t first;		/* first record: the order otherwise */
};

struct field {
	struct fcell *c;
	size_t n;
	double *pool;		/* every cell's freeze values */
	const char **scen;	/* workloads, first-appearance order */
	size_t nscen;
	size_t nshapes;
};

static const char *field_str(const struct ow_rec *rec, const char *key)
{
	const struct ow_field *f = ow_rec_field(rec, key);

	return f ? f->val : "?";
}

static bool field_is(const struct ow_rec *rec, const char *key,
		     const char *val)
{
	const struct ow_field *f = ow_rec_field(rec, key);

	return f && !strcmp(f->val, val);
}

static bool field_one(const struct ow_rec *rec, const char *key)
{
	const struct ow_field *f = ow_rec_field(rec, key);

	return f && f->numeric && f->num > 0;
}

/*
 * A survivable run lost a process: lost=1 (one of its own died of a
 * signal), or any kill while it ran, the kernel's (kills=) or a peer's
 * (peer_kills=): stress-ng restarts a killed worker, and a kill may take
 * a daemon instead.
 */
static bool surv_lost(const struct ow_rec *rec)
{
	return field_one(rec, "lost") || field_one(rec, "kills") ||
	       field_one(rec, "peer_kills");
}

/* died= names the hog among a run's dead ("hog,probe"). */
static bool hog_died(const struct ow_rec *rec)
{
	const char *d = field_str(rec, "died");
	size_t n;

	while (*d) {
		n = strcspn(d, ",");
		if (n == 3 && !strncmp(d, "hog", 3))
			return true;
		d += n + (d[n] == ',');
	}
	return false;
}

static void field_free(struct field *fd)
{
	free(fd->c);
	free(fd->pool);
	free(fd->scen);
	memset(fd, 0, sizeof(*fd));
}

/* A record's machine: its size, nodes, swap and CPUs. */
static struct fcell shape_of(const struct ow_rec *rec)
{
	const struct ow_field *swap = ow_rec_field(rec, "swap_mb");
	const struct ow_field *cpus = ow_rec_field(rec, "cpus");

	return (struct fcell){
		.mem = field_str(rec, "mem_mb"),
		.nodes = field_str(rec, "nodes"),
		.swap = swap ? swap->val : "0",
		.cpus = cpus ? cpus->val : "1",
	};
}

static bool same_shape(const struct fcell *a, const struct fcell *b)
{
	return !strcmp(a->mem, b->mem) && !strcmp(a->nodes, b->nodes) &&
	       !strcmp(a->swap, b->swap) && !strcmp(a->cpus, b->cpus);
}

/* rec is one of c's runs: its setting on its machine. */
static bool in_cell(const struct fcell *c, const struct ow_rec *rec)
{
	struct fcell key = shape_of(rec);

	return !strcmp(rec->mode, c->mode) && same_shape(c, &key);
}

static bool fcell_before(const struct fcell *a, const struct fcell *b)
{
	if (a->shape != b->shape)
		return a->shape < b->shape;
	if (a->order >= 0 && (b->order < 0 || a->order < b->order))
		return true;
	if (b->order >= 0 && (a->order < 0 || b->order < a->order))
		return false;
	return a->first < b->first;
}

/* 0, or -1 (ENOMEM). */
static int field_build(struct field *fd, const struct ow_report *r,
		       const char *order)
{
	size_t m = r->n ? r->n : 1, pos = 0;

	memset(fd, 0, sizeof(*fd));
	fd->c = calloc(m, sizeof(*fd->c));
	fd->pool = calloc(m, sizeof(*fd->pool));
	fd->scen = calloc(m, sizeof(*fd->scen));
	if (!fd->c || !fd->pool || !fd->scen) {
		field_free(fd);
		errno = ENOMEM;
		return -1;
	}
	fd->nscen = scenario_names(r, fd->scen);
	for (size_t i = 0; i < r->n; i++) {
		const struct ow_rec *rec = &r->rec[i];
		struct fcell key = shape_of(rec);
		size_t j = 0;

		key.mode = rec->mode;
		while (j < fd->n && !(same_shape(&fd->c[j], &key) &&
				      !strcmp(fd->c[j].mode, key.mode)))
			j++;
		if (j == fd->n) {
			key.kernel = field_str(rec, "kernel");
			key.first = i;
			key.order = list_index(order, key.mode);
			key.shape = -1;
			for (size_t k = 0; k < fd->n && key.shape < 0; k++)
				if (same_shape(&fd->c[k], &key))
					key.shape = fd->c[k].shape;
			if (key.shape < 0)
				key.shape = (long)fd->nshapes++;
			fd->c[fd->n++] = key;
		}
	}
	/* Each cell's freeze values: a slice of the pool. */
	for (size_t j = 0; j < fd->n; j++) {
		struct fcell *c = &fd->c[j];

		c->freeze = fd->pool + pos;
		for (size_t i = 0; i < r->n; i++) {
			const struct ow_rec *rec = &r->rec[i];
			const struct ow_field *f;

			if (!in_cell(c, rec))
				continue;
			if (field_is(rec, "group", "freeze")) {
				c->freeze_runs++;
				c->freeze_lost += field_one(rec, "lost");
				c->hog_killed += hog_died(rec);
				f = ow_rec_field(rec, "freeze_ms");
				if (f && f->numeric)
					c->freeze[c->nfreeze++] =
						f->num < OW_FIELD_CAP_MS ?
						f->num : OW_FIELD_CAP_MS;
			} else if (field_is(rec, "group", "survivable")) {
				c->surv++;
				c->lost += surv_lost(rec);
			}
		}
		pos += c->nfreeze;
	}
	for (size_t i = 1; i < fd->n; i++) {
		struct fcell c = fd->c[i];
		size_t j = i;

		while (j > 0 && fcell_before(&c, &fd->c[j - 1])) {
			fd->c[j] = fd->c[j - 1];
			j--;
		}
		fd->c[j] = c;
	}
	return 0;
}

/* The median freeze of c, in s; false when it has none. */
static bool fcell_median_s(const struct fcell *c, double *s)
{
	double v[c->nfreeze ? c->nfreeze : 1];
	struct ow_range g;

	memcpy(v, c->freeze, c->nfreeze * sizeof(*v));
	if (ow_range_of(v, c->nfreeze, &g))
		return false;
	*s = g.median / 1000;
	return true;
}

static void put_shape(FILE *f, const struct fcell *c)
{
	fprintf(f, "%s MB, %s node%s", c->mem, c->nodes,
		strcmp(c->nodes, "1") ? "s" : "");
	if (strcmp(c->swap, "0"))
		fprintf(f, ", swap %s MB", c->swap);
	fprintf(f, ", %s CPU%s", c->cpus, strcmp(c->cpus, "1") ? "s" : "");
}

static void field_summary(FILE *f, const struct field *fd)
{
	static const struct unit sec = { "_ms", 1000, "s", 1000, 1 };

	for (size_t i = 0; i < fd->n; i++) {
		const struct fcell *c = &fd->c[i];
		double v[c->nfreeze ? c->nfreeze : 1];
		struct ow_range g;

		if (!i || c->shape != fd->c[i - 1].shape) {
			fputs("\n#### ", f);
			put_shape(f, c);
			fputs("\n\n| setting | kernel | freeze runs | freeze, "
			      "median s (min" EN_DASH "max) | hog killed | "
			      "freeze runs that lost another process | "
			      "survivable runs | survivable runs that lost "
			      "a process |\n|---|---|--:|--:|--:|--:|--:|--:|\n",
			      f);
		}
		memcpy(v, c->freeze, c->nfreeze * sizeof(*v));
		ow_range_of(v, c->nfreeze, &g);
		fputs("| ", f);
		md_put(f, c->mode);
		fputs(" | ", f);
		md_put(f, c->kernel);
		fprintf(f, " | %zu | ", c->freeze_runs);
		put_range(f, &g, &sec);
		fprintf(f, " | %zu | %zu | %zu | %zu |\n", c->hog_killed,
			c->freeze_lost, c->surv, c->lost);
	}
}

/* Per shape, a row per workload, a column per setting. */
static void field_detail(FILE *f, const struct field *fd,
			 const struct ow_report *r)
{
	char num[NUM_MAX];

	for (size_t s0 = 0; s0 < fd->n;) {
		size_t s1 = s0;

		while (s1 < fd->n && fd->c[s1].shape == fd->c[s0].shape)
			s1++;
		fputs("\n#### ", f);
		put_shape(f, &fd->c[s0]);
		fputs(", per workload: freeze median s (runs); survivable "
		      "runs that lost a process / runs\n\n| workload |", f);
		for (size_t j = s0; j < s1; j++) {
			fputc(' ', f);
			md_put(f, fd->c[j].mode);
			fputs(" |", f);
		}
		fputs("\n|---|", f);
		for (size_t j = s0; j < s1; j++)
			fputs("--:|", f);
		fputc('\n', f);
		for (size_t w = 0; w < fd->nscen; w++) {
			fputs("| ", f);
			md_put(f, fd->scen[w]);
			fputs(" |", f);
			for (size_t j = s0; j < s1; j++) {
				const struct fcell *c = &fd->c[j];
				double v[r->n ? r->n : 1];
				size_t n = 0, runs = 0, lost = 0;
				bool freeze = false;
				struct ow_range g;

				for (size_t i = 0; i < r->n; i++) {
					const struct ow_rec *rec = &r->rec[i];
					const struct ow_field *fm;

					if (strcmp(rec->scenario, fd->scen[w]) ||
					    !in_cell(c, rec))
						continue;
					runs++;
					if (!field_is(rec, "group", "freeze")) {
						lost += surv_lost(rec);
						continue;
					}
					freeze = true;
					fm = ow_rec_field(rec, "freeze_ms");
					if (fm && fm->numeric)
						v[n++] = fm->num < OW_FIELD_CAP_MS ?
							 fm->num : OW_FIELD_CAP_MS;
				}
				if (!runs) {
					fputs(" " EN_DASH " |", f);
				} else if (freeze) {
					ow_range_of(v, n, &g);
					fprintf(f, " %s (%zu) |", n ?
						fmt_num(num, g.median / 1000, 1) :
						EN_DASH, runs);
				} else {
					fprintf(f, " %zu/%zu |", lost, runs);
				}
			}
			fputc('\n', f);
		}
		s0 = s1;
	}
}

/*
 * The thrash rule in a cell's freeze or survivable runs (th_* keys, from
 * the guest's oomwatch recording): how long the node was marked
 * thrashing, whether the rule killed, and when the freeze ended
 * (freeze_end_ms) after the spell it was judged by began: the one its
 * grant came in, else the first.  The bound is the setting's
 * timeout (thrash-MS) + 1 s; a freeze that ended before its spell began
 * is within it.
 */
struct fthrash {
	size_t runs;		/* freeze runs with th_spells= */
	size_t thrashed;	/* ... with a spell */
	size_t granted;		/* ... with a grant */
	size_t killed;		/* ... with a thrash kill (kill_by=thrash) */
	size_t oom_killed;	/* freeze runs with another OOM kill */
	size_t checked;		/* froze and thrashed, under thrash-MS */
	size_t within;		/* ... ended <= MS + 1 s after the spell */
	double *longest;	/* longest spell, ms: room for every record */
	double *after;		/* freeze end after the spell's start, ms */
	size_t nlongest, nafter;
};

static double rec_num(const struct ow_rec *rec, const char *key, double dflt)
{
	const struct ow_field *f = ow_rec_field(rec, key);

	return f && f->numeric ? f->num : dflt;
}

/*
 * MS of "thrash-MS", or of "thrash-MS-LABEL" (the rule at MS in runs of
 * an earlier decision, which field.sh labels apart), or -1.
 */
static double thrash_timeout_ms(const char *mode)
{
	char *end;
	double v;

	if (strncmp(mode, "thrash-", 7))
		return -1;
	v = strtod(mode + 7, &end);
	return end != mode + 7 && (!*end || (*end == '-' && end[1])) ? v : -1;
}

static void fthrash_add(struct fthrash *t, const struct ow_rec *rec,
			double timeout)
{
	double spell = rec_num(rec, "th_grant_set_ms", -1);
	double end = rec_num(rec, "freeze_end_ms", 0);

	t->runs++;
	if (rec_num(rec, "kill_ms", -1) >= 0 &&
	    !field_is(rec, "kill_by", "thrash"))
		t->oom_killed++;
	if (rec_num(rec, "th_spells", 0) <= 0)
		return;
	t->thrashed++;
	t->longest[t->nlongest++] = rec_num(rec, "th_longest_ms", 0);
	t->granted += rec_num(rec, "th_grant_ms", -1) >= 0;
	t->killed += field_is(rec, "kill_by", "thrash");
	if (spell < 0)
		spell = rec_num(rec, "th_set_ms", 0);
	if (timeout < 0 || end <= 0)
		return;
	t->checked++;
	t->within += end - spell <= timeout + 1000;
	t->after[t->nafter++] = end > spell ? end - spell : 0;
}

/* The table's head; the freeze runs' has the bound's two columns. */
static void fthrash_head(FILE *f, const char *group, bool freeze)
{
	fprintf(f, "\n#### The thrash rule in the %s runs (the guest's "
		"oomwatch recording)\n\n| machine | setting | %s runs | "
		"marked thrashing | longest spell, median s (min" EN_DASH
		"max) | thrash grants | thrash kills | other OOM kills |",
		group, group);
	if (freeze)
		fputs(" freeze end after its spell began, median s (min"
		      EN_DASH "max) | ended within timeout + 1 s |", f);
	fprintf(f, "\n|---|---|--:|--:|--:|--:|--:|--:|%s\n",
		freeze ? "--:|--:|" : "");
}

/*
 * A row per cell of @group's runs with th_* keys.  In the survivable
 * runs, a spell is how near the rule came to a false kill: its longest
 * against the timeout is the margin, a grant there is the false kill.
 */
static void field_thrash(FILE *f, const struct field *fd,
			 const struct ow_report *r, const char *group)
{
	static const struct unit sec = { "_ms", 3, "s", 1000, 1 };
	double longest[r->n ? r->n : 1], after[r->n ? r->n : 1];
	bool freeze = !strcmp(group, "freeze"), head = false;

	for (size_t j = 0; j < fd->n; j++) {
		const struct fcell *c = &fd->c[j];
		double timeout = thrash_timeout_ms(c->mode);
		struct fthrash t = { .longest = longest, .after = after };
		struct ow_range g;

		for (size_t i = 0; i < r->n; i++) {
			const struct ow_rec *rec = &r->rec[i];

			if (in_cell(c, rec) && field_is(rec, "group", group) &&
			    ow_rec_field(rec, "th_spells"))
				fthrash_add(&t, rec, timeout);
		}
		if (!t.runs)
			continue;
		if (!head)
			fthrash_head(f, group, freeze);
		head = true;
		fputs("| ", f);
		put_shape(f, c);
		fputs(" | ", f);
		md_put(f, c->mode);
		fprintf(f, " | %zu | %zu | ", t.runs, t.thrashed);
		ow_range_of(t.longest, t.nlongest, &g);
		put_range(f, &g, &sec);
		fprintf(f, " | %zu | %zu | %zu |", t.granted, t.killed,
			t.oom_killed);
		if (!freeze) {
			fputc('\n', f);
			continue;
		}
		fputc(' ', f);
		ow_range_of(t.after, t.nafter, &g);
		put_range(f, &g, &sec);
		if (t.checked)
			fprintf(f, " | %zu/%zu |\n", t.within, t.checked);
		else
			fputs(" | " EN_DASH " |\n", f);
	}
}

/*
 * The scatter: a panel per machine (the shapes, in the tables' order),
 * two to a row, all on the same axes, so that a setting's point on one
 * machine reads against its point on another.  One plot for every
 * machine held them all until eight machines put 60-odd points in the
 * column at 0, whose labels stacked off the top of the picture.
 */
#define FS_COLS		2
#define FS_LEFT		56	/* the y metric and the first panel's ticks */
#define FS_GAP		40	/* between the panels of a row: their ticks */
#define FS_PW		((WIDTH - FS_LEFT - FS_GAP - 12) / FS_COLS)
#define FS_HEAD		22	/* the panel's machine, above it */
#define FS_FOOT		26	/* the x ticks under a panel */
#define FS_MIN_H	150	/* a panel's plot, at the least */
#define FS_LABEL	12	/* px between stacked labels */
#define FS_LEAD		36	/* px out to a label moved off its point */
#define FS_ABOVE_AXIS	4	/* px from a label's baseline to the x axis */
#define FS_CHAR_W	6	/* px a label's character takes, at the most */
#define FS_LINE		14	/* between the lines of the wrapped title */
#define FS_CHARS	150	/* bytes in a line of the wrapped title */

/* A setting's colour, the same on every machine. */
static const char *const fs_color[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
	"#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
	"#3b8686", "#b5179e", "#5254a3", "#a55194", "#6b6ecf",
};

static const struct svg_kind field_kind = {
	.what = "the trade-off",
	.style = ".pt{stroke:#fff;stroke-width:1}\n"
		 ".lbl{font-size:10px}\n"
		 ".lead{stroke:#bbb}\n"
		 ".machine{font-weight:bold}\n",
	.key = "a panel per machine, a point per setting",
};

/* An axis over [0, vmax]: ticks in steps of 1, 2, 2.5, 5 x 10^k. */
static double fs_pos(const struct axis *ax, double v, double len)
{
	return (v / ax->step - ax->k0) / (ax->k1 - ax->k0) * len;
}

/*
 * The title, wrapped at spaces into lines of at most FS_CHARS bytes (a
 * word longer than that is cut, between UTF-8 characters), the first at
 * Y: how many lines.  Only counted when F is NULL.
 */
static int fs_title_lines(FILE *f, const char *s, int y)
{
	int lines = 0;

	while (*s) {
		size_t cut = strlen(s);

		if (cut > FS_CHARS) {
			cut = FS_CHARS;
			while (cut && s[cut] != ' ')
				cut--;
			if (!cut)
				for (cut = FS_CHARS;
				     cut && ((unsigned char)s[cut] & 0xc0) == 0x80;
				     cut--)
					;
		}
		if (f) {
			fprintf(f, "<text class=\"sub\" x=\"8\" y=\"%d\">",
				y + lines * FS_LINE);
			xml_put(f, s, cut);
			fputs("</text>\n", f);
		}
		lines++;
		s += cut;
		while (*s == ' ')
			s++;
	}
	return lines;
}

/* Where the panels go: the first's top, each plot's height. */
struct fs_layout {
	int top;		/* of the first row of panels */
	int plot_h;		/* one panel's plot */
	int rows;
};

/* Panel P's plot: its left edge, top and base (the x axis). */
struct fs_panel {
	double x0, top, base;
};

static void fs_panel_of(const struct fs_layout *l, long p,
			struct fs_panel *pn)
{
	long col = p % FS_COLS, row = p / FS_COLS;

	pn->x0 = FS_LEFT + col * (FS_PW + FS_GAP);
	pn->top = l->top + row * (FS_HEAD + l->plot_h + FS_FOOT) + FS_HEAD;
	pn->base = pn->top + l->plot_h;
}

/*
 * A label's baseline beside a point at Y: 3 px under the point's centre
 * (the text's middle level with it), but never lower than FLOOR.  Below
 * the x axis, FLOOR is FS_ABOVE_AXIS over it, so that the label of a
 * point on the axis (no freeze) stands on the axis line instead of being
 * struck through.
 */
static double fs_label_beside(double y, double floor)
{
	return y + 3 < floor ? y + 3 : floor;
}

/* A column's points top to bottom (insertion sort: a few dozen). */
static void fs_sort_column(size_t *idx, size_t n, const double *y)
{
	for (size_t k = 1; k < n; k++) {
		size_t v = idx[k], m = k;

		for (; m && y[idx[m - 1]] > y[v]; m--)
			idx[m] = idx[m - 1];
		idx[m] = v;
	}
}

/*
 * Where the labels of a column of points go (the points of one machine
 * at one x: most settings lose nothing, so nearly all of them share the
 * column at 0).  Each label sits beside its point unless that would
 * overlap the one above it: top to bottom, each at least FS_LABEL under
 * the last; then, if the column ran below FLOOR (the lowest baseline it
 * may have), pushed up from it as a block.  IDX lists the column's
 * points top to bottom (fs_sort_column); Y their y, LABEL_Y what this
 * sets.
 */
static void fs_place_column(const size_t *idx, size_t n, const double *y,
			    double *label_y, double floor)
{
	for (size_t k = 0; k < n; k++) {
		double at = fs_label_beside(y[idx[k]], floor);

		if (k && at < label_y[idx[k - 1]] + FS_LABEL)
			at = label_y[idx[k - 1]] + FS_LABEL;
		label_y[idx[k]] = at;
	}
	if (!n || label_y[idx[n - 1]] <= floor)
		return;
	label_y[idx[n - 1]] = floor;
	for (size_t k = n - 1; k--; )
		if (label_y[idx[k]] > label_y[idx[k + 1]] - FS_LABEL)
			label_y[idx[k]] = label_y[idx[k + 1]] - FS_LABEL;
}

/* The scatter's points: which are drawn, their median, x, y, label's y. */
struct fs_points {
	bool *drawn;
	double *median, *x, *y, *label_y;
	size_t *idx;		/* scratch: a column's points */
};

static void fs_points_free(struct fs_points *pt)
{
	free(pt->drawn);
	free(pt->median);
	free(pt->x);
	free(pt->y);
	free(pt->label_y);
	free(pt->idx);
}

static int fs_points_alloc(struct fs_points *pt, size_t n)
{
	n = n ? n : 1;
	pt->drawn = calloc(n, sizeof(*pt->drawn));
	pt->median = calloc(n, sizeof(*pt->median));
	pt->x = calloc(n, sizeof(*pt->x));
	pt->y = calloc(n, sizeof(*pt->y));
	pt->label_y = calloc(n, sizeof(*pt->label_y));
	pt->idx = calloc(n, sizeof(*pt->idx));
	if (pt->drawn && pt->median && pt->x && pt->y && pt->label_y &&
	    pt->idx)
		return 0;
	fs_points_free(pt);
	return -1;
}

/* Do cells I and J share a column: one machine, one lost count? */
static bool fs_same_column(const struct field *fd, size_t i, size_t j)
{
	return fd->c[i].shape == fd->c[j].shape &&
	       fd->c[i].lost == fd->c[j].lost;
}

/* The drawn points in I's column, into IDX (from I on, if FROM_I). */
static size_t fs_column(const struct field *fd, const bool *drawn,
			size_t i, bool from_i, size_t *idx)
{
	size_t n = 0;

	for (size_t j = from_i ? i : 0; j < fd->n; j++)
		if (drawn[j] && fs_same_column(fd, i, j)) {
			if (idx)
				idx[n] = j;
			n++;
		}
	return n;
}

/* Was I's label moved off its point (to clear the labels of others)? */
static bool fs_label_moved(const struct fs_points *pt, size_t i,
			   const struct fs_panel *pn)
{
	double beside = fs_label_beside(pt->y[i], pn->base - FS_ABOVE_AXIS);

	return fabs(pt->label_y[i] - beside) >= 1;
}

/*
 * Where I's label starts (SIDE 1: its left end) or ends (-1).  In a
 * panel's right half the labels go to the left of the points, so that
 * they stay in the picture; a label moved off its point stands further
 * out.
 */
static double fs_label_x(const struct fs_points *pt, size_t i,
			 const struct fs_panel *pn, int *side)
{
	*side = pt->x[i] > pn->x0 + FS_PW / 2 ? -1 : 1;
	return pt->x[i] + *side * (fs_label_moved(pt, i, pn) ? FS_LEAD : 8);
}

/* From where to where I's label runs, at most. */
static void fs_label_span(const struct field *fd, const struct fs_points *pt,
			  size_t i, const struct fs_panel *pn, double *x0,
			  double *x1)
{
	int side;
	double lx = fs_label_x(pt, i, pn, &side);
	double w = FS_CHAR_W * (double)strlen(fd->c[i].mode);

	*x0 = side > 0 ? lx : lx - w;
	*x1 = side > 0 ? lx + w : lx;
}

/*
 * The lowest baseline A's label may have so as to clear B (of another
 * column in A's panel), or A's own if it hits nothing: B's point always,
 * B's label when A's column is the left one of the two.
 */
static double fs_clear_of(const struct field *fd, const struct fs_points *pt,
			  const struct fs_panel *pn, size_t a, size_t b)
{
	double a0, a1, b0, b1, ly = pt->label_y[a], clear = ly;

	fs_label_span(fd, pt, a, pn, &a0, &a1);
	fs_label_span(fd, pt, b, pn, &b0, &b1);
	/* The text: 9 px over its baseline, 3 under; the point: r 5. */
	if (pt->x[b] + 5 > a0 && pt->x[b] - 5 < a1 &&
	    pt->y[b] + 5 > ly - 9 && pt->y[b] - 5 < ly + 3)
		clear = pt->y[b] - 8;
	if (pt->x[a] < pt->x[b] && b0 < a1 && b1 > a0 &&
	    fabs(pt->label_y[b] - ly) < FS_LABEL &&
	    pt->label_y[b] - FS_LABEL < clear)
		clear = pt->label_y[b] - FS_LABEL;
	return clear;
}

/*
 * How low the column IDX (N points, top to bottom) may end so that its
 * labels clear the other columns' labels and points: its lowest baseline
 * raised by as much as its most hindered label must rise.
 */
static double fs_column_floor(const struct field *fd,
			      const struct fs_points *pt,
			      const struct fs_panel *pn, const size_t *idx,
			      size_t n)
{
	double rise = 0;

	for (size_t k = 0; k < n; k++)
		for (size_t b = 0; b < fd->n; b++) {
			double up;

			if (!pt->drawn[b] ||
			    fd->c[b].shape != fd->c[idx[k]].shape ||
			    fs_same_column(fd, idx[k], b))
				continue;
			up = pt->label_y[idx[k]] -
			     fs_clear_of(fd, pt, pn, idx[k], b);
			rise = up > rise ? up : rise;
		}
	return pt->label_y[idx[n - 1]] - rise;
}

/* Is I the first drawn point of its column? */
static bool fs_column_head(const struct field *fd, const struct fs_points *pt,
			   size_t i)
{
	return pt->drawn[i] && fs_column(fd, pt->drawn, i, false, NULL) ==
			       fs_column(fd, pt->drawn, i, true, NULL);
}

/*
 * The column headed by I, if I heads one: its points top to bottom in
 * PT's IDX, their count returned (0 if I heads none), its panel in PN.
 */
static size_t fs_column_sorted(const struct field *fd,
			       const struct fs_layout *l, struct fs_points *pt,
			       size_t i, struct fs_panel *pn)
{
	size_t n;

	if (!fs_column_head(fd, pt, i))
		return 0;
	n = fs_column(fd, pt->drawn, i, true, pt->idx);
	fs_panel_of(l, fd->c[i].shape, pn);
	fs_sort_column(pt->idx, n, pt->y);
	return n;
}

/*
 * Raise each column whose labels run into another column's labels or
 * points (the lead-out labels of the crowded column at 0 reach over a
 * point at 1) clear of them, never past its panel's top: true if one
 * moved.
 */
static bool fs_raise_columns(const struct field *fd, const struct fs_layout *l,
			     struct fs_points *pt)
{
	bool raised = false;

	for (size_t i = 0; i < fd->n; i++) {
		struct fs_panel pn;
		double floor, top;
		size_t n = fs_column_sorted(fd, l, pt, i, &pn);

		if (!n)
			continue;
		floor = fs_column_floor(fd, pt, &pn, pt->idx, n);
		top = pn.top + (double)n * FS_LABEL;
		floor = floor < top ? top : floor;
		if (floor < pt->label_y[pt->idx[n - 1]] - 0.5) {
			fs_place_column(pt->idx, n, pt->y, pt->label_y, floor);
			raised = true;
		}
	}
	return raised;
}

/*
 * Every drawn point's label height: each column alone, then a few rounds
 * of raising the columns that run into others.  IDX: scratch.
 */
static void fs_place_labels(const struct field *fd, const struct fs_layout *l,
			    struct fs_points *pt)
{
	for (size_t i = 0; i < fd->n; i++) {
		struct fs_panel pn;
		size_t n = fs_column_sorted(fd, l, pt, i, &pn);

		if (n)
			fs_place_column(pt->idx, n, pt->y, pt->label_y,
					pn.base - FS_ABOVE_AXIS);
	}
	for (int round = 0; round < 8; round++)
		if (!fs_raise_columns(fd, l, pt))
			break;
}

/* A setting's colour: by the order its mode first appears. */
static const char *fs_mode_color(const struct field *fd, size_t i)
{
	size_t k = 0;

	for (size_t j = 0; j < i; j++) {
		bool first = true;

		for (size_t m = 0; m < j && first; m++)
			first = strcmp(fd->c[m].mode, fd->c[j].mode) != 0;
		if (!first)
			continue;
		if (!strcmp(fd->c[j].mode, fd->c[i].mode))
			return fs_color[k % ARRAY_SIZE(fs_color)];
		k++;
	}
	return fs_color[k % ARRAY_SIZE(fs_color)];
}

/* A panel's frame: its machine, grid, ticks and axes. */
static void fs_frame(FILE *f, const struct fcell *c, const struct fs_panel *pn,
		     const struct axis *ax, const struct axis *ay, int h)
{
	char num[NUM_MAX];

	fprintf(f, "<text class=\"machine\" x=\"%.1f\" y=\"%.1f\">",
		pn->x0, pn->top - 8);
	put_shape(f, c);
	fputs("</text>\n", f);
	for (long long k = ax->k0; k <= ax->k1; k++) {
		double x = pn->x0 + fs_pos(ax, k * ax->step, FS_PW);

		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\"/>\n<text class=\"tick\" "
			"x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			x, pn->top, x, pn->base + 4, x, pn->base + 16,
			fmt_num(num, k * ax->step, ax->decimals));
	}
	for (long long k = ay->k0; k <= ay->k1; k++) {
		double y = pn->base - fs_pos(ay, k * ay->step, h);

		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\"/>\n<text class=\"tick\" "
			"x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			pn->x0 - 4, y, pn->x0 + FS_PW, y, pn->x0 - 6, y + 3,
			fmt_num(num, k * ay->step, ay->decimals));
	}
	fprintf(f, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\"/>\n<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" "
		"x2=\"%.1f\" y2=\"%.1f\"/>\n", pn->x0, pn->base, pn->x0 + FS_PW,
		pn->base, pn->x0, pn->top, pn->x0, pn->base);
}

/*
 * One point and its label.  A label moved off its point is tied to it by
 * a line: the lines of a column fan out, one slope each.
 */
static void fs_point(FILE *f, const struct field *fd, size_t i,
		     const struct fs_points *pt, const struct fs_panel *pn)
{
	const struct fcell *c = &fd->c[i];
	const char *col = fs_mode_color(fd, i);
	double x = pt->x[i], y = pt->y[i], ly = pt->label_y[i];
	int side;
	double lx = fs_label_x(pt, i, pn, &side);
	char num[NUM_MAX];

	if (fs_label_moved(pt, i, pn)) {
		fprintf(f, "<line class=\"lead\" x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\"/>\n", x + side * 5, y,
			lx - side * 2, ly - 3);
	}
	fprintf(f, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
		"fill=\"%s\"><title>", x, y, col);
	xml_puts(f, c->mode);
	fputs(", ", f);
	put_shape(f, c);
	fprintf(f, ": freeze median %s s over %zu run(s); %zu of %zu "
		"survivable runs lost a process</title></circle>\n",
		fmt_num(num, pt->median[i], 1), c->nfreeze, c->lost, c->surv);
	fprintf(f, "<text class=\"lbl\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\"%s>",
		lx, ly, col, side < 0 ? " text-anchor=\"end\"" : "");
	xml_puts(f, c->mode);
	fputs("</text>\n", f);
}

/* The panels' top under a title of TITLE_LINES wrapped lines. */
static int fs_top(int title_lines)
{
	return 42 + title_lines * FS_LINE + 24;
}

/* The heading, the wrapped title and the subtitle above the panels. */
static void fs_heading(FILE *f, const struct ow_report_opts *o)
{
	struct ow_report_opts bare = *o;
	int y = 42;

	bare.title = NULL;
	fputs("<text class=\"title\" x=\"8\" y=\"22\">", f);
	put_title(f, "field", &field_kind, &bare);
	fputs("</text>\n", f);
	if (is_set(o->title))
		y += fs_title_lines(f, o->title, y) * FS_LINE;
	svg_subtitle(f, &field_kind, o, y);
}

/* The tallest column of any panel sets every panel's height. */
static int fs_plot_height(const struct field *fd, const bool *drawn)
{
	size_t most = 0;

	for (size_t i = 0; i < fd->n; i++)
		if (drawn[i]) {
			size_t n = fs_column(fd, drawn, i, false, NULL);

			most = n > most ? n : most;
		}
	return most * FS_LABEL + 30 > FS_MIN_H ? (int)most * FS_LABEL + 30 :
						 FS_MIN_H;
}

int ow_report_field_svg(FILE *f, const struct ow_report *r,
			const struct ow_report_opts *o)
{
	struct field fd;
	struct axis ax, ay;
	struct fs_layout l;
	double xmax = 1, ymax = 1;
	struct fs_points pt;
	int height, title_lines = 0;

	if (field_build(&fd, r, o->order))
		return -1;
	if (fs_points_alloc(&pt, fd.n)) {
		field_free(&fd);
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < fd.n; i++) {
		pt.drawn[i] = fcell_median_s(&fd.c[i], &pt.median[i]) &&
			      fd.c[i].surv;
		if (fd.c[i].lost > xmax)
			xmax = fd.c[i].lost;
		if (pt.drawn[i] && pt.median[i] > ymax)
			ymax = pt.median[i];
	}
	axis_of(0, xmax, &ax);
	/* Counts: whole ticks. */
	if (ax.step < 1) {
		ax.step = 1;
		ax.decimals = 0;
		ax.k0 = 0;
		ax.k1 = ceil_ll(xmax);
	}
	axis_of(0, ymax, &ay);
	if (is_set(o->title))
		title_lines = fs_title_lines(NULL, o->title, 0);
	l.top = fs_top(title_lines);
	l.plot_h = fs_plot_height(&fd, pt.drawn);
	l.rows = (int)((fd.nshapes + FS_COLS - 1) / FS_COLS);
	height = l.top + l.rows * (FS_HEAD + l.plot_h + FS_FOOT) + 24 + BOTTOM;
	errno = 0;
	svg_head(f, height, "field", &field_kind, o);
	fs_heading(f, o);
	fprintf(f, "<text class=\"metric\" x=\"%d\" y=\"%d\" "
		"text-anchor=\"middle\">survivable runs that lost a process"
		"</text>\n", WIDTH / 2, height - BOTTOM - 6);
	fprintf(f, "<text class=\"metric\" transform=\"translate(16 %d) "
		"rotate(-90)\" text-anchor=\"middle\">freeze, median s "
		"(capped at %d)</text>\n", (l.top + height) / 2,
		OW_FIELD_CAP_MS / 1000);
	for (size_t i = 0; i < fd.n; i++) {
		struct fs_panel pn;

		fs_panel_of(&l, fd.c[i].shape, &pn);
		if (!i || fd.c[i].shape != fd.c[i - 1].shape)
			fs_frame(f, &fd.c[i], &pn, &ax, &ay, l.plot_h);
		if (!pt.drawn[i])
			continue;
		pt.x[i] = pn.x0 + fs_pos(&ax, fd.c[i].lost, FS_PW);
		pt.y[i] = pn.base - fs_pos(&ay, pt.median[i], l.plot_h);
	}
	fs_place_labels(&fd, &l, &pt);
	for (size_t i = 0; i < fd.n; i++) {
		struct fs_panel pn;

		if (!pt.drawn[i])
			continue;
		fs_panel_of(&l, fd.c[i].shape, &pn);
		fs_point(f, &fd, i, &pt, &pn);
	}
	fputs("</svg>\n", f);
	fs_points_free(&pt);
	field_free(&fd);
	return write_status(f);
}

int ow_report_field(FILE *md, const struct ow_report *r,
		    const struct ow_report_opts *o, const char *dir,
		    char *err, size_t size)
{
	struct field fd;
	char *path;
	FILE *f;
	int ret;

	if (make_dir(dir)) {
		snprintf(err, size, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (field_build(&fd, r, o->order)) {
		snprintf(err, size, "out of memory");
		return -1;
	}
	errno = 0;
	preamble(md, o);
	fputs("Per setting: the median time a freeze lasted (freeze_ms, "
	      "capped), against the survivable runs that lost a process.\n",
	      md);
	field_summary(md, &fd);
	field_detail(md, &fd, r);
	field_thrash(md, &fd, r, "freeze");
	field_thrash(md, &fd, r, "survivable");
	field_free(&fd);
	ret = write_status(md);
	if (ret) {
		snprintf(err, size, "writing the tables: %s",
			 strerror(errno ? errno : EIO));
		return -1;
	}
	f = svg_create(dir, "field", "", &path, err, size);
	if (!f)
		return -1;
	if (ow_report_field_svg(f, r, o) && errno == ENOMEM) {
		snprintf(err, size, "out of memory");
		fclose(f);
		free(path);
		return -1;
	}
	return svg_finish(f, path, err, size);
}
