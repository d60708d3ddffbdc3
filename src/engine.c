// SPDX-License-Identifier: MIT
/*
 * engine.c - time and concurrency: jobs, their iodepth workers, and a
 * scheduler that always runs the worker with the earliest clock.
 *
 * Each worker is a coroutine (ucontext) with its own clock.  A worker
 * runs until it spends CPU time or waits for I/O (sim_spend, sim_wait);
 * then the scheduler resumes whichever worker is earliest (the lowest
 * number on a tie), so the simulation is deterministic and the workers'
 * system calls interleave as threads' would: between two folios of a
 * readahead window, for instance, which is where the race fixed by
 * "readahead: Make sure sync readahead reads needed page" happens.
 *
 * One worker alone never switches: a single reader costs only clock
 * arithmetic.
 *
 * A ring job (iodepth N ring, io_uring) has N workers too, but one task
 * issues its reads: a worker takes the next read no earlier than the
 * task is free (cpu_free), does not give way while it issues, and frees
 * the task when it must wait for I/O; the rest of the read after the
 * wait is the task's again.  So the reads' lookups and readahead happen
 * in order, one read after another, while their waits overlap.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/*
 * Workers switch from one worker's stack straight to another's, and the
 * stacks are heap blocks less than valgrind's --max-stackframe apart: it
 * would take a switch for a stack frame and its data for undefined.
 * Told where each stack is, it knows a switch.  (No-ops outside valgrind;
 * without its header, nothing.)
 */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef VALGRIND_STACK_REGISTER
#define VALGRIND_STACK_REGISTER(lo, hi) 0u
#define VALGRIND_STACK_DEREGISTER(id) ((void)(id))
#endif

#define STACK_SIZE (1u << 20)

#if defined(__SANITIZE_ADDRESS__)
#define RALAB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RALAB_ASAN 1
#endif
#endif
#ifndef RALAB_ASAN
#define RALAB_ASAN 0
#endif

static struct sim_worker *earliest(struct sim *s);

/*
 * Give way to the earliest worker, as the scheduler would pick it: none
 * other (this one is still the earliest: no switch at all), or straight
 * to it, not through the scheduler (one switch, not two: swapcontext()
 * is a system call, sigprocmask, each time).
 */
void sim_yield(struct sim *s)
{
	struct sim_worker *w = s->cur, *next = earliest(s);

	if (next == w)
		return;
	/* A plug is the task's: set its requests aside while off the CPU. */
	if (w->plug_held)
		w->plug_n = blk_plug_take(&s->q, w->plug_rq);
	if (!next) {
		swapcontext(&w->ctx, &s->sched);
	} else {
		s->cur = next;
		swapcontext(&w->ctx, &next->ctx);
	}
	if (w->plug_held)
		blk_plug_put(&s->q, w->plug_rq, w->plug_n);
}

/*
 * The next pread of an iodepth > 1 job, from its shared cursor; other ops
 * are run whole, as barriers (job_wait), by the worker that takes them.
 * Returns false at the end.
 */
static bool next_unit(struct sim *s, struct sim_job *j, const struct op **op,
		      int64_t *off, uint64_t *len)
{
	const struct wl_job *d = j->def;

	if (s->cur->now >= j->deadline)
		return false;
	for (;;) {
		const struct op *o;
		struct sim_file *f;

		/*
		 * time_based: the ops from 'repeat' on, again (a pass that
		 * took no time ends the job, as in worker_run).
		 */
		if (j->op == d->nr_ops && d->repeat &&
		    s->cur->now > j->pass_start) {
			j->op = d->repeat_op;
			j->pass_start = s->cur->now;
		}
		if (j->op >= d->nr_ops)
			break;
		o = &s->wl->ops[d->first_op + j->op];
		f = &s->files[o->fd];

		*op = o;
		*len = o->len;
		switch (o->kind) {
		case OP_PREAD:
			j->op++;
			*off = (int64_t)o->off;
			return true;
		case OP_READ:
			if (j->eof || (!o->to_eof && j->i >= o->count)) {
				j->op++;
				j->i = 0;
				j->eof = false;
				continue;
			}
			j->i++;
			/* read(2) on one descriptor: f_pos is taken in order. */
			*off = f->f_pos;
			f->f_pos += (int64_t)o->len;
			if ((uint64_t)f->f_pos >= f->inode->mapping.i_size + o->len)
				j->eof = true;
			return true;
		case OP_RAND_PREAD:
		case OP_STRIDE_PREAD:
		case OP_SHUFFLE_PREAD:
		case OP_FIO_PREAD:
			if (j->i >= o->count) {
				j->op++;
				j->i = 0;
				free(j->order);
				j->order = NULL;
				continue;
			}
			if (!j->i) {
				j->x = o->seed;
				if (o->kind == OP_SHUFFLE_PREAD ||
				    o->kind == OP_FIO_PREAD) {
					j->order = ralab__op_order(o, &j->carry);
					if (!j->order) {
						j->op++;
						continue;
					}
				}
			}
			if (o->kind == OP_RAND_PREAD) {
				uint64_t size = f->inode->size;

				j->x ^= j->x << 13;
				j->x ^= j->x >> 7;
				j->x ^= j->x << 17;
				*off = (int64_t)((j->x % (size / o->len)) * o->len);
			} else if (o->kind == OP_STRIDE_PREAD) {
				*off = (int64_t)o->off + (int64_t)j->i * o->stride;
			} else {
				*off = (int64_t)(o->off + j->order[j->i] * o->len);
			}
			j->i++;
			return true;
		default:
			j->op++;
			*off = -1; /* run the op whole */
			return true;
		}
	}
	return false;
}

/* Would worker @o of job @j run now (not finished, not held by a wait)? */
static bool can_run(const struct sim_job *j, const struct sim_worker *o)
{
	if (o->finished || o->job != j)
		return false;
	return o->wait_for == 0 || (o->wait_for == 1 && !j->barrier) ||
	       (o->wait_for == 2 && !j->busy);
}

/*
 * Wait, in simulated time, until the job's other workers are out of their
 * preads (@for_idle) or its barrier op is done: park just after the
 * earliest of its workers that can run, so that it runs first.  The ops
 * of an iodepth > 1 job other than preads are barriers, as in fio:
 * fadvise, close or a mapping happen between the reads in flight, not
 * among them, and one at a time.
 */
static void job_wait(struct sim *s, struct sim_worker *w, bool for_idle)
{
	struct sim_job *j = w->job;

	w->wait_for = for_idle ? 2 : 1;
	while (for_idle ? j->busy : j->barrier) {
		uint64_t t = UINT64_MAX;
		unsigned i;

		for (i = 0; i < s->nr_workers; i++) {
			const struct sim_worker *o = &s->workers[i];

			if (o != w && can_run(j, o) && o->now < t)
				t = o->now;
		}
		if (t == UINT64_MAX)
			break; /* cannot happen: someone holds what we wait for */
		if (w->now <= t)
			w->now = t + 1;
		sim_yield(s);
	}
	w->wait_for = 0;
}

/*
 * The group of job @j: the index of the latest 'wait' job at or before it
 * (fio's stonewall starts a group), -1 before the first.
 */
static int group_of(const struct sim *s, const struct sim_job *j)
{
	int k;

	for (k = (int)(j - s->jobs); k >= 0; k--)
		if (s->jobs[k].def->wait)
			return k;
	return -1;
}

/* Whether every worker of job @j has finished. */
static bool job_done(const struct sim *s, const struct sim_job *j)
{
	unsigned i;

	for (i = 0; i < s->nr_workers; i++)
		if (s->workers[i].job == j && !s->workers[i].finished)
			return false;
	return true;
}

static void worker_run(struct sim *s, struct sim_worker *w)
{
	struct sim_job *j = w->job;
	const struct wl_job *d = j->def;
	unsigned k;

	if (j->nr_workers == 1) {
		uint64_t pass_start = w->now;

		for (k = 0; k < d->nr_ops && w->now < j->deadline; k++) {
			/* (think time follows each read call: sim_run_op) */
			sim_run_op(s, &s->wl->ops[d->first_op + k]);
			/*
			 * time_based: the ops from 'repeat' on run again until
			 * the runtime has passed; a pass that took no time
			 * would never get there, so it ends the job.
			 */
			if (k + 1 == d->nr_ops && d->repeat &&
			    w->now < j->deadline && w->now > pass_start) {
				pass_start = w->now;
				k = d->repeat_op - 1;
			}
		}
	} else {
		const struct op *op;
		int64_t off;
		uint64_t len;

		for (;;) {
			job_wait(s, w, false);
			if (!next_unit(s, j, &op, &off, &len))
				break;
			if (off < 0) {
				j->barrier = true;
				job_wait(s, w, true);
				sim_run_op(s, op);
				j->barrier = false;
			} else {
				/* A rate limit holds it back until due. */
				sim_rate_wait(s);
				/*
				 * ring: one task issues the reads, in order,
				 * each up to where it must wait; the waits
				 * overlap (io_uring's buffered reads).
				 */
				if (w->ring && j->cpu_free > w->now)
					w->now = j->cpu_free;
				j->busy++;
				w->op_start = w->now; /* for a 'pace' after it */
				w->call_how = call_flags(op);
				sim_pread(s, &s->files[op->fd], off, len);
				w->call_how = 0;
				j->busy--;
				if (w->ring && w->now > j->cpu_free)
					j->cpu_free = w->now;
				/*
				 * Between two reads a ring worker gives way,
				 * so that other jobs keep to the clock (its
				 * own job's next read still waits for
				 * cpu_free).
				 */
				if (w->ring)
					sim_yield(s);
				/* fio's thinktime: after each I/O. */
				sim_think(s);
			}
		}
	}
	if (w->now > j->end_ns)
		j->end_ns = w->now;
	w->finished = true;
	/*
	 * exitall: when the job ends (its last worker), the jobs of its
	 * group stop starting reads, as fio terminates them (one not
	 * started yet starts none); a later group (from the next 'wait'
	 * job, fio's stonewall, on) still runs.  exitall stonewall: the
	 * jobs running, of any group (those not started go on); exitall
	 * all: every job (fio's exit_what).
	 */
	if (d->exitall && job_done(s, j)) {
		for (k = 0; k < s->nr_jobs; k++) {
			struct sim_job *o = &s->jobs[k];
			bool stop = d->exit_what == EXIT_ALL ||
				    (d->exit_what == EXIT_STONEWALL ?
					     o->released && !job_done(s, o) :
					     group_of(s, o) == group_of(s, j));

			if (stop && o->deadline > w->now) {
				o->deadline = w->now;
				o->cut = true; /* kept when it starts */
			}
		}
	}
}

static void trampoline(unsigned hi, unsigned lo, unsigned whi, unsigned wlo)
{
	struct sim *s = (struct sim *)(((uintptr_t)hi << 32) | lo);
	struct sim_worker *w = (struct sim_worker *)(((uintptr_t)whi << 32) | wlo);

	worker_run(s, w);
	/* uc_link returns to the scheduler. */
}

/*
 * When a job may start, as fio's run_threads() starts them:
 *
 *   - a 'wait' job (stonewall) when every earlier job has ended;
 *   - a job after one no earlier than that one: fio's loop stops at a
 *     stonewall it cannot start yet, so the jobs after it start with it
 *     (its group), unless their delay is shorter than the stonewall's
 *     (fio passes over a job whose delay has not come);
 *   - a 'wait-for' job when the jobs it names have ended (fio's
 *     wait_for; the jobs after it go on starting meanwhile);
 *   - and none before its delay.
 *
 *   a                |=====|
 *   d  wait-for a          |===|
 *   b  wait                    |=====|
 *   c                          |===|      (with b)
 *
 * Its workers are held till then.  Returns true while held.  The jobs of
 * a held job's conditions come before it or are named by it, and
 * ops.c refuses jobs that wait for each other, so one always runs.
 */
static bool held(struct sim *s, struct sim_worker *w)
{
	struct sim_job *j = w->job;
	const struct wl_job *d = j->def;
	unsigned k, idx = (unsigned)(j - s->jobs);
	uint64_t start = d->delay_ns;
	int g;

	if (j->released)
		return false;
	g = group_of(s, j);
	if (g >= 0 && (unsigned)g != idx &&
	    d->delay_ns >= s->jobs[g].def->delay_ns) {
		if (!s->jobs[g].released)
			return true;
		if (s->jobs[g].start_ns > start)
			start = s->jobs[g].start_ns;
	}
	for (k = 0; k < s->nr_workers; k++) {
		struct sim_worker *o = &s->workers[k];
		unsigned oj = (unsigned)(o->job - s->jobs);

		if (!((d->wait && oj < idx) ||
		      (oj < 64 && (d->wait_for >> oj & 1))))
			continue;
		if (!o->finished)
			return true;
		if (o->now > start)
			start = o->now;
	}
	for (k = 0; k < s->nr_workers; k++)
		if (s->workers[k].job == j && s->workers[k].now < start)
			s->workers[k].now = start;
	j->start_ns = start;
	if (d->runtime_ns && !j->cut && !d->epoch_line)
		j->deadline = start + d->runtime_ns;
	j->released = true;
	return false;
}

static struct sim_worker *__attribute__((noinline)) earliest(struct sim *s)
{
	struct sim_worker *best = NULL;
	unsigned i;

	for (i = 0; i < s->nr_workers; i++) {
		struct sim_worker *w = &s->workers[i];

		if (!w->finished && !held(s, w) && (!best || w->now < best->now))
			best = w;
	}
	return best;
}

static int __attribute__((noinline)) init_context(struct sim *s,
						   struct sim_worker *w)
{
	w->stack = malloc(STACK_SIZE);
	if (!w->stack || getcontext(&w->ctx))
		return -ENOMEM;
	w->vg_stack = VALGRIND_STACK_REGISTER(w->stack,
					      (char *)w->stack + STACK_SIZE);
	w->ctx.uc_stack.ss_sp = w->stack;
	w->ctx.uc_stack.ss_size = STACK_SIZE;
	w->ctx.uc_link = &s->sched;
	makecontext(&w->ctx, (void (*)(void))trampoline, 4,
		    (unsigned)((uintptr_t)s >> 32), (unsigned)(uintptr_t)s,
		    (unsigned)((uintptr_t)w >> 32), (unsigned)(uintptr_t)w);
#if RALAB_ASAN
	/*
	 * ASan's swapcontext() clears the shadow of the whole stack it
	 * switches to (uc_stack), in case frames were abandoned there: an
	 * mmap() of 128 KiB of shadow each switch (a sanitized calibrate
	 * of a case of four threads took 100 s, 6 s without).  A worker's
	 * frames are never abandoned (it returns, to uc_link, before its
	 * stack is freed), and makecontext() was the only reader of
	 * uc_stack.
	 */
	w->ctx.uc_stack.ss_sp = NULL;
	w->ctx.uc_stack.ss_size = 0;
#endif
	return 0;
}

static int make_contexts(struct sim *s)
{
	unsigned i;

	for (i = 0; i < s->nr_workers; i++)
		if (init_context(s, &s->workers[i]))
			return -ENOMEM;
	return 0;
}

/* Resume the earliest worker until every one has finished. */
static int __attribute__((noinline)) schedule(struct sim *s)
{
	struct sim_worker *w;

	while ((w = earliest(s))) {
		s->cur = w;
		if (swapcontext(&s->sched, &w->ctx))
			return -EFAULT;
	}
	s->cur = &s->workers[0];
	return 0;
}

int sim_run_jobs(struct sim *s, const struct ralab_workload *wl)
{
	unsigned i, k, n = 0;

	s->wl = wl;
	/* 'ralab kernel' maps every mapping of such a case writable. */
	s->maps_writable = ralab__wl_writes(wl);
	s->nr_jobs = wl->nr_jobs;
	s->jobs = calloc(wl->nr_jobs, sizeof(*s->jobs));
	if (!s->jobs)
		return -ENOMEM;
	for (i = 0; i < wl->nr_jobs; i++) {
		s->jobs[i].def = &wl->jobs[i];
		s->jobs[i].nr_workers = wl->jobs[i].iodepth ? wl->jobs[i].iodepth : 1;
		/*
		 * Jobs start at their delay (0), a 'wait' job no earlier
		 * than when it is released (held).
		 */
		s->jobs[i].start_ns = wl->jobs[i].delay_ns;
		s->jobs[i].before_epoch = wl->jobs[i].epoch_line != 0;
		s->jobs[i].deadline = wl->jobs[i].runtime_ns &&
					      !wl->jobs[i].epoch_line ?
					      wl->jobs[i].delay_ns + wl->jobs[i].runtime_ns :
					      UINT64_MAX;
		n += s->jobs[i].nr_workers;
	}
	s->workers = calloc(n, sizeof(*s->workers));
	if (!s->workers)
		return -ENOMEM;
	s->nr_workers = n;
	for (i = 0, n = 0; i < wl->nr_jobs; i++)
		for (k = 0; k < s->jobs[i].nr_workers; k++) {
			s->workers[n].job = &s->jobs[i];
			s->workers[n].id = n;
			s->workers[n].now = s->jobs[i].start_ns;
			s->workers[n].ring = wl->jobs[i].ring &&
					     s->jobs[i].nr_workers > 1;
			n++;
		}
	s->multi = s->nr_workers > 1;
	if (!s->multi) {
		s->cur = &s->workers[0];
		worker_run(s, s->cur);
		return 0;
	}
	if (make_contexts(s))
		return -ENOMEM;
	return schedule(s);
}

void sim_jobs_free(struct sim *s)
{
	unsigned i;

	for (i = 0; i < s->nr_workers; i++) {
		if (s->workers[i].stack)
			VALGRIND_STACK_DEREGISTER(s->workers[i].vg_stack);
		free(s->workers[i].stack);
		free(s->workers[i].batch);
		free(s->workers[i].vecs);
		free(s->workers[i].done);
	}
	for (i = 0; i < s->nr_jobs; i++) {
		unsigned k;

		free(s->jobs[i].order);
		for (k = 0; k < MAX_MAPS; k++)
			sim_munmap(&s->jobs[i].vma[k]);
	}
	free(s->workers);
	free(s->jobs);
	s->workers = NULL;
	s->jobs = NULL;
	s->nr_workers = s->nr_jobs = 0;
}
