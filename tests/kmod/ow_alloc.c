// SPDX-License-Identifier: GPL-2.0
/*
 * ow_alloc: page allocations with chosen gfp flags, under exhaustion
 * made on purpose, for the guest tests of the OOM arbiter's stock
 * semantics (guest-image/scenarios/semantics.sh).  Test code: it is
 * loaded only in the QEMU guest.
 *
 * Writing "ORDER FLAGS" to /proc/ow_alloc, FLAGS a comma-separated list
 * of kernel, nofail, retry_mayfail, thisnode, gfp_nofs, nofs_scope,
 * drain, frag, kill_after=MS, freeze_after=MS and release_after=MS:
 *
 *  - with "drain", first takes every free page an atomic allocation may
 *    have (below the min watermark, short of the emergency reserves) and
 *    holds it as ballast, so that the node is exhausted for the test
 *    allocation although no task owns the memory: only an OOM can get
 *    past that, reclaim finding a few pages does not;
 *  - "frag" drains every free block of orders 3 to 1 first, past the
 *    watermarks, then order 0 as "drain" does, and gives back the
 *    ballast pages whose pfn is a multiple of 8 and whose buddy is
 *    ballast too: plenty of free memory at order 0, none at order 1 or
 *    above, since every free page's buddy is held.  The ballast is
 *    unmovable, so compaction cannot merge around it;
 *  - then allocates 2^ORDER pages with GFP_KERNEL plus the flags (GFP_NOFS
 *    instead with "gfp_nofs"; inside a memalloc_nofs_save() scope with
 *    "nofs_scope"), in the writing task's context, and frees them at once;
 *  - the ballast goes back when the OOM killer runs (an OOM notifier:
 *    out_of_memory() counts it as freed memory and kills nobody), or
 *    at the end of the write;
 *  - with "kill_after=MS", a timer sends SIGKILL to the writing task MS ms
 *    after the test allocation began, and the log says how long after
 *    the signal the allocation returned.  A task killed while it waits
 *    on the arbiter is tested this way because nothing in user space
 *    can watch it and kill it then: the exhaustion stalls every fork.
 *  - with "freeze_after=MS", a timer starts a system suspend to idle
 *    (pm_suspend(), from a work item) MS ms after the test allocation
 *    began: set /sys/power/pm_test to "freezer" first, and it freezes
 *    every task, holds them pm_test_delay seconds and thaws them.  The
 *    log says what pm_suspend() returned (-EBUSY: a task refused to
 *    freeze) and how long after the freeze began the allocation
 *    returned.  The write does not wait for the suspend: the writer has
 *    to get back to user space to be frozen.  An allocation that returns
 *    before MS cancels it.
 *  - with "release_after=MS", a work item gives the ballast back MS ms
 *    after the test allocation began, if nothing else did: a deadline
 *    for a test whose allocation might never resolve (the log says
 *    so, "released by the deadline"), so that a failing test ends.
 *
 * The write returns the byte count when the test allocation succeeded
 * and -ENOMEM when it failed; the kernel log says how long it took and
 * whether the ballast was given back to an OOM, and whether that OOM ran
 * in the writing task itself (another task may hit the exhaustion too).  Nothing is kept after
 * the write returns.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/oom.h>
#include <linux/proc_fs.h>
#include <linux/sched/mm.h>
#include <linux/suspend.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

static DEFINE_MUTEX(ow_alloc_mutex);	/* one test at a time */
static DEFINE_SPINLOCK(ballast_lock);
static LIST_HEAD(ballast);
static unsigned long ballast_pages;
static unsigned long ballast_freed_by_oom;
static unsigned long ballast_freed_by_tester;	/* in the tester's own OOM */
static unsigned long ballast_freed_by_deadline;	/* release_after=MS */
static struct task_struct *tester;		/* the task of the write */
static ktime_t tester_oom_at;		/* its first out_of_memory(), or 0 */

/* Ballast pages carry this in page->private: "frag" looks for it. */
#define BALLAST_MARK	0x0ba11a57UL

/*
 * Set when the ballast goes back (OOM notifier, deadline): the high-order
 * drains of "frag" stop at once, or they would take the memory given back
 * before the test allocation could.
 */
static bool frag_stop;

/*
 * Take every free block of @order there is, as order-0 ballast pages,
 * with @gfp (atomic: no reclaim, no OOM of our own).
 */
static void ballast_fill_order(unsigned int order, gfp_t gfp)
{
	struct page *page;
	unsigned int i;

	for (;;) {
		if (order && READ_ONCE(frag_stop))
			break;
		page = alloc_pages(gfp | __GFP_NOWARN, order);
		if (!page)
			break;
		if (order)
			split_page(page, order);
		spin_lock(&ballast_lock);
		for (i = 0; i < 1U << order; i++) {
			set_page_private(page + i, BALLAST_MARK);
			list_add(&page[i].lru, &ballast);
		}
		ballast_pages += 1UL << order;
		spin_unlock(&ballast_lock);
		cond_resched();
	}
}

/*
 * Order 0 takes every page down to the atomic watermark.  For "frag",
 * then every block of orders 3 down to 1, past the watermarks
 * (__GFP_MEMALLOC): the pages an order-0 drain cannot reach, below the
 * watermark and on the per-cpu lists, are still in blocks of every
 * order, and an order-2 request would be served from them.  Only
 * order-0 pages are left below the watermark then.
 */
static long ballast_fill_high_orders(void *unused)
{
	unsigned int order;

	for (order = PAGE_ALLOC_COSTLY_ORDER; order > 0; order--)
		ballast_fill_order(order, GFP_ATOMIC | __GFP_MEMALLOC);
	return 0;
}

/*
 * On every CPU in turn: the per-cpu lists of orders 1 to 3 are only
 * reachable from their own CPU.
 */
static void ballast_drain_high_orders(void)
{
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu)
		work_on_cpu(cpu, ballast_fill_high_orders, NULL);
	cpus_read_unlock();
}

/*
 * While a "frag" allocation runs, each CPU drains blocks of orders 1 to
 * 3 again every jiffy: the kernel frees such blocks all the time (slab
 * pages, mostly), and any of them would serve the test allocation, which
 * then tests nothing.  The allocation may still win a race for one now
 * and then; the case says so.
 */
static bool frag_active;
static DEFINE_PER_CPU(struct delayed_work, frag_work);

static void frag_drain(struct work_struct *work)
{
	if (!READ_ONCE(frag_active) || READ_ONCE(frag_stop))
		return;
	ballast_fill_high_orders(NULL);
	queue_delayed_work_on(smp_processor_id(), system_highpri_wq,
			      to_delayed_work(work), 1);
}

static void frag_drainers(bool on)
{
	int cpu;

	WRITE_ONCE(frag_active, on);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct delayed_work *dw = per_cpu_ptr(&frag_work, cpu);

		if (on)
			queue_delayed_work_on(cpu, system_highpri_wq, dw, 0);
		else
			cancel_delayed_work_sync(dw);
	}
	cpus_read_unlock();
}

/* mm/internal.h's MAX_RECLAIM_RETRIES, which modules cannot see */
#define OW_KSWAPD_GAVE_UP	16

static bool kswapd_gave_up(void)
{
	return READ_ONCE(NODE_DATA(first_online_node)->kswapd_failures) >=
	       OW_KSWAPD_GAVE_UP;
}

/*
 * Until kswapd gives up on the drained node (at most 10 s), drain the
 * blocks of orders 1 to 3 its reclaim keeps freeing (shrunk slab pages,
 * mostly) every 20 ms.  Afterwards reclaim finds nothing more, and the
 * fragments stay fragments.  Returns how long it took, in ms.
 */
static unsigned int frag_settle(void)
{
	unsigned long t0 = jiffies;

	while (!kswapd_gave_up() &&
	       time_before(jiffies, t0 + msecs_to_jiffies(10000))) {
		ballast_drain_high_orders();
		msleep(20);
	}
	ballast_drain_high_orders();
	return jiffies_to_msecs(jiffies - t0);
}

static void ballast_fill(bool high_orders)
{
	ballast_fill_order(0, GFP_ATOMIC | __GFP_NOMEMALLOC);
	if (high_orders)
		ballast_drain_high_orders();
}

/*
 * What the free lists hold, zone by zone of the first node: blocks of
 * orders 0 to 3, "DMA32 812/0/0/0" (a racy read: a log line only).
 */
static void free_blocks(char *buf, size_t len)
{
	pg_data_t *pgdat = NODE_DATA(first_online_node);
	size_t off = 0;
	int i, o;

	for (i = 0; i < MAX_NR_ZONES && off < len; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (!populated_zone(zone))
			continue;
		off += scnprintf(buf + off, len - off, "%s%s", off ? " " : "",
				 zone->name);
		for (o = 0; o <= PAGE_ALLOC_COSTLY_ORDER; o++)
			off += scnprintf(buf + off, len - off, "%c%lu",
					 o ? '/' : ' ',
					 READ_ONCE(zone->free_area[o].nr_free));
		/* Which free lists hold order 2: U M R H C I as non-empty. */
		off += scnprintf(buf + off, len - off, " o2:");
		for (o = 0; o < MIGRATE_TYPES; o++)
			if (!list_empty(&zone->free_area[2].free_list[o]))
				off += scnprintf(buf + off, len - off, "%d", o);
		off += scnprintf(buf + off, len - off, " highatomic %lu",
				 READ_ONCE(zone->nr_reserved_highatomic));
	}
}

/* Is the page at @pfn one of ours? */
static bool pfn_in_ballast(unsigned long pfn)
{
	return pfn_valid(pfn) && page_private(pfn_to_page(pfn)) == BALLAST_MARK;
}

/*
 * Is every page of @pfn's pageblock ballast?  Such a block was all free
 * when the drain took it, and an unmovable allocation that steals a
 * mostly free block converts it to MIGRATE_UNMOVABLE: pages freed there
 * are no migration target for compaction (suitable_migration_target()
 * wants a movable block), which could otherwise move movable pages into
 * them and free an order-2 block where those came from.  The last
 * block's verdict is remembered: the list is in no order, but runs of
 * one block are common.
 */
static unsigned long last_block = ULONG_MAX;	/* ballast_fragment() resets */
static bool last_verdict;

static bool pageblock_all_ballast(unsigned long pfn)
{
	unsigned long start = pfn & ~(pageblock_nr_pages - 1), i;

	if (start == last_block)
		return last_verdict;
	last_block = start;
	last_verdict = false;
	for (i = 0; i < pageblock_nr_pages; i++)
		if (!pfn_in_ballast(start + i))
			return false;
	last_verdict = true;
	return true;
}

/* Free pages taken off the ballast list, their mark cleared. */
static void ballast_free(struct list_head *list)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, list, lru) {
		list_del(&page->lru);
		set_page_private(page, 0);
		__free_page(page);
	}
}

/*
 * Give back the ballast pages whose pfn is a multiple of 8, in blocks
 * that are all ballast (see above), the rest stays: a freed page cannot
 * merge with its buddy, which we hold, so the zone gains free pages at
 * order 0 only, and none compaction may fill.  Returns how many were
 * freed.  Freeing does not change the verdicts: a freed page's private
 * is cleared after the walk.
 */
static unsigned long ballast_fragment(void)
{
	struct page *page, *next;
	unsigned long n = 0;
	LIST_HEAD(list);

	spin_lock(&ballast_lock);
	last_block = ULONG_MAX;
	list_for_each_entry_safe(page, next, &ballast, lru) {
		if ((page_to_pfn(page) & 7) ||
		    !pageblock_all_ballast(page_to_pfn(page)))
			continue;
		list_move(&page->lru, &list);
		ballast_pages--;
		n++;
	}
	spin_unlock(&ballast_lock);
	ballast_free(&list);
	return n;
}

/* Take the ballast off its list onto @list; returns how many pages. */
static unsigned long ballast_take(struct list_head *list)
{
	unsigned long n;

	spin_lock(&ballast_lock);
	list_splice_init(&ballast, list);
	n = ballast_pages;
	ballast_pages = 0;
	spin_unlock(&ballast_lock);
	return n;
}

/* Give the ballast back; returns how many pages that was. */
static unsigned long ballast_release(void)
{
	unsigned long n;
	LIST_HEAD(list);

	n = ballast_take(&list);
	ballast_free(&list);
	return n;
}

/* out_of_memory() asks before it picks a victim: give the ballast. */
static int ow_alloc_oom_notify(struct notifier_block *nb,
			       unsigned long unused, void *arg)
{
	unsigned long *freed = arg;
	unsigned long n;
	LIST_HEAD(list);

	WRITE_ONCE(frag_stop, true);
	n = ballast_take(&list);

	if (current == READ_ONCE(tester) && !tester_oom_at)
		tester_oom_at = ktime_get();
	/*
	 * Counted before the pages go back: another task's OOM may free
	 * them (a second requester owned the grant), and the tester, served
	 * by them on another CPU, reads the counts as soon as it returns.
	 */
	if (n) {
		WRITE_ONCE(ballast_freed_by_oom, ballast_freed_by_oom + n);
		if (current == READ_ONCE(tester))
			WRITE_ONCE(ballast_freed_by_tester,
				   ballast_freed_by_tester + n);
		*freed += n;
	}
	ballast_free(&list);
	return NOTIFY_OK;
}

static struct notifier_block ow_alloc_oom_nb = {
	.notifier_call = ow_alloc_oom_notify,
};

struct ow_alloc_req {
	unsigned int order;
	gfp_t gfp;
	bool drain;
	bool frag;			/* drain, then give back 1 page in 8 */
	bool nofs_scope;
	unsigned int kill_after_ms;	/* 0: no SIGKILL */
	unsigned int freeze_after_ms;	/* 0: no suspend */
	unsigned int release_after_ms;	/* 0: no deadline */
};

/* The deadline of "release_after=MS": a timer queues it. */
static void ow_alloc_deadline(struct work_struct *work)
{
	unsigned long n;

	WRITE_ONCE(frag_stop, true);
	n = ballast_release();

	if (n) {
		ballast_freed_by_deadline += n;
		pr_info("deadline: %lu ballast pages released by the deadline\n",
			n);
	}
}
static DECLARE_WORK(ow_alloc_deadline_work, ow_alloc_deadline);

static void ow_alloc_release(struct timer_list *t)
{
	queue_work(system_unbound_wq, &ow_alloc_deadline_work);
}

/*
 * The suspend of "freeze_after=MS": a timer queues it, a work item runs
 * it (pm_suspend() sleeps), outside the writer, which must be frozen.
 */
static ktime_t freeze_began;
static void ow_alloc_suspend(struct work_struct *work)
{
	ktime_t t0 = ktime_get();
	unsigned int noreclaim;
	int ret;

	WRITE_ONCE(freeze_began, t0);
	/*
	 * The suspend is the harness, not the test: its own allocations
	 * (sync, PM notifiers) must not queue up behind the drained node as
	 * requests of their own, so it may use the reserves the drain left.
	 */
	noreclaim = memalloc_noreclaim_save();
	ret = IS_ENABLED(CONFIG_SUSPEND) ? pm_suspend(PM_SUSPEND_TO_IDLE) :
					   -EOPNOTSUPP;
	memalloc_noreclaim_restore(noreclaim);
	pr_info("freeze: pm_suspend returned %d after %lld ms\n", ret,
		ktime_ms_delta(ktime_get(), t0));
}
static DECLARE_WORK(ow_alloc_suspend_work, ow_alloc_suspend);

static void ow_alloc_freeze(struct timer_list *t)
{
	queue_work(system_unbound_wq, &ow_alloc_suspend_work);
}

/* The SIGKILL of "kill_after=MS", sent from a timer to the writer. */
struct ow_alloc_killer {
	struct timer_list timer;
	struct task_struct *task;
	ktime_t sent;			/* 0 until the signal went */
};

static void ow_alloc_kill(struct timer_list *t)
{
	struct ow_alloc_killer *k = from_timer(k, t, timer);

	send_sig(SIGKILL, k->task, 1);
	WRITE_ONCE(k->sent, ktime_get());
}

/*
 * "NAME=MS", MS > 0, into *ms: 1 when @tok is one, 0 when it is not,
 * -EINVAL when its number is bad.
 */
static int parse_ms(const char *tok, const char *name, unsigned int *ms)
{
	size_t len = str_has_prefix(tok, name);

	if (!len)
		return 0;
	if (kstrtouint(tok + len, 10, ms) || !*ms)
		return -EINVAL;
	return 1;
}

static int parse_flags(char *flags, struct ow_alloc_req *req)
{
	char *tok;
	int err;

	*req = (struct ow_alloc_req){ .order = req->order, .gfp = GFP_KERNEL };
	while ((tok = strsep(&flags, ",")) != NULL) {
		if (!*tok || !strcmp(tok, "kernel"))
			continue;
		else if (!strcmp(tok, "nofail"))
			req->gfp |= __GFP_NOFAIL;
		else if (!strcmp(tok, "retry_mayfail"))
			req->gfp |= __GFP_RETRY_MAYFAIL;
		else if (!strcmp(tok, "thisnode"))
			req->gfp |= __GFP_THISNODE;
		else if (!strcmp(tok, "gfp_nofs"))
			req->gfp &= ~__GFP_FS;
		else if (!strcmp(tok, "nofs_scope"))
			req->nofs_scope = true;
		else if (!strcmp(tok, "drain"))
			req->drain = true;
		else if (!strcmp(tok, "frag"))
			req->drain = req->frag = true;
		else if ((err = parse_ms(tok, "kill_after=",
					 &req->kill_after_ms)) ||
			 (err = parse_ms(tok, "release_after=",
					 &req->release_after_ms))) {
			if (err < 0)
				return err;
		} else if (str_has_prefix(tok, "freeze_after=")) {
			if (!IS_ENABLED(CONFIG_SUSPEND))
				return -EOPNOTSUPP;
			if (parse_ms(tok, "freeze_after=",
				     &req->freeze_after_ms) < 0)
				return -EINVAL;
		} else
			return -EINVAL;
	}
	return 0;
}

static int parse_request(const char __user *ubuf, size_t count,
			 struct ow_alloc_req *req)
{
	char buf[96], *p, *order;
	int err;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	p = strim(buf);
	order = strsep(&p, " ");
	err = kstrtouint(order, 10, &req->order);
	if (err)
		return err;
	if (req->order > MAX_ORDER - 1)
		return -EINVAL;
	return parse_flags(p ? strim(p) : "", req);
}

/* After the test allocation: say when it returned against the SIGKILL. */
static void ow_alloc_report_kill(struct ow_alloc_killer *k, ktime_t done)
{
	ktime_t sent;

	del_timer_sync(&k->timer);
	sent = READ_ONCE(k->sent);
	if (!sent) {
		pr_info("pid %d: returned before its SIGKILL\n", current->pid);
		return;
	}
	/*
	 * Two times: until its out_of_memory() call, all the OOM arbiter
	 * decides for a killed task; and until the allocation returned,
	 * which adds the stock slow path's own retry after that call.
	 */
	if (tester_oom_at)
		pr_info("pid %d: out_of_memory() %lld us after its SIGKILL\n",
			current->pid, ktime_us_delta(tester_oom_at, sent));
	else
		pr_info("pid %d: no out_of_memory() of its own\n", current->pid);
	pr_info("pid %d: returned %lld us after its SIGKILL\n",
		current->pid, ktime_us_delta(done, sent));
}

static int run_request(const struct ow_alloc_req *req)
{
	unsigned long t0, held = 0, given = 0, by_oom, by_tester, by_deadline;
	char frag_blocks[160] = "";
	unsigned int settle = 0;
	struct ow_alloc_killer killer = { .task = current };
	struct timer_list freezer, deadline;
	unsigned int nofs = 0;
	struct page *page;
	ktime_t done;

	ballast_freed_by_oom = 0;
	ballast_freed_by_tester = 0;
	tester_oom_at = 0;
	ballast_freed_by_deadline = 0;
	WRITE_ONCE(frag_stop, false);
	WRITE_ONCE(tester, current);
	if (req->drain) {
		ballast_fill(req->frag);
		if (req->frag) {
			settle = frag_settle();
			given = ballast_fragment();
			/* Blocks that other tasks' frees merged meanwhile. */
			ballast_drain_high_orders();
			free_blocks(frag_blocks, sizeof(frag_blocks));
		}
		held = ballast_pages;
	}
	t0 = jiffies;
	if (req->release_after_ms) {
		timer_setup_on_stack(&deadline, ow_alloc_release, 0);
		mod_timer(&deadline,
			  jiffies + msecs_to_jiffies(req->release_after_ms));
	}
	if (req->kill_after_ms) {
		timer_setup_on_stack(&killer.timer, ow_alloc_kill, 0);
		mod_timer(&killer.timer,
			  jiffies + msecs_to_jiffies(req->kill_after_ms));
	}
	if (req->freeze_after_ms) {
		WRITE_ONCE(freeze_began, 0);
		timer_setup_on_stack(&freezer, ow_alloc_freeze, 0);
		mod_timer(&freezer,
			  jiffies + msecs_to_jiffies(req->freeze_after_ms));
	}
	if (req->frag)
		frag_drainers(true);
	if (req->nofs_scope)
		nofs = memalloc_nofs_save();
	page = alloc_pages(req->gfp | __GFP_NOWARN, req->order);
	done = ktime_get();
	if (req->frag)
		frag_drainers(false);
	if (req->nofs_scope)
		memalloc_nofs_restore(nofs);
	if (page)
		__free_pages(page, req->order);
	if (req->release_after_ms) {
		del_timer_sync(&deadline);
		destroy_timer_on_stack(&deadline);
		flush_work(&ow_alloc_deadline_work);
	}
	by_oom = READ_ONCE(ballast_freed_by_oom);
	by_tester = READ_ONCE(ballast_freed_by_tester);
	by_deadline = ballast_freed_by_deadline;
	ballast_release();
	WRITE_ONCE(tester, NULL);
	if (req->frag)
		pr_info("pid %d: fragmented after %u ms (kswapd gave up: %s): %lu free order-0 pages given back; free blocks of orders 0-3 then: %s\n",
			current->pid, settle,
			kswapd_gave_up() ? "yes" : "no", given, frag_blocks);
	pr_info("pid %d order %u gfp %#x: %s after %u ms (ballast %lu pages, %lu given to the OOM killer, %lu in this task's own OOM, %lu released by the deadline)\n",
		current->pid, req->order, req->gfp,
		page ? "allocated" : "failed",
		jiffies_to_msecs(jiffies - t0), held, by_oom, by_tester,
		by_deadline);
	if (req->kill_after_ms) {
		ow_alloc_report_kill(&killer, done);
		destroy_timer_on_stack(&killer.timer);
	}
	if (req->freeze_after_ms) {
		ktime_t began;

		del_timer_sync(&freezer);
		destroy_timer_on_stack(&freezer);
		began = READ_ONCE(freeze_began);
		if (began && ktime_after(done, began))
			pr_info("pid %d: returned %lld ms after the freeze began\n",
				current->pid, ktime_ms_delta(done, began));
		else
			pr_info("pid %d: returned before the freeze began\n",
				current->pid);
	}
	return page ? 0 : -ENOMEM;
}

static ssize_t ow_alloc_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct ow_alloc_req req;
	int err;

	err = parse_request(ubuf, count, &req);
	if (err)
		return err;
	if (mutex_lock_killable(&ow_alloc_mutex))
		return -EINTR;
	err = run_request(&req);
	mutex_unlock(&ow_alloc_mutex);
	return err ? err : count;
}

static const struct proc_ops ow_alloc_ops = {
	.proc_write = ow_alloc_write,
	.proc_lseek = noop_llseek,
};

static struct proc_dir_entry *ow_alloc_entry;

static int __init ow_alloc_init(void)
{
	int err = register_oom_notifier(&ow_alloc_oom_nb);
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_DELAYED_WORK(per_cpu_ptr(&frag_work, cpu), frag_drain);

	if (err)
		return err;
	ow_alloc_entry = proc_create("ow_alloc", 0200, NULL, &ow_alloc_ops);
	if (!ow_alloc_entry) {
		unregister_oom_notifier(&ow_alloc_oom_nb);
		return -ENOMEM;
	}
	return 0;
}

static void __exit ow_alloc_exit(void)
{
	proc_remove(ow_alloc_entry);
	flush_work(&ow_alloc_suspend_work);
	flush_work(&ow_alloc_deadline_work);
	unregister_oom_notifier(&ow_alloc_oom_nb);
	ballast_release();
}

module_init(ow_alloc_init);
module_exit(ow_alloc_exit);
MODULE_DESCRIPTION("oomwatch guest test: allocations with chosen gfp flags under exhaustion");
MODULE_LICENSE("GPL");
