/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * oomwatch: JSON-lines recordings of struct oomwatch_event, format version
 * OOMWATCH_FORMAT_VERSION (3); versions 1 and 2 are still read and written.
 *
 * One JSON object per line, every line ends with '\n' and is at most
 * OW_LINE_MAX bytes long, newline included.  "type" tells the kinds apart:
 *
 *   {"v":3,"type":"header","tool":"oomwatch","kernel":"6.1.0",
 *    "config":{"oom_arbiter":1,"oom_unreclaimable_timeout_ms":5000,
 *              "oom_arbiter_fallback_ms":10000,"swap_token":1,
 *              "swap_token_bypass_priority":-1,"oom_arbiter_thrash":1,
 *              "oom_thrash_timeout_ms":10000},"kswapd_period_ms":1000}
 *   {"v":3,"type":"memcg","memcg_id":4100,"path":"/job/a"}
 *   {"v":3,"seq":12,"ts_ns":123,"cpu":0,"pid":42,"tgid":42,"comm":"hog",
 *    "type":"oom_request", ...payload...}
 *   {"v":3,"type":"lost","cpu":-1,"count":3}
 *   {"v":5,"type":"shed","count":120}
 *   {"v":3,"type":"summary", ...anything...}
 *
 * Every line of one file carries the same "v": ow_reader refuses a file
 * whose version changes midway.  Version 2 added oom_request's
 * "memcg_id" and the "memcg" lines; version 3 the thrash rule's events
 * (thrashing_set, thrashing_clear, oom_thrash_grant, oom_thrash_take) and
 * its sysctls in the header's config (oom_arbiter_thrash,
 * oom_thrash_timeout_ms); version 5 the "shed" lines: context records
 * (reclaim_retry_zone, direct reclaim, kswapd wake and sleep) the BPF
 * side did not write, without a sequence number, while half its ring was
 * unread.  Unlike "lost", a shed line breaks no rule: no rule reads
 * those types.  A line of an older version holding any of
 * them is refused, as a reader of that version refused them, with a
 * message that says which version has them; an older header decodes the
 * sysctls it lacks as unknown.  A writer writes the version of its
 * source: a replay of a version 1 recording writes version 1, having no
 * memcg ids to write.
 *
 * A "memcg" line names a memcg id by its cgroup v2 path, from the cgroup2
 * root ("/" is the root itself), before the first event that names that
 * id; it is written only when the id could be resolved.
 *
 * A config value is null when the kernel lacks that sysctl: -1 is a
 * real value (swap_token_bypass_priority -1 means "never bypass").  The
 * decoder maps null to OW_CONFIG_UNKNOWN and refuses that integer itself,
 * so "unknown" has exactly one spelling; null is accepted nowhere else.
 *
 * The header, when present, is the first line; the summary, when present,
 * is the last one.  A file without a header is accepted (ow_reader tells
 * whether one was seen): the caller decides what an unknown configuration
 * means.
 *
 * Event payload: the members of the union member the type uses, flattened
 * at top level under their own names.  Members whose name clashes with the
 * common part (pid, tgid, comm) are prefixed with the union member's name:
 *
 *   victim.pid  -> victim_pid      victim.comm  -> victim_comm
 *   reaper.pid  -> reaper_pid      token.tgid   -> token_tgid
 *   request.pid -> request_pid     request.comm -> request_comm
 *   grant.pid   -> grant_pid       exit.pid     -> exit_pid
 *   exit.tgid   -> exit_tgid       take.pid     -> take_pid
 *   take.comm   -> take_comm
 *
 * Padding members are not written.  grant.zone[] is "zones":[{"free":N,
 * "min":N},...] with exactly nr_zones (<= OOMWATCH_MAX_ZONES) entries;
 * thrash_grant.zone[] is "zones":[{"free":N,"high":N},...] with exactly
 * nr_zones (<= OOMWATCH_THRASH_ZONES, the kernel's zone[3]) entries.
 * Enums are written as the integer plus "<member>_name" (constraint_name
 * in mark_victim, reason_name in unreclaimable_clear, swap_token_grab,
 * swap_token_release, oom_defer, oom_veto and thrashing_clear).  The
 * decoder uses the integer; a name field is optional on input and must
 * be a string.  Any integer is read for an enum, except thrashing_clear's
 * reason, which the checker's rules depend on: a value the kernel cannot
 * trace (above OW_THRASH_CLEAR_MAX) is malformed, and a new one will
 * bump the version.
 *
 * Strings are byte strings: a comm or a cgroup name in a path can hold
 * any byte (a name no '/' and no NUL).  The encoder
 * writes '"', '\\' and the controls as JSON escapes and every byte >= 0x7f
 * as \u00XX, so output is ASCII; the decoder maps \u0000-\u00ff back to
 * one byte, and rejects raw bytes >= 0x80 (the format is ASCII), \u
 * escapes above \u00ff (no byte to map them to) and NUL inside
 * comm/kernel/path.  The header's sysctls must lie in the ranges the
 * kernel accepts (a null aside), or the header is malformed.  Numbers are
 * JSON integers, range-checked against the field's C type.
 *
 * The decoder is strict: unknown or duplicate keys, missing fields, wrong
 * types and trailing bytes are errors, except inside "summary", whose keys
 * are checked for JSON syntax only.  It never reads outside the line and
 * keeps no state between lines beyond what struct ow_reader holds.
 */
#ifndef OW_TRACE_H
#define OW_TRACE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>	/* oomwatch_records.h uses __u32/__u64 bare */
#include "../bpf/oomwatch_records.h"

#define OW_LINE_MAX	4096	/* longest line, '\n' included */
#define OW_FORMAT_VERSION_MIN	1	/* the oldest version still read */
#define OW_KERNEL_MAX	64	/* longest "kernel" (utsname.release) */
#define OW_ERR_MAX	256	/* longest reader error message */
/* Longest "path" of a memcg line; escaped (6 bytes each) it fits a line. */
#define OW_MEMCG_PATH_MAX	512

/* A sysctl this kernel lacks ("null" in the header); no sysctl takes it. */
#define OW_CONFIG_UNKNOWN	INT_MIN

/*
 * The sysctls the checker's rules depend on, or OW_CONFIG_UNKNOWN.  The
 * last two came with format version 3: an older header leaves them
 * unknown.
 */
struct ow_config {
	int oom_arbiter;
	int oom_unreclaimable_timeout_ms;
	int oom_arbiter_fallback_ms;
	int swap_token;
	int swap_token_bypass_priority;
	int oom_arbiter_thrash;
	int oom_thrash_timeout_ms;
};

/* Every value OW_CONFIG_UNKNOWN, as for a kernel without the series. */
void ow_config_unknown(struct ow_config *cfg);

/*
 * Names: tracepoint names without the system for event types, the short
 * lower-case names of the enums of oomwatch_records.h for enum values.
 * The event lookup returns NULL for a type out of range; the enum lookups
 * return "invalid" for values out of range.
 */
const char *ow_event_type_name(unsigned int type);
unsigned int ow_event_type_from_name(const char *name);	/* 0: unknown */
/* The format version that added an event type; 0 for a type out of range. */
unsigned int ow_event_type_since(unsigned int type);
const char *ow_constraint_name(unsigned int constraint);
const char *ow_clear_reason_name(unsigned int reason);
const char *ow_token_reason_name(unsigned int reason);
const char *ow_verdict_reason_name(unsigned int reason);
const char *ow_thrash_clear_reason_name(unsigned int reason);

/*
 * A comm (OOMWATCH_COMM_LEN bytes at most, up to its NUL if it has one)
 * as one printable line, for messages and the timeline: printable ASCII
 * as is, except '\\', and every other byte as \xNN.  Writes a
 * NUL-terminated string into buf and returns its length.  A buf of
 * OW_COMM_PRINTABLE_SIZE bytes always holds the whole of it; a smaller one
 * gets as many whole characters and escapes as fit (nothing if size is 0).
 */
#define OW_COMM_PRINTABLE_SIZE	(OOMWATCH_COMM_LEN * 4 + 1)
size_t ow_comm_printable(char *buf, size_t size, const char *comm);

/*
 * Any bytes as one printable line, for messages and the timeline: the
 * rules of ow_comm_printable() over len bytes (NULs included).
 */
size_t ow_bytes_printable(char *buf, size_t size, const char *s, size_t len);

/*
 * Is path (len bytes) what a memcg line may carry: "/" or "/a/b", at most
 * OW_MEMCG_PATH_MAX bytes, no NUL, no empty, "." or ".." component, no
 * trailing '/'?  One spelling per cgroup, so that "below" is a prefix.
 */
bool ow_memcg_path_valid(const char *path, size_t len);

/*
 * Encoders, each for one format version (OW_FORMAT_VERSION_MIN up to
 * OOMWATCH_FORMAT_VERSION): a line carries the fields of its version
 * only, so an oom_request's memcg_id is not written in version 1, nor
 * the thrash sysctls in a header before version 3.  The format functions
 * write one NUL-terminated line, newline included, into buf and return
 * its length, or -1 with errno EINVAL (a version not known, an event the
 * format cannot carry: unknown type, a type newer than the version,
 * nr_zones above the maximum, an enum value the decoder refuses, negative
 * count; a memcg line before version 2, of id 0 or with a path
 * ow_memcg_path_valid() refuses) or ENOSPC (buf too small; OW_LINE_MAX
 * always suffices).  The write functions write the whole line
 * with one fwrite() and return 0, or -1 with errno set.
 */
int ow_json_format_header(char *buf, size_t size, unsigned int version,
			  const struct ow_config *cfg, const char *kernel,
			  unsigned int kswapd_period_ms);
int ow_json_format_event(char *buf, size_t size, unsigned int version,
			 const struct oomwatch_event *ev);
int ow_json_format_lost(char *buf, size_t size, unsigned int version,
			int cpu, long long count);
/* Version 5 on: EINVAL for an older version or a negative count. */
int ow_json_format_shed(char *buf, size_t size, unsigned int version,
			long long count);
/* path: NUL-terminated, from the cgroup2 root. */
int ow_json_format_memcg(char *buf, size_t size, unsigned int version,
			 __u64 memcg_id, const char *path);

int ow_json_write_header(FILE *f, unsigned int version,
			 const struct ow_config *cfg, const char *kernel,
			 unsigned int kswapd_period_ms);
int ow_json_write_event(FILE *f, unsigned int version,
			const struct oomwatch_event *ev);
/* Ring buffer drops summed over CPUs: written with "cpu":-1. */
int ow_json_write_lost(FILE *f, unsigned int version, long long count);
int ow_json_write_lost_cpu(FILE *f, unsigned int version, int cpu,
			   long long count);
int ow_json_write_memcg(FILE *f, unsigned int version, __u64 memcg_id,
			const char *path);
int ow_json_write_shed(FILE *f, unsigned int version, long long count);

enum ow_record_kind {
	OW_REC_HEADER = 1,
	OW_REC_EVENT,
	OW_REC_LOST,
	OW_REC_SUMMARY,		/* contents skipped */
	OW_REC_MEMCG,		/* version 2 on */
	OW_REC_SHED,		/* version 5 on */
};

struct ow_header {
	struct ow_config config;
	unsigned int kswapd_period_ms;
	char kernel[OW_KERNEL_MAX + 1];		/* NUL-terminated */
};

struct ow_lost {
	int cpu;		/* -1: summed over CPUs */
	long long count;	/* >= 0 */
};

/* A memcg id and its cgroup v2 path, from the cgroup2 root. */
struct ow_memcg {
	__u64 id;				/* never 0 */
	char path[OW_MEMCG_PATH_MAX + 1];	/* NUL-terminated */
};

struct ow_record {
	enum ow_record_kind kind;
	unsigned int version;		/* the line's "v" */
	union {
		struct ow_header header;	/* OW_REC_HEADER */
		struct oomwatch_event event;	/* OW_REC_EVENT */
		struct ow_lost lost;		/* OW_REC_LOST */
		struct ow_memcg memcg;		/* OW_REC_MEMCG */
		long long shed;			/* OW_REC_SHED: count, >= 0 */
	};
};

/*
 * Decode one line (len bytes, without its '\n'; need not be NUL
 * terminated).  Returns 0, or -1 with a one-line reason in why ("field
 * \"seq\" missing").  Members the format does not carry (padding, comm
 * bytes after the NUL, zone[] past nr_zones) are zero; the sysctls an
 * older header does not carry are OW_CONFIG_UNKNOWN.  Stateless: the
 * position rules (header first, summary last) are ow_reader's.
 */
int ow_json_decode_line(const char *line, size_t len, struct ow_record *out,
			char *why, size_t whysize);

/*
 * Do a and b agree on every member the format carries?  comm strings are
 * compared up to their NUL, zone[] up to nr_zones, padding is ignored.
 * This is what decode(encode(ev)) preserves in the current version; an
 * older version's line decodes the members it lacks as 0.
 */
bool ow_event_equal(const struct oomwatch_event *a,
		    const struct oomwatch_event *b);

/*
 * Reads a recording line by line.  Errors are sticky: after -1 every call
 * returns -1 again with the same message.  Every line must carry the
 * version of the first one.
 */
struct ow_reader {
	FILE *f;
	const char *name;	/* for messages; not copied */
	unsigned long line;	/* number of the last line read, from 1 */
	unsigned int version;	/* of the file; 0 before its first line */
	bool header_seen;
	bool summary_seen;
	bool failed;
	bool eof;
	char buf[OW_LINE_MAX];
	char error[OW_ERR_MAX];	/* "FILE:LINE: why" */
};

void ow_reader_init(struct ow_reader *r, FILE *f, const char *name);
/* 1: a record in *out, 0: end of file, -1: error (ow_reader_error()). */
int ow_reader_next(struct ow_reader *r, struct ow_record *out);
const char *ow_reader_error(const struct ow_reader *r);

#endif /* OW_TRACE_H */
