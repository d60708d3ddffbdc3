// SPDX-License-Identifier: MIT
/*
 * faults.c - the page faults of a traced program, for 'ralab record'.
 *
 * A program that reads a file through mmap() makes no system call per
 * read: strace shows the mapping, not the reads.  The kernel's
 * exceptions:page_fault_user tracepoint shows each fault (address and
 * error code), so a tracefs instance of our own follows the process
 * strace runs in and every process it forks (options/event-fork), keeping
 * the faults on pages not present (error code bit 0 clear: for a file
 * mapping those enter filemap_fault(), reads and writes alike; bit 1 is
 * set on a write).  A thread
 * drains trace_pipe while the program runs, so a long run loses nothing
 * to a full ring buffer.  Afterwards each fault inside a range a file
 * mapping of the log covered (not the program's own memory, whose first
 * writes are most of its faults) is written into the strace log at its
 * time among the calls:
 *
 *   PID SECONDS.USEC # ralab fault addr=0xADDR error_code=0xCODE wait_us=N
 *
 * sched:sched_switch in the same instance gives the time each task of
 * the program spends off the CPU in D after a fault (fault_waits):
 * wait_us=, the fault's duration for the replay's pauses.
 *
 * The trace clock is CLOCK_MONOTONIC ("mono"); the log's (-ttt) is
 * CLOCK_REALTIME: the offset between them is taken when recording starts.
 * A fault comes before a call that starts in the same microsecond: strace
 * stamps a call when it handles the stop at its entry, after the fault
 * that came before it in the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/elf.h"
#include "kernel/tracefs.h"
#include "ralab.h"

#define FAULT_EVENT "exceptions/page_fault_user"
#define FAULT_BUFFER_KB "8192" /* per CPU; drained while the program runs */

struct fault {
	int64_t us;   /* CLOCK_REALTIME, microseconds */
	int64_t wait; /* how long it slept (waiting for I/O), microseconds */
	uint64_t addr, code;
	long pid;
};

/* A task at a time: a line of the log, a fault's bound, a wait's start. */
struct at {
	long pid;
	int64_t t;
};

/* A task of the program off the CPU in D from @at.t; @end -1 until back. */
struct sleep {
	struct at at; /* first: by_at() and lower_at() take a sleep as one */
	int64_t end;
};

struct ralab_fault_rec {
	char inst[512];
	long skip_pid;   /* strace's own */
	int64_t offset;  /* CLOCK_REALTIME - CLOCK_MONOTONIC, microseconds */
	int pipe_fd;
	pthread_t reader;
	bool reader_started;
	/* Set by ralab_fault_rec_finish; the reader drains, then stops. */
	pthread_mutex_t lock;
	bool stop;
	/* Filled by the reader. */
	struct fault *f;
	size_t nr, cap;
	struct sleep *sleeps;
	size_t nr_sleeps, cap_sleeps;
	size_t *open; /* indices of the sleeps not ended */
	size_t nr_open, cap_open;
	char part[512]; /* a line not yet complete */
	size_t part_len;
	int err;
	unsigned long bad_lines;
};

static int64_t clock_us(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (int64_t)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

/* Room for one more element in *@p (of *@cap, @size bytes each). */
static bool grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t c;
	void *q;

	if (n < *cap)
		return true;
	c = *cap ? *cap * 2 : 4096;
	q = realloc(*p, c * size);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

/*
 * The task, time and event of a trace line:
 *   COMM-PID [CPU] FLAGS SECONDS.USEC: EVENT: FIELDS
 * The command name may hold spaces and dashes: the pid is after the last
 * dash before the "[CPU]" field, found from the right.  Returns the
 * fields after "EVENT: ", or NULL.
 */
static const char *line_head(const char *l, const char *event, long *pid,
			     int64_t *us)
{
	const char *ev = strstr(l, event), *p, *cpu = NULL;
	unsigned long long sec, usec;

	if (!ev || ev == l)
		return NULL;
	for (p = ev; p > l && p[-1] != ' '; p--)
		;
	if (sscanf(p, "%llu.%llu:", &sec, &usec) != 2 || sec > 1ull << 40)
		return NULL;
	*us = (int64_t)(sec * 1000000 + usec);
	/* Back over the fields to "[CPU]". */
	for (; p > l; p--)
		if (*p == '[' && p[-1] == ' ') {
			cpu = p;
			break;
		}
	if (!cpu)
		return NULL;
	for (p = cpu - 1; p > l && *p == ' '; p--)
		;
	while (p > l && *p >= '0' && *p <= '9')
		p--;
	if (*p != '-' || sscanf(p + 1, "%ld", pid) != 1)
		return NULL;
	return ev + strlen(event);
}

/*
 * sched_switch: "prev_comm=C prev_pid=N prev_prio=P prev_state=S ==>
 * next_comm=C next_pid=N next_prio=P".  A task of the program that leaves
 * the CPU in D (uninterruptible: waiting for I/O, as a fault waiting for
 * its folio does) starts a wait; the task's next switch-in ends it.
 */
static void parse_switch(struct ralab_fault_rec *r, const char *f, int64_t us)
{
	const char *pp = strstr(f, " prev_pid="), *ps = strstr(f, " prev_state="),
		   *np = strstr(f, " ==> ");
	long prev, next;
	size_t i;

	if (!pp || !ps || !np || !(np = strstr(np, " next_pid=")) ||
	    sscanf(pp + 10, "%ld", &prev) != 1 ||
	    sscanf(np + 10, "%ld", &next) != 1) {
		r->bad_lines++;
		return;
	}
	/* The waits still open: one per task at most, few at once. */
	for (i = 0; i < r->nr_open; i++)
		if (r->sleeps[r->open[i]].at.pid == next) {
			r->sleeps[r->open[i]].end = us;
			r->open[i] = r->open[--r->nr_open];
			break;
		}
	if (ps[12] != 'D' || prev == r->skip_pid)
		return;
	if (!grow((void **)&r->sleeps, &r->cap_sleeps, r->nr_sleeps,
		  sizeof(*r->sleeps)) ||
	    !grow((void **)&r->open, &r->cap_open, r->nr_open,
		  sizeof(*r->open))) {
		r->err = -ENOMEM;
		return;
	}
	r->open[r->nr_open++] = r->nr_sleeps;
	r->sleeps[r->nr_sleeps++] = (struct sleep){ { prev, us }, -1 };
}

static void parse_line(struct ralab_fault_rec *r, const char *l)
{
	unsigned long long addr, code;
	const char *f, *p;
	struct fault *ft;
	int64_t us;
	long pid;

	if ((f = line_head(l, ": sched_switch: ", &pid, &us))) {
		parse_switch(r, f, us + r->offset);
		return;
	}
	f = line_head(l, ": page_fault_user: ", &pid, &us);
	if (!f || !(p = strstr(f, "address=")) ||
	    sscanf(p + 8, "%llx", &addr) != 1 ||
	    !(p = strstr(f, "error_code=")) ||
	    sscanf(p + 11, "%llx", &code) != 1) {
		r->bad_lines++;
		return;
	}
	if (pid == r->skip_pid)
		return;
	if (!grow((void **)&r->f, &r->cap, r->nr, sizeof(*r->f))) {
		r->err = -ENOMEM;
		return;
	}
	ft = &r->f[r->nr++];
	ft->us = us + r->offset;
	ft->addr = addr;
	ft->code = code;
	ft->pid = pid;
	ft->wait = 0;
}

/* What trace_pipe gave, split into lines. */
static void take(struct ralab_fault_rec *r, const char *buf, size_t n)
{
	size_t i, start = 0;

	for (i = 0; i < n; i++) {
		if (buf[i] != '\n')
			continue;
		if (r->part_len) {
			size_t k = i - start;

			if (k > sizeof(r->part) - 1 - r->part_len)
				k = sizeof(r->part) - 1 - r->part_len;
			memcpy(r->part + r->part_len, buf + start, k);
			r->part[r->part_len + k] = '\0';
			parse_line(r, r->part);
			r->part_len = 0;
		} else {
			char line[512];
			size_t k = i - start < sizeof(line) - 1 ? i - start :
								   sizeof(line) - 1;

			memcpy(line, buf + start, k);
			line[k] = '\0';
			parse_line(r, line);
		}
		start = i + 1;
	}
	if (start < n) {
		size_t k = n - start;

		if (k > sizeof(r->part) - 1 - r->part_len)
			k = sizeof(r->part) - 1 - r->part_len;
		memcpy(r->part + r->part_len, buf + start, k);
		r->part_len += k;
	}
}

/* Drain trace_pipe (non-blocking) until told to stop and it is empty. */
static void *reader(void *arg)
{
	struct ralab_fault_rec *r = arg;
	char buf[65536];

	for (;;) {
		ssize_t n = read(r->pipe_fd, buf, sizeof(buf));
		bool stop;

		if (n > 0) {
			take(r, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			r->err = -errno;
			break;
		}
		pthread_mutex_lock(&r->lock);
		stop = r->stop;
		pthread_mutex_unlock(&r->lock);
		if (stop)
			break;
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	return NULL;
}

void ralab_fault_rec_free(struct ralab_fault_rec *r)
{
	if (!r)
		return;
	if (r->reader_started) {
		pthread_mutex_lock(&r->lock);
		r->stop = true;
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->reader, NULL);
	}
	if (r->pipe_fd >= 0)
		close(r->pipe_fd);
	if (r->inst[0])
		kx_inst_remove(r->inst);
	pthread_mutex_destroy(&r->lock);
	free(r->f);
	free(r->sleeps);
	free(r->open);
	free(r);
}

/*
 * Trace the faults of the tasks @pids ("PID PID ..." as set_event_pid
 * takes them) and of those they start, leaving @skip_pid's out.
 */
static int fault_rec_start(const char *pids, long skip_pid,
			   struct ralab_fault_rec **out,
			   struct ralab_diag *diag)
{
	struct ralab_fault_rec *r;
	char path[600];
	int err;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->pipe_fd = -1;
	r->skip_pid = skip_pid;
	pthread_mutex_init(&r->lock, NULL);
	if ((err = kx_inst_create(FAULT_EVENT, "page faults are", "", r->inst,
				  sizeof(r->inst), diag)))
		goto fail;
	if ((err = kx_inst_write(r->inst, "tracing_on", "0", diag)) ||
	    (err = kx_inst_write(r->inst, "buffer_size_kb", FAULT_BUFFER_KB, diag)) ||
	    (err = kx_inst_write(r->inst, "trace_clock", "mono", diag)) ||
	    (err = kx_inst_write(r->inst, "options/event-fork", "1", diag)) ||
	    (err = kx_inst_write(r->inst, "set_event_pid", pids, diag)) ||
	    (err = kx_inst_write(r->inst, "events/" FAULT_EVENT "/filter",
			      "!(error_code & 1)", diag)) ||
	    (err = kx_inst_write(r->inst, "events/" FAULT_EVENT "/enable", "1", diag)) ||
	    (err = kx_inst_write(r->inst, "events/sched/sched_switch/enable", "1", diag)))
		goto fail;
	snprintf(path, sizeof(path), "%s/trace_pipe", r->inst);
	r->pipe_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->pipe_fd < 0) {
		err = kx_err(diag, -errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	/* Both clocks at once: the trace's time on the log's clock. */
	{
		int64_t m0 = clock_us(CLOCK_MONOTONIC);
		int64_t rt = clock_us(CLOCK_REALTIME);
		int64_t m1 = clock_us(CLOCK_MONOTONIC);

		r->offset = rt - (m0 + m1) / 2;
	}
	if ((err = -pthread_create(&r->reader, NULL, reader, r))) {
		kx_err(diag, err, "starting the trace reader: %s", strerror(-err));
		goto fail;
	}
	r->reader_started = true;
	if ((err = kx_inst_write(r->inst, "tracing_on", "1", diag)))
		goto fail;
	*out = r;
	return 0;
fail:
	ralab_fault_rec_free(r);
	return err;
}

int ralab_fault_rec_start(int pid, struct ralab_fault_rec **out,
			  struct ralab_diag *diag)
{
	char val[32];

	snprintf(val, sizeof(val), "%d", pid);
	return fault_rec_start(val, pid, out, diag);
}

int ralab_fault_rec_attach(int pid, struct ralab_fault_rec **out,
			   struct ralab_diag *diag)
{
	char tasks[8192];
	int err = kx_task_list(pid, tasks, sizeof(tasks), diag);

	*out = NULL;
	return err ? err : fault_rec_start(tasks, -1, out, diag);
}

static int by_time(const void *a, const void *b)
{
	const struct fault *x = a, *y = b;

	return (x->us > y->us) - (x->us < y->us);
}

/* "PID SECONDS.USEC ..." (strace -f -ttt): the time, or -1. */
static int64_t line_time(const char *l, long *pid)
{
	unsigned long long sec, usec;
	int n = 0;

	if (sscanf(l, "%ld %llu.%llu%n", pid, &sec, &usec, &n) != 3 ||
	    l[n] != ' ')
		return -1;
	return (int64_t)(sec * 1000000 + usec);
}

static int by_pid(const void *a, const void *b)
{
	const struct at *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* By task, then time. */
static int by_at(const void *a, const void *b)
{
	const struct at *x = a, *y = b;

	if (x->pid != y->pid)
		return by_pid(a, b);
	return (x->t > y->t) - (x->t < y->t);
}

/*
 * The first of the @n elements of @size bytes at @base (each starting
 * with a struct at, sorted by_at) that is not before @key.
 */
static size_t lower_at(const void *base, size_t n, size_t size,
		       const struct at *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (by_at((const char *)base + mid * size, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The log's lines (*@lines: each process's, in time order) and its
 * processes (*@out), each from when its faults are the program's (t): the
 * log shows every one (strace -f ends each with a "+++ exited" line).
 * Faults of others (strace's own test children) are strace's, not the
 * program's, and so are those of the first process before its first line
 * (the child strace forks, before it execs the program).  A process
 * forked later may fault before its first line: from the start.
 */
static int log_procs(FILE *in, struct at **out, size_t *nr,
		     struct at **lines, size_t *nlines)
{
	struct at *p = NULL;
	size_t n = 0, cap = 0, lcap = 0, i, k;
	char *line = NULL;
	long first_pid = 0;

	while (getline(&line, &lcap, in) > 0) {
		long pid;
		int64_t t = line_time(line, &pid);

		if (t < 0)
			continue;
		if (!grow((void **)&p, &cap, n, sizeof(*p))) {
			free(p);
			free(line);
			return -ENOMEM;
		}
		if (!n)
			first_pid = pid;
		p[n++] = (struct at){ pid, t };
	}
	free(line);
	rewind(in);
	if (n) /* p is NULL for none: qsort and memcpy take no NULL */
		qsort(p, n, sizeof(*p), by_at);
	*lines = malloc((n + 1) * sizeof(**lines));
	if (!*lines) {
		free(p);
		return -ENOMEM;
	}
	if (n)
		memcpy(*lines, p, n * sizeof(*p));
	*nlines = n;
	/* One entry per process; only the first starts at its first line. */
	for (i = k = 0; i < n; i++)
		if (!k || p[k - 1].pid != p[i].pid) {
			p[k] = p[i];
			if (p[k].pid != first_pid)
				p[k].t = INT64_MIN;
			k++;
		}
	*out = p;
	*nr = k;
	return 0;
}

/*
 * The address ranges the log's file mappings ever covered: mmap() calls
 * with a descriptor and without MAP_ANONYMOUS that returned an address
 * (strace prints an interrupted call's arguments and its return on two
 * lines: the length is kept per task until then).  A fault elsewhere is
 * on anonymous memory: not a read of a file, left out of the log (a
 * program's first writes to its heap are most of its faults).  Sorted
 * and merged into disjoint ranges.
 */
struct range {
	unsigned long long lo, hi;
};

static int by_lo(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* "mmap(ADDR, LEN, PROT, FLAGS, FD, OFF" of a file mapping: LEN, or 0. */
static unsigned long long file_map_len(const char *p)
{
	unsigned long long len;
	const char *flags;
	char *end;
	long fd;

	p = strchr(p, ',');
	if (!p)
		return 0;
	len = strtoull(p + 1, &end, 0);
	p = strchr(end, ',');          /* then PROT */
	p = p ? strchr(p + 1, ',') : NULL;
	flags = p ? p + 1 : NULL;
	p = flags ? strchr(flags, ',') : NULL;
	if (!p || memmem(flags, (size_t)(p - flags), "MAP_ANONYMOUS", 13))
		return 0;
	fd = strtol(p + 1, &end, 10);
	return fd >= 0 && end != p + 1 ? len : 0;
}

/*
 * The path of "execve("PATH", ..." at @p (strace's quoting; a path with
 * escapes is left out), into @path (@len bytes): false if none.
 */
static bool exec_path(const char *p, char *path, size_t len)
{
	const char *q;

	p = strstr(p, " execve(\"");
	if (!p)
		return false;
	p += 9;
	q = strchr(p, '"');
	if (!q || (size_t)(q - p) >= len || memchr(p, '\\', (size_t)(q - p)))
		return false;
	memcpy(path, p, (size_t)(q - p));
	path[q - p] = '\0';
	return true;
}

/* The segments of image @e, loaded at @bias, into *@v. */
static int image_maps(const struct kx_elf *e, uint64_t bias,
		      struct range **v, size_t *n, size_t *cap)
{
	unsigned i;

	for (i = 0; i < e->nload; i++) {
		const struct kx_elf_load *l = &e->load[i];

		if (!l->filesz)
			continue;
		if (!grow((void **)v, cap, *n, sizeof(**v)))
			return -ENOMEM;
		(*v)[(*n)++] = (struct range){
			(bias + l->vaddr) & ~4095ull,
			(bias + l->vaddr + l->filesz + 4095) & ~4095ull
		};
	}
	return 0;
}

/*
 * Where the image that starts running after an execve() of @pid at @t
 * was loaded: its first fault is the first instruction it runs, at its
 * entry (an instruction fetch, error code bit 4), so the bias is that
 * address less e_entry; false if the faults do not show it.
 */
static bool entry_bias(const struct fault *f, size_t nf, long pid, int64_t t,
		       uint64_t entry, uint64_t *bias)
{
	size_t i;

	for (i = 0; i < nf; i++)
		if (f[i].pid == pid && f[i].us >= t)
			break;
	if (i == nf || !(f[i].code & 0x10) || f[i].addr < entry ||
	    (f[i].addr - entry) % 4096)
		return false;
	*bias = f[i].addr - entry;
	return true;
}

/*
 * The ranges the kernel's ELF loader mapped of the program at @path that
 * @pid's execve() at @t ran (no system call of the log maps them), and
 * of its interpreter: 'ralab record' runs the program without
 * address-space randomization, so a position-independent one is at its
 * known base; the interpreter (or a program without one) starts running
 * at its entry, which its first fault shows.
 */
static int exec_maps(const char *path, long pid, int64_t t,
		     const struct fault *f, size_t nf, struct range **v,
		     size_t *n, size_t *cap)
{
	struct kx_elf e, ie;
	uint64_t bias;
	int err = 0;

	if (kx_elf_read(path, true, &e))
		return 0;
	if (e.have_bias)
		err = image_maps(&e, e.bias, v, n, cap);
	else if (!e.interp_len && entry_bias(f, nf, pid, t, e.entry, &bias))
		err = image_maps(&e, bias, v, n, cap);
	if (!err && e.interp[0] && !kx_elf_read(e.interp, true, &ie) &&
	    entry_bias(f, nf, pid, t, ie.entry, &bias))
		err = image_maps(&ie, bias, v, n, cap);
	return err;
}

static int file_maps(FILE *in, const struct fault *f, size_t nf,
		     struct range **out, size_t *nr)
{
	struct { long pid; unsigned long long len; } pend[64];
	struct { long pid; int64_t t; char path[1024]; } xpend[16];
	struct range *v = NULL;
	size_t n = 0, cap = 0, lcap = 0, i, k, np = 0, nx = 0;
	char *line = NULL, path[1024];

	while (getline(&line, &lcap, in) > 0) {
		unsigned long long len = 0, addr;
		const char *m = strstr(line, " mmap("), *eq;
		long pid;
		int64_t t;
		int err = 0;

		if ((t = line_time(line, &pid)) < 0)
			continue;
		/* execve(), done or resumed: the program's own segments. */
		if (exec_path(line, path, sizeof(path))) {
			if (strstr(line, " <unfinished ...>")) {
				if (nx < 16) {
					xpend[nx].pid = pid;
					xpend[nx].t = t;
					memcpy(xpend[nx++].path, path,
					       sizeof(path));
				}
			} else if (strstr(line, ") = 0")) {
				err = exec_maps(path, pid, t, f, nf, &v, &n,
						&cap);
			}
		} else if (strstr(line, "<... execve resumed>")) {
			for (i = 0; i < nx && xpend[i].pid != pid; i++)
				;
			if (i < nx && strstr(line, ") = 0"))
				err = exec_maps(xpend[i].path, pid, xpend[i].t,
						f, nf, &v, &n, &cap);
			if (i < nx)
				xpend[i] = xpend[--nx];
		}
		if (err) {
			free(v);
			free(line);
			return err;
		}
		if (m && strstr(m, " <unfinished ...>")) {
			len = file_map_len(m + 6);
			if (len && np < 64) {
				pend[np].pid = pid;
				pend[np++].len = len;
			}
			continue;
		}
		if (!m && (m = strstr(line, "<... mmap resumed>"))) {
			for (i = 0; i < np && pend[i].pid != pid; i++)
				;
			if (i == np)
				continue;
			len = pend[i].len;
			pend[i] = pend[--np];
		} else if (m) {
			len = file_map_len(m + 6);
		}
		if (!len || !(eq = strstr(m, ") = 0x")))
			continue;
		addr = strtoull(eq + 4, NULL, 16);
		if (!grow((void **)&v, &cap, n, sizeof(*v))) {
			free(v);
			free(line);
			return -ENOMEM;
		}
		v[n++] = (struct range){ addr, addr + len };
	}
	free(line);
	rewind(in);
	if (n)
		qsort(v, n, sizeof(*v), by_lo);
	for (i = k = 0; i < n; i++)
		if (k && v[i].lo <= v[k - 1].hi) {
			if (v[i].hi > v[k - 1].hi)
				v[k - 1].hi = v[i].hi;
		} else {
			v[k++] = v[i];
		}
	*out = v;
	*nr = k;
	return 0;
}

static bool in_file_map(const struct range *v, size_t n,
			unsigned long long addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].hi <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].lo <= addr;
}

/*
 * How long each fault waited: the time its task spent in D from the
 * fault until the task's next fault or next call (a fault's end is not
 * traced; a task of the program sleeps in D in between only for that
 * fault, but for calls strace does not print, whose waits count too).
 * The replay takes it as the fault's duration, so that the gap after it
 * is the program's own time, not the device's.
 */
static int fault_waits(struct ralab_fault_rec *r, const struct at *lines,
		       size_t nl)
{
	struct at *next = NULL; /* each task's next fault, going back */
	size_t i, k, nn = 0, cap = 0;

	if (r->nr_sleeps)
		qsort(r->sleeps, r->nr_sleeps, sizeof(*r->sleeps), by_at);
	for (i = r->nr; i-- > 0;) {
		struct fault *f = &r->f[i];
		struct at key = { f->pid, f->us };
		int64_t b;

		/* Faults are in time order: the task's next one is known. */
		for (k = 0; k < nn && next[k].pid != f->pid; k++)
			;
		if (k == nn) {
			if (!grow((void **)&next, &cap, nn, sizeof(*next))) {
				free(next);
				return -ENOMEM;
			}
			next[nn++] = (struct at){ f->pid, INT64_MAX };
		}
		b = next[k].t;
		next[k].t = f->us;
		k = lower_at(lines, nl, sizeof(*lines), &key);
		if (k < nl && lines[k].pid == f->pid && lines[k].t < b)
			b = lines[k].t;
		f->wait = 0;
		for (k = lower_at(r->sleeps, r->nr_sleeps, sizeof(*r->sleeps), &key);
		     k < r->nr_sleeps && r->sleeps[k].at.pid == f->pid &&
		     r->sleeps[k].at.t < b;
		     k++) {
			int64_t start = r->sleeps[k].at.t, end = r->sleeps[k].end;

			if (end < 0 || end > b)
				end = b;
			if (end != INT64_MAX && end > start)
				f->wait += end - start;
		}
	}
	free(next);
	return 0;
}

static bool program_fault(const struct at *p, size_t n, const struct fault *f)
{
	struct at key = { f->pid, 0 };
	const struct at *q = n ? bsearch(&key, p, n, sizeof(*p), by_pid) : NULL;

	return q && f->us >= q->t;
}

/* A fault as a line of the log. */
static void put_fault(FILE *out, const struct fault *f, size_t *written)
{
	(*written)++;
	fprintf(out, "%ld %lld.%06lld # ralab fault addr=0x%llx error_code=0x%llx wait_us=%lld\n",
		f->pid, (long long)(f->us / 1000000), (long long)(f->us % 1000000),
		(unsigned long long)f->addr, (unsigned long long)f->code,
		(long long)f->wait);
}

int ralab_fault_rec_finish(struct ralab_fault_rec *r, const char *log,
			   unsigned *nfaults, struct ralab_diag *diag)
{
	char tmp[4096], *line = NULL;
	unsigned long long lost;
	size_t cap = 0, k = 0, nprocs = 0, nlines = 0, written = 0, nmaps = 0;
	struct at *procs = NULL, *lines = NULL;
	struct range *maps = NULL;
	FILE *in = NULL, *out = NULL;
	ssize_t n;
	int err = 0;

	if (nfaults)
		*nfaults = 0;
	kx_inst_write(r->inst, "tracing_on", "0", NULL);
	pthread_mutex_lock(&r->lock);
	r->stop = true;
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->reader, NULL);
	r->reader_started = false;
	if (r->err) {
		err = kx_err(diag, r->err, "reading the page faults: %s",
			   strerror(-r->err));
		goto done;
	}
	lost = kx_overruns(r->inst);
	if (lost) {
		err = kx_err(diag, -EOVERFLOW, "the trace lost %llu page faults (a full ring buffer): the log has none", lost);
		goto done;
	}
	if (r->bad_lines) {
		err = kx_err(diag, -EPROTO, "%lu trace lines were not page faults as ralab reads them: the log has none",
			   r->bad_lines);
		goto done;
	}
	/* The reader saw them in each CPU's order: merge. */
	if (r->nr)
		qsort(r->f, r->nr, sizeof(*r->f), by_time);
	snprintf(tmp, sizeof(tmp), "%s.faults", log);
	in = fopen(log, "r");
	out = fopen(tmp, "w");
	if (!in || !out) {
		err = kx_err(diag, -errno, "%s: %s", in ? tmp : log, strerror(errno));
		goto done;
	}
	if ((err = log_procs(in, &procs, &nprocs, &lines, &nlines)) ||
	    (err = file_maps(in, r->f, r->nr, &maps, &nmaps)) ||
	    (err = fault_waits(r, lines, nlines))) {
		kx_err(diag, err, "reading %s: %s", log, strerror(-err));
		goto done;
	}
	while ((n = getline(&line, &cap, in)) > 0) {
		long pid;
		int64_t t = line_time(line, &pid);

		for (; t >= 0 && k < r->nr && r->f[k].us <= t; k++)
			if (program_fault(procs, nprocs, &r->f[k]) &&
			    in_file_map(maps, nmaps, r->f[k].addr))
				put_fault(out, &r->f[k], &written);
		fputs(line, out);
		if (line[n - 1] != '\n')
			fputc('\n', out);
	}
	/* After the last call traced (touches before exit, say). */
	for (; k < r->nr; k++)
		if (program_fault(procs, nprocs, &r->f[k]) &&
		    in_file_map(maps, nmaps, r->f[k].addr))
			put_fault(out, &r->f[k], &written);
	fprintf(out, "# ralab faults recorded=%zu (on pages not present in file mappings, exceptions:page_fault_user)\n",
		written);
	if (ferror(in) || fflush(out) || ferror(out)) {
		err = kx_err(diag, -EIO, "writing %s: %s", tmp, strerror(errno));
		goto done;
	}
	if (fclose(out)) {
		out = NULL;
		err = kx_err(diag, -EIO, "writing %s: %s", tmp, strerror(errno));
		goto done;
	}
	out = NULL;
	if (rename(tmp, log)) {
		err = kx_err(diag, -errno, "renaming %s: %s", tmp, strerror(errno));
		goto done;
	}
	if (nfaults)
		*nfaults = (unsigned)(written < UINT32_MAX ? written : UINT32_MAX);
done:
	free(line);
	free(procs);
	free(lines);
	free(maps);
	if (in)
		fclose(in);
	if (out) {
		fclose(out);
		unlink(tmp);
	}
	ralab_fault_rec_free(r);
	return err;
}
