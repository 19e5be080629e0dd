// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The JSON-lines codec: round trips of every record kind in every format
 * version, one case per class of malformed input with its exact
 * "file:line: why", and a burst of mutated lines that must never crash
 * (run under ASan and UBSan).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"

#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static unsigned long long rnd(void)
{
	/* xorshift64*: deterministic, so a failure reproduces */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* Values that stress the encoder: extremes of every width, and noise. */
static void fill_random(void *p, size_t len)
{
	unsigned char *b = p;

	for (size_t i = 0; i < len; i++) {
		switch (rnd() % 4) {
		case 0:
			b[i] = 0;
			break;
		case 1:
			b[i] = 0xff;
			break;
		default:
			b[i] = rnd();
		}
	}
}

static void random_event(struct oomwatch_event *ev, unsigned int type)
{
	fill_random(ev, sizeof(*ev));
	ev->type = type;
	if (type == OW_OOM_GRANT)
		ev->grant.nr_zones = rnd() % (OOMWATCH_MAX_ZONES + 1);
	if (type == OW_THRASH_GRANT)
		ev->thrash_grant.nr_zones = rnd() % (OOMWATCH_THRASH_ZONES + 1);
	if (type == OW_THRASHING_CLEAR)
		ev->thrash.reason = rnd() % (OW_THRASH_CLEAR_MAX + 1);
}

/* encode -> decode -> equal, and encode again gives the same bytes. */
static bool round_trip(const struct oomwatch_event *ev, char *why, size_t size)
{
	char a[OW_LINE_MAX], b[OW_LINE_MAX];
	struct ow_record rec;
	int la, lb;

	la = ow_json_format_event(a, sizeof(a), OOMWATCH_FORMAT_VERSION, ev);
	if (la <= 0 || a[la - 1] != '\n') {
		snprintf(why, size, "encode failed: %s", strerror(errno));
		return false;
	}
	if (ow_json_decode_line(a, la - 1, &rec, why, size))
		return false;
	if (rec.kind != OW_REC_EVENT || rec.version != OOMWATCH_FORMAT_VERSION ||
	    !ow_event_equal(ev, &rec.event)) {
		snprintf(why, size, "decoded event differs: %.200s", a);
		return false;
	}
	lb = ow_json_format_event(b, sizeof(b), rec.version, &rec.event);
	if (la != lb || memcmp(a, b, la)) {
		snprintf(why, size, "re-encoding differs: %.200s", a);
		return false;
	}
	return true;
}

static void test_names(void)
{
	bool ok = true;

	for (unsigned int t = 1; t < OW_NR_TYPES; t++) {
		const char *n = ow_event_type_name(t);

		if (!n || ow_event_type_from_name(n) != t) {
			tap_diag("type %u has no name or does not map back", t);
			ok = false;
		}
	}
	ok &= !ow_event_type_name(0) && !ow_event_type_name(OW_NR_TYPES) &&
	      !ow_event_type_from_name("header") &&
	      !ow_event_type_from_name("mark_victi") &&
	      !ow_event_type_from_name(NULL);
	ok &= !strcmp(ow_verdict_reason_name(OW_RULE_TOO_SOON), "too_soon") &&
	      !strcmp(ow_verdict_reason_name(OW_VETO_RECOVERED), "recovered") &&
	      !strcmp(ow_verdict_reason_name(OW_STOCK_FREEZING), "freezing") &&
	      !strcmp(ow_verdict_reason_name(OW_STOCK_FREEZING + 1),
		      "not_thrashing") &&
	      !strcmp(ow_clear_reason_name(OW_CLEAR_TIMEOUT), "timeout") &&
	      !strcmp(ow_token_reason_name(OW_TOKEN_DISABLED), "disabled") &&
	      !strcmp(ow_constraint_name(OW_CONSTRAINT_SYSRQ), "sysrq") &&
	      !strcmp(ow_constraint_name(OW_CONSTRAINT_NODEMASK), "nodemask") &&
	      !strcmp(ow_constraint_name(99), "invalid");
	ok &= !strcmp(ow_event_type_name(OW_THRASHING_SET), "thrashing_set") &&
	      !strcmp(ow_event_type_name(OW_THRASHING_CLEAR),
		      "thrashing_clear") &&
	      !strcmp(ow_event_type_name(OW_THRASH_GRANT), "oom_thrash_grant") &&
	      !strcmp(ow_event_type_name(OW_THRASH_TAKE), "oom_thrash_take") &&
	      !strcmp(ow_verdict_reason_name(OW_THRASH_NOT_THRASHING),
		      "not_thrashing") &&
	      !strcmp(ow_verdict_reason_name(OW_THRASH_SWAP_FREE),
		      "swap_free") &&
	      !strcmp(ow_verdict_reason_name(OW_THRASH_ABOVE_HIGH),
		      "above_high") &&
	      !strcmp(ow_verdict_reason_name(OW_STOCK_NO_RELIEF),
		      "no_relief") &&
	      !strcmp(ow_verdict_reason_name(OW_THRASH_NO_VICTIM),
		      "no_victim") &&
	      !strcmp(ow_verdict_reason_name(OW_THRASH_NO_VICTIM + 1),
		      "invalid") &&
	      !strcmp(ow_thrash_clear_reason_name(OW_THRASH_CALM), "calm") &&
	      !strcmp(ow_thrash_clear_reason_name(OW_THRASH_DISABLED),
		      "disabled") &&
	      !strcmp(ow_thrash_clear_reason_name(2), "invalid");
	ok &= ow_event_type_since(OW_MARK_VICTIM) == 1 &&
	      ow_event_type_since(OW_OOM_REQUEST) == 1 &&
	      ow_event_type_since(OW_THRASHING_SET) == 3 &&
	      ow_event_type_since(OW_THRASH_TAKE) == 3 &&
	      !ow_event_type_since(0) && !ow_event_type_since(OW_NR_TYPES);
	tap_ok(ok, "names: every event type and enum value maps both ways");
}

static void test_round_trip_types(void)
{
	char why[OW_ERR_MAX];

	for (unsigned int t = 1; t < OW_NR_TYPES; t++) {
		struct oomwatch_event ev;
		bool ok = true;

		for (int i = 0; i < 300 && ok; i++) {
			random_event(&ev, t);
			ok = round_trip(&ev, why, sizeof(why));
		}
		if (!ok)
			tap_diag("%s", why);
		tap_ok(ok, "round trip: %s, 300 random events",
		       ow_event_type_name(t));
	}
}

/* Every byte value 1..255 somewhere in a comm, and a full 16-byte one. */
static void test_round_trip_comm(void)
{
	struct oomwatch_event ev;
	char why[OW_ERR_MAX];
	bool ok = true;

	for (int start = 1; start < 256 && ok; start += 15) {
		memset(&ev, 0, sizeof(ev));
		ev.type = OW_OOM_REQUEST;
		for (int i = 0; i < 15; i++) {
			ev.comm[i] = (char)(start + i > 255 ? 'x' : start + i);
			ev.request.comm[i] = ev.comm[i];
		}
		ok = round_trip(&ev, why, sizeof(why));
	}
	memset(ev.comm, 'z', sizeof(ev.comm));	/* no NUL at all */
	ok = ok && round_trip(&ev, why, sizeof(why));
	if (!ok)
		tap_diag("%s", why);
	tap_ok(ok, "round trip: comm with every byte value, and unterminated");
}

#define V	OOMWATCH_FORMAT_VERSION

static void test_encoder_rejects(void)
{
	struct oomwatch_event ev = { .type = OW_NR_TYPES };
	const struct ow_config cfg = { 1, 5000, 10000, 1, 2, 1, 10000 };
	char buf[OW_LINE_MAX];
	bool ok;

	ok = ow_json_format_event(buf, sizeof(buf), V, &ev) < 0 &&
	     errno == EINVAL;
	ev.type = 0;
	ok &= ow_json_format_event(buf, sizeof(buf), V, &ev) < 0;
	ev.type = OW_OOM_GRANT;
	ev.grant.nr_zones = OOMWATCH_MAX_ZONES + 1;
	ok &= ow_json_format_event(buf, sizeof(buf), V, &ev) < 0;
	ev.grant.nr_zones = 1;
	ok &= ow_json_format_event(buf, 40, V, &ev) < 0 && errno == ENOSPC &&
	      strlen(buf) < 40;
	ok &= ow_json_format_lost(buf, sizeof(buf), V, -1, -1) < 0;
	memset(&ev, 0, sizeof(ev));
	ev.type = OW_THRASH_GRANT;
	ev.thrash_grant.nr_zones = OOMWATCH_THRASH_ZONES + 1;
	errno = 0;
	ok &= ow_json_format_event(buf, sizeof(buf), V, &ev) < 0 &&
	      errno == EINVAL;
	ev.thrash_grant.nr_zones = OOMWATCH_THRASH_ZONES;
	ok &= ow_json_format_event(buf, sizeof(buf), V, &ev) > 0;
	memset(&ev, 0, sizeof(ev));
	ev.type = OW_THRASHING_CLEAR;
	ev.thrash.reason = OW_THRASH_CLEAR_MAX + 1;
	ok &= ow_json_format_event(buf, sizeof(buf), V, &ev) < 0;
	ev.thrash.reason = OW_THRASH_DISABLED;
	ok &= ow_json_format_event(buf, sizeof(buf), V, &ev) > 0;
	tap_ok(ok, "encoder: refuses unknown types, nr_zones > max (4, thrash "
	       "3), a thrashing_clear reason above disabled, short buffers");

	/* A type is written only in the versions that have it. */
	ok = true;
	for (unsigned int t = 1; t < OW_NR_TYPES; t++) {
		memset(&ev, 0, sizeof(ev));
		ev.type = t;
		for (unsigned int v = 1; v <= V; v++) {
			int len = ow_json_format_event(buf, sizeof(buf), v,
						       &ev);

			ok &= v < ow_event_type_since(t) ? len < 0 : len > 0;
		}
	}
	tap_ok(ok, "encoder: the thrash events only in version 3, the others "
	       "in every version");
	ev.type = OW_OOM_GRANT;

	/* Only the versions a reader of this build accepts are written. */
	ok = true;
	for (unsigned int v = 0; v <= V + 1; v += V + 1) {
		errno = 0;
		ok &= ow_json_format_event(buf, sizeof(buf), v, &ev) < 0 &&
		      errno == EINVAL;
		ok &= ow_json_format_header(buf, sizeof(buf), v, &cfg, "k",
					    1000) < 0;
		ok &= ow_json_format_lost(buf, sizeof(buf), v, -1, 0) < 0;
		ok &= ow_json_format_memcg(buf, sizeof(buf), v, 1, "/") < 0;
	}
	tap_ok(ok, "encoder: refuses versions 0 and %u", V + 1);

	/* What the decoder refuses in a memcg line is never written. */
	ok = ow_json_format_memcg(buf, sizeof(buf), 1, 5, "/a") < 0 &&
	     errno == EINVAL &&
	     ow_json_format_memcg(buf, sizeof(buf), 2, 0, "/a") < 0 &&
	     ow_json_format_memcg(buf, sizeof(buf), 2, 5, "a") < 0 &&
	     ow_json_format_memcg(buf, sizeof(buf), 2, 5, "/a/") < 0 &&
	     ow_json_format_memcg(buf, sizeof(buf), 2, 5, "/a//b") < 0 &&
	     ow_json_format_memcg(buf, sizeof(buf), 2, 5, "/a/..") < 0 &&
	     ow_json_format_memcg(buf, sizeof(buf), 2, 5, "") < 0 &&
	     ow_json_format_memcg(buf, sizeof(buf), 2, 5, NULL) < 0 &&
	     ow_json_format_memcg(buf, sizeof(buf), 2, 1, "/") > 0;
	tap_ok(ok, "encoder: no memcg line in version 1, of id 0, or with a "
	       "path not in its one spelling");
}

/* Version 1: an oom_request without memcg_id, which reads back as 0. */
static void test_round_trip_v1(void)
{
	static const unsigned int types[] = {
		OW_OOM_REQUEST, OW_OOM_DEFER, OW_OOM_FALLBACK, OW_MARK_VICTIM,
	};
	char a[OW_LINE_MAX], b[OW_LINE_MAX], why[OW_ERR_MAX] = "";
	struct oomwatch_event ev, want;
	struct ow_record rec;
	bool ok = true;
	int la, lb;

	for (size_t k = 0; k < ARRAY_SIZE(types) && ok; k++) {
		for (int i = 0; i < 100 && ok; i++) {
			random_event(&ev, types[k]);
			ev.request.memcg_id |= 1;	/* a v1 line drops it */
			want = ev;
			if (types[k] == OW_OOM_REQUEST)
				want.request.memcg_id = 0;
			la = ow_json_format_event(a, sizeof(a), 1, &ev);
			ok = la > 0 && !strncmp(a, "{\"v\":1,", 7) &&
			     (types[k] == OW_MARK_VICTIM ||
			      !strstr(a, "memcg_id")) &&
			     !ow_json_decode_line(a, la - 1, &rec, why,
						  sizeof(why)) &&
			     rec.version == 1 &&
			     ow_event_equal(&want, &rec.event);
			lb = ok ? ow_json_format_event(b, sizeof(b), 1,
						       &rec.event) : 0;
			ok = ok && la == lb && !memcmp(a, b, la);
		}
	}
	if (!ok)
		tap_diag("%.300s / %s", a, why);
	tap_ok(ok, "round trip, version 1: requests without memcg_id, which "
	       "reads 0; the other types as they were");

	memset(&ev, 0, sizeof(ev));
	ev.type = OW_OOM_REQUEST;
	ev.request.memcg_id = 18446744073709551615ULL;
	la = ow_json_format_event(a, sizeof(a), 2, &ev);
	ok = la > 0 && strstr(a, ",\"waited_ms\":0,\"memcg_id\":"
			      "18446744073709551615,\"request_comm\":\"\"}") &&
	     !ow_json_decode_line(a, la - 1, &rec, why, sizeof(why)) &&
	     rec.event.request.memcg_id == ev.request.memcg_id;
	ev.type = OW_OOM_DEFER;
	la = ow_json_format_event(b, sizeof(b), 2, &ev);
	ok = ok && la > 0 && !strstr(b, "memcg_id");
	ev.type = OW_OOM_FALLBACK;
	la = ow_json_format_event(b, sizeof(b), 2, &ev);
	ok = ok && la > 0 && !strstr(b, "memcg_id");
	if (!ok)
		tap_diag("%s / %s", a, b);
	tap_ok(ok, "version 2: oom_request carries memcg_id (u64), defer and "
	       "fallback do not");
}

/* memcg lines: the path's bytes come back whatever they are. */
static void test_memcg_line(void)
{
	static const char root[] =
		"{\"v\":2,\"type\":\"memcg\",\"path\":\"/\",\"memcg_id\":1}";
	static const char odd[] = "/job/a\"b\\c d/\x01\x7f\xe9\xff-";
	char buf[OW_LINE_MAX], why[OW_ERR_MAX] = "", path[OW_MEMCG_PATH_MAX + 1];
	struct ow_record rec;
	bool ok;
	int len;

	len = ow_json_format_memcg(buf, sizeof(buf), 2, 4100, odd);
	ok = len > 0 &&
	     !strcmp(buf, "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":4100,"
		     "\"path\":\"/job/a\\\"b\\\\c d/\\u0001\\u007f\\u00e9"
		     "\\u00ff-\"}\n") &&
	     !ow_json_decode_line(buf, len - 1, &rec, why, sizeof(why)) &&
	     rec.kind == OW_REC_MEMCG && rec.version == 2 &&
	     rec.memcg.id == 4100 && !strcmp(rec.memcg.path, odd);
	if (!ok)
		tap_diag("%s / %s", buf, why);
	tap_ok(ok, "round trip: memcg line, odd bytes in the path escaped and "
	       "back");

	/* The longest path, every byte escaped, still fits a line. */
	path[0] = '/';
	memset(path + 1, 0xe9, OW_MEMCG_PATH_MAX - 1);
	path[OW_MEMCG_PATH_MAX] = '\0';
	len = ow_json_format_memcg(buf, sizeof(buf), 2, 18446744073709551615ULL,
				   path);
	ok = len > 0 && len <= OW_LINE_MAX &&
	     !ow_json_decode_line(buf, len - 1, &rec, why, sizeof(why)) &&
	     !strcmp(rec.memcg.path, path);
	tap_ok(ok, "memcg line: a %d-byte path of escapes, %d bytes, round "
	       "trips", OW_MEMCG_PATH_MAX, len);
	ok = !ow_json_decode_line(root, strlen(root), &rec, why, sizeof(why)) &&
	     rec.kind == OW_REC_MEMCG && !strcmp(rec.memcg.path, "/");
	if (!ok)
		tap_diag("%s", why);
	tap_ok(ok, "memcg line: the root is \"/\", keys in any order");
}

static void test_header(void)
{
	/* The ends of the sysctls' ranges; out of range is refused (#15). */
	const struct ow_config cfg = { 1, 600000, INT_MIN, 1, -1, 0, 600000 };
	const char *kernel = "6.1.0-\"odd\"\\\x01\xe9";
	struct ow_record rec;
	char buf[OW_LINE_MAX], why[OW_ERR_MAX];
	int len;
	bool ok;

	len = ow_json_format_header(buf, sizeof(buf), V, &cfg, kernel, 1000);
	ok = len > 0 && !ow_json_decode_line(buf, len - 1, &rec, why,
					     sizeof(why)) &&
	     rec.kind == OW_REC_HEADER &&
	     !memcmp(&rec.header.config, &cfg, sizeof(cfg)) &&
	     !strcmp(rec.header.kernel, kernel) &&
	     rec.header.kswapd_period_ms == 1000;
	if (!ok)
		tap_diag("%s / %s", buf, why);
	tap_ok(ok, "round trip: header with the range ends and odd kernel string");
	ok = strstr(buf, "\"oom_arbiter_fallback_ms\":null,") &&
	     strstr(buf, "\"swap_token_bypass_priority\":-1,") &&
	     rec.header.config.oom_arbiter_fallback_ms == OW_CONFIG_UNKNOWN &&
	     rec.header.config.swap_token_bypass_priority == -1;
	tap_ok(ok, "header: a sysctl the kernel lacks is null, -1 stays -1");
}

/* The unknown sysctl: spelled null on input, held as OW_CONFIG_UNKNOWN. */
static void test_header_null(void)
{
	static const char line[] =
		"{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\","
		"\"kernel\":\"6.1.0\",\"config\":{\"oom_arbiter\":null,"
		"\"oom_unreclaimable_timeout_ms\":null,"
		"\"oom_arbiter_fallback_ms\":null,\"swap_token\":null,"
		"\"swap_token_bypass_priority\":-1},\"kswapd_period_ms\":1000}";
	struct ow_config unknown;
	struct ow_record rec;
	char buf[OW_LINE_MAX], why[OW_ERR_MAX];
	int len;
	bool ok;

	ow_config_unknown(&unknown);
	unknown.swap_token_bypass_priority = -1;
	ok = !ow_json_decode_line(line, strlen(line), &rec, why, sizeof(why)) &&
	     rec.kind == OW_REC_HEADER &&
	     !memcmp(&rec.header.config, &unknown, sizeof(unknown));
	len = ow_json_format_header(buf, sizeof(buf), rec.version,
				    &rec.header.config, rec.header.kernel,
				    1000);
	ok = ok && len == (int)strlen(line) + 1 && !memcmp(buf, line, len - 1);
	if (!ok)
		tap_diag("%s / %s", buf, why);
	tap_ok(ok, "header: nulls decode to unknown and encode back the same");
}

/*
 * The thrash sysctls came with version 3: written there, in their ranges
 * or null; a version 2 header neither writes nor reads them (unknown).
 */
static void test_header_v3(void)
{
	const struct ow_config ends[] = {
		{ 1, 5000, 10000, 0, 0, 0, 0 },
		{ 1, 5000, 10000, 0, 0, 1, 600000 },
		{ 1, 5000, 10000, 0, 0, OW_CONFIG_UNKNOWN, OW_CONFIG_UNKNOWN },
	};
	struct ow_config want;
	struct ow_record rec;
	char buf[OW_LINE_MAX], why[OW_ERR_MAX] = "";
	bool ok = true;
	int len;

	for (size_t i = 0; i < ARRAY_SIZE(ends) && ok; i++) {
		len = ow_json_format_header(buf, sizeof(buf), 3, &ends[i], "k",
					    1000);
		ok = len > 0 &&
		     !ow_json_decode_line(buf, len - 1, &rec, why, sizeof(why)) &&
		     rec.version == 3 &&
		     !memcmp(&rec.header.config, &ends[i], sizeof(ends[i]));
	}
	ok = ok && strstr(buf, "\"swap_token_bypass_priority\":0,"
			  "\"oom_arbiter_thrash\":null,"
			  "\"oom_thrash_timeout_ms\":null}");
	if (!ok)
		tap_diag("%s / %s", buf, why);
	tap_ok(ok, "round trip: version 3 header, the thrash sysctls at their "
	       "range ends and null");

	len = ow_json_format_header(buf, sizeof(buf), 2, &ends[1], "k", 1000);
	want = ends[1];
	want.oom_arbiter_thrash = OW_CONFIG_UNKNOWN;
	want.oom_thrash_timeout_ms = OW_CONFIG_UNKNOWN;
	ok = len > 0 && !strstr(buf, "thrash") &&
	     !ow_json_decode_line(buf, len - 1, &rec, why, sizeof(why)) &&
	     rec.version == 2 && !memcmp(&rec.header.config, &want,
					 sizeof(want));
	if (!ok)
		tap_diag("%s / %s", buf, why);
	tap_ok(ok, "version 2 header: no thrash sysctls written, read back as "
	       "unknown");
}

static void test_lost_and_summary(void)
{
	static const char summary[] =
		"{\"type\":\"summary\",\"v\":1,\"x\":{\"y\":[1,{\"z\":null}]},"
		"\"events\":1.5e3,\"s\":\"\\u00e9\"}";
	struct ow_record rec;
	char buf[OW_LINE_MAX], why[OW_ERR_MAX];
	int len;
	bool ok;

	len = ow_json_format_lost(buf, sizeof(buf), V, -1, LLONG_MAX);
	ok = len > 0 && !ow_json_decode_line(buf, len - 1, &rec, why,
					     sizeof(why)) &&
	     rec.kind == OW_REC_LOST && rec.lost.cpu == -1 &&
	     rec.lost.count == LLONG_MAX;
	tap_ok(ok, "round trip: lost record");
	len = ow_json_format_shed(buf, sizeof(buf), V, LLONG_MAX);
	ok = len > 0 && !ow_json_decode_line(buf, len - 1, &rec, why,
					     sizeof(why)) &&
	     rec.kind == OW_REC_SHED && rec.shed == LLONG_MAX;
	tap_ok(ok, "round trip: shed record");
	errno = 0;
	ok = ow_json_format_shed(buf, sizeof(buf), 4, 1) < 0 &&
	     errno == EINVAL &&
	     ow_json_format_shed(buf, sizeof(buf), V, -1) < 0;
	tap_ok(ok, "shed: not in version 4, no negative count");
	ok = !ow_json_decode_line(summary, strlen(summary), &rec, why,
				  sizeof(why)) && rec.kind == OW_REC_SUMMARY;
	if (!ok)
		tap_diag("%s", why);
	tap_ok(ok, "summary: unknown and nested keys are skipped");
}

/* A recording that starts with a valid header, then the line under test. */
#define HDR "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\"," \
	"\"config\":{\"oom_arbiter\":1,\"oom_unreclaimable_timeout_ms\":5000," \
	"\"oom_arbiter_fallback_ms\":10000,\"swap_token\":0," \
	"\"swap_token_bypass_priority\":2},\"kswapd_period_ms\":1000}\n"
#define EVH(seq) "{\"v\":1,\"seq\":" seq ",\"ts_ns\":5,\"cpu\":0,\"pid\":1," \
	"\"tgid\":1,\"comm\":\"c\","
#define EXIT_OK(seq) EVH(seq) "\"type\":\"task_exit\",\"exit_pid\":1," \
	"\"exit_tgid\":1}\n"
/* The same in version 2. */
#define HDR2 "{\"v\":2,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\"," \
	"\"config\":{\"oom_arbiter\":1,\"oom_unreclaimable_timeout_ms\":5000," \
	"\"oom_arbiter_fallback_ms\":10000,\"swap_token\":0," \
	"\"swap_token_bypass_priority\":2},\"kswapd_period_ms\":1000}\n"
#define EVH2(seq) "{\"v\":2,\"seq\":" seq ",\"ts_ns\":5,\"cpu\":0,\"pid\":1," \
	"\"tgid\":1,\"comm\":\"c\","
#define EXIT2_OK(seq) EVH2(seq) "\"type\":\"task_exit\",\"exit_pid\":1," \
	"\"exit_tgid\":1}\n"
/* And in version 3, with the thrash sysctls. */
#define CFG3(thrash, timeout) "{\"v\":3,\"type\":\"header\",\"tool\":" \
	"\"oomwatch\",\"kernel\":\"k\",\"config\":{\"oom_arbiter\":1," \
	"\"oom_unreclaimable_timeout_ms\":5000,\"oom_arbiter_fallback_ms\":10000," \
	"\"swap_token\":0,\"swap_token_bypass_priority\":2," \
	"\"oom_arbiter_thrash\":" thrash ",\"oom_thrash_timeout_ms\":" timeout \
	"},\"kswapd_period_ms\":1000}\n"
#define HDR3 CFG3("1", "10000")
#define EVH3(seq) "{\"v\":3,\"seq\":" seq ",\"ts_ns\":5,\"cpu\":0,\"pid\":1," \
	"\"tgid\":1,\"comm\":\"c\","
#define TGRANT3(nr, zones) EVH3("1") "\"type\":\"oom_thrash_grant\",\"nid\":0," \
	"\"thrashing_ms\":10000,\"refaulted\":1,\"reclaimed\":2," \
	"\"swap_free\":0,\"swap_total\":0,\"nr_zones\":" nr ",\"zones\":" \
	zones "}\n"

struct bad_case {
	const char *what;
	const char *text;
	const char *error;	/* exact ow_reader_error() */
};

static const struct bad_case bad_cases[] = {
	{ "missing field", HDR
	  "{\"v\":1,\"ts_ns\":5,\"cpu\":0,\"pid\":1,\"tgid\":1,\"comm\":\"c\","
	  "\"type\":\"task_exit\",\"exit_pid\":1,\"exit_tgid\":1}\n",
	  "t.jsonl:2: field \"seq\" missing" },
	{ "missing payload field", HDR EVH("1")
	  "\"type\":\"task_exit\",\"exit_pid\":1}\n",
	  "t.jsonl:2: field \"exit_tgid\" missing" },
	{ "bad number (syntax)", HDR EVH("12a")
	  "\"type\":\"task_exit\",\"exit_pid\":1,\"exit_tgid\":1}\n",
	  "t.jsonl:2: bad number \"12a\" at column 14" },
	{ "bad number (leading zero)", HDR EVH("012")
	  "\"type\":\"task_exit\",\"exit_pid\":1,\"exit_tgid\":1}\n",
	  "t.jsonl:2: bad number \"012\" at column 14" },
	{ "bad number (fraction)", HDR EVH("1.5")
	  "\"type\":\"task_exit\",\"exit_pid\":1,\"exit_tgid\":1}\n",
	  "t.jsonl:2: field \"seq\": bad number \"1.5\" (not an integer)" },
	{ "number out of range", HDR EVH("1")
	  "\"type\":\"task_exit\",\"exit_pid\":4294967296,\"exit_tgid\":1}\n",
	  "t.jsonl:2: field \"exit_pid\": 4294967296 out of range" },
	{ "u64 overflow", HDR EVH("18446744073709551616")
	  "\"type\":\"task_exit\",\"exit_pid\":1,\"exit_tgid\":1}\n",
	  "t.jsonl:2: field \"seq\": 18446744073709551616 out of range" },
	{ "negative unsigned", HDR EVH("-1")
	  "\"type\":\"task_exit\",\"exit_pid\":1,\"exit_tgid\":1}\n",
	  "t.jsonl:2: field \"seq\": -1 out of range" },
	{ "string for a number", HDR EVH("\"1\"")
	  "\"type\":\"task_exit\",\"exit_pid\":1,\"exit_tgid\":1}\n",
	  "t.jsonl:2: field \"seq\": expected an integer" },
	{ "unknown type", HDR EVH("1") "\"type\":\"foo\"}\n",
	  "t.jsonl:2: unknown event type \"foo\"" },
	{ "unknown field", HDR EVH("1")
	  "\"type\":\"task_exit\",\"exit_pid\":1,\"exit_tgid\":1,\"x\":0}\n",
	  "t.jsonl:2: unknown field \"x\" in task_exit event" },
	{ "wrong version", "{\"v\":6,\"type\":\"header\",\"anything\":1}\n",
	  "t.jsonl:1: version 6 not supported" },
	{ "version 0", "{\"v\":0,\"type\":\"lost\",\"cpu\":0,\"count\":1}\n",
	  "t.jsonl:1: version 0 not supported" },
	{ "version 6 after version 2 lines", HDR2 EXIT2_OK("1")
	  "{\"v\":6,\"type\":\"lost\",\"cpu\":0,\"count\":1}\n",
	  "t.jsonl:3: version 6 not supported" },
	{ "shed in a version 4 line", "{\"v\":4,\"type\":\"shed\",\"count\":1}\n",
	  "t.jsonl:1: record type \"shed\" in a version 4 line (added in "
	  "version 5)" },
	{ "shed: unknown field", "{\"v\":5,\"type\":\"shed\",\"count\":1,"
	  "\"cpu\":0}\n",
	  "t.jsonl:1: unknown field \"cpu\" in shed record" },
	{ "shed: negative count", "{\"v\":5,\"type\":\"shed\",\"count\":-1}\n",
	  "t.jsonl:1: field \"count\": -1 out of range" },
	{ "shed: no count", "{\"v\":5,\"type\":\"shed\"}\n",
	  "t.jsonl:1: field \"count\" missing" },
	{ "version 3 line after version 2 lines", HDR2 EXIT2_OK("1")
	  "{\"v\":3,\"type\":\"lost\",\"cpu\":0,\"count\":1}\n",
	  "t.jsonl:3: version 3 line after version 2 lines (a recording has "
	  "one version)" },
	{ "missing version", HDR "{\"type\":\"lost\",\"cpu\":0,\"count\":1}\n",
	  "t.jsonl:2: field \"v\" missing" },
	{ "header not first", HDR HDR,
	  "t.jsonl:2: header must be the first line" },
	{ "line after the summary", HDR "{\"v\":1,\"type\":\"summary\"}\n"
	  EXIT_OK("1"),
	  "t.jsonl:3: line after the summary (summary must be the last line)" },
	{ "truncated last line", HDR EXIT_OK("1") "{\"v\":1,\"seq\"",
	  "t.jsonl:3: truncated line (no newline at end of file)" },
	{ "non-object", HDR "[1,2]\n", "t.jsonl:2: not a JSON object" },
	{ "non-object (scalar)", "42\n", "t.jsonl:1: not a JSON object" },
	{ "empty line", HDR "\n", "t.jsonl:2: empty line" },
	{ "duplicate key", HDR EVH("1")
	  "\"type\":\"task_exit\",\"exit_pid\":1,\"exit_pid\":1}\n",
	  "t.jsonl:2: duplicate key \"exit_pid\"" },
	{ "duplicate key (escaped)", HDR EVH("1")
	  "\"type\":\"task_exit\",\"s\\u0065q\":1}\n",
	  "t.jsonl:2: duplicate key \"seq\"" },
	{ "bad escape", HDR "{\"v\":1,\"comm\":\"a\\qb\"}\n",
	  "t.jsonl:2: bad escape \"\\q\" at column 17" },
	{ "escape above 0xff", HDR "{\"v\":1,\"comm\":\"\\u0100\"}\n",
	  "t.jsonl:2: bad escape \"\\u0100\" at column 16" },
	{ "short \\u escape", HDR "{\"v\":1,\"comm\":\"\\u00\"}\n",
	  "t.jsonl:2: bad escape \"\\u00\"\" at column 16" },
	{ "control byte in string", HDR "{\"v\":1,\"comm\":\"a\tb\"}\n",
	  "t.jsonl:2: control byte 0x09 in string at column 17" },
	{ "raw byte >= 0x80 in a string", HDR "{\"v\":1,\"comm\":\"a\xe9\"}\n",
	  "t.jsonl:2: byte 0xe9 in string at column 17: not ASCII" },
	{ "comm too long", HDR
	  "{\"v\":1,\"seq\":1,\"ts_ns\":5,\"cpu\":0,\"pid\":1,\"tgid\":1,"
	  "\"comm\":\"0123456789abcdefg\",\"type\":\"task_exit\","
	  "\"exit_pid\":1,\"exit_tgid\":1}\n",
	  "t.jsonl:2: field \"comm\": longer than 16 bytes" },
	{ "unterminated string", HDR "{\"v\":1,\"comm\":\"abc}\n",
	  "t.jsonl:2: unterminated string at column 15" },
	{ "trailing characters", HDR EXIT_OK("1") "{\"v\":1} x\n",
	  "t.jsonl:3: trailing characters after the object at column 9" },
	{ "trailing comma", HDR "{\"v\":1,}\n",
	  "t.jsonl:2: expected a key at column 8" },
	{ "missing colon", HDR "{\"v\" 1}\n",
	  "t.jsonl:2: expected ':' at column 6" },
	{ "unexpected character", HDR "{\"v\":x}\n",
	  "t.jsonl:2: unexpected character 'x' at column 6" },
	{ "bad literal", HDR "{\"v\":tru}\n",
	  "t.jsonl:2: unexpected character 't' at column 6" },
	{ "nesting too deep", HDR
	  "{\"v\":1,\"type\":\"summary\",\"a\":[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]}\n",
	  "t.jsonl:2: nesting deeper than 16 at column 44" },
	{ "zones count mismatch", HDR EVH("1")
	  "\"type\":\"oom_grant\",\"nid\":0,\"grant_pid\":1,"
	  "\"unreclaimable_ms\":1,\"looping\":1,\"low_reclaimed\":0,"
	  "\"nr_zones\":2,\"zones\":[{\"free\":1,\"min\":2}]}\n",
	  "t.jsonl:2: field \"zones\": 1 entries but nr_zones is 2" },
	{ "too many zones", HDR EVH("1")
	  "\"type\":\"oom_grant\",\"nid\":0,\"grant_pid\":1,"
	  "\"unreclaimable_ms\":1,\"looping\":1,\"low_reclaimed\":0,"
	  "\"nr_zones\":5,\"zones\":[]}\n",
	  "t.jsonl:2: field \"nr_zones\": 5 out of range (at most 4)" },
	{ "zone field missing", HDR EVH("1")
	  "\"type\":\"oom_grant\",\"nid\":0,\"grant_pid\":1,"
	  "\"unreclaimable_ms\":1,\"looping\":1,\"low_reclaimed\":0,"
	  "\"nr_zones\":1,\"zones\":[{\"free\":1}]}\n",
	  "t.jsonl:2: field \"zones[0].min\" missing" },
	{ "enum name not a string", HDR EVH("1")
	  "\"type\":\"oom_veto\",\"request_pid\":1,\"nid\":0,\"order\":0,"
	  "\"gfp_flags\":0,\"reason\":8,\"reason_name\":8,\"waited_ms\":0,"
	  "\"request_comm\":\"c\"}\n",
	  "t.jsonl:2: field \"reason_name\": expected a string" },
	{ "s32 out of range", HDR EVH("1")
	  "\"type\":\"kswapd_wake\",\"nid\":-2147483649,\"zid\":0,"
	  "\"order\":0}\n",
	  "t.jsonl:2: field \"nid\": -2147483649 out of range" },
	{ "config field missing",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":1},\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.oom_unreclaimable_timeout_ms\" missing" },
	{ "not our tool",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"other\",\"kernel\":\"k\","
	  "\"config\":{},\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: not an oomwatch recording (tool \"other\")" },
	{ "null outside the config", HDR EVH("null")
	  "\"type\":\"task_exit\",\"exit_pid\":1,\"exit_tgid\":1}\n",
	  "t.jsonl:2: field \"seq\": expected an integer" },
	{ "config value spelling unknown as a number",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":-2147483648,"
	  "\"oom_unreclaimable_timeout_ms\":5000,\"oom_arbiter_fallback_ms\":1,"
	  "\"swap_token\":0,\"swap_token_bypass_priority\":2},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.oom_arbiter\": -2147483648 out of range" },
	{ "config value of the wrong type",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":true,"
	  "\"oom_unreclaimable_timeout_ms\":5000,\"oom_arbiter_fallback_ms\":1,"
	  "\"swap_token\":0,\"swap_token_bypass_priority\":2},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.oom_arbiter\": expected an integer" },
	/* #15 item 5: a header outside the sysctls' ranges is malformed */
	{ "header: oom_arbiter 2",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":2,"
	  "\"oom_unreclaimable_timeout_ms\":5000,\"oom_arbiter_fallback_ms\":10000,"
	  "\"swap_token\":0,\"swap_token_bypass_priority\":2},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.oom_arbiter\": 2 out of range" },
	{ "header: timeout -1",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":1,"
	  "\"oom_unreclaimable_timeout_ms\":-1,\"oom_arbiter_fallback_ms\":10000,"
	  "\"swap_token\":0,\"swap_token_bypass_priority\":2},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.oom_unreclaimable_timeout_ms\": -1 out of range" },
	{ "header: timeout 600001",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":1,"
	  "\"oom_unreclaimable_timeout_ms\":600001,\"oom_arbiter_fallback_ms\":10000,"
	  "\"swap_token\":0,\"swap_token_bypass_priority\":2},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.oom_unreclaimable_timeout_ms\": 600001 out of range" },
	{ "header: fallback 99",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":1,"
	  "\"oom_unreclaimable_timeout_ms\":5000,\"oom_arbiter_fallback_ms\":99,"
	  "\"swap_token\":0,\"swap_token_bypass_priority\":2},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.oom_arbiter_fallback_ms\": 99 out of range" },
	{ "header: swap_token -1",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":1,"
	  "\"oom_unreclaimable_timeout_ms\":5000,\"oom_arbiter_fallback_ms\":10000,"
	  "\"swap_token\":-1,\"swap_token_bypass_priority\":2},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.swap_token\": -1 out of range" },
	{ "header: bypass priority 13",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":1,"
	  "\"oom_unreclaimable_timeout_ms\":5000,\"oom_arbiter_fallback_ms\":10000,"
	  "\"swap_token\":1,\"swap_token_bypass_priority\":13},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.swap_token_bypass_priority\": 13 out of range" },
	{ "header: bypass priority -2",
	  "{\"v\":1,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":1,"
	  "\"oom_unreclaimable_timeout_ms\":5000,\"oom_arbiter_fallback_ms\":10000,"
	  "\"swap_token\":1,\"swap_token_bypass_priority\":-2},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.swap_token_bypass_priority\": -2 out of range" },
	{ "lost count negative", HDR
	  "{\"v\":1,\"type\":\"lost\",\"cpu\":-1,\"count\":-3}\n",
	  "t.jsonl:2: field \"count\": -3 out of range" },
	/* trace format 2: oom_request's memcg_id, memcg lines, one version */
	{ "v2 request without memcg_id", HDR2 EVH2("1")
	  "\"type\":\"oom_request\",\"request_pid\":1,\"nid\":0,\"order\":0,"
	  "\"gfp_flags\":0,\"reason\":0,\"waited_ms\":0,"
	  "\"request_comm\":\"c\"}\n",
	  "t.jsonl:2: field \"memcg_id\" missing" },
	{ "v1 request with memcg_id", HDR EVH("1")
	  "\"type\":\"oom_request\",\"request_pid\":1,\"nid\":0,\"order\":0,"
	  "\"gfp_flags\":0,\"reason\":0,\"waited_ms\":0,\"memcg_id\":5,"
	  "\"request_comm\":\"c\"}\n",
	  "t.jsonl:2: unknown field \"memcg_id\" in version 1 oom_request "
	  "event (added in version 2)" },
	{ "v2 defer with memcg_id", HDR2 EVH2("1")
	  "\"type\":\"oom_defer\",\"request_pid\":1,\"nid\":0,\"order\":0,"
	  "\"gfp_flags\":0,\"reason\":2,\"waited_ms\":0,\"memcg_id\":5,"
	  "\"request_comm\":\"\"}\n",
	  "t.jsonl:2: unknown field \"memcg_id\" in oom_defer event" },
	{ "v2 fallback with memcg_id", HDR2 EVH2("1")
	  "\"type\":\"oom_fallback\",\"request_pid\":1,\"nid\":0,\"order\":0,"
	  "\"gfp_flags\":0,\"reason\":12,\"waited_ms\":0,\"memcg_id\":5,"
	  "\"request_comm\":\"\"}\n",
	  "t.jsonl:2: unknown field \"memcg_id\" in oom_fallback event" },
	{ "v2 request memcg_id not a u64", HDR2 EVH2("1")
	  "\"type\":\"oom_request\",\"request_pid\":1,\"nid\":0,\"order\":0,"
	  "\"gfp_flags\":0,\"reason\":0,\"waited_ms\":0,\"memcg_id\":-1,"
	  "\"request_comm\":\"c\"}\n",
	  "t.jsonl:2: field \"memcg_id\": -1 out of range" },
	{ "version 2 line after version 1 lines", HDR EXIT_OK("1")
	  EXIT2_OK("2"),
	  "t.jsonl:3: version 2 line after version 1 lines (a recording has "
	  "one version)" },
	{ "version 1 line after version 2 lines", HDR2 EXIT2_OK("1")
	  EXIT2_OK("2") EXIT_OK("3"),
	  "t.jsonl:4: version 1 line after version 2 lines (a recording has "
	  "one version)" },
	{ "version 1 summary after version 2 lines", HDR2 EXIT2_OK("1")
	  "{\"v\":1,\"type\":\"summary\"}\n",
	  "t.jsonl:3: version 1 line after version 2 lines (a recording has "
	  "one version)" },
	{ "memcg line in version 1", HDR
	  "{\"v\":1,\"type\":\"memcg\",\"memcg_id\":5,\"path\":\"/a\"}\n",
	  "t.jsonl:2: record type \"memcg\" in a version 1 line (added in "
	  "version 2)" },
	{ "memcg line without a path", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5}\n",
	  "t.jsonl:2: field \"path\" missing" },
	{ "memcg line without an id", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"path\":\"/a\"}\n",
	  "t.jsonl:2: field \"memcg_id\" missing" },
	{ "memcg line of id 0", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":0,\"path\":\"/a\"}\n",
	  "t.jsonl:2: field \"memcg_id\": 0 out of range" },
	{ "memcg line, unknown field", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5,\"path\":\"/a\","
	  "\"parent\":1}\n",
	  "t.jsonl:2: unknown field \"parent\" in memcg record" },
	{ "memcg line, path a number", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5,\"path\":5}\n",
	  "t.jsonl:2: field \"path\": expected a string" },
	{ "memcg line, relative path", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5,\"path\":\"job\"}\n",
	  "t.jsonl:2: field \"path\": \"job\" is not a cgroup path (\"/\" or "
	  "\"/a/b\")" },
	{ "memcg line, trailing slash", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5,\"path\":\"/job/\"}\n",
	  "t.jsonl:2: field \"path\": \"/job/\" is not a cgroup path (\"/\" or "
	  "\"/a/b\")" },
	{ "memcg line, empty component", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5,\"path\":\"/a//b\"}\n",
	  "t.jsonl:2: field \"path\": \"/a//b\" is not a cgroup path (\"/\" or "
	  "\"/a/b\")" },
	{ "memcg line, dot-dot", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5,\"path\":\"/a/../b\"}\n",
	  "t.jsonl:2: field \"path\": \"/a/../b\" is not a cgroup path (\"/\" "
	  "or \"/a/b\")" },
	{ "memcg line, empty path", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5,\"path\":\"\"}\n",
	  "t.jsonl:2: field \"path\": \"\" is not a cgroup path (\"/\" or "
	  "\"/a/b\")" },
	{ "memcg line, NUL in the path", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5,\"path\":\"/a\\u0000\"}\n",
	  "t.jsonl:2: field \"path\": NUL byte in string" },
	{ "memcg line, raw byte >= 0x80", HDR2
	  "{\"v\":2,\"type\":\"memcg\",\"memcg_id\":5,\"path\":\"/\xe9\"}\n",
	  "t.jsonl:2: byte 0xe9 in string at column 45: not ASCII" },
	/* trace format 3: the thrash rule's events and sysctls */
	{ "v2 thrashing_set", HDR2 EVH2("1")
	  "\"type\":\"thrashing_set\",\"nid\":0,\"reason\":0,"
	  "\"duration_ms\":0,\"window_ms\":1000,\"refaulted\":1,"
	  "\"reclaimed\":2}\n",
	  "t.jsonl:2: event type \"thrashing_set\" in a version 2 line (added "
	  "in version 3)" },
	{ "v1 oom_thrash_take", HDR EVH("1")
	  "\"type\":\"oom_thrash_take\"}\n",
	  "t.jsonl:2: event type \"oom_thrash_take\" in a version 1 line (added "
	  "in version 3)" },
	{ "v2 header with a thrash sysctl",
	  "{\"v\":2,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":1,\"oom_unreclaimable_timeout_ms\":5000,"
	  "\"oom_arbiter_fallback_ms\":10000,\"swap_token\":0,"
	  "\"swap_token_bypass_priority\":2,\"oom_arbiter_thrash\":1},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: unknown field \"config.oom_arbiter_thrash\" in a version 2 "
	  "header (added in version 3)" },
	{ "v3 header without the thrash timeout",
	  "{\"v\":3,\"type\":\"header\",\"tool\":\"oomwatch\",\"kernel\":\"k\","
	  "\"config\":{\"oom_arbiter\":1,\"oom_unreclaimable_timeout_ms\":5000,"
	  "\"oom_arbiter_fallback_ms\":10000,\"swap_token\":0,"
	  "\"swap_token_bypass_priority\":2,\"oom_arbiter_thrash\":1},"
	  "\"kswapd_period_ms\":1000}\n",
	  "t.jsonl:1: field \"config.oom_thrash_timeout_ms\" missing" },
	{ "header: oom_arbiter_thrash 2", CFG3("2", "10000"),
	  "t.jsonl:1: field \"config.oom_arbiter_thrash\": 2 out of range" },
	{ "header: oom_arbiter_thrash -1", CFG3("-1", "10000"),
	  "t.jsonl:1: field \"config.oom_arbiter_thrash\": -1 out of range" },
	{ "header: thrash timeout 600001", CFG3("1", "600001"),
	  "t.jsonl:1: field \"config.oom_thrash_timeout_ms\": 600001 out of "
	  "range" },
	{ "header: thrash timeout -1", CFG3("1", "-1"),
	  "t.jsonl:1: field \"config.oom_thrash_timeout_ms\": -1 out of range" },
	{ "header: thrash timeout a string", CFG3("1", "\"10000\""),
	  "t.jsonl:1: field \"config.oom_thrash_timeout_ms\": expected an "
	  "integer" },
	{ "thrashing_clear reason 2", HDR3 EVH3("1")
	  "\"type\":\"thrashing_clear\",\"nid\":0,\"reason\":2,"
	  "\"duration_ms\":3000,\"window_ms\":1000,\"refaulted\":1,"
	  "\"reclaimed\":2}\n",
	  "t.jsonl:2: field \"reason\": 2 out of range" },
	{ "thrash grant with 4 zones", HDR3
	  TGRANT3("4", "[{\"free\":1,\"high\":2},{\"free\":1,\"high\":2},"
		  "{\"free\":1,\"high\":2},{\"free\":1,\"high\":2}]"),
	  "t.jsonl:2: field \"nr_zones\": 4 out of range (at most 3)" },
	{ "thrash grant zone with min for high", HDR3
	  TGRANT3("1", "[{\"free\":1,\"min\":2}]"),
	  "t.jsonl:2: unknown field \"zones[0].min\"" },
	{ "thrash grant zone without high", HDR3
	  TGRANT3("1", "[{\"free\":1}]"),
	  "t.jsonl:2: field \"zones[0].high\" missing" },
	{ "thrash grant zones count mismatch", HDR3
	  TGRANT3("2", "[{\"free\":1,\"high\":2}]"),
	  "t.jsonl:2: field \"zones\": 1 entries but nr_zones is 2" },
	{ "thrash grant without zones", HDR3 EVH3("1")
	  "\"type\":\"oom_thrash_grant\",\"nid\":0,\"thrashing_ms\":10000,"
	  "\"refaulted\":1,\"reclaimed\":2,\"swap_free\":0,\"swap_total\":0,"
	  "\"nr_zones\":0}\n",
	  "t.jsonl:2: field \"zones\" missing" },
	{ "take without memcg_id", HDR3 EVH3("1")
	  "\"type\":\"oom_thrash_take\",\"take_pid\":1,\"nid\":0,\"order\":0,"
	  "\"gfp_flags\":0,\"take_comm\":\"c\"}\n",
	  "t.jsonl:2: field \"memcg_id\" missing" },
	{ "take with request_pid", HDR3 EVH3("1")
	  "\"type\":\"oom_thrash_take\",\"request_pid\":1}\n",
	  "t.jsonl:2: unknown field \"request_pid\" in oom_thrash_take event" },
};

/* Runs text through a reader; the last result and the error. */
static int read_all(const char *text, size_t len, char *err, size_t size,
		    int *records)
{
	struct ow_reader r;
	struct ow_record rec;
	FILE *f;
	int ret;

	*records = 0;
	f = fmemopen((void *)text, len, "r");
	if (!f)
		return -2;
	ow_reader_init(&r, f, "t.jsonl");
	while ((ret = ow_reader_next(&r, &rec)) == 1)
		(*records)++;
	snprintf(err, size, "%s", ow_reader_error(&r));
	/* Errors are sticky. */
	if (ret < 0 && ow_reader_next(&r, &rec) != -1)
		ret = -3;
	fclose(f);
	return ret;
}

static void test_bad_inputs(void)
{
	char err[OW_ERR_MAX];
	int n;

	for (size_t i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		int ret;

		ret = read_all(c->text, strlen(c->text), err, sizeof(err), &n);
		if (!tap_ok(ret == -1 && !strcmp(err, c->error),
			    "bad input: %s", c->what))
			tap_diag("got %d \"%s\", want \"%s\"", ret, err,
				 c->error);
	}
}

/* Cases a C string literal cannot hold, or too long to write out. */
static void test_bad_inputs_raw(void)
{
	static const char nul_line[] = HDR "{\"v\":1,\"comm\":\"a\0b\"}\n";
	static const char nul_comm[] = HDR EVH("1")
		"\"type\":\"task_exit\",\"exit_pid\":1,\"exit_tgid\":1}\n";
	char *text, *p, err[OW_ERR_MAX];
	size_t len;
	int n, ret;

	ret = read_all(nul_line, sizeof(nul_line) - 1, err, sizeof(err), &n);
	tap_ok(ret == -1 && !strcmp(err, "t.jsonl:2: control byte 0x00 in string at column 17"),
	       "bad input: raw NUL byte in a line (%s)", err);

	/* comm "c" -> "\u0000" */
	text = malloc(sizeof(nul_comm) + 16);
	p = strstr(strcpy(text, nul_comm), "\"comm\":\"c\"");
	memmove(p + 15, p + 10, strlen(p + 10) + 1);
	memcpy(p, "\"comm\":\"\\u0000\"", 15);
	ret = read_all(text, strlen(text), err, sizeof(err), &n);
	tap_ok(ret == -1 && !strcmp(err, "t.jsonl:2: field \"comm\": NUL byte in string"),
	       "bad input: \\u0000 inside comm (%s)", err);
	free(text);

	/* A valid line of exactly OW_LINE_MAX bytes, then one byte more. */
	for (len = OW_LINE_MAX; len <= OW_LINE_MAX + 1; len++) {
		text = malloc(len);
		memset(text, ' ', len);
		memcpy(text, "{\"v\":1,\"type\":\"summary\"", 23);
		text[len - 2] = '}';
		text[len - 1] = '\n';
		ret = read_all(text, len, err, sizeof(err), &n);
		if (len == OW_LINE_MAX)
			tap_ok(ret == 0 && n == 1,
			       "line of exactly OW_LINE_MAX bytes is accepted");
		else
			tap_ok(ret == -1 && !strcmp(err, "t.jsonl:1: line longer than 4096 bytes"),
			       "bad input: over-long line (%s)", err);
		free(text);
	}

	ret = read_all("", 0, err, sizeof(err), &n);
	tap_ok(ret == 0 && n == 0, "empty file: end of file, no error");
}

static void test_reader_happy(void)
{
	static const char text[] = HDR EXIT_OK("1") EXIT_OK("2")
		"{\"v\":1,\"type\":\"lost\",\"cpu\":3,\"count\":0}\r\n"
		"  {\"type\":\"summary\" , \"v\" : 1 }  \n";
	char err[OW_ERR_MAX];
	int n, ret;

	ret = read_all(text, sizeof(text) - 1, err, sizeof(err), &n);
	tap_ok(ret == 0 && n == 5,
	       "reader: header, events, lost, summary with spaces and CRLF");
}

/* A version 2 file: every record says so, and so does the reader. */
static void test_reader_v2(void)
{
	static const char text[] = HDR2
		"{\"v\":2,\"type\":\"memcg\",\"memcg_id\":4100,\"path\":\"/job/a\"}\n"
		EVH2("1") "\"type\":\"oom_request\",\"request_pid\":1,\"nid\":0,"
		"\"order\":0,\"gfp_flags\":0,\"reason\":0,\"waited_ms\":0,"
		"\"memcg_id\":4100,\"request_comm\":\"c\"}\n"
		"{\"v\":2,\"type\":\"lost\",\"cpu\":-1,\"count\":0}\n"
		"{\"v\":2,\"type\":\"summary\"}\n";
	static const enum ow_record_kind kinds[] = {
		OW_REC_HEADER, OW_REC_MEMCG, OW_REC_EVENT, OW_REC_LOST,
		OW_REC_SUMMARY,
	};
	struct ow_reader r;
	struct ow_record rec;
	size_t n = 0;
	bool ok = true;
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	int ret;

	ow_reader_init(&r, f, "t.jsonl");
	while ((ret = ow_reader_next(&r, &rec)) == 1) {
		ok &= n < ARRAY_SIZE(kinds) && rec.kind == kinds[n] &&
		      rec.version == 2;
		if (rec.kind == OW_REC_MEMCG)
			ok &= rec.memcg.id == 4100 &&
			      !strcmp(rec.memcg.path, "/job/a");
		if (rec.kind == OW_REC_EVENT)
			ok &= rec.event.request.memcg_id == 4100;
		n++;
	}
	fclose(f);
	if (!ok || ret)
		tap_diag("%d: %s", ret, ow_reader_error(&r));
	tap_ok(ok && !ret && n == ARRAY_SIZE(kinds) && r.version == 2,
	       "reader: a version 2 file, memcg line and request memcg_id");
}

/* A version 3 file: the thrash events, read as written. */
static void test_reader_v3(void)
{
	static const char text[] = HDR3
		EVH3("1") "\"type\":\"thrashing_set\",\"nid\":1,\"reason\":0,"
		"\"duration_ms\":0,\"window_ms\":1000,\"refaulted\":5120,"
		"\"reclaimed\":6144}\n"
		TGRANT3("2", "[{\"free\":300,\"high\":384},{\"high\":1400,"
			"\"free\":1200}]")
		EVH3("3") "\"type\":\"oom_thrash_take\",\"take_pid\":200,"
		"\"nid\":0,\"order\":0,\"gfp_flags\":1051850,"
		"\"memcg_id\":4100,\"take_comm\":\"hog\"}\n"
		EVH3("4") "\"type\":\"thrashing_clear\",\"nid\":1,\"reason\":1,"
		"\"reason_name\":\"disabled\",\"duration_ms\":12000,"
		"\"window_ms\":0,\"refaulted\":0,\"reclaimed\":0}\n"
		"{\"v\":3,\"type\":\"summary\"}\n";
	struct ow_reader r;
	struct ow_record rec[6];
	size_t n = 0;
	FILE *f = fmemopen((void *)text, sizeof(text) - 1, "r");
	bool ok;
	int ret;

	ow_reader_init(&r, f, "t.jsonl");
	while (n < ARRAY_SIZE(rec) && (ret = ow_reader_next(&r, &rec[n])) == 1)
		n++;
	fclose(f);
	ok = n == 6 && r.version == 3 &&
	     rec[0].header.config.oom_arbiter_thrash == 1 &&
	     rec[0].header.config.oom_thrash_timeout_ms == 10000 &&
	     rec[1].event.type == OW_THRASHING_SET &&
	     rec[1].event.thrash.nid == 1 &&
	     rec[1].event.thrash.window_ms == 1000 &&
	     rec[1].event.thrash.refaulted == 5120 &&
	     rec[1].event.thrash.reclaimed == 6144 &&
	     rec[2].event.type == OW_THRASH_GRANT &&
	     rec[2].event.thrash_grant.thrashing_ms == 10000 &&
	     rec[2].event.thrash_grant.nr_zones == 2 &&
	     rec[2].event.thrash_grant.zone[0].free == 300 &&
	     rec[2].event.thrash_grant.zone[0].high == 384 &&
	     rec[2].event.thrash_grant.zone[1].free == 1200 &&
	     rec[2].event.thrash_grant.zone[1].high == 1400 &&
	     rec[3].event.type == OW_THRASH_TAKE &&
	     rec[3].event.take.pid == 200 &&
	     rec[3].event.take.gfp_flags == 0x100cca &&
	     rec[3].event.take.memcg_id == 4100 &&
	     !strcmp(rec[3].event.take.comm, "hog") &&
	     rec[4].event.type == OW_THRASHING_CLEAR &&
	     rec[4].event.thrash.reason == OW_THRASH_DISABLED &&
	     rec[4].event.thrash.duration_ms == 12000 &&
	     rec[5].kind == OW_REC_SUMMARY;
	if (!ok)
		tap_diag("%zu records: %s", n, ow_reader_error(&r));
	tap_ok(ok, "reader: a version 3 file, the four thrash events and the "
	       "thrash sysctls, zone keys in any order");
}

/*
 * Mutations of valid lines: flips, cuts, splices, inserted JSON noise.
 * Each either decodes, and then re-encodes to a line that decodes to the
 * same thing, or fails with a message.  ASan and UBSan do the rest.
 */
static void test_mutations(void)
{
	static const char *const noise[] = {
		"\"", "\\", "\\u", "{", "}", "[", "]", ",", ":", "-", "0",
		"1e9", "null", "\"zones\":[", "18446744073709551615", "\\u00ff",
	};
	char line[OW_LINE_MAX], buf[OW_LINE_MAX], why[OW_ERR_MAX];
	struct oomwatch_event ev;
	struct ow_record rec, again;
	int bad = 0, decoded = 0;

	for (int i = 0; i < 30000; i++) {
		unsigned int since;
		int len;

		random_event(&ev, 1 + rnd() % (OW_NR_TYPES - 1));
		/* in one of the versions that have the type */
		since = ow_event_type_since(ev.type);
		len = ow_json_format_event(line, sizeof(line),
					   since + rnd() % (V - since + 1),
					   &ev) - 1;
		for (int m = 1 + rnd() % 4; m > 0 && len > 0; m--) {
			size_t at = rnd() % len;
			const char *s = noise[rnd() % ARRAY_SIZE(noise)];
			size_t sl = strlen(s);

			switch (rnd() % 4) {
			case 0:
				line[at] ^= 1u << (rnd() % 8);
				break;
			case 1:
				len = at;
				break;
			case 2:
				memmove(line + at, line + at + 1, len - at - 1);
				len--;
				break;
			default:
				if (len + sl < sizeof(line) - 1) {
					memmove(line + at + sl, line + at,
						len - at);
					memcpy(line + at, s, sl);
					len += sl;
				}
			}
		}
		why[0] = '\0';
		if (ow_json_decode_line(line, len, &rec, why, sizeof(why))) {
			bad += !why[0];
			continue;
		}
		decoded++;
		if (rec.kind != OW_REC_EVENT)
			continue;
		len = ow_json_format_event(buf, sizeof(buf), rec.version,
					   &rec.event);
		if (len <= 0 ||
		    ow_json_decode_line(buf, len - 1, &again, why, sizeof(why)) ||
		    !ow_event_equal(&rec.event, &again.event))
			bad++;
	}
	tap_ok(!bad, "mutations: 30000 damaged lines, %d still decode, %d misbehaved",
	       decoded, bad);
}

int main(void)
{
	test_names();
	test_round_trip_types();
	test_round_trip_comm();
	test_encoder_rejects();
	test_round_trip_v1();
	test_memcg_line();
	test_header();
	test_header_null();
	test_header_v3();
	test_lost_and_summary();
	test_bad_inputs();
	test_bad_inputs_raw();
	test_reader_happy();
	test_reader_v2();
	test_reader_v3();
	test_mutations();
	return tap_done();
}
