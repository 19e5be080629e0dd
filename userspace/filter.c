// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * oomwatch: the -p / -c output filter; filter.h states the rules.
 */
#include <string.h>
#include "filter.h"

void ow_filter_init(struct ow_filter *f, __u32 tgid, struct ow_cgroup_set *set,
		    const struct ow_memcg_paths *paths, bool can_refresh,
		    struct ow_episodes *shared)
{
	static const struct ow_memcg_paths none;

	memset(f, 0, sizeof(*f));
	f->tgid = tgid;
	f->set = set;
	f->paths = paths ? paths : &none;
	f->can_refresh = can_refresh;
	ow_ep_ref_init(&f->ep, shared);
}

void ow_filter_free(struct ow_filter *f)
{
	ow_ep_ref_free(&f->ep);
}

bool ow_filter_active(const struct ow_filter *f)
{
	return f->tgid || f->set;
}

static bool names_pid(const struct oomwatch_event *ev, __u32 p)
{
	if (ev->tgid == p || ev->pid == p)
		return true;
	switch (ev->type) {
	case OW_MARK_VICTIM:
		return ev->victim.pid == p;
	case OW_TASK_EXIT:
		return ev->exit.pid == p || ev->exit.tgid == p;
	case OW_WAKE_REAPER:
	case OW_FINISH_REAPING:
		return ev->reaper.pid == p;
	case OW_TOKEN_GRAB:
	case OW_TOKEN_RELEASE:
		return ev->token.tgid == p || ev->token.prev_tgid == p;
	case OW_TOKEN_KEPT:
	case OW_TOKEN_BYPASS:
		return ev->token_pass.reclaimer == p ||
		       ev->token_pass.holder_tgid == p;
	case OW_OOM_REQUEST:
	case OW_OOM_DEFER:
	case OW_OOM_VETO:
	case OW_OOM_FALLBACK:
		return ev->request.pid == p;
	case OW_OOM_GRANT:
		return ev->grant.pid == p;
	case OW_THRASH_TAKE:
		return ev->take.pid == p;
	default:
		return false;
	}
}

static bool pid_ok(const struct ow_filter *f, const struct oomwatch_event *ev)
{
	return !f->tgid || names_pid(ev, f->tgid);
}

/* A miss may be a cgroup made after we looked: look once more, live. */
static enum ow_cgroup_match match(struct ow_filter *f, __u64 id)
{
	if (f->set->recorded)
		return ow_cgroup_match_recorded(f->set, f->paths, id);
	if (ow_cgroup_contains(f->set, id))
		return OW_CG_IN;
	return f->can_refresh && ow_cgroup_refresh(f->set) &&
	       ow_cgroup_contains(f->set, id) ? OW_CG_IN : OW_CG_OUT;
}

static bool in_set(struct ow_filter *f, __u64 id)
{
	return match(f, id) == OW_CG_IN;
}

static bool requester_in_set(struct ow_filter *f,
			     const struct ow_requester *who)
{
	return !f->set || (who && who->known && in_set(f, who->memcg_id));
}

static bool shown(const struct ow_ep_request *r)
{
	return r->marks & OW_MARK_SHOWN;
}

/*
 * Decided once per request, at the oom_request that opens the wait; a
 * task asking again while it waits was decided then.  Only here is a
 * request whose memcg is unknown counted as hidden.
 */
static bool on_request(struct ow_filter *f, const struct oomwatch_event *ev,
		       const struct ow_requester *who)
{
	struct ow_episodes *m = ow_ep_of(&f->ep);
	struct ow_ep_request *r = ow_episodes_request(m, ev->request.pid);
	bool show;

	if (!m->step.new_request)
		return r && shown(r);
	show = pid_ok(f, ev);
	if (f->set && show) {
		enum ow_cgroup_match in = OW_CG_OUT;

		if (!who || !who->known)
			f->requests_unattributed++;
		else
			in = match(f, who->memcg_id);
		f->requests_no_path += in == OW_CG_NO_PATH;
		show = in == OW_CG_IN;
	}
	if (r && show)
		r->marks |= OW_MARK_SHOWN;
	return show;
}

/*
 * A thrash take is a request granted at once, by its own task: decided
 * as a request is, and counted as one when its memcg cannot be placed.
 */
static bool on_take(struct ow_filter *f, const struct oomwatch_event *ev,
		    const struct ow_requester *who)
{
	enum ow_cgroup_match in;

	if (!pid_ok(f, ev))
		return false;
	if (!f->set)
		return true;
	if (!who || !who->known) {
		f->takes_unattributed++;
		return false;
	}
	in = match(f, who->memcg_id);
	f->takes_no_path += in == OW_CG_NO_PATH;
	return in == OW_CG_IN;
}

/*
 * defer, veto, fallback: follow the request they answer (the model's
 * record, or the copy of it a veto or fallback just ended); one whose
 * request was not seen is judged by itself.
 */
static bool on_verdict(struct ow_filter *f, const struct oomwatch_event *ev,
		       const struct ow_requester *who)
{
	struct ow_episodes *m = ow_ep_of(&f->ep);
	const struct ow_ep_change *ch = ow_episodes_change(m, ev->request.pid);
	const struct ow_ep_request *r = ow_episodes_request(m, ev->request.pid);

	if (ch)
		return shown(&ch->r);
	if (r)
		return shown(r);
	return pid_ok(f, ev) && requester_in_set(f, who);
}

/* A grant is shown when it settles a shown request. */
static bool on_grant(struct ow_filter *f, const struct oomwatch_event *ev)
{
	const struct ow_ep_step *st = &ow_ep_of(&f->ep)->step;
	bool settles = false, show = false;

	for (size_t i = 0; i < st->nr_change; i++) {
		if (!st->change[i].ended || st->change[i].why != OW_END_GRANT)
			continue;
		settles = true;
		show |= shown(&st->change[i].r);
	}
	if (!settles)
		show = pid_ok(f, ev) && !f->set;
	return show;
}

bool ow_filter_event(struct ow_filter *f, const struct oomwatch_event *ev,
		     const struct ow_requester *who)
{
	ow_ep_ref_feed(&f->ep, ev, who);
	if (!ow_filter_active(f))
		return true;
	switch (ev->type) {
	case OW_UNRECLAIMABLE_SET:
	case OW_UNRECLAIMABLE_CLEAR:
	case OW_THRASHING_SET:
	case OW_THRASHING_CLEAR:
	case OW_THRASH_GRANT:
		return true;
	case OW_OOM_REQUEST:
		return on_request(f, ev, who);
	case OW_THRASH_TAKE:
		return on_take(f, ev, who);
	case OW_OOM_DEFER:
	case OW_OOM_VETO:
	case OW_OOM_FALLBACK:
		return on_verdict(f, ev, who);
	case OW_OOM_GRANT:
		return on_grant(f, ev);
	case OW_MARK_VICTIM:
		return pid_ok(f, ev) &&
		       (!f->set || in_set(f, ev->victim.memcg_id));
	default:
		return pid_ok(f, ev);
	}
}
