// SPDX-License-Identifier: MIT
/*
 * strace.c - strace logs as workloads.
 *
 * Made with 'strace -f -tt -T -e trace=openat,read,pread64,readv,preadv,
 * lseek,mmap,munmap,madvise,fadvise64,readahead,close' (ralab record adds
 * copy_file_range, sendfile and splice, which read through the page cache
 * too,
 * and dup, dup2, dup3 and fcntl: a dup()ed number is the same open file,
 * its position and readahead state, as dd's dup2(fd, 0) makes stdin;
 * and openat2 and preadv2; fstat, stat, lstat, newfstatat and statx,
 * whose st_size says how large the file was then; truncate, which cuts a
 * file by its path; mlock, mlock2, munlock, mlockall and munlockall;
 * mprotect, whose VMA splits end fault-around).  Reads of a descriptor
 * opened with O_DIRECT go to
 * the device, past the page cache ('open ... direct'), and its writes
 * drop the folios they cover (over the file's own blocks only); fcntl
 * F_SETFL sets or clears O_DIRECT on the open file ('setfl'); reads
 * through io_uring are not in the log at all (a note says so).
 * With -T (call durations), the time a process spends between two calls
 * on replayed descriptors, from the end of one to the start of the next,
 * becomes a pause before the second: the application's own pace, which
 * decides how much readahead can hide.  Pauses are left out when the
 * log has no durations or when calls of several processes overlap (the
 * replay is one stream; processes taking turns keep their pauses).
 * Lines: "[PID ]TIME call(args) = ret", or "[pid PID] ..."; an interrupted
 * call is "call(args <unfinished ...>" then "<... call resumed>rest".
 *
 * Each (process, descriptor) opened on a regular file becomes a descriptor
 * of the case; reads become preads at the offset they had (file positions
 * are tracked through read, lseek and the rest).  splice() becomes
 * 'splice', sendfile() and copy_file_range() 'sendfile' (splicing
 * through a pipe of their own).  Reads through mmap() are page faults,
 * not system calls: 'ralab record' puts them into the log (handle_fault),
 * and the mappings of replayed files (mmap, munmap, madvise, execve) are
 * followed per address space so that each fault becomes a touch at its
 * file offset; without them a mapping is noted but not replayed.  Devices,
 * /proc, /sys and what the loader and libc open at start (libraries,
 * ld.so.cache, locales) are left out, but for libraries 'ralab record
 * --evict' dropped from the cache before the run ('# ralab evicted').
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "workload.h"

#define MAX_ARGS 8
#define MAX_PENDING 256

struct pos {
	long pid, fd;
	uint64_t pos;
	bool used;
	char *path; /* what was opened, for openat() relative to it */
	unsigned grp; /* dup()s of one open file share it (0: none) */
	bool append;  /* opened O_APPEND: writes go to the end */
	bool wronly;  /* opened O_WRONLY: no reads */
};

/*
 * A process whose descriptor table (a thread, or a clone with
 * CLONE_FILES) or address space (CLONE_VM) is another's.
 */
struct table {
	long pid, table;
};

/*
 * A mapping of a replayed file, as the process sees it: [@addr, @addr +
 * @len) of address space @as maps the file from @off; mapping @vm of the
 * replay (tb_mmap).  munmap() of part of one leaves pieces, each a
 * struct smap of the same @vm.
 */
struct smap {
	long as;
	uint64_t addr, len, off;
	unsigned vm;
	bool priv; /* MAP_PRIVATE: a write copies the page */
	bool wr;   /* PROT_WRITE */
};

/* mlockall(MCL_FUTURE) of address space @as: later mmaps are locked. */
struct future_lock {
	long as;
	int how; /* MLOCK_ON_ or MLOCK_ONFAULT_ (MCL_ONFAULT) */
};

/*
 * The working directory of the processes sharing one (a thread, or a
 * clone with CLONE_FS: @fss), as chdir() and fchdir() left it: absolute,
 * or relative to the one the log began in (which is also where 'ralab
 * record' describes the files); none: that one.
 */
struct cwd {
	long fs;
	char *dir; /* owned */
};

/*
 * A '# ralab exec' line: how the kernel's ELF loader maps the program at
 * @path when execve() runs it ('ralab record' reads its program headers
 * after the run; no system call shows this).
 */
#define MAX_EXEC_LOADS 16
struct sexec {
	char *path;  /* owned */
	bool elf;    /* elf=0: a script (binfmt_script reads its first line) */
	uint64_t phoff, phlen, interp_off, interp_len;
	bool have_bias; /* bias= given: the load bias is known */
	uint64_t bias;
	uint64_t entry;       /* entry= (e_entry); have_entry: given */
	bool have_entry;
	char *interp_path;    /* interp_path= (owned; NULL: none given) */
	unsigned nload;
	struct sexec_load {
		uint64_t off, vaddr, filesz, memsz;
		int prot; /* PROT_R_ | PROT_W_ | PROT_X_ */
	} load[MAX_EXEC_LOADS];
};

struct pending {
	long pid;
	char *text;
	int64_t t0; /* its start, microseconds (-1: not given) */
};


struct st {
	const char *name;
	struct ralab_diag *diag;
	struct tb *tb;
	/* '# ralab evicted' paths (owned): what is under them is kept. */
	char **evicted;
	unsigned nr_evicted;
	struct pos *pos;
	unsigned nr_pos, cap_pos;
	struct table *tables;
	unsigned nr_tables, cap_tables;
	struct pending pend[MAX_PENDING];
	unsigned line, calls;
	/*
	 * Mappings of replayed files (an address space is a process's, or
	 * that of the process whose memory it shares: @vms, as @tables is
	 * for descriptors); page faults ('# ralab fault' lines) on them are
	 * replayed as touches.
	 */
	struct smap *maps;
	unsigned nr_maps, cap_maps;
	struct table *vms;
	unsigned nr_vms, cap_vms;
	struct table *fss;
	unsigned nr_fss, cap_fss;
	struct cwd *cwds;
	unsigned nr_cwds, cap_cwds;
	unsigned first_mmap;   /* line of the first mmap of a replayed file */
	bool faults;           /* the log has page faults */
	unsigned nr_part_unmap, nr_madv_other, nr_priv_populate;
	unsigned nr_remove_failed; /* failed MADV_REMOVE calls (noted once) */
	bool locks_seen;           /* an mlock*() or MAP_LOCKED so far */
	unsigned nr_priv_mlock;
	struct future_lock *futures;
	unsigned nr_futures, cap_futures;
	/*
	 * Timing (-tt or -ttt, with -T): the start and duration of the call
	 * being handled, in microseconds (-1: not in the log).
	 */
	int64_t t_start, t_dur;
	/* When the last replayed call (of any process) ended; -tt days. */
	int64_t last_end, day;
	long last_pid;
	bool have_last;
	unsigned grps; /* dup groups given out */
	unsigned nr_uring;        /* io_uring instances (reads unseen) */
	unsigned nr_append;       /* writes to O_APPEND files (not replayed) */
	unsigned nr_falloc_mode;  /* fallocate() zeroing, shifting (not replayed) */
	unsigned nr_fchdir;       /* fchdir() to directories not seen */
	long first_pid;           /* the process the log begins with */
	bool have_first;
	struct sexec *execs;      /* '# ralab exec' lines */
	unsigned nr_execs;
	/*
	 * Collecting the files to describe (ralab__strace_paths(), before
	 * 'ralab record' wrote '# ralab exec' lines): a program execve()
	 * runs is one, and @execd its paths (owned).
	 */
	bool collect;
	char **execd;
	unsigned nr_execd;
	long exec_keys;           /* descriptor keys given out to programs */
	/*
	 * Images execve() loaded whose place only their first fault tells
	 * (an interpreter; a position-independent program without one):
	 * its mappings wait at @base (beyond user addresses) until @pid's
	 * first fault, at its entry.
	 */
	struct { long pid; uint64_t base, entry; } *placing;
	unsigned nr_placing;
	unsigned images;          /* such images given a base so far */
	/*
	 * 'ralab record -p' attached to a running process: the log starts
	 * with what it had open and mapped (ralab_attach_describe()), from
	 * its '# ralab attach' line (@attach_line) to '# ralab attached'.
	 */
	unsigned attach_line;
	bool in_attach;
	/*
	 * What the section says the kernel had then that the replay does
	 * not (noted at the end, for the files the replay reads): an open
	 * file's offset past 0 (@pages 0), a file's cached pages.
	 */
	struct attach_gap {
		char *path; /* owned */
		long long fd, off;
		unsigned long long pages, total;
		bool folios; /* its folios given ('# ralab attach-folios') */
	} *gaps;
	unsigned nr_gaps;
};

static int serr(struct st *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int serr(struct st *s, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = wl_vdiag(s->diag, s->name, s->line, fmt, ap);
	va_end(ap);
	return err;
}

/* What @pid shares in @t (of @n): another's, or its own. */
static long shared_of(const struct table *t, unsigned n, long pid)
{
	unsigned i;

	for (i = 0; i < n; i++)
		if (t[i].pid == pid)
			return t[i].table;
	return pid;
}

/* @child shares @parent's in *@t (of *@n, room for *@cap). */
static int share_with(struct table **t, unsigned *n, unsigned *cap,
		      long child, long parent)
{
	if (!tb_grow((void **)t, cap, *n + 1, sizeof(**t)))
		return -ENOMEM;
	(*t)[(*n)++] = (struct table){ child, parent };
	return 0;
}

/* The descriptor table of @pid: its own unless it shares one. */
static long table_of(const struct st *s, long pid)
{
	return shared_of(s->tables, s->nr_tables, pid);
}

/*
 * clone() with CLONE_FILES (threads): @child uses @parent's descriptors,
 * also those it opened before the log showed the clone return (strace -f
 * prints a child's calls as they come).  Children without it get a copy
 * of the table: descriptors they inherit and never open are found by
 * number (tb_open).
 */
static int share_table(struct st *s, long parent, long child)
{
	long t = table_of(s, parent);
	unsigned i;

	if (t == child || table_of(s, child) != child)
		return 0;
	if (share_with(&s->tables, &s->nr_tables, &s->cap_tables, child, t))
		return -ENOMEM;
	tb_share(s->tb, child, t);
	for (i = 0; i < s->nr_pos; i++)
		if (s->pos[i].used && s->pos[i].pid == child)
			s->pos[i].pid = t;
	return 0;
}

/* Whether @pid's own descriptor table is shared (threads, CLONE_FILES). */
static bool table_shared(const struct st *s, long pid)
{
	unsigned i;

	for (i = 0; i < s->nr_tables; i++)
		if (s->tables[i].table == pid && s->tables[i].pid != pid)
			return true;
	return false;
}

/* The address space of @pid: its own unless it shares one (CLONE_VM). */
static long as_of(const struct st *s, long pid)
{
	return shared_of(s->vms, s->nr_vms, pid);
}

static int add_piece(struct st *s, const struct smap *m)
{
	if (!tb_grow((void **)&s->maps, &s->cap_maps, s->nr_maps + 1,
		     sizeof(*s->maps)))
		return -ENOMEM;
	s->maps[s->nr_maps++] = *m;
	return 0;
}

/*
 * clone() of @child: with CLONE_VM it shares @parent's memory (threads,
 * vfork); else it gets a copy, and with it the mappings.
 */
static int clone_vm(struct st *s, long parent, long child, bool share)
{
	long as = as_of(s, parent);
	unsigned i, n = s->nr_maps;
	int err;

	if (share) {
		if (as == child || as_of(s, child) != child)
			return 0;
		return share_with(&s->vms, &s->nr_vms, &s->cap_vms, child, as);
	}
	for (i = 0; i < n; i++)
		if (s->maps[i].as == as) {
			struct smap m = s->maps[i];

			m.as = child;
			if ((err = add_piece(s, &m)))
				return err;
		}
	return 0;
}

static long fs_of(const struct st *s, long pid)
{
	return shared_of(s->fss, s->nr_fss, pid);
}

static struct cwd *cwd_entry(struct st *s, long fs)
{
	unsigned i;

	for (i = 0; i < s->nr_cwds; i++)
		if (s->cwds[i].fs == fs)
			return &s->cwds[i];
	return NULL;
}

/* Whether @call (the text of an unfinished call) makes a process. */
static bool is_clone(const char *call)
{
	return !strncmp(call, "clone(", 6) || !strncmp(call, "clone3(", 7) ||
	       !strncmp(call, "fork(", 5) || !strncmp(call, "vfork(", 6);
}

/*
 * The working directory of @pid (NULL: the one the log began in).  A
 * process not seen to change or inherit one, other than the first, is
 * taken for the child of a clone() still unfinished in the log (strace
 * -f shows a child's calls as they come, maybe before its parent's
 * clone() returns): it began in that parent's.
 */
static const char *cwd_of(struct st *s, long pid)
{
	struct cwd *c = cwd_entry(s, fs_of(s, pid));
	unsigned i;

	if (c)
		return c->dir;
	if (pid == s->first_pid)
		return NULL;
	for (i = 0; i < MAX_PENDING; i++)
		if (s->pend[i].text && s->pend[i].pid != pid &&
		    is_clone(s->pend[i].text))
			return (c = cwd_entry(s, fs_of(s, s->pend[i].pid))) ?
				       c->dir : NULL;
	return NULL;
}

/* @pid's working directory is @dir now (NULL: the first one). */
static int set_cwd(struct st *s, long pid, const char *dir)
{
	long fs = fs_of(s, pid);
	struct cwd *c = cwd_entry(s, fs);
	char *d = NULL;

	if (dir && !(d = strdup(dir)))
		return -ENOMEM;
	if (!c) {
		if (!tb_grow((void **)&s->cwds, &s->cap_cwds, s->nr_cwds + 1,
			     sizeof(*s->cwds))) {
			free(d);
			return -ENOMEM;
		}
		c = &s->cwds[s->nr_cwds++];
		*c = (struct cwd){ .fs = fs };
	}
	free(c->dir);
	c->dir = d;
	return 0;
}

/*
 * clone() of @child: with CLONE_FS it shares @parent's working directory
 * (threads; a chdir() it made before the log showed the clone return is
 * theirs), else it starts with a copy of it.
 */
static int clone_fs(struct st *s, long parent, long child, bool share)
{
	long fs = fs_of(s, parent);
	struct cwd *own = cwd_entry(s, child);
	const char *dir = cwd_of(s, parent);
	int err;

	if (fs == child || fs_of(s, child) != child)
		return 0;
	if (!share)
		return own ? 0 : set_cwd(s, child, dir);
	if (own) {
		err = set_cwd(s, parent, own->dir);
		if (err)
			return err;
		own = cwd_entry(s, child); /* set_cwd() may move the array */
		free(own->dir);
		*own = s->cwds[--s->nr_cwds];
	}
	return share_with(&s->fss, &s->nr_fss, &s->cap_fss, child, fs);
}

/*
 * @p without empty and "." components or a trailing '/' ("/mnt//./a/"
 * is "/mnt/a", "./a" is "a"): one name for one file however the program
 * spelled it.  ".." stays (a symbolic link decides where it leads).
 */
static void tidy_path(char *p)
{
	char *r = p, *w = p;

	if (!*p)
		return;
	if (*r == '/')
		*w++ = *r++;
	while (*r) {
		char *e = r;
		size_t n;

		while (*e && *e != '/')
			e++;
		n = (size_t)(e - r);
		if (n && !(n == 1 && *r == '.')) {
			if (w > p && w[-1] != '/')
				*w++ = '/';
			memmove(w, r, n);
			w += n;
		}
		r = *e ? e + 1 : e;
	}
	if (w == p)
		*w++ = '.';
	*w = '\0';
}

/*
 * Whether a piece other than @i still holds mapping @vm, in any address
 * space: a forked child's copy keeps the replay's mapping, which a child
 * unmapping its copy does not end.
 */
static bool vm_held(const struct st *s, unsigned i, unsigned vm)
{
	unsigned k;

	for (k = 0; k < s->nr_maps; k++)
		if (k != i && s->maps[k].vm == vm)
			return true;
	return false;
}

static void note_time(struct st *s, long pid);

/* Whether a piece of mapping @vm in an address space other than @as is. */
static bool vm_shared(const struct st *s, unsigned i, unsigned vm, long as)
{
	unsigned k;

	for (k = 0; k < s->nr_maps; k++)
		if (k != i && s->maps[k].vm == vm && s->maps[k].as != as)
			return true;
	return false;
}

/*
 * [@addr, @addr + @len) of @as is unmapped (munmap(), or a new mapping
 * over it, as ld.so maps a library's segments over its first mapping):
 * a piece it covers whole goes, with the replay's mapping when that was
 * its last; of one it covers in part, the replay unmaps that part
 * ('munmap OFF LEN'), but for a mapping a forked process shares, which is
 * replayed whole until its last page goes (a note says so).
 */
static int unmap_range(struct st *s, long as, uint64_t addr, uint64_t len,
		       long pid)
{
	uint64_t end = addr + len;
	unsigned i;
	int err;

	if (end < addr)
		end = UINT64_MAX;
	for (i = 0; i < s->nr_maps;) {
		struct smap *m = &s->maps[i];
		uint64_t mend = m->addr + m->len;

		if (m->as != as || mend <= addr || m->addr >= end) {
			i++;
			continue;
		}
		if (addr <= m->addr && end >= mend) {
			/* The whole piece goes. */
			if (!vm_held(s, i, m->vm))
				tb_munmap(s->tb, m->vm);
			s->maps[i] = s->maps[--s->nr_maps];
			continue;
		}
		/*
		 * Part of it: a hole in the replay's mapping, unless a
		 * forked copy in another address space still maps that
		 * part (the replay's mapping is one for both).
		 */
		if (vm_shared(s, i, m->vm, as)) {
			if (!s->nr_part_unmap++)
				tb_note(s->tb, "munmap() of part of a mapping another process shares at line %u: the replay keeps the mapping whole until its last page is unmapped",
					s->line);
		} else {
			uint64_t a = addr > m->addr ? addr : m->addr;
			uint64_t b = end < mend ? end : mend;

			note_time(s, pid);
			tb_munmap_part(s->tb, m->vm, m->off + (a - m->addr),
				       b - a);
		}
		if (addr > m->addr && end < mend) {
			/* A hole in the middle: two pieces. */
			struct smap tail = *m;

			tail.off += end - m->addr;
			tail.addr = end;
			tail.len = mend - end;
			m->len = addr - m->addr;
			if ((err = add_piece(s, &tail)))
				return err;
		} else if (addr > m->addr) {
			m->len = addr - m->addr;
		} else {
			m->off += end - m->addr;
			m->len = mend - end;
			m->addr = end;
		}
		i++;
	}
	return 0;
}

static int madv_of(const char *a)
{
	static const struct {
		const char *name;
		int v;
	} names[] = {
		{ "MADV_NORMAL", MADV_NORMAL_ },
		{ "MADV_RANDOM", MADV_RANDOM_ },
		{ "MADV_SEQUENTIAL", MADV_SEQUENTIAL_ },
		{ "MADV_WILLNEED", MADV_WILLNEED_ },
		{ "MADV_DONTNEED", MADV_DONTNEED_ },
		{ "MADV_HUGEPAGE", MADV_HUGEPAGE_ },
		{ "MADV_NOHUGEPAGE", MADV_NOHUGEPAGE_ },
		{ "MADV_COLD", MADV_COLD_ },
		{ "MADV_PAGEOUT", MADV_PAGEOUT_ },
		{ "MADV_POPULATE_READ", MADV_POPULATE_READ_ },
		{ "MADV_POPULATE_WRITE", MADV_POPULATE_WRITE_ },
		{ "MADV_DONTNEED_LOCKED", MADV_DONTNEED_LOCKED_ },
	};
	unsigned i;

	while (*a == ' ')
		a++;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(a, names[i].name))
			return names[i].v;
	return -1;
}

static struct pos *pos_of(struct st *s, long pid, long fd, bool create)
{
	unsigned i;

	for (i = 0; i < s->nr_pos; i++)
		if (s->pos[i].used && s->pos[i].pid == pid && s->pos[i].fd == fd)
			return &s->pos[i];
	/* Threads share descriptors: the latest one with this number. */
	for (i = s->nr_pos; !create && i-- > 0;)
		if (s->pos[i].used && s->pos[i].fd == fd)
			return &s->pos[i];
	if (!create)
		return NULL;
	if (!tb_grow((void **)&s->pos, &s->cap_pos, s->nr_pos + 1,
		     sizeof(*s->pos)))
		return NULL;
	s->pos[s->nr_pos] = (struct pos){ pid, fd, 0, true, NULL, 0, false, false };
	return &s->pos[s->nr_pos++];
}

static bool has_pos(const struct st *s, long tab, long fd)
{
	unsigned i;

	for (i = 0; i < s->nr_pos; i++)
		if (s->pos[i].used && s->pos[i].pid == tab && s->pos[i].fd == fd)
			return true;
	return false;
}

/*
 * (@tab, @fd) on the open file of position entry @i from now on (a dup,
 * or a fork()ed copy): one dup group, so that set_pos() moves both.
 */
static int share_pos(struct st *s, unsigned i, long tab, long fd)
{
	struct pos *n;
	char *path = NULL;

	if (!s->pos[i].grp)
		s->pos[i].grp = ++s->grps;
	if (s->pos[i].path && !(path = strdup(s->pos[i].path)))
		return -ENOMEM;
	n = pos_of(s, tab, fd, true); /* may move the array */
	if (!n) {
		free(path);
		return -ENOMEM;
	}
	n->pos = s->pos[i].pos;
	n->grp = s->pos[i].grp;
	n->append = s->pos[i].append;
	n->wronly = s->pos[i].wronly;
	free(n->path);
	n->path = path;
	return 0;
}

/*
 * fork() without CLONE_FILES: @child's table is a copy of @parent's,
 * each descriptor on the same open file (tb_fork(); its position shared,
 * as a dup's), so that either closing its copy leaves the other's.
 */
static int fork_table(struct st *s, long parent, long child)
{
	long t = table_of(s, parent);
	unsigned i, n = s->nr_pos;
	int err;

	if (t == child || table_of(s, child) != child)
		return 0;
	if ((err = tb_fork(s->tb, t, child)))
		return err;
	for (i = 0; i < n; i++) {
		/* Positions matter only on descriptors replayed. */
		if (!s->pos[i].used || s->pos[i].pid != t ||
		    has_pos(s, child, s->pos[i].fd) ||
		    !tb_known(s->tb, t, s->pos[i].fd))
			continue;
		if ((err = share_pos(s, i, child, s->pos[i].fd)))
			return err;
	}
	return 0;
}

/* @p's file position is @v, and so is that of its dup()s. */
static void set_pos(struct st *s, struct pos *p, uint64_t v)
{
	unsigned i;

	p->pos = v;
	for (i = 0; p->grp && i < s->nr_pos; i++)
		if (s->pos[i].used && s->pos[i].grp == p->grp)
			s->pos[i].pos = v;
}

/* @fd is gone (closed, or replaced by dup2()). */
static void drop_pos(struct st *s, long tab, long fd)
{
	unsigned i;

	for (i = 0; i < s->nr_pos; i++)
		if (s->pos[i].used && s->pos[i].pid == tab &&
		    s->pos[i].fd == fd) {
			s->pos[i].used = false;
			free(s->pos[i].path);
			s->pos[i].path = NULL;
		}
}

/*
 * dup(OLD) = NEW, dup2/dup3(OLD, NEW) = NEW, fcntl(OLD, F_DUPFD..) = NEW:
 * NEW is OLD's open file (position and readahead state), after closing
 * what NEW was.
 */
static int dup_fd(struct st *s, long tab, long fd, long nfd)
{
	struct pos *o;
	int err;

	if (fd == nfd)
		return 0;
	err = tb_dup(s->tb, tab, fd, nfd);
	if (err)
		return err;
	drop_pos(s, tab, nfd);
	o = pos_of(s, tab, fd, false);
	return o ? share_pos(s, (unsigned)(o - s->pos), tab, nfd) : 0;
}

/*
 * Split "a, b, [c, d], {e}, "f,g"" into top-level arguments, in place.
 * Returns the number of arguments, or -1 if unbalanced.
 */
static int split_args(char *s, char **argv, int max)
{
	int n = 0, depth = 0;
	bool quote = false;
	char *start = s;

	for (; *s; s++) {
		if (quote) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				quote = false;
			continue;
		}
		if (*s == '"')
			quote = true;
		else if (*s == '[' || *s == '{' || *s == '(')
			depth++;
		else if (*s == ']' || *s == '}' || *s == ')')
			depth--;
		else if (*s == ',' && !depth) {
			*s = '\0';
			if (n < max)
				argv[n++] = start;
			start = s + 1;
			while (*start == ' ')
				start++;
		}
		if (depth < 0)
			return -1;
	}
	if (quote || depth)
		return -1;
	if (n < max)
		argv[n++] = start;
	return n;
}

/* The first of @argv[0..argc) that holds @what, or NULL. */
static const char *arg_with(char **argv, int argc, const char *what)
{
	int k;

	for (k = 0; k < argc; k++)
		if (strstr(argv[k], what))
			return argv[k];
	return NULL;
}

static bool num(const char *s, long long *v)
{
	char *end;

	while (*s == ' ')
		s++;
	if (!*s)
		return false;
	*v = strtoll(s, &end, 0);
	while (*end == ' ')
		end++;
	return !*end;
}

/*
 * preadv2()'s flags: RWF_DONTCACHE by name (newer strace) or as the bit
 * 0x80 (strace 6.1 prints it in hex, with an "RWF_???" comment after it,
 * and with the names it knows before it).
 */
static bool rwf_dontcache(const char *a)
{
	const char *x;
	long long v;

	if (strstr(a, "RWF_DONTCACHE"))
		return true;
	x = strstr(a, "0x");
	if (!x)
		return num(a, &v) && (v & 0x80);
	v = strtoll(x, NULL, 16);
	return v & 0x80;
}

/* "[{iov_base=..., iov_len=4096}, {...}]": the sum of iov_len. */
static uint64_t iov_total(const char *s)
{
	uint64_t t = 0;
	const char *p = s;

	while ((p = strstr(p, "iov_len="))) {
		p += 8;
		t += strtoull(p, NULL, 10);
	}
	return t;
}

/* A path strace printed: unescape into @out; false if not plain. */
static bool path_arg(const char *a, char *out, size_t len)
{
	size_t n = 0;

	while (*a == ' ')
		a++;
	if (*a++ != '"')
		return false;
	for (; *a && *a != '"'; a++) {
		char c = *a;

		if (c == '\\' && a[1])
			c = *++a;
		if (n + 1 < len)
			out[n++] = c;
	}
	out[n] = '\0';
	return *a == '"';
}

/* Whether @p is one of the '# ralab evicted' paths or under one. */
bool ralab__path_under(const char *p, const char *dir, size_t n)
{
	return n && !strncmp(p, dir, n) &&
	       (!p[n] || p[n] == '/' || dir[n - 1] == '/');
}

static bool under_evicted(const struct st *s, const char *p)
{
	unsigned i;

	for (i = 0; i < s->nr_evicted; i++)
		if (ralab__path_under(p, s->evicted[i],
				      strlen(s->evicted[i])))
			return true;
	return false;
}

/*
 * Files worth replaying: not devices or pseudo files, and not what the
 * dynamic loader and libc read at every start (shared libraries, the
 * loader cache, locales), which is almost always cached, unless 'ralab
 * record --evict' dropped it from the cache before the run (a program
 * started with its libraries cold: '# ralab evicted' lines).
 */
static bool pseudo_path(const char *p)
{
	static const char *const pseudo[] = { "/dev/", "/proc/", "/sys/" };
	size_t i;

	for (i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if (!strncmp(p, pseudo[i], strlen(pseudo[i])))
			return true;
	return !*p;
}

bool ralab__loader_path(const char *p)
{
	static const char *const loader[] = {
		"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/",
		"/usr/share/locale/", "/etc/ld.so.",
	};
	size_t i;

	for (i = 0; i < sizeof(loader) / sizeof(loader[0]); i++)
		if (!strncmp(p, loader[i], strlen(loader[i])))
			return true;
	return false;
}

static bool regular_path(const struct st *s, const char *p,
			 const char *flags)
{
	if (pseudo_path(p) || (ralab__loader_path(p) && !under_evicted(s, p)))
		return false;
	/* Write-only too: what it writes is what a later read finds. */
	return !strstr(flags, "O_DIRECTORY") && !strstr(flags, "O_PATH");
}

/* Whether strace's flags "O_RDONLY|O_DIRECT|..." hold O_DIRECT (not O_DIRECTORY). */
static bool has_odirect(const char *flags)
{
	const char *p;

	for (p = flags; (p = strstr(p, "O_DIRECT")); p += 8)
		if (p[8] != 'O')
			return true;
	return false;
}

/*
 * The path @a names (a quoted string), into @path (1024 bytes): relative
 * to directory descriptor @dirfd (NULL or AT_FDCWD: @pid's working
 * directory), it is named by that directory's path when its open (or
 * chdir()) is in the log, else as written.
 */
static bool at_path(struct st *s, long pid, const char *dirfd, const char *a,
		    char *path)
{
	long long dfd;
	struct pos *dp;
	const char *dir = NULL;

	if (!path_arg(a, path, 1024))
		return false;
	if (path[0] != '/') {
		while (dirfd && *dirfd == ' ')
			dirfd++;
		if (!dirfd || !strcmp(dirfd, "AT_FDCWD"))
			dir = cwd_of(s, pid);
		else if (num(dirfd, &dfd) &&
			 (dp = pos_of(s, table_of(s, pid), (long)dfd, false)))
			dir = dp->path;
	}
	if (dir) {
		char full[1024];

		if ((size_t)snprintf(full, sizeof(full), "%s/%s", dir, path) >=
		    sizeof(full))
			return false;
		memcpy(path, full, sizeof(full));
	}
	tidy_path(path);
	return true;
}

/*
 * The size a stat call reports for a regular file ("st_size=N" of fstat,
 * stat and newfstatat, "stx_size=N" of statx), or -1.
 */
static long long stat_size(char **argv, int argc)
{
	const char *st = arg_with(argv, argc, "S_IFREG"), *sz;
	long long v;
	char *end;

	if (!st || (!(sz = strstr(st, "st_size=")) &&
		    !(sz = strstr(st, "stx_size="))))
		return -1;
	sz = strchr(sz, '=') + 1;
	if (*sz < '0' || *sz > '9')
		return -1;
	v = strtoll(sz, &end, 10);
	return v >= 0 && (*end == ',' || *end == '}' || *end == ' ') ? v : -1;
}

static int advice_of(const char *a)
{
	static const char *const names[] = {
		"POSIX_FADV_NORMAL", "POSIX_FADV_RANDOM", "POSIX_FADV_SEQUENTIAL",
		"POSIX_FADV_WILLNEED", "POSIX_FADV_DONTNEED", "POSIX_FADV_NOREUSE",
	};
	long long v;
	int i;

	while (*a == ' ')
		a++;
	for (i = 0; i < 6; i++)
		if (!strcmp(a, names[i]))
			return i;
	if (num(a, &v) && v >= 0 && v <= 5)
		return (int)v;
	return -1;
}

/* A whole call: "name(args) = ret ...". */
/*
 * A time stamp: "HH:MM:SS[.uuuuuu]" (-t, -tt) or "SECONDS[.uuuuuu]"
 * (-ttt), in microseconds; -1 if @l does not hold one.
 */
static int64_t parse_stamp(const char *l, const char *end)
{
	int64_t v = 0, part = 0, us = 0;
	int colons = 0, digits = 0;
	bool frac = false;

	for (; l < end; l++) {
		if (*l >= '0' && *l <= '9') {
			if (frac) {
				if (digits < 6) {
					us = us * 10 + (*l - '0');
					digits++;
				}
			} else if (part < 100000000000ll) {
				part = part * 10 + (*l - '0');
			}
		} else if (*l == ':' && !frac && colons < 2) {
			if (v + part > 100000000000ll)
				return -1;
			v = (v + part) * 60;
			part = 0;
			colons++;
		} else if (*l == '.' && !frac) {
			frac = true;
		} else {
			return -1;
		}
	}
	while (digits++ < 6)
		us *= 10;
	if (v + part > 1000000000000ll)
		return -1; /* past 30000 years */
	return (v + part) * 1000000 + us;
}

/*
 * strace -T ends a finished call with its duration, " <0.000123>": take
 * it off @body; microseconds, or -1 without one.
 */
static int64_t take_duration(char *body)
{
	size_t n = strlen(body);
	char *lt;
	int64_t d;

	if (n < 4 || body[n - 1] != '>')
		return -1;
	lt = strrchr(body, '<');
	if (!lt || lt == body || lt[-1] != ' ')
		return -1;
	d = parse_stamp(lt + 1, body + n - 1);
	if (d < 0 || !strchr(lt, '.'))
		return -1;
	lt[-1] = '\0';
	return d;
}

/*
 * A call on a replayed descriptor: the time since the last such call (of
 * any process) ended is a pause before it, so a serial replay keeps the
 * log's timeline; that holds while calls do not overlap, as those of one
 * process, or of processes taking turns, do.  When calls of two processes
 * overlap, the replay has a job per process instead, each with its own
 * pauses (tb_emit).  Without durations in the log, it has no pauses.
 */
static void note_time(struct st *s, long pid)
{
	int64_t start;

	if (s->t_start < 0 || s->t_dur < 0) {
		tb_untimed(s->tb, "the log has no call durations (strace -T)");
		return;
	}
	start = s->t_start + s->day;
	/* -tt restarts at midnight. */
	if (s->have_last && start + 43200000000ll < s->last_end) {
		s->day += 86400000000ll;
		start += 86400000000ll;
	}
	tb_stamp(s->tb, start, start + s->t_dur);
	if (s->have_last && start < s->last_end && pid != s->last_pid)
		tb_concurrent(s->tb);
	else if (s->have_last && start > s->last_end)
		tb_pause(s->tb, (uint64_t)(start - s->last_end));
	if (!s->have_last || start + s->t_dur > s->last_end)
		s->last_end = start + s->t_dur;
	s->have_last = true;
	s->last_pid = pid;
}

/* mlockall(MCL_FUTURE) of @as: MLOCK_ON_, MLOCK_ONFAULT_; or -1. */
static int future_lock_of(const struct st *s, long as)
{
	unsigned i;

	for (i = 0; i < s->nr_futures; i++)
		if (s->futures[i].as == as)
			return s->futures[i].how;
	return -1;
}

static void drop_future_lock(struct st *s, long as)
{
	unsigned i;

	for (i = 0; i < s->nr_futures; i++)
		if (s->futures[i].as == as) {
			s->futures[i] = s->futures[--s->nr_futures];
			return;
		}
}

/*
 * The part [*@lo, *@hi) of addresses [@a, @a + @len) of address space @as
 * that piece @m maps; false if none.
 */
static bool piece_of(const struct smap *m, long as, uint64_t a, uint64_t len,
		     uint64_t *lo, uint64_t *hi)
{
	if (m->as != as || a + len <= m->addr || a >= m->addr + m->len)
		return false;
	*lo = a > m->addr ? a : m->addr;
	*hi = a + len < m->addr + m->len ? a + len : m->addr + m->len;
	return true;
}

/* A copy of @p appended to *@v (of *@n, owned): 0 or -ENOMEM. */
static int push_path(char ***v, unsigned *n, const char *p)
{
	char **m = realloc(*v, (*n + 1) * sizeof(*m));

	if (!m)
		return -ENOMEM;
	*v = m;
	if (!(m[*n] = strdup(p)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

static void exec_free(struct sexec *x)
{
	free(x->path);
	free(x->interp_path);
}

static const struct sexec *exec_of(const struct st *s, const char *path)
{
	unsigned i;

	for (i = 0; i < s->nr_execs; i++)
		if (!strcmp(s->execs[i].path, path))
			return &s->execs[i];
	return NULL;
}

/*
 * The segments of image @x (a program, or its interpreter) that execve()
 * of @pid mapped, on descriptor (@tab, @key): each PT_LOAD with file
 * bytes mapped privately (elf_map()), and padzero()'s copy of the page
 * its file bytes end in.  Placed at the bias its line gives, else (@runs:
 * the image that starts running, at its entry) where its first fault
 * shows, else nowhere a fault can reach.
 */
static int exec_image(struct st *s, long pid, long as, long tab, long key,
		      const struct sexec *x, bool runs)
{
	/*
	 * Beyond user addresses, 2^48 apart (a stand-in per image, taken
	 * round again after 32766): no call or fault of the log lands there.
	 */
	uint64_t base = (1ull << 63) +
			((uint64_t)(s->images++ % 32766 + 1) << 48);
	unsigned i;
	int err, vm;

	if (x->have_bias) {
		base = x->bias;
	} else if (runs && x->have_entry) {
		void *n = realloc(s->placing,
				  (s->nr_placing + 1) * sizeof(*s->placing));

		if (!n)
			return -ENOMEM;
		s->placing = n;
		s->placing[s->nr_placing].pid = pid;
		s->placing[s->nr_placing].base = base;
		s->placing[s->nr_placing++].entry = x->entry;
	}
	for (i = 0; i < x->nload; i++) {
		uint64_t pgoff = x->load[i].vaddr % 4096, zero;
		uint64_t off = x->load[i].off - pgoff;
		uint64_t len = (x->load[i].filesz + pgoff + 4095) & ~4095ull;
		uint64_t addr = base + x->load[i].vaddr - pgoff;
		int prot = x->load[i].prot;

		if (!x->load[i].filesz)
			continue;
		vm = tb_mmap(s->tb, tab, key, off, len,
			     ((prot & PROT_X_) ? TB_MAP_EXEC : 0) |
				     ((prot & PROT_W_) ? TB_MAP_WRITE : 0));
		if (vm == -ENOMEM)
			return vm;
		if (vm < 0)
			break;
		if (!s->first_mmap)
			s->first_mmap = s->line;
		err = add_piece(s, &(struct smap){ as, addr, len, off,
						    (unsigned)vm, true,
						    (prot & PROT_W_) != 0 });
		if (err)
			return err;
		zero = x->load[i].off + x->load[i].filesz;
		if (x->load[i].memsz > x->load[i].filesz && zero % 4096 &&
		    (prot & PROT_W_))
			tb_touch(s->tb, (unsigned)vm, zero & ~4095ull,
				 TOUCH_COW);
	}
	return 0;
}

/*
 * @pid's first fault after its execve() placed an image there (its
 * entry, an instruction fetch): its mappings move from their stand-in
 * base to the address the fault shows.
 */
static void place_image(struct st *s, long pid, uint64_t addr,
			uint64_t code)
{
	unsigned i, k;

	for (k = 0; k < s->nr_placing && s->placing[k].pid != pid; k++)
		;
	if (k == s->nr_placing)
		return;
	if ((code & 0x10) && addr >= s->placing[k].entry &&
	    !((addr - s->placing[k].entry) % 4096)) {
		uint64_t lo = s->placing[k].base;
		uint64_t bias = addr - s->placing[k].entry;
		long as = as_of(s, pid);

		for (i = 0; i < s->nr_maps; i++)
			if (s->maps[i].as == as && s->maps[i].addr >= lo &&
			    s->maps[i].addr - lo < 1ull << 48)
				s->maps[i].addr = s->maps[i].addr - lo + bias;
	}
	s->placing[k] = s->placing[--s->nr_placing];
}

/*
 * The struct file open_exec() gives the image at @path, on descriptor
 * key *@key of table @tab: a key no call can name.
 */
static int open_image(struct st *s, long tab, const char *path, long *key)
{
	int file = tb_file(s->tb, path);

	if (file == -ENOSPC)
		return serr(s, "more than %d files", TB_MAX_PATHS);
	if (file < 0)
		return file;
	*key = -1000000 - s->exec_keys++;
	return tb_open(s->tb, tab, *key, file);
}

/*
 * execve() of @path by @pid succeeded: a new address space, and what
 * the kernel read and mapped of the program (fs/exec.c, fs/binfmt_elf.c).
 * The exec'd file is a struct file of its own, which the mappings keep:
 * its readahead state is theirs.
 *
 *   prepare_binprm()     kernel_read() of the first 256 bytes
 *   load_elf_phdrs()     kernel_read() of the program headers
 *   PT_INTERP            kernel_read() of the interpreter's path
 *   elf_load(), each PT_LOAD with file bytes, in order:
 *     elf_map()          mmap(MAP_PRIVATE) of its pages, at bias + p_vaddr
 *     padzero()          p_memsz > p_filesz and the file part ends inside
 *                        a page: clear_user() of the rest of that page,
 *                        a write fault (a copy of the file's page: its
 *                        read goes through filemap_fault(), no
 *                        fault-around); a segment not writable faults
 *                        nothing (the access is refused first)
 *
 * The interpreter (ld.so) likewise, when its file is replayed too: its
 * 64-byte ELF header and program headers read after the program's, its
 * segments mapped after the program's (exec_image()).  Without a
 * '# ralab exec' line for @path (a log 'ralab record' did not describe),
 * only the new address space.
 */
static int exec_program(struct st *s, long pid, const char *arg)
{
	long as = as_of(s, pid), tab = table_of(s, pid), key, ikey = 0;
	const struct sexec *x, *ix;
	char path[1024];
	unsigned i;
	int err;

	place_image(s, pid, 0, 0); /* a new image: the old one never ran */
	if (as != pid) {
		/* A vfork()ed child leaves its parent's memory as it was. */
		for (i = 0; i < s->nr_vms; i++)
			if (s->vms[i].pid == pid) {
				s->vms[i] = s->vms[--s->nr_vms];
				break;
			}
		as = pid;
	} else {
		drop_future_lock(s, as);
		err = unmap_range(s, as, 0, UINT64_MAX, pid);
		if (err)
			return err;
	}
	/*
	 * A program under /usr/lib is one too (not a library the loader
	 * reads at every start).
	 */
	if (!at_path(s, pid, NULL, arg, path) || pseudo_path(path))
		return 0;
	x = exec_of(s, path);
	if (!x && !s->collect)
		return 0;
	if (s->collect && push_path(&s->execd, &s->nr_execd, path))
		return -ENOMEM;
	err = open_image(s, tab, path, &key);
	if (err)
		return err;
	note_time(s, pid);
	tb_read(s->tb, tab, key, 0, 256, TB_RET_FILE);
	if (x && x->elf) {
		tb_read(s->tb, tab, key, x->phoff, x->phlen, TB_RET_FILE);
		if (x->interp_len)
			tb_read(s->tb, tab, key, x->interp_off, x->interp_len,
				TB_RET_FILE);
	}
	/*
	 * The interpreter, from a file replayed too (its directory
	 * evicted): open_exec(), its ELF header and program headers read,
	 * then mapped after the program's segments (load_elf_interp()),
	 * where the mmap region has room: its first fault, at its entry,
	 * tells where.
	 */
	ix = x && x->elf && x->interp_path &&
			     regular_path(s, x->interp_path, "") ?
		     exec_of(s, x->interp_path) :
		     NULL;
	if (ix && (!ix->elf || !ix->have_entry))
		ix = NULL;
	if (ix) {
		err = open_image(s, tab, ix->path, &ikey);
		if (err)
			return err;
		tb_read(s->tb, tab, ikey, 0, 64, TB_RET_FILE);
		tb_read(s->tb, tab, ikey, ix->phoff, ix->phlen, TB_RET_FILE);
	}
	err = x && x->elf ?
		      exec_image(s, pid, as, tab, key, x, !x->interp_len) :
		      0;
	if (!err && ix)
		err = exec_image(s, pid, as, tab, ikey, ix, true);
	tb_close(s->tb, tab, key);
	if (ix)
		tb_close(s->tb, tab, ikey);
	return err;
}

/*
 * mmap(ADDR, LEN, PROT, FLAGS, FD, OFF) = ADDR, munmap(ADDR, LEN),
 * madvise(ADDR, LEN, ADVICE) and execve() (which empties the address
 * space): the mappings of replayed files, whose page faults the log may
 * hold.
 */
static int handle_vm_call(struct st *s, long pid, const char *call,
			  char **argv, int argc, long long ret)
{
	long as = as_of(s, pid);
	long long a0, a1, fd, off;
	bool populate, locked, privwr;
	unsigned i;
	int err, vm, fut;

	if (call[0] == 'e')
		return ret || argc < 1 ? 0 : exec_program(s, pid, argv[0]);
	/*
	 * A failed madvise(MADV_REMOVE) may have punched the VMAs before a
	 * locked one (EINVAL there): not replayed, noted if the log locks.
	 */
	if (ret < 0 && call[1] == 'a' && argc >= 3 && s->locks_seen &&
	    !strcmp(argv[2], "MADV_REMOVE") && !s->nr_remove_failed++)
		tb_note(s->tb, "madvise(MADV_REMOVE) failed at line %u (at a locked VMA it punches the VMAs before it): not replayed",
			s->line);
	/*
	 * A call that failed changed nothing, but for a madvise() DONTNEED,
	 * COLD or PAGEOUT that failed with EINVAL at a locked VMA after
	 * doing the VMAs before it (or with ENOMEM at a gap): replayed,
	 * the model stops where the kernel did.
	 */
	if (ret < 0 &&
	    (call[1] != 'a' || argc < 3 ||
	     (madv_of(argv[2]) != MADV_DONTNEED_ &&
	      madv_of(argv[2]) != MADV_COLD_ &&
	      madv_of(argv[2]) != MADV_PAGEOUT_) ||
	     !num(argv[0], &a0) || a0 < 0 || a0 % 4096))
		return 0;
	if (argc < (call[1] == 'u' ? 2 : 3) || !num(argv[1], &a1) || a1 < 0 ||
	    a1 > (1ll << 56))
		return ret < 0 ? 0 : serr(s, "%s(): bad arguments", call);
	a1 = (a1 + 4095) & ~4095ll;
	if (call[1] == 'm') {
		if (argc < 6 || !num(argv[4], &fd) || !num(argv[5], &off) ||
		    off < 0)
			return serr(s, "mmap(): bad arguments");
		/* A mapping starts on a page, in memory and in the file. */
		if (ret % 4096 || off % 4096)
			return serr(s, "mmap(): %s not a multiple of 4096",
				    ret % 4096 ? "an address" : "an offset");
		/* A new mapping replaces what was there (MAP_FIXED). */
		err = unmap_range(s, as, (uint64_t)ret, (uint64_t)a1, pid);
		if (err)
			return err;
		if (fd < 0 || strstr(argv[3], "MAP_ANONYMOUS") ||
		    !tb_known(s->tb, table_of(s, pid), (long)fd))
			return 0;
		/*
		 * MAP_POPULATE faults every page in inside mmap(), faults
		 * the log does not show (get_user_pages(), not the
		 * program's): read faults, but for a private writable
		 * mapping, whose populate copies each page (FOLL_WRITE).
		 */
		populate = strstr(argv[3], "MAP_POPULATE") != NULL;
		/*
		 * MAP_LOCKED, or an mlockall(MCL_FUTURE) before: locked,
		 * and populated as mlock() does (MCL_ONFAULT: not).
		 */
		fut = future_lock_of(s, as);
		locked = strstr(argv[3], "MAP_LOCKED") != NULL ||
			 fut == MLOCK_ON_;
		s->locks_seen |= locked || fut >= 0;
		privwr = strstr(argv[3], "MAP_PRIVATE") &&
			 strstr(argv[2], "PROT_WRITE");
		if ((populate || locked) && privwr) {
			if (!s->nr_priv_populate++)
				tb_note(s->tb, "mmap(%s) of a private writable mapping at line %u is replayed without its populate (it copies each page)",
					locked ? "MAP_LOCKED" : "MAP_POPULATE",
					s->line);
			populate = locked = false;
		}
		note_time(s, pid);
		vm = tb_mmap(s->tb, table_of(s, pid), (long)fd, (uint64_t)off,
			     (uint64_t)a1,
			     (locked ? TB_MAP_LOCKED :
			      populate ? TB_MAP_POPULATE : 0) |
				     (strstr(argv[2], "PROT_EXEC") ?
					      TB_MAP_EXEC : 0) |
				     (strstr(argv[2], "PROT_WRITE") ?
					      TB_MAP_WRITE : 0));
		if (vm == -ENOMEM)
			return vm;
		if (vm < 0)
			return 0;
		if (!s->first_mmap)
			s->first_mmap = s->line;
		/* MCL_FUTURE | MCL_ONFAULT: locked, nothing faulted in. */
		if (fut == MLOCK_ONFAULT_ && !privwr)
			tb_mlock(s->tb, (unsigned)vm, (uint64_t)off,
				 (uint64_t)a1, MLOCK_ONFAULT_);
		return add_piece(s, &(struct smap){ as, (uint64_t)ret,
						    (uint64_t)a1, (uint64_t)off,
						    (unsigned)vm,
						    strstr(argv[3], "MAP_PRIVATE") != NULL,
						    strstr(argv[2], "PROT_WRITE") != NULL });
	}
	if (!num(argv[0], &a0) || a0 < 0 || a0 % 4096)
		return serr(s, "%s(): bad address '%.30s' (a page's, to succeed)",
			    call, argv[0]);
	if (call[1] == 'u') {
		for (i = 0; i < s->nr_maps; i++)
			if (s->maps[i].as == as &&
			    s->maps[i].addr < (uint64_t)a0 + (uint64_t)a1 &&
			    (uint64_t)a0 < s->maps[i].addr + s->maps[i].len) {
				note_time(s, pid);
				break;
			}
		return unmap_range(s, as, (uint64_t)a0, (uint64_t)a1, pid);
	}
	/* madvise: each mapping it covers, in file offsets. */
	for (i = 0; i < s->nr_maps; i++) {
		const struct smap *m = &s->maps[i];
		uint64_t lo, hi;
		int adv;

		if (!piece_of(m, as, (uint64_t)a0, (uint64_t)a1, &lo, &hi))
			continue;
		/*
		 * MADV_REMOVE (of a shared writable mapping; it fails on
		 * others) punches the file's range under the mapping.
		 */
		if (!strcmp(argv[2], "MADV_REMOVE")) {
			note_time(s, pid);
			tb_punch_vm(s->tb, m->vm, m->off + (lo - m->addr),
				    hi - lo);
			continue;
		}
		adv = madv_of(argv[2]);
		/*
		 * MADV_POPULATE_WRITE of a private mapping copies each page
		 * (do_cow_fault()); a populate_write is through a shared one.
		 */
		if (adv == MADV_POPULATE_WRITE_ && m->priv) {
			if (!s->nr_madv_other++)
				tb_note(s->tb, "madvise(MADV_POPULATE_WRITE) of a private mapping at line %u is not replayed",
					s->line);
			continue;
		}
		/*
		 * MADV_PAGEOUT of a private mapping would meet the anonymous
		 * copies its writes made, which ralab does not track.
		 */
		if (adv == MADV_PAGEOUT_ && m->priv) {
			if (!s->nr_madv_other++)
				tb_note(s->tb, "madvise(MADV_PAGEOUT) of a private mapping at line %u is not replayed",
					s->line);
			continue;
		}
		if (adv < 0) {
			if (!s->nr_madv_other++)
				tb_note(s->tb, "madvise(%.40s) of a mapping at line %u is not replayed",
					argv[2], s->line);
			continue;
		}
		note_time(s, pid);
		tb_madvise(s->tb, m->vm, m->off + (lo - m->addr), hi - lo, adv);
	}
	return 0;
}

/*
 * mprotect(ADDR, LEN, PROT): each mapping of a replayed file the range
 * covers gets the protections, in file offsets (ld.so's PROT_NONE gap
 * between a library's segments, RELRO's read-only part of its data).  A
 * call that failed is left out (one that fails at a gap in the range
 * after changing the VMAs before it is not followed).
 */
static int handle_mprotect(struct st *s, long pid, char **argv, int argc,
			   long long ret)
{
	long as = as_of(s, pid);
	long long a0, a1;
	unsigned i;
	int prot;

	if (ret < 0)
		return 0;
	if (argc < 3 || !num(argv[0], &a0) || a0 < 0 || a0 % 4096 ||
	    !num(argv[1], &a1) || a1 < 0 || a1 > (1ll << 56))
		return serr(s, "mprotect(): bad arguments");
	a1 = (a1 + 4095) & ~4095ll;
	prot = (strstr(argv[2], "PROT_READ") ? PROT_R_ : 0) |
	       (strstr(argv[2], "PROT_WRITE") ? PROT_W_ : 0) |
	       (strstr(argv[2], "PROT_EXEC") ? PROT_X_ : 0);
	for (i = 0; i < s->nr_maps; i++) {
		const struct smap *m = &s->maps[i];
		uint64_t lo, hi;

		if (!piece_of(m, as, (uint64_t)a0, (uint64_t)a1, &lo, &hi))
			continue;
		note_time(s, pid);
		tb_mprotect(s->tb, m->vm, m->off + (lo - m->addr), hi - lo,
			    prot);
	}
	return 0;
}

/*
 * mlock(ADDR, LEN), mlock2(ADDR, LEN, FLAGS), munlock(ADDR, LEN),
 * mlockall(FLAGS), munlockall(): each mapping of a replayed file the range
 * covers (all of them for mlockall) is locked, in file offsets; the
 * populate of mlock() (and MCL_CURRENT without MCL_ONFAULT) faults its
 * pages in, faults the log does not show.  A private writable mapping's
 * would copy each page: not replayed, noted.  MCL_FUTURE locks the later
 * mappings of the address space (handle_vm_call()).
 */
static int handle_mlock(struct st *s, long pid, const char *call,
			char **argv, int argc, long long ret)
{
	long as = as_of(s, pid);
	uint64_t lo = 0, hi = UINT64_MAX;
	long long a0, a1;
	unsigned i;
	int how;

	if (ret < 0)
		return 0; /* failed: a lock it may have set is not followed */
	s->locks_seen |= call[0] == 'm' && call[1] == 'l';
	if (!strcmp(call, "mlockall") || !strcmp(call, "munlockall")) {
		bool on = call[1] == 'l';
		const char *fl = argc >= 1 ? argv[0] : "";
		bool onfault = strstr(fl, "MCL_ONFAULT") != NULL;

		if (on && argc < 1)
			return serr(s, "mlockall(): bad arguments");
		how = !on ? MLOCK_OFF_ : onfault ? MLOCK_ONFAULT_ : MLOCK_ON_;
		/*
		 * Each call sets mm->def_flags anew: locked with MCL_FUTURE,
		 * not otherwise (munlockall() too).
		 */
		drop_future_lock(s, as);
		if (on && strstr(fl, "MCL_FUTURE")) {
			if (!tb_grow((void **)&s->futures, &s->cap_futures,
				     s->nr_futures + 1, sizeof(*s->futures)))
				return -ENOMEM;
			s->futures[s->nr_futures++] =
				(struct future_lock){ as, how };
		}
		if (on && !strstr(fl, "MCL_CURRENT"))
			return 0;
	} else {
		if (argc < 2 || !num(argv[0], &a0) || a0 < 0 ||
		    !num(argv[1], &a1) || a1 < 0 || a1 > (1ll << 56))
			return serr(s, "%s(): bad arguments", call);
		how = call[1] == 'u' ? MLOCK_OFF_ :
		      (call[5] == '2' && argc >= 3 &&
		       strstr(argv[2], "MLOCK_ONFAULT")) ? MLOCK_ONFAULT_ :
							    MLOCK_ON_;
		/* The kernel rounds the range out to pages. */
		lo = (uint64_t)a0 & ~4095ull;
		hi = ((uint64_t)a0 + (uint64_t)a1 + 4095) & ~4095ull;
	}
	/* In address order, as the kernel walks the VMAs. */
	for (;;) {
		const struct smap *m = NULL;
		uint64_t a, b;

		for (i = 0; i < s->nr_maps; i++) {
			const struct smap *c = &s->maps[i];

			if (c->as == as && c->addr + c->len > lo &&
			    c->addr < hi && (!m || c->addr < m->addr))
				m = c;
		}
		if (!m)
			break;
		a = lo > m->addr ? lo : m->addr;
		b = hi < m->addr + m->len ? hi : m->addr + m->len;
		lo = m->addr + m->len;
		if (how != MLOCK_OFF_ && m->priv && m->wr) {
			if (!s->nr_priv_mlock++)
				tb_note(s->tb, "%s() of a private writable mapping at line %u is not replayed (its populate copies each page)",
					call, s->line);
			continue;
		}
		note_time(s, pid);
		tb_mlock(s->tb, m->vm, m->off + (a - m->addr), b - a, how);
	}
	return 0;
}

/*
 * A page fault, as 'ralab record' writes it into the log (from the
 * exceptions:page_fault_user tracepoint, at its time among the calls):
 *   PID TIME # ralab fault addr=0xADDR error_code=0xCODE
 * (wait_us: how long the task slept in D after it, its I/O wait, which
 * the replay counts as the fault's duration rather than a pause.)
 * A fault on a page not present in a mapping of a replayed file is a
 * touch of that page: a read (do_read_fault(), with fault-around), or a
 * write (x86 error code bit 1: no fault-around; through a shared mapping
 * "write", the folio dirtied; through a private one "cow"); faults on
 * present pages (protection, bit 0) change nothing here.
 */
static int handle_fault(struct st *s, long pid, int64_t t, const char *l)
{
	unsigned long long addr, code, wait = 0;
	long as = as_of(s, pid);
	unsigned i;
	int n = -1, wn = -1;

	s->faults = true;
	if (sscanf(l, "# ralab fault addr=%llx error_code=%llx%n", &addr,
		   &code, &n) != 2 || n < 0 ||
	    (l[n] && (sscanf(l + n, " wait_us=%llu%n", &wait, &wn) != 1 ||
		      wn < 0 || l[n + wn] || wait > 1000000000000ull)))
		return serr(s, "'# ralab fault' needs addr=0xADDRESS error_code=0xCODE [wait_us=N]");
	if (s->nr_placing)
		place_image(s, pid, addr, code);
	if (code & 1)
		return 0;
	for (i = 0; i < s->nr_maps; i++) {
		const struct smap *m = &s->maps[i];

		if (m->as != as || addr < m->addr || addr - m->addr >= m->len)
			continue;
		tb_call(s->tb, pid);
		s->t_start = t;
		/* Its wait is the device's time, not the program's. */
		s->t_dur = t >= 0 ? (int64_t)wait : -1;
		note_time(s, pid);
		/*
		 * A write fault: no fault-around; through a shared mapping
		 * it dirties the folio, through a private one it copies it.
		 */
		tb_touch(s->tb, m->vm, m->off + (addr - m->addr),
			 !(code & 2) ? TOUCH_READ : m->priv ? TOUCH_COW
							     : TOUCH_WRITE);
		return 0;
	}
	return 0;
}

static int handle_call(struct st *s, long pid, char *call);
static bool dec_arg_to(const char **p, uint64_t *v, char stop);

static int attach_gap(struct st *s, const char *path, long long fd,
		      long long off, unsigned long long pages,
		      unsigned long long total, bool folios)
{
	struct attach_gap *g;

	if (s->nr_gaps == 256)
		return 0; /* the notes stop at eight anyway */
	g = realloc(s->gaps, (s->nr_gaps + 1) * sizeof(*g));
	if (!g)
		return -ENOMEM;
	s->gaps = g;
	g += s->nr_gaps;
	*g = (struct attach_gap){ strdup(path), fd, off, pages, total, folios };
	if (!g->path)
		return -ENOMEM;
	s->nr_gaps++;
	return 0;
}

/* The notes of the attach section, once the log's files are known. */
static void attach_notes(struct st *s)
{
	unsigned i;

	for (i = 0; i < s->nr_gaps; i++) {
		const struct attach_gap *g = &s->gaps[i];

		/* Its readahead state given (f_ra=): nothing left out. */
		if (!tb_replayed(s->tb, g->path) || tb_fra_set(s->tb, g->path))
			continue;
		if (g->pages && g->folios)
			tb_note(s->tb, "%.200s had %llu of its %llu pages in the page cache when 'ralab record' attached (line %u), which the replay starts with, but not the readahead state of its descriptors: the replay starts them as just opened",
				g->path, g->pages, g->total, s->attach_line);
		else if (g->pages)
			tb_note(s->tb, "%.200s had %llu of its %llu pages in the page cache when 'ralab record' attached (line %u): the replay starts it cold",
				g->path, g->pages, g->total, s->attach_line);
		else
			tb_note(s->tb, "descriptor %lld of %.200s was at offset %lld when 'ralab record' attached (line %u): its readahead state then is not known, the replay starts it as just opened there",
				g->fd, g->path, g->off, s->attach_line);
	}
}

/*
 * '# ralab attach-folios fd=N IDX+NR:ORDER[:r],...': the folios the file
 * open at descriptor N had in the page cache at the attach (runs of NR
 * pages from page IDX in folios of ORDER; ":r", PG_readahead on them),
 * put there before the replay's first call ('cached').
 */
static int attach_folios(struct st *s, long pid, const char *l)
{
	long tab = table_of(s, pid);
	long long fd;
	int n = -1;

	if (!s->in_attach)
		return serr(s, "'# ralab attach-folios' outside the '# ralab attach' section");
	if (sscanf(l, "fd=%lld %n", &fd, &n) != 1 || n < 0 || fd < 0)
		return serr(s, "'# ralab attach-folios' needs fd=N and IDX+NR:ORDER[:r],...");
	for (l += n; *l;) {
		uint64_t index, nr, order;
		bool mark = false;

		if (!dec_arg_to(&l, &index, '+') || *l++ != '+' ||
		    !dec_arg_to(&l, &nr, ':') || *l++ != ':' ||
		    !dec_arg_to(&l, &order, ':') || order > 9 || !nr ||
		    nr % (1ull << order) || index % (1ull << order) ||
		    index > (UINT64_MAX >> 13) - nr)
			return serr(s, "'# ralab attach-folios': a run is IDX+NR:ORDER[:r], NR whole folios of ORDER (0 to 9) from an IDX aligned to them");
		if (*l == ':') {
			if (l[1] != 'r')
				return serr(s, "'# ralab attach-folios': a run ends ':r' (marked PG_readahead) or not at all");
			mark = true;
			l += 2;
		}
		if (*l && *l != ',')
			return serr(s, "'# ralab attach-folios': runs are separated by ','");
		if (*l)
			l++;
		tb_cached(s->tb, tab, (long)fd, index, nr, (unsigned)order,
			  mark);
	}
	return 0;
}

/*
 * A line of the section 'ralab record -p' starts the log with (@body,
 * after its "PID TIME " prefix): its bounds, the files it found with
 * pages in the page cache, and its calls, which open again what the
 * process had open.  The replay starts those files as just opened and
 * cold; where the kernel's state then was otherwise, a note says so.
 */
static int handle_attach(struct st *s, long pid, char *body)
{
	unsigned long long pages, total, folios = 0;
	char path[1024];
	int n = -1, m = -1;

	if (!strncmp(body, "# ralab attach pid=", 19)) {
		if (s->attach_line || s->calls)
			return serr(s, "'# ralab attach' after the log's first line");
		s->attach_line = s->line;
		s->in_attach = true;
		return 0;
	}
	if (!strcmp(body, "# ralab attached")) {
		if (!s->in_attach)
			return serr(s, "'# ralab attached' without '# ralab attach' before it");
		s->in_attach = false;
		return 0;
	}
	if (!strncmp(body, "# ralab attach-folios ", 22))
		return attach_folios(s, pid, body + 22);
	if (strncmp(body, "# ralab attach-cached ", 22))
		return serr(s, "unknown '# ralab attach' line: '%.40s'", body);
	if (!s->in_attach)
		return serr(s, "'# ralab attach-cached' outside the '# ralab attach' section");
	body += 22;
	if (!path_arg(body, path, sizeof(path)) ||
	    !(body = strrchr(body, '"')) ||
	    sscanf(body + 1, " pages=%llu of=%llu%n", &pages, &total, &n) != 2 ||
	    n < 0 || !pages || pages > total ||
	    (body[1 + n] &&
	     (sscanf(body + 1 + n, " folios=%llu%n", &folios, &m) != 1 ||
	      m < 0 || body[1 + n + m])))
		return serr(s, "'# ralab attach-cached' needs \"PATH\" pages=N of=M [folios=K] (0 < N <= M)");
	/* Its folios given: the replay starts with them, not cold. */
	return attach_gap(s, path, -1, 0, pages, total, folios > 0);
}

static int handle_call(struct st *s, long pid, char *call)
{
	char *paren = strchr(call, '('), *close_p, *eq, *argv[MAX_ARGS];
	long long ret, fd, a2, a3;
	int argc;
	struct pos *p;
	long tab = table_of(s, pid);

	if (!paren)
		return serr(s, "no '(' in the call");
	*paren = '\0';
	tb_call(s->tb, pid);
	/*
	 * The return value follows the last " = " that comes after a ')'
	 * (strace pads short calls with spaces: "close(3)          = 0").
	 */
	eq = NULL;
	{
		char *e = paren + 1, *q;

		while ((q = strstr(e, " = "))) {
			char *b = q;

			while (b > paren && b[-1] == ' ')
				b--;
			if (b > paren && b[-1] == ')')
				eq = b - 1;
			e = q + 3;
		}
	}
	if (!eq)
		return serr(s, "no return value in '%.60s('", call);
	*eq = '\0';
	close_p = eq + 1;
	while (*close_p == ' ' || *close_p == '=')
		close_p++;
	if (*close_p == '?')
		return 0; /* the process exited in the call */
	ret = strtoll(close_p, NULL, 0);
	if (!strcmp(call, "clone") || !strcmp(call, "clone3") ||
	    !strcmp(call, "fork") || !strcmp(call, "vfork")) {
		int err = 0;

		s->calls++;
		if (ret > 0)
			err = clone_vm(s, pid, (long)ret,
				       call[0] == 'v' ||
					       strstr(paren + 1, "CLONE_VM"));
		if (!err && ret > 0)
			err = clone_fs(s, pid, (long)ret,
				       strstr(paren + 1, "CLONE_FS") != NULL);
		if (!err && ret > 0 && strstr(paren + 1, "CLONE_FILES"))
			return share_table(s, pid, (long)ret);
		if (!err && ret > 0)
			err = fork_table(s, pid, (long)ret);
		return err;
	}
	argc = split_args(paren + 1, argv, MAX_ARGS);
	if (argc < 0)
		return serr(s, "unbalanced arguments in %s()", call);
	s->calls++;

	if (!strcmp(call, "openat") || !strcmp(call, "open") ||
	    !strcmp(call, "openat2")) {
		char path[1024];
		int pi = call[4] == 'a' ? 1 : 0, file, err;

		if (argc < pi + 2)
			return serr(s, "%s() with %d arguments", call, argc);
		if (ret < 0)
			return 0;
		if (!at_path(s, pid, pi ? argv[0] : NULL, argv[pi], path))
			return serr(s, "%s(): cannot read the path", call);
		p = pos_of(s, tab, (long)ret, true);
		if (!p)
			return -ENOMEM;
		free(p->path);
		p->path = strdup(path);
		p->pos = 0;
		p->grp = 0; /* a new open file: no dup()s, no fork()ed copies */
		p->append = strstr(argv[pi + 1], "O_APPEND") != NULL;
		p->wronly = strstr(argv[pi + 1], "O_WRONLY") != NULL;
		if (!regular_path(s, path, argv[pi + 1]))
			return tb_open(s->tb, tab, (long)ret, -1);
		file = tb_file(s->tb, path);
		if (file == -ENOSPC)
			return serr(s, "more than %d files", TB_MAX_PATHS);
		if (file < 0)
			return file;
		/* O_DIRECT: its reads go to the device, not the cache. */
		err = has_odirect(argv[pi + 1]) ?
			      tb_open_direct(s->tb, tab, (long)ret, file) :
			      tb_open(s->tb, tab, (long)ret, file);
		/* Open at an attach: its readahead state may be known. */
		if (!err && s->in_attach)
			tb_attach_open(s->tb, tab, (long)ret);
		/* O_TRUNC needs a descriptor that may write. */
		if (!err && strstr(argv[pi + 1], "O_TRUNC") &&
		    (strstr(argv[pi + 1], "O_WRONLY") ||
		     strstr(argv[pi + 1], "O_RDWR"))) {
			note_time(s, pid);
			tb_truncate(s->tb, tab, (long)ret, 0);
		}
		return err;
	}
	if (!strcmp(call, "mmap") || !strcmp(call, "munmap") ||
	    !strcmp(call, "madvise") || !strcmp(call, "execve"))
		return handle_vm_call(s, pid, call, argv, argc, ret);
	if (!strcmp(call, "mprotect"))
		return handle_mprotect(s, pid, argv, argc, ret);
	if (!strcmp(call, "mlock") || !strcmp(call, "mlock2") ||
	    !strcmp(call, "munlock") || !strcmp(call, "mlockall") ||
	    !strcmp(call, "munlockall"))
		return handle_mlock(s, pid, call, argv, argc, ret);
	if (!strcmp(call, "msync")) {
		/* Writeback of the mapping's file, as fsync (MS_SYNC). */
		long long a0;
		long as = as_of(s, pid);
		unsigned i;

		if (ret || argc < 1 || !num(argv[0], &a0) || a0 < 0)
			return 0;
		for (i = 0; i < s->nr_maps; i++)
			if (s->maps[i].as == as && (uint64_t)a0 >= s->maps[i].addr &&
			    (uint64_t)a0 - s->maps[i].addr < s->maps[i].len) {
				note_time(s, pid);
				tb_msync(s->tb, s->maps[i].vm);
				break;
			}
		return 0;
	}
	if (!strcmp(call, "io_uring_setup")) {
		if (ret >= 0 && !s->nr_uring++)
			tb_note(s->tb, "io_uring set up at line %u: its reads are not system calls of their own, so not in the log, and not replayed",
				s->line);
		return 0;
	}
	if (!strcmp(call, "chdir") || !strcmp(call, "fchdir")) {
		/* Where later relative paths of the process lead. */
		char path[1024];
		long long dfd;

		if (ret || argc < 1)
			return 0;
		if (call[0] == 'c') {
			if (!at_path(s, pid, NULL, argv[0], path))
				return serr(s, "chdir(): cannot read the path");
			return set_cwd(s, pid, path);
		}
		if (num(argv[0], &dfd) &&
		    (p = pos_of(s, tab, (long)dfd, false)) && p->path)
			return set_cwd(s, pid, p->path);
		if (!s->nr_fchdir++)
			tb_note(s->tb, "fchdir() at line %u to a directory not opened in the log: relative paths after it are taken as written",
				s->line);
		return 0;
	}
	if (!strcmp(call, "truncate") || !strcmp(call, "stat") ||
	    !strcmp(call, "lstat") ||
	    ((!strcmp(call, "newfstatat") || !strcmp(call, "statx")) &&
	     argc >= 2 && strcmp(argv[1], "\"\""))) {
		/*
		 * Calls on a path: truncate(2), which cuts the file as
		 * ftruncate does; a stat, whose size the declared size must
		 * cover, as an fstat's.
		 */
		char path[1024];
		bool at = call[0] == 'n' || !strcmp(call, "statx");
		int err;

		if (ret)
			return 0;
		if (argc < 2 || !at_path(s, pid, at ? argv[0] : NULL,
					 argv[at ? 1 : 0], path))
			return serr(s, "%s(): cannot read the path", call);
		if (!regular_path(s, path, ""))
			return 0;
		if (call[0] != 't') {
			a2 = stat_size(argv, argc);
			return a2 >= 0 ? tb_stat_path(s->tb, path, (uint64_t)a2) : 0;
		}
		if (!num(argv[1], &a2) || a2 < 0)
			return serr(s, "truncate(): bad length '%.30s'", argv[1]);
		note_time(s, pid);
		err = tb_truncate_path(s->tb, tab, path, (uint64_t)a2);
		return err == -ENOSPC ? serr(s, "more than %d files", TB_MAX_PATHS) : err;
	}
	if (argc < 1 || !num(argv[0], &fd))
		return 0; /* not about a descriptor we know */
	if (!strcmp(call, "dup") || !strcmp(call, "dup2") ||
	    !strcmp(call, "dup3") ||
	    (!strcmp(call, "fcntl") && argc >= 2 &&
	     strstr(argv[1], "F_DUPFD"))) {
		if (ret < 0)
			return 0;
		return dup_fd(s, tab, (long)fd, (long)ret);
	}
	if (!strcmp(call, "sendfile")) {
		/* sendfile(out, in, offset, count): the source is argv[1]. */
		if (argc < 4 || !num(argv[1], &fd))
			return serr(s, "sendfile() with %d arguments", argc);
	}
	if ((!strcmp(call, "splice") || !strcmp(call, "sendfile") ||
	     !strcmp(call, "copy_file_range")) && ret > 0) {
		/* Into a replayed file: a write, not replayed. */
		long long out;

		if (argc >= 3 && num(argv[call[1] == 'e' ? 0 : 2], &out) &&
		    tb_known(s->tb, tab, (long)out))
			tb_note(s->tb, "%s() into a replayed file at line %u (a write) is not replayed",
				call, s->line);
	}
	if (!tb_known(s->tb, tab, (long)fd))
		return 0;
	note_time(s, pid);
	p = pos_of(s, tab, (long)fd, false);
	if (!p)
		p = pos_of(s, tab, (long)fd, true);
	if (!p)
		return -ENOMEM;

	if (!strcmp(call, "read") || !strcmp(call, "readv")) {
		uint64_t count;

		if (argc < 3)
			return serr(s, "%s() with %d arguments", call, argc);
		if (call[4] == 'v')
			count = iov_total(argv[1]);
		else if (!num(argv[2], &a2) || a2 < 0)
			return serr(s, "read(): bad count '%.30s'", argv[2]);
		else
			count = (uint64_t)a2;
		if (ret >= 0) {
			tb_read(s->tb, tab, (long)fd, p->pos, count, ret);
			set_pos(s, p, p->pos + (uint64_t)ret);
		}
	} else if (!strcmp(call, "pread64") || !strcmp(call, "preadv") ||
		   !strcmp(call, "preadv2")) {
		uint64_t count;
		bool v2 = call[6] == '2', dc;

		/* preadv2() at offset -1 reads at the file position. */
		if (argc < 4 || !num(argv[3], &a3) || (a3 < 0 && !(v2 && a3 == -1)))
			return serr(s, "%s(): bad offset", call);
		if (call[5] == 'v')
			count = iov_total(argv[1]);
		else if (!num(argv[2], &a2) || a2 < 0)
			return serr(s, "pread64(): bad count '%.30s'", argv[2]);
		else
			count = (uint64_t)a2;
		dc = v2 && argc >= 5 && rwf_dontcache(argv[4]);
		if (ret >= 0 && a3 == -1) {
			tb_read_rwf(s->tb, tab, (long)fd, p->pos, count, ret,
				    dc);
			set_pos(s, p, p->pos + (uint64_t)ret);
		} else if (ret >= 0) {
			tb_read_rwf(s->tb, tab, (long)fd, (uint64_t)a3, count,
				    ret, dc);
		}
	} else if (!strcmp(call, "fsync") || !strcmp(call, "fdatasync")) {
		if (!ret)
			tb_fsync(s->tb, tab, (long)fd);
	} else if (!strcmp(call, "fallocate")) {
		long long a1;

		if (ret)
			return 0;
		if (argc < 4 || !num(argv[2], &a2) || !num(argv[3], &a3) ||
		    a2 < 0 || a3 <= 0)
			return serr(s, "fallocate(): bad offset or length");
		/*
		 * Mode 0 or KEEP_SIZE allocate; PUNCH_HOLE (with KEEP_SIZE,
		 * as it must be: 3) makes a hole, ZERO_RANGE with KEEP_SIZE
		 * (17) unwritten extents, ZERO_RANGE alone (16) too inside
		 * the file (one moving EOF is not replayed: emit_call());
		 * collapsing and inserting are not replayed.
		 */
		if ((num(argv[1], &a1) && a1 == 0) ||
		    !strcmp(argv[1], "FALLOC_FL_KEEP_SIZE")) {
			tb_fallocate(s->tb, tab, (long)fd, (uint64_t)a2,
				     (uint64_t)a3, argv[1][0] == 'F');
		} else if ((num(argv[1], &a1) && a1 == 3) ||
			   !strcmp(argv[1],
				   "FALLOC_FL_KEEP_SIZE|FALLOC_FL_PUNCH_HOLE")) {
			tb_punch(s->tb, tab, (long)fd, (uint64_t)a2,
				 (uint64_t)a3, TB_PUNCH_HOLE);
		} else if ((num(argv[1], &a1) && a1 == 17) ||
			   !strcmp(argv[1],
				   "FALLOC_FL_KEEP_SIZE|FALLOC_FL_ZERO_RANGE")) {
			tb_punch(s->tb, tab, (long)fd, (uint64_t)a2,
				 (uint64_t)a3, TB_ZERO_KEEP);
		} else if ((num(argv[1], &a1) && a1 == 16) ||
			   !strcmp(argv[1], "FALLOC_FL_ZERO_RANGE")) {
			tb_punch(s->tb, tab, (long)fd, (uint64_t)a2,
				 (uint64_t)a3, TB_ZERO_GROW);
		} else if (!s->nr_falloc_mode++) {
			tb_note(s->tb, "fallocate() with %.60s at line %u is not replayed",
				argv[1], s->line);
		}
	} else if (!strcmp(call, "fstat") || !strcmp(call, "newfstatat") ||
		   !strcmp(call, "statx")) {
		/*
		 * fstat(fd), or newfstatat()/statx() of "" with AT_EMPTY_PATH
		 * (of a path: above): the size the file had then, which the
		 * declared size must cover (a file read in part, then cut
		 * short).
		 */
		if (!ret && (call[0] == 'f' ||
			     (argc >= 2 && !strcmp(argv[1], "\"\"") &&
			      arg_with(argv, argc, "AT_EMPTY_PATH"))) &&
		    (a2 = stat_size(argv, argc)) >= 0)
			tb_stat(s->tb, tab, (long)fd, (uint64_t)a2);
	} else if (!strcmp(call, "ftruncate")) {
		if (ret)
			return 0;
		if (argc >= 2 && num(argv[1], &a2) && a2 >= 0)
			tb_truncate(s->tb, tab, (long)fd, (uint64_t)a2);
	} else if (!strcmp(call, "write") || !strcmp(call, "writev") ||
		   !strcmp(call, "pwrite64") || !strcmp(call, "pwritev") ||
		   !strcmp(call, "pwritev2")) {
		/*
		 * A write to a replayed file: the folios it makes are what
		 * later reads find cached.  write(2) moves the position;
		 * pwritev2() at offset -1 writes at it too.
		 */
		bool at_pos = call[0] == 'w';
		bool dc = !strcmp(call, "pwritev2") && argc >= 5 &&
			  rwf_dontcache(argv[4]);
		uint64_t end;

		if (argc < 3)
			return serr(s, "%s() with %d arguments", call, argc);
		if (!at_pos) {
			if (argc < 4 || !num(argv[3], &a3) ||
			    (a3 < 0 && !(call[7] == '2' && a3 == -1)))
				return serr(s, "%s(): bad offset", call);
			at_pos = a3 == -1;
		}
		if (ret > 0 && p->append &&
		    tb_cur_size(s->tb, tab, (long)fd, &end)) {
			/* Truncated before: where its end is, is known. */
			tb_write_rwf(s->tb, tab, (long)fd, end, (uint64_t)ret,
				     dc);
			set_pos(s, p, end + (uint64_t)ret);
		} else if (ret > 0 && p->append) {
			if (!s->nr_append++)
				tb_note(s->tb, "a write to %.200s, opened O_APPEND, at line %u: writes at the end of a file are not replayed",
					p->path ? p->path : "a file", s->line);
		} else if (ret > 0) {
			tb_write_rwf(s->tb, tab, (long)fd,
				     at_pos ? p->pos : (uint64_t)a3,
				     (uint64_t)ret, dc);
			if (at_pos)
				set_pos(s, p, p->pos + (uint64_t)ret);
		}
	} else if (!strcmp(call, "fcntl") && argc >= 3 &&
		   strstr(argv[1], "F_SETFL")) {
		/*
		 * O_DIRECT set or cleared on the open file (dd iflag=direct
		 * on stdin, dd oflag=direct before a short last block): its
		 * reads and writes from here on go past the page cache, or
		 * through it; the same readahead state either way.
		 */
		if (!ret)
			tb_setfl(s->tb, tab, (long)fd, has_odirect(argv[2]));
	} else if (!strcmp(call, "lseek")) {
		if (ret >= 0)
			set_pos(s, p, (uint64_t)ret);
	} else if (!strcmp(call, "close")) {
		tb_close(s->tb, tab, (long)fd);
		/* A forked child's copy: the parent's stays (tb_close()). */
		if (p->pid == tab) {
			p->used = false;
			free(p->path);
			p->path = NULL;
		}
	} else if (!strcmp(call, "fadvise64")) {
		int adv;

		if (argc < 4 || !num(argv[1], &a2) || !num(argv[2], &a3) ||
		    a2 < 0 || a3 < 0)
			return serr(s, "fadvise64(): bad arguments");
		adv = advice_of(argv[3]);
		if (adv < 0)
			return serr(s, "fadvise64(): unknown advice '%.30s'", argv[3]);
		if (!ret)
			tb_advise(s->tb, tab, (long)fd, (uint64_t)a2,
				  (uint64_t)a3, adv, false);
	} else if (!strcmp(call, "readahead")) {
		if (argc < 3 || !num(argv[1], &a2) || !num(argv[2], &a3) ||
		    a2 < 0 || a3 < 0)
			return serr(s, "readahead(): bad arguments");
		if (!ret)
			tb_advise(s->tb, tab, (long)fd, (uint64_t)a2,
				  (uint64_t)a3, 3, true);
	} else if (!strcmp(call, "copy_file_range") ||
		   !strcmp(call, "sendfile") || !strcmp(call, "splice")) {
		/*
		 * Splice reads the source into a pipe (splice(), from a file:
		 * filemap_splice_read()); sendfile() and copy_file_range()
		 * (which splices where it cannot share blocks) through one of
		 * their own, until their count or EOF.
		 */
		const char *offp;
		uint64_t at = p->pos;
		long long o, len;
		bool own = false, sf = call[1] == 'e';

		if (argc < (sf ? 4 : 6))
			return serr(s, "%s() with %d arguments", call, argc);
		if (!num(argv[sf ? 3 : 4], &len) || len < 0)
			return serr(s, "%s(): bad length '%.30s'", call,
				    argv[sf ? 3 : 4]);
		offp = sf ? argv[2] : argv[1];
		while (*offp == ' ')
			offp++;
		if (*offp == '[' && num(offp + 1, &o) == false) {
			char tmp[32];
			size_t k;

			for (k = 0; offp[k + 1] && offp[k + 1] != ']' && k < 31; k++)
				tmp[k] = offp[k + 1];
			tmp[k] = '\0';
			if (num(tmp, &o) && o >= 0) {
				at = (uint64_t)o;
				own = true;
			}
		}
		if ((uint64_t)len > RALAB_MAX_POS - at)
			return serr(s, "%s(): offset and length past 2^63 - 1", call);
		tb_splice(s->tb, tab, (long)fd, at, (uint64_t)len, ret,
			  call[0] != 's' || sf);
		if (!own && ret > 0)
			set_pos(s, p, p->pos + (uint64_t)ret);
	}
	return 0;
}

static char *skip_prefix(char *l, long *pid, int64_t *t)
{
	char *end;

	*pid = 0;
	*t = -1;
	if (!strncmp(l, "[pid ", 5)) {
		*pid = strtol(l + 5, &end, 10);
		if (*end != ']')
			return NULL;
		l = end + 1;
	} else if (*l >= '0' && *l <= '9') {
		/* "PID " (with -f) or directly the time. */
		long v = strtol(l, &end, 10);

		if (*end == ' ') {
			*pid = v;
			l = end;
		}
	}
	while (*l == ' ')
		l++;
	/* -tt time: HH:MM:SS.uuuuuu (or -ttt seconds) */
	if (*l >= '0' && *l <= '9') {
		char *t0 = l;

		while ((*l >= '0' && *l <= '9') || *l == ':' || *l == '.')
			l++;
		*t = parse_stamp(t0, l);
		while (*l == ' ')
			l++;
	}
	return l;
}

static struct pending *pending_of(struct st *s, long pid, bool create)
{
	unsigned i;

	for (i = 0; i < MAX_PENDING; i++)
		if (s->pend[i].text && s->pend[i].pid == pid)
			return &s->pend[i];
	for (i = 0; create && i < MAX_PENDING; i++)
		if (!s->pend[i].text) {
			s->pend[i].pid = pid;
			return &s->pend[i];
		}
	return NULL;
}

/* A whole decimal number ending at a space, comma, @stop or the end. */
static bool dec_arg_to(const char **p, uint64_t *v, char stop)
{
	const char *a = *p;
	uint64_t x = 0;

	if (*a < '0' || *a > '9')
		return false;
	for (; *a >= '0' && *a <= '9'; a++) {
		if (x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*a - '0');
	}
	if (*a && *a != ' ' && *a != ',' && *a != stop)
		return false;
	*p = a;
	*v = x;
	return true;
}

static bool dec_arg(const char **p, uint64_t *v)
{
	return dec_arg_to(p, v, ',');
}

/* "A,B,..." ascending multiples of 4 KiB into @lay. */
static int breaks_arg(struct st *s, const char **p, struct tb_layout *lay)
{
	unsigned cap = 0;
	uint64_t v;

	for (;;) {
		if (!dec_arg(p, &v))
			return serr(s, "breaks: a list of byte offsets, as in breaks=4096,65536");
		if (!v || v % 4096 || (lay->nbrk && v <= lay->brk[lay->nbrk - 1]))
			return serr(s, "breaks: %llu is not a multiple of 4 KiB above the one before",
				    (unsigned long long)v);
		if (!tb_grow((void **)&lay->brk, &cap, lay->nbrk + 1,
			     sizeof(*lay->brk)))
			return -ENOMEM;
		lay->brk[lay->nbrk++] = v;
		if (**p != ',')
			return 0;
		(*p)++;
	}
}

/* "A+N,..." holes on 4 KiB boundaries, ascending and apart, into @lay. */
static int holes_arg(struct st *s, const char **p, struct tb_layout *lay)
{
	unsigned cap = 0;
	uint64_t a, n;

	for (;;) {
		if (!dec_arg_to(p, &a, '+') || **p != '+' ||
		    (++*p, !dec_arg(p, &n)))
			return serr(s, "holes: a list of OFFSET+LENGTH in bytes, as in holes=4096+8192");
		if (!n || a % 4096 || n % 4096 || n > UINT64_MAX - a ||
		    (lay->nhole && a <= lay->hole[2 * lay->nhole - 1]))
			return serr(s, "holes: %llu+%llu is not whole 4 KiB blocks after the hole before",
				    (unsigned long long)a, (unsigned long long)n);
		if (!tb_grow((void **)&lay->hole, &cap, 2 * lay->nhole + 2,
			     sizeof(*lay->hole)))
			return -ENOMEM;
		lay->hole[2 * lay->nhole] = a;
		lay->hole[2 * lay->nhole + 1] = a + n;
		lay->nhole++;
		if (**p != ',')
			return 0;
		(*p)++;
	}
}

/*
 * What 'ralab record' appends to the log, one line per file read:
 *   # ralab file "PATH" size=N [fs=NAME] [read_ahead_kb=N max_sectors_kb=N
 *     max_hw_sectors_kb=N] [breaks=OFF,...] [holes=OFF+LEN,...] [unaligned=N]
 *     [cached=1]
 * cached=1 says the file was all in the page cache before the run (a
 * configuration file the system had read, say; 'ralab record' as root
 * marks a file read that got no page-cache folio during the run): its
 * reads make no device reads and no readahead, so it is not replayed.
 * Other lines starting with '#' are comments ("# ralab pages-added" too,
 * which 'ralab record' reads back).
 */
#define KEY_IS(k) (klen == sizeof(k) - 1 && !strncmp(key, k, klen))

/*
 * f_ra=START:SIZE:ASYNC_SIZE:ORDER:MMAP_MISS:PREV_POS (START '?': not
 * known, PREV_POS -1 or a byte offset): the readahead state of the file's
 * descriptor when 'ralab record -p' attached.
 */
static int fra_arg(struct st *s, const char **p, struct tb_layout *lay)
{
	uint64_t v[5], prev = 0;
	const char *a;
	unsigned i;

	lay->fra.start_known = **p != '?';
	if (!lay->fra.start_known) {
		(*p)++;
		v[0] = 0;
		if (*(*p)++ != ':')
			goto bad;
	}
	for (i = lay->fra.start_known ? 0 : 1; i < 5; i++)
		if (!dec_arg_to(p, &v[i], ':') || *(*p)++ != ':')
			goto bad;
	a = *p;
	if (!strncmp(a, "-1", 2) && (!a[2] || a[2] == ' ')) {
		*p += 2;
		lay->fra.prev_pos = -1;
	} else if (dec_arg(p, &prev) && prev <= INT64_MAX) {
		lay->fra.prev_pos = (int64_t)prev;
	} else {
		goto bad;
	}
	if (**p && **p != ' ')
		goto bad;
	if (v[1] > UINT32_MAX || v[2] > v[1] || v[3] > RALAB_MAX_ORDER ||
	    v[4] > UINT16_MAX)
		return serr(s, "f_ra: out of range (size and async_size 32-bit, async_size <= size, order <= %d, mmap_miss 16-bit)",
			    RALAB_MAX_ORDER);
	lay->fra.start = v[0];
	lay->fra.size = (unsigned)v[1];
	lay->fra.async_size = (unsigned)v[2];
	lay->fra.order = (unsigned)v[3];
	lay->fra.mmap_miss = (unsigned)v[4];
	lay->has_fra = true;
	return 0;
bad:
	return serr(s, "f_ra: START:SIZE:ASYNC_SIZE:ORDER:MMAP_MISS:PREV_POS (START a page or '?', PREV_POS -1 or a byte offset)");
}

static int handle_annotation(struct st *s, const char *l)
{
	struct tb_layout lay = { 0 };
	char path[1024];
	bool have_size = false;
	unsigned dev = 0;
	int err = 0;

	if (!strncmp(l, "# ralab faults ", 15)) {
		s->faults |= !strncmp(l + 15, "recorded", 8);
		return 0;
	}
	if (strncmp(l, "# ralab file ", 13))
		return 0;
	l += 13;
	if (!path_arg(l, path, sizeof(path)) || !*path)
		return serr(s, "'# ralab file' needs a quoted path");
	tidy_path(path); /* as the calls' paths are */
	l = strchr(l + 1, '"') + 1; /* path_arg saw the closing quote */
	while (!err && *l) {
		const char *key = l, *eq;
		uint64_t v = 0;
		size_t klen;

		if (*l == ' ') {
			l++;
			continue;
		}
		eq = strchr(l, '=');
		if (!eq || memchr(l, ' ', (size_t)(eq - l))) {
			err = serr(s, "'# ralab file': '%.40s' is not KEY=VALUE", l);
			break;
		}
		klen = (size_t)(eq - key);
		l = eq + 1;
		if (KEY_IS("fs")) {
			size_t n = strcspn(l, " ");

			if (!n || n >= sizeof(lay.fs))
				err = serr(s, "fs: a filesystem name, as in fs=xfs");
			else
				memcpy(lay.fs, l, n);
			l += n;
			continue;
		}
		if (KEY_IS("breaks")) {
			err = breaks_arg(s, &l, &lay);
			continue;
		}
		if (KEY_IS("holes")) {
			err = holes_arg(s, &l, &lay);
			continue;
		}
		if (KEY_IS("f_ra")) {
			err = fra_arg(s, &l, &lay);
			continue;
		}
		if (!KEY_IS("size") && !KEY_IS("unaligned") &&
		    !KEY_IS("read_ahead_kb") && !KEY_IS("max_sectors_kb") &&
		    !KEY_IS("max_hw_sectors_kb") && !KEY_IS("cached")) {
			err = serr(s, "'# ralab file': unknown key '%.*s' (size, fs, read_ahead_kb, max_sectors_kb, max_hw_sectors_kb, breaks, holes, unaligned, cached, f_ra)",
				   klen > 40 ? 40 : (int)klen, key);
		} else if (!dec_arg(&l, &v) || *l == ',') {
			err = serr(s, "'# ralab file': %.*s needs a whole number",
				   (int)klen, key);
		} else if (KEY_IS("size")) {
			lay.size = v;
			have_size = true;
		} else if (KEY_IS("unaligned")) {
			lay.dropped = v > UINT32_MAX ? UINT32_MAX : (unsigned)v;
		} else if (KEY_IS("cached")) {
			if (v > 1)
				err = serr(s, "cached: 0 or 1 (1: all of the file was in the page cache before the run)");
			lay.cached = v == 1;
		} else if (v > UINT32_MAX) {
			err = serr(s, "%.*s: %llu is too large", (int)klen, key,
				   (unsigned long long)v);
		} else if (KEY_IS("read_ahead_kb")) {
			lay.ra_kb = (unsigned)v;
			dev |= 1;
		} else if (KEY_IS("max_sectors_kb")) {
			lay.msk_kb = (unsigned)v;
			dev |= 2;
		} else {
			lay.mhw_kb = (unsigned)v;
			dev |= 4;
		}
	}
	if (!err && !have_size)
		err = serr(s, "'# ralab file' needs size=");
	if (!err && dev && dev != 7)
		err = serr(s, "'# ralab file': read_ahead_kb, max_sectors_kb and max_hw_sectors_kb go together");
	if (!err && lay.nbrk && lay.brk[lay.nbrk - 1] >= lay.size)
		err = serr(s, "breaks: %llu is past the end of the file (size=%llu)",
			   (unsigned long long)lay.brk[lay.nbrk - 1],
			   (unsigned long long)lay.size);
	if (!err && lay.nhole &&
	    lay.hole[2 * lay.nhole - 1] > lay.size + (4096 - lay.size % 4096) % 4096)
		err = serr(s, "holes: the one at %llu ends past the end of the file (size=%llu)",
			   (unsigned long long)lay.hole[2 * lay.nhole - 2],
			   (unsigned long long)lay.size);
	if (err) {
		free(lay.brk);
		free(lay.hole);
		return err;
	}
	lay.have_dev = dev == 7;
#undef KEY_IS
	err = tb_layout(s->tb, path, &lay);
	if (err == -EEXIST)
		return serr(s, "a second '# ralab file' line for %.200s", path);
	return err;
}

static int handle_line(struct st *s, char *l)
{
	long pid;
	int64_t t;
	char *body, *u;
	struct pending *pd;
	int err;

	if (*l == '#')
		return handle_annotation(s, l);
	body = skip_prefix(l, &pid, &t);
	if (!body)
		return serr(s, "malformed process prefix");
	if (!s->have_first) {
		s->have_first = true;
		s->first_pid = pid;
	}
	if (!strncmp(body, "# ralab fault ", 14))
		return handle_fault(s, pid, t, body);
	if (!strncmp(body, "# ralab attach", 14))
		return handle_attach(s, pid, body);
	if (!strncmp(body, "+++ exited", 10) || !strncmp(body, "+++ killed", 10)) {
		/*
		 * A process's descriptors and memory go with it (not a
		 * thread's, nor a table or address space others share).
		 */
		if (table_of(s, pid) == pid && !table_shared(s, pid)) {
			unsigned i;

			tb_exit(s->tb, pid);
			for (i = 0; i < s->nr_pos; i++)
				if (s->pos[i].used && s->pos[i].pid == pid) {
					s->pos[i].used = false;
					free(s->pos[i].path);
					s->pos[i].path = NULL;
				}
		}
		if (as_of(s, pid) == pid)
			return unmap_range(s, pid, 0, UINT64_MAX, pid);
		return 0;
	}
	if (!*body || !strncmp(body, "---", 3) || !strncmp(body, "+++", 3) ||
	    !strncmp(body, "strace:", 7))
		return 0; /* signals, exits, strace's own messages */
	/*
	 * The call strace -p left (Ctrl-C) before it returned: what it did
	 * is not known.
	 */
	if (strstr(body, " <detached ...>"))
		return 0;
	u = strstr(body, " <unfinished ...>");
	if (u) {
		*u = '\0';
		pd = pending_of(s, pid, true);
		if (!pd)
			return serr(s, "too many unfinished calls");
		free(pd->text);
		pd->text = strdup(body);
		pd->t0 = t;
		return pd->text ? 0 : -ENOMEM;
	}
	if (!strncmp(body, "<... ", 5)) {
		char *r = strstr(body, " resumed>"), *joined;
		size_t n;

		if (!r)
			return serr(s, "malformed 'resumed' line");
		pd = pending_of(s, pid, false);
		if (!pd)
			return 0; /* its start was before the log began */
		r += strlen(" resumed>");
		n = strlen(pd->text) + strlen(r) + 1;
		joined = malloc(n);
		if (!joined)
			return -ENOMEM;
		snprintf(joined, n, "%s%s", pd->text, r);
		free(pd->text);
		pd->text = NULL;
		s->t_start = pd->t0;
		s->t_dur = take_duration(joined);
		err = handle_call(s, pid, joined);
		free(joined);
		return err;
	}
	if (!((*body >= 'a' && *body <= 'z') || *body == '_') ||
	    !strchr(body, '('))
		return serr(s, "not an strace line: '%.40s'", body);
	s->t_start = t;
	s->t_dur = take_duration(body);
	if (s->in_attach && !strncmp(body, "lseek(", 6)) {
		long long fd, off;
		struct pos *p;

		if (sscanf(body + 6, "%lld, %lld", &fd, &off) == 2 && off > 0 &&
		    (p = pos_of(s, table_of(s, pid), (long)fd, false)) &&
		    p->path && !p->wronly &&
		    (err = attach_gap(s, p->path, fd, off, 0, 0, false)))
			return err;
	}
	return handle_call(s, pid, body);
}

bool ralab__is_strace(const char *text, size_t len)
{
	char head[256];
	size_t n = len < sizeof(head) - 1 ? len : sizeof(head) - 1;
	char *nl, *body;
	int64_t t;
	long pid;

	memcpy(head, text, n);
	head[n] = '\0';
	nl = strchr(head, '\n');
	if (nl)
		*nl = '\0';
	/*
	 * "[PID ]HH:MM:SS.uuuuuu call(" (-tt) or "[PID ]SECONDS.uuuuuu
	 * call(" (-ttt), or "[pid PID] ..."
	 */
	if (!((head[0] >= '0' && head[0] <= '9') || !strncmp(head, "[pid", 4)))
		return false;
	body = skip_prefix(head, &pid, &t);
	return body && t >= 0 &&
	       ((strchr(body, '(') &&
		 ((*body >= 'a' && *body <= 'z') || *body == '_')) ||
		!strncmp(body, "# ralab fault ", 14) ||
		!strncmp(body, "# ralab attach pid=", 19));
}

static void st_free(struct st *s)
{
	unsigned i;

	for (i = 0; i < s->nr_evicted; i++)
		free(s->evicted[i]);
	free(s->evicted);
	for (i = 0; i < s->nr_gaps; i++)
		free(s->gaps[i].path);
	free(s->gaps);
	for (i = 0; i < MAX_PENDING; i++)
		free(s->pend[i].text);
	for (i = 0; i < s->nr_pos; i++)
		free(s->pos[i].path);
	free(s->pos);
	free(s->tables);
	free(s->maps);
	free(s->futures);
	free(s->vms);
	for (i = 0; i < s->nr_cwds; i++)
		free(s->cwds[i].dir);
	free(s->cwds);
	free(s->fss);
	for (i = 0; i < s->nr_execs; i++)
		exec_free(&s->execs[i]);
	free(s->execs);
	free(s->placing);
	for (i = 0; i < s->nr_execd; i++)
		free(s->execd[i]);
	free(s->execd);
	tb_free(s->tb);
}

/*
 * The '# ralab evicted "PATH"' lines of @text (NUL-terminated), into
 * s->evicted: 'ralab record' appends them after the run, and the opens
 * they decide come before.  A line that is not a quoted path is an error.
 */
static int find_evicted(struct st *s, const char *text)
{
	const char *l = text;
	unsigned line = 1;

	for (; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL, line++) {
		char path[1024];

		if (strncmp(l, "# ralab evicted ", 16))
			continue;
		if (!path_arg(l + 16, path, sizeof(path)) || path[0] != '/') {
			s->line = line;
			return serr(s, "'# ralab evicted' needs a quoted absolute path");
		}
		if (push_path(&s->evicted, &s->nr_evicted, path))
			return -ENOMEM;
	}
	return 0;
}

/* "N" or "0xN" ending at @stop, a space or the end, into *@v. */
static bool exec_num(const char **p, uint64_t *v, char stop)
{
	const char *a = *p;
	char *end;

	if (*a < '0' || *a > '9')
		return false;
	errno = 0;
	*v = strtoull(a, &end, a[0] == '0' && a[1] == 'x' ? 16 : 10);
	if (errno || (*end && *end != ' ' && *end != stop))
		return false;
	*p = end;
	return true;
}

/* "OFF+LEN" */
static bool exec_range(const char **p, uint64_t *off, uint64_t *len)
{
	return exec_num(p, off, '+') && **p == '+' && (++*p, true) &&
	       exec_num(p, len, ' ') && *len <= 65536;
}

/*
 * One segment of 'loads=', "OFFSET:VADDR:FILESZ:MEMSZ:PROT" at *@l, into
 * @x; *@l moves past it.
 */
static int exec_load(struct st *s, const char **l, struct sexec *x)
{
	struct sexec_load *ld = &x->load[x->nload];
	uint64_t *f[4] = { &ld->off, &ld->vaddr, &ld->filesz, &ld->memsz };
	unsigned k;
	int prot = 0;

	if (x->nload == MAX_EXEC_LOADS)
		return serr(s, "'# ralab exec': more than %d loads",
			    MAX_EXEC_LOADS);
	for (k = 0; k < 4; k++)
		if (!exec_num(l, f[k], ':') || *(*l)++ != ':')
			return serr(s, "'# ralab exec': loads=OFFSET:VADDR:FILESZ:MEMSZ:PROT,...");
	for (; **l == 'r' || **l == 'w' || **l == 'x' || **l == '-'; (*l)++)
		prot |= **l == 'r' ? PROT_R_ :
			**l == 'w' ? PROT_W_ :
			**l == 'x' ? PROT_X_ : 0;
	if (**l && **l != ',' && **l != ' ')
		return serr(s, "'# ralab exec': a segment's PROT is letters r, w, x (or -)");
	if (ld->off % 4096 != ld->vaddr % 4096 || ld->filesz > ld->memsz ||
	    ld->off > 1ull << 48 || ld->filesz > 1ull << 48 ||
	    ld->vaddr > 1ull << 48 || ld->memsz > 1ull << 48)
		return serr(s, "'# ralab exec': segment %u: OFFSET and VADDR differ modulo 4096, or FILESZ > MEMSZ, or past 2^48",
			    x->nload + 1);
	ld->prot = prot;
	x->nload++;
	return 0;
}

/*
 * One '# ralab exec' line (after its prefix), into @x:
 *   "PATH" elf=0                  (not ELF: a script)
 *   "PATH" phdrs=OFF+LEN [interp=OFF+LEN] [bias=ADDR]
 *          loads=OFF:VADDR:FILESZ:MEMSZ:PROT,...
 * numbers decimal or 0x hexadecimal; PROT: r, w, x letters or '-'.
 */
static int exec_fields(struct st *s, const char *l, struct sexec *x)
{
	char path[1024];
	bool have_ph = false, have_loads = false;

	memset(x, 0, sizeof(*x));
	x->elf = true;
	if (!path_arg(l, path, sizeof(path)) || !*path)
		return serr(s, "'# ralab exec' needs a quoted path");
	tidy_path(path);
	l = strchr(strchr(l, '"') + 1, '"') + 1;
	while (*l) {
		if (*l == ' ') {
			l++;
		} else if (!strncmp(l, "elf=", 4)) {
			l += 4;
			if ((*l != '0' && *l != '1') || (l[1] && l[1] != ' '))
				return serr(s, "'# ralab exec': elf= 0 or 1");
			x->elf = *l++ == '1';
		} else if (!strncmp(l, "phdrs=", 6)) {
			l += 6;
			if (!exec_range(&l, &x->phoff, &x->phlen) || !x->phlen)
				return serr(s, "'# ralab exec': phdrs=OFFSET+LENGTH (1 to 65536 bytes)");
			have_ph = true;
		} else if (!strncmp(l, "interp=", 7)) {
			l += 7;
			if (!exec_range(&l, &x->interp_off, &x->interp_len))
				return serr(s, "'# ralab exec': interp=OFFSET+LENGTH (up to 65536 bytes)");
		} else if (!strncmp(l, "entry=", 6)) {
			l += 6;
			if (!exec_num(&l, &x->entry, ' ') ||
			    x->entry >= 1ull << 48)
				return serr(s, "'# ralab exec': entry= an address below 2^48");
			x->have_entry = true;
		} else if (!strncmp(l, "interp_path=", 12)) {
			char ip[1024];

			l += 12;
			if (!path_arg(l, ip, sizeof(ip)) || ip[0] != '/' ||
			    x->interp_path)
				return serr(s, "'# ralab exec': interp_path= a quoted absolute path, once");
			tidy_path(ip);
			x->interp_path = strdup(ip);
			if (!x->interp_path)
				return -ENOMEM;
			l = strchr(strchr(l, '"') + 1, '"') + 1;
		} else if (!strncmp(l, "bias=", 5)) {
			l += 5;
			if (!exec_num(&l, &x->bias, ' ') || x->bias % 4096 ||
			    x->bias >= 1ull << 62)
				return serr(s, "'# ralab exec': bias= a page-aligned user address");
			x->have_bias = true;
		} else if (!strncmp(l, "loads=", 6)) {
			l += 6;
			do {
				int err = exec_load(s, &l, x);

				if (err)
					return err;
			} while (*l == ',' && (l++, true));
			have_loads = true;
		} else {
			return serr(s, "'# ralab exec': unknown '%.20s' (elf, phdrs, interp, interp_path, entry, bias, loads)",
				    l);
		}
	}
	if (x->elf && (!have_ph || !have_loads))
		return serr(s, "'# ralab exec' of an ELF file needs phdrs= and loads=");
	x->path = strdup(path);
	return x->path ? 0 : -ENOMEM;
}

static int exec_line(struct st *s, const char *l, struct sexec *x)
{
	int err = exec_fields(s, l, x);

	if (err)
		exec_free(x);
	return err;
}

/*
 * The '# ralab exec' lines of @text, into s->execs: 'ralab record'
 * appends them after the run; the execve() calls they describe come
 * before.
 */
static int find_execs(struct st *s, const char *text)
{
	const char *l = text;
	unsigned line = 1;

	for (; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL, line++) {
		struct sexec x, *n;
		size_t len = strcspn(l, "\r\n");
		char *one;
		int err;

		if (strncmp(l, "# ralab exec ", 13))
			continue;
		s->line = line;
		one = strndup(l + 13, len - 13);
		if (!one)
			return -ENOMEM;
		err = exec_line(s, one, &x);
		free(one);
		if (err)
			return err;
		if (exec_of(s, x.path)) {
			exec_free(&x);
			return serr(s, "a second '# ralab exec' line for this path");
		}
		n = realloc(s->execs, (s->nr_execs + 1) * sizeof(*n));
		if (!n) {
			exec_free(&x);
			return -ENOMEM;
		}
		s->execs = n;
		n[s->nr_execs++] = x;
	}
	s->line = 0;
	return 0;
}

/* Every line of the log into @s (s->tb made here; st_free() it). */
static int st_parse(struct st *s, const char *text, size_t len)
{
	char *copy, *line, *next;
	int err = 0;

	s->tb = tb_new();
	copy = malloc(len + 1);
	if (!s->tb || !copy) {
		free(copy);
		return -ENOMEM;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	if (memchr(text, '\0', len)) {
		s->line = 1;
		err = serr(s, "NUL byte in the file: not an strace log");
	}
	/* The evicted paths first: they decide which opens are kept. */
	if (!err)
		err = find_evicted(s, copy);
	if (!err)
		err = find_execs(s, copy);
	for (line = copy; !err && line && *line; line = next) {
		char *cr;

		s->line++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		cr = strchr(line, '\r');
		if (cr)
			*cr = '\0';
		if (!*line)
			continue;
		err = handle_line(s, line);
	}
	free(copy);
	if (!err && s->in_attach) {
		s->line = s->attach_line;
		err = serr(s, "the '# ralab attach' section has no end ('# ralab attached'): the log is cut short");
	}
	if (!err)
		attach_notes(s);
	if (!err && s->first_mmap && !s->faults)
		tb_note(s->tb, "a replayed file is mapped at line %u, but the log has no page faults ('ralab record' adds them when run as root): reads through its mappings are not replayed",
			s->first_mmap);
	return err;
}

int ralab__strace_to_ops(const char *name, const char *text, size_t len,
			 char **ops, struct ralab_diag *diag)
{
	struct st s = { .name = name, .diag = diag };
	int err;

	*ops = NULL;
	err = st_parse(&s, text, len);
	if (!err && tb_full(s.tb)) {
		s.line = 0;
		err = serr(&s, "more than %u operations to replay", TB_MAX_OPS);
	}
	if (!err) {
		err = tb_emit(s.tb, "an strace log", name, ops);
		if (err == -E2BIG) {
			s.line = 0;
			err = serr(&s, "reads from more than %d files (mark those that were in the page cache before the run with cached=1 on their '# ralab file' lines: they are not replayed)", TB_MAX_FILES);
		}
		if (err == -ENODATA) {
			s.line = 0;
			err = s.first_mmap && !s.faults ?
				      serr(&s, "no reads of a regular file in this strace log (a file is mapped at line %u, but the log has no page faults: 'ralab record' adds them when run as root)",
					   s.first_mmap) :
			      tb_nr_cached(s.tb) ?
				      serr(&s, "no reads of a regular file to replay: every file this strace log reads is marked cached=1 (in the page cache before the run; 'ralab record --evict FILE' records a run that reads it from the device, or set cached=0 on its '# ralab file' line)") :
				      serr(&s, "no reads of a regular file in this strace log");
		}
	}
	st_free(&s);
	return err;
}

int ralab__strace_paths(const char *name, const char *text, size_t len,
			char ***paths, bool **direct, bool **exec,
			unsigned *n, struct ralab_diag *diag)
{
	struct st s = { .name = name, .diag = diag, .collect = true };
	bool *ex = NULL;
	/*
	 * Every file read, up to all a log can open: the replay takes at
	 * most TB_MAX_FILES of them, but those marked cached=1
	 * afterwards do not count.
	 */
	const char **p = calloc(TB_MAX_PATHS, sizeof(*p));
	bool *dir = calloc(TB_MAX_PATHS, sizeof(*dir));
	char **out = NULL;
	unsigned k, nr = 0;
	int err = p && dir ? 0 : -ENOMEM;

	if (!err)
		err = st_parse(&s, text, len);
	if (!err) {
		nr = tb_paths(s.tb, p, dir, TB_MAX_PATHS);
		if (nr > TB_MAX_PATHS)
			nr = TB_MAX_PATHS;
		out = calloc(nr + 1, sizeof(*out));
		ex = calloc(nr + 1, sizeof(*ex));
		if (!out || !ex)
			err = -ENOMEM;
	}
	for (k = 0; !err && k < nr; k++) {
		unsigned j;

		if (!(out[k] = strdup(p[k])))
			err = -ENOMEM;
		for (j = 0; j < s.nr_execd; j++)
			ex[k] |= !strcmp(s.execd[j], p[k]);
	}
	free(p);
	st_free(&s);
	if (err) {
		for (k = 0; out && k < nr; k++)
			free(out[k]);
		free(out);
		free(dir);
		free(ex);
		return err;
	}
	*paths = out;
	*direct = dir;
	*exec = ex;
	*n = nr;
	return 0;
}
