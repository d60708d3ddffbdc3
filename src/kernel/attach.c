// SPDX-License-Identifier: MIT
/*
 * attach.c - what a running process has when 'ralab record -p PID'
 * attaches to it, as the strace lines that would have made it.
 *
 * strace -p sees only the calls after it attaches: reads on descriptors
 * opened before, and page faults in mappings made before, name files the
 * log never opened.  So the log starts with a section that opens them
 * again, from /proc/PID at the attach:
 *
 *   PID T # ralab attach pid=PID threads=N fds=N maps=N
 *   PID T chdir("CWD") = 0                 where relative paths start
 *   PID T clone(..CLONE_THREAD..) = TID    each other thread: it shares
 *                                          the descriptors and memory
 *   PID T openat(AT_FDCWD, "PATH", FLAGS) = FD   each regular file open
 *   PID T lseek(FD, POS, SEEK_SET) = POS         where its offset was
 *   PID T # ralab attach-folios fd=FD IDX+NR:ORDER[:r],...   its folios
 *                                          then (orders, readahead marks)
 *   PID T # ralab attach-cached "PATH" pages=N of=M folios=K
 *   PID T openat(..) = X; mmap(..., X, OFF) = ADDR; close(X) = 0
 *                                          each file mapping (VMA),
 *   PID T madvise(ADDR, LEN, MADV_..) = 0  with the advice smaps shows
 *                                          (sr, rr, hg, nh in VmFlags)
 *   PID T # ralab attached
 *
 * As root, the page cache too: each file's folios, their orders and
 * readahead marks (/proc/kpageflags), which the replay starts with.  What
 * /proc cannot give is each open file's readahead state (file->f_ra):
 * pagecache.c takes it from the file's first readahead call after the
 * attach (f_ra= on its '# ralab file' line); where it is not known, the
 * replay starts the descriptor as just opened and notes it where the
 * process had read through it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "kernel/tracefs.h"
#include "ralab.h"
#include "workload/workload.h"

#define ATTACH_MAX_FDS 4096
#define ATTACH_MAX_TASKS 4096

struct afd {
	int fd;
	unsigned long long pos;
	unsigned flags; /* fdinfo's, octal there */
	char path[PATH_MAX];
};

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * The numbers of the entries of directory @dir, sorted, into *@out (at
 * most @max); their count, or -errno.
 */
static int numbered(const char *dir, int *out, int max)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);

		if (end == de->d_name || *end || v < 0 || v > INT_MAX)
			continue;
		if (n == max) {
			closedir(d);
			return -E2BIG;
		}
		out[n++] = (int)v;
	}
	closedir(d);
	qsort(out, (size_t)n, sizeof(*out), cmp_int);
	return n;
}

/* A path the log can carry: absolute, printable, not too long. */
static bool usable_path(const char *p)
{
	if (p[0] != '/' || strlen(p) > 1000)
		return false;
	for (; *p; p++)
		if (iscntrl((unsigned char)*p))
			return false;
	return true;
}

/* The open flags strace would print for fdinfo's @flags. */
static void put_flags(FILE *m, unsigned flags)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ O_APPEND, "O_APPEND" },   { O_NONBLOCK, "O_NONBLOCK" },
		{ O_DIRECT, "O_DIRECT" },   { O_NOATIME, "O_NOATIME" },
		{ O_CLOEXEC, "O_CLOEXEC" }, { O_SYNC, "O_SYNC" },
	};
	unsigned i;

	fputs((flags & O_ACCMODE) == O_WRONLY ? "O_WRONLY" :
	      (flags & O_ACCMODE) == O_RDWR   ? "O_RDWR" :
						"O_RDONLY",
	      m);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((flags & names[i].bit) == names[i].bit)
			fprintf(m, "|%s", names[i].name);
}

/* FNV-1a over @n bytes, folded into *@h. */
static void digest(unsigned long long *h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		*h = (*h ^ *c++) * 1099511628211ull;
}

/*
 * The regular file descriptor @fd of @pid into @a: 1, 0 if it is not one
 * (a pipe, a socket, a deleted file: *@skipped counted for the last), or
 * -errno.
 */
static int read_fd(int pid, int fd, struct afd *a, unsigned *skipped)
{
	char link[64], info[64], buf[512], *p;
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	n = readlink(link, a->path, sizeof(a->path) - 1);
	if (n < 0)
		return errno == ENOENT ? 0 : -errno; /* closed meanwhile */
	a->path[n] = '\0';
	if (stat(link, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (!usable_path(a->path) || strstr(a->path, " (deleted)")) {
		(*skipped)++;
		return 0;
	}
	snprintf(info, sizeof(info), "/proc/%d/fdinfo/%d", pid, fd);
	if (kx_read_small(info, buf, sizeof(buf)))
		return 0;
	a->fd = fd;
	a->pos = 0;
	a->flags = 0;
	if ((p = strstr(buf, "pos:")))
		a->pos = strtoull(p + 4, NULL, 10);
	if ((p = strstr(buf, "flags:")))
		a->flags = (unsigned)strtoul(p + 6, NULL, 8);
	return 1;
}

/* Paths given a '# ralab attach-cached' line so far (each once). */
struct seen {
	char **v;
	unsigned n;
};

/* /proc/kpageflags bits (Documentation/admin-guide/mm/pagemap.rst). */
#define KPF_DIRTY 4
#define KPF_WRITEBACK 8
#define KPF_RECLAIM 9 /* PG_reclaim: PG_readahead is the same bit */
#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define FOLIOS_PER_LINE 512

/* A run of folios of one order, for an attach-folios line. */
struct frun {
	uint64_t index, nr; /* pages */
	unsigned order;
	bool mark;
	unsigned in_line;   /* runs on the line so far */
};

static void flush_run(FILE *m, const char *pre, int line_fd, struct frun *r)
{
	if (!r->nr)
		return;
	if (!r->in_line)
		fprintf(m, "%s# ralab attach-folios fd=%d ", pre, line_fd);
	fprintf(m, "%s%llu+%llu:%u%s", r->in_line ? "," : "",
		(unsigned long long)r->index, (unsigned long long)r->nr,
		r->order, r->mark ? ":r" : "");
	if (++r->in_line == FOLIOS_PER_LINE) {
		fputc('\n', m);
		r->in_line = 0;
	}
	r->nr = 0;
}

static void add_folio(FILE *m, const char *pre, int line_fd, struct frun *r,
		      uint64_t index, unsigned order, bool mark)
{
	if (r->nr && !mark && !r->mark && r->order == order &&
	    r->index + r->nr == index) {
		r->nr += 1ull << order;
		return;
	}
	flush_run(m, pre, line_fd, r);
	*r = (struct frun){ index, 1ull << order, order, mark, r->in_line };
}

/* The 64-bit entry of @fd at @index; 0 if it cannot be read. */
static uint64_t entry_at(int fd, uint64_t index)
{
	uint64_t e = 0;

	if (pread(fd, &e, sizeof(e), (off_t)(index * sizeof(e))) != sizeof(e))
		return 0;
	return e;
}

/*
 * The folios of the file open at @f (@size bytes) in the page cache, with
 * their orders and readahead marks, as '# ralab attach-folios fd=@line_fd
 * IDX+NR:ORDER[:r],...' lines (runs of folios of one order; a marked one
 * alone, ":r"); how many folios.  Its cached pages (mincore()) are read
 * in a MADV_RANDOM mapping of the recorder's own, which starts no
 * readahead and leaves a mark where it is (do_async_mmap_readahead()
 * returns at VM_RAND_READ; fault-around maps no marked folio); their
 * frames come from /proc/self/pagemap, their flags from /proc/kpageflags
 * (a large folio: a head, then tails at the frames after it).  Root only:
 * 0 otherwise.  A folio dirty or under writeback is given as clean, and
 * unmarked (PG_reclaim then means reclaim).
 */
static unsigned put_folios(FILE *m, const char *pre, int line_fd, int f,
			   uint64_t size)
{
	uint64_t npages = (size + 4095) / 4096, i, base;
	unsigned char *vec = NULL;
	struct frun run = { 0 };
	unsigned nfolios = 0;
	int pm = -1, kf = -1;
	char *map;

	if (!size || size > ((uint64_t)1 << 40))
		return 0;
	map = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, f, 0);
	if (map == MAP_FAILED)
		return 0;
	vec = malloc((size_t)npages);
	pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	kf = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (!vec || pm < 0 || kf < 0 ||
	    madvise(map, (size_t)size, MADV_RANDOM) ||
	    mincore(map, (size_t)size, vec))
		goto out;
	for (i = 0; i < npages; i++)
		if (vec[i] & 1)
			(void)*(volatile char *)(map + i * 4096);
	base = (uint64_t)(uintptr_t)map / 4096;
	for (i = 0; i < npages;) {
		uint64_t e = vec[i] & 1 ? entry_at(pm, base + i) : 0;
		uint64_t pfn = e & ((1ull << 55) - 1), fl, n = 1;
		unsigned order = 0;

		/* Not present (evicted meanwhile), or no frame (not root). */
		if (!(e >> 63) || !pfn) {
			i++;
			continue;
		}
		fl = entry_at(kf, pfn);
		if (fl >> KPF_COMPOUND_TAIL & 1) {
			i++; /* its head was not seen: left out */
			continue;
		}
		if (fl >> KPF_COMPOUND_HEAD & 1) {
			while (i + n < npages && (vec[i + n] & 1)) {
				uint64_t t = entry_at(pm, base + i + n);

				if (!(t >> 63) ||
				    (t & ((1ull << 55) - 1)) != pfn + n ||
				    !(entry_at(kf, pfn + n) >>
					      KPF_COMPOUND_TAIL & 1))
					break;
				n++;
			}
			while ((1ull << (order + 1)) <= n)
				order++;
			/* Not a whole, aligned folio: its pages left out. */
			if (n != 1ull << order || i % n || order > 9) {
				i += n;
				continue;
			}
		}
		add_folio(m, pre, line_fd, &run, i, order,
			  (fl >> KPF_RECLAIM & 1) &&
				  !(fl >> KPF_WRITEBACK & 1) &&
				  !(fl >> KPF_DIRTY & 1));
		nfolios++;
		i += n;
	}
	flush_run(m, pre, line_fd, &run);
	if (run.in_line)
		fputc('\n', m);
out:
	if (pm >= 0)
		close(pm);
	if (kf >= 0)
		close(kf);
	free(vec);
	munmap(map, (size_t)size);
	return nfolios;
}

/*
 * The '# ralab attach-cached' line of @path (once) and, but for the
 * loader's files (not replayed), its folios ('# ralab attach-folios' on
 * descriptor @line_fd, open in the log then).
 */
static void put_cached(FILE *m, const char *pre, int pid, int fd,
		       int line_fd, const char *path,
		       struct ralab_attach_info *info, struct seen *seen)
{
	unsigned long long pages, total;
	unsigned nfolios = 0;
	char link[64];
	struct stat st;
	long long n;
	char **w;
	unsigned i;
	int f;

	for (i = 0; i < seen->n; i++)
		if (!strcmp(seen->v[i], path))
			return;
	w = realloc(seen->v, (seen->n + 1) * sizeof(*w));
	if (w) {
		seen->v = w;
		if ((w[seen->n] = strdup(path)))
			seen->n++;
	}
	/*
	 * @pid's descriptor @fd if >= 0: the same open file's inode, even
	 * if renamed since.
	 */
	if (fd >= 0)
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", pid, fd);
	f = open(fd >= 0 ? link : path, O_RDONLY | O_CLOEXEC | O_NOATIME);
	if (f < 0)
		f = open(fd >= 0 ? link : path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return;
	n = fstat(f, &st) ? -1 : kx_cached_pages(f, st.st_size);
	if (n <= 0) {
		close(f);
		return;
	}
	pages = (unsigned long long)n;
	total = ((unsigned long long)st.st_size + 4095) / 4096;
	info->cached_files++;
	if (!ralab__loader_path(path))
		nfolios = put_folios(m, pre, line_fd, f, (uint64_t)st.st_size);
	close(f);
	info->folios += nfolios;
	fprintf(m, "%s# ralab attach-cached ", pre);
	kx_put_path(m, path);
	fprintf(m, " pages=%llu of=%llu folios=%u\n", pages, total, nfolios);
}

/* What madvise() left on a VMA, from smaps' VmFlags. */
#define ADV_SEQ 1u     /* sr: MADV_SEQUENTIAL */
#define ADV_RAND 2u    /* rr: MADV_RANDOM */
#define ADV_HUGE 4u    /* hg: MADV_HUGEPAGE */
#define ADV_NOHUGE 8u  /* nh: MADV_NOHUGEPAGE */

/* The file mappings (VMAs) of /proc/PID/smaps. */
struct avma {
	unsigned long long start, end, off;
	char perms[8];
	unsigned long long ino;
	char *path; /* owned */
	unsigned adv;
	bool done;
};

/* smaps' "VmFlags: rd mr ..." as ADV_ bits. */
static unsigned vm_adv(const char *l)
{
	static const struct {
		char f[3];
		unsigned bit;
	} flags[] = {
		{ "sr", ADV_SEQ },
		{ "rr", ADV_RAND },
		{ "hg", ADV_HUGE },
		{ "nh", ADV_NOHUGE },
	};
	unsigned adv = 0, i;

	for (l += 8; *l; l++) {
		if (*l == ' ' || *l == '\n')
			continue;
		for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			if (!strncmp(l, flags[i].f, 2) &&
			    (!l[2] || l[2] == ' ' || l[2] == '\n'))
				adv |= flags[i].bit;
		while (l[1] && l[1] != ' ')
			l++;
	}
	return adv;
}

static void free_vmas(struct avma *v, unsigned n)
{
	while (n--)
		free(v[n].path);
	free(v);
}

/* @pid's mappings of regular files into *@out (*@n); 0 or -errno. */
static int read_vmas(int pid, struct avma **out, unsigned *n,
		     unsigned *skipped)
{
	struct avma *v = NULL;
	unsigned cap = 0;
	bool last = false; /* the last VMA line was kept */
	char name[64], line[PATH_MAX + 256];
	FILE *f;

	*out = NULL;
	*n = 0;
	snprintf(name, sizeof(name), "/proc/%d/smaps", pid);
	f = fopen(name, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct avma a = { 0 };
		unsigned maj, min;
		struct stat st;
		int k = 0;
		char *p, *nl;

		/* A VMA's line, then "Key: value" lines about it. */
		if (!strncmp(line, "VmFlags:", 8)) {
			if (last)
				v[*n - 1].adv = vm_adv(line);
			continue;
		}
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &a.start,
			   &a.end, a.perms, &a.off, &maj, &min, &a.ino,
			   &k) < 7)
			continue;
		last = false;
		if (!k || !a.ino)
			continue;
		p = line + k;
		if ((nl = strchr(p, '\n')))
			*nl = '\0';
		if (*p != '/')
			continue; /* [vdso], anonymous shared memory */
		/* Gone, replaced, or not a regular file (a device's). */
		if (strstr(p, " (deleted)") || !usable_path(p) || stat(p, &st) ||
		    !S_ISREG(st.st_mode) || st.st_ino != a.ino) {
			(*skipped)++;
			continue;
		}
		if (*n == cap) {
			unsigned ncap = cap ? cap * 2 : 64;
			struct avma *w = realloc(v, ncap * sizeof(*v));

			if (!w)
				goto nomem;
			v = w;
			cap = ncap;
		}
		a.path = strdup(p);
		if (!a.path)
			goto nomem;
		v[(*n)++] = a;
		last = true;
	}
	fclose(f);
	*out = v;
	return 0;
nomem:
	fclose(f);
	free_vmas(v, *n);
	*n = 0;
	return -ENOMEM;
}

/* The madvise() calls that leave @v's VmFlags. */
static void put_adv(FILE *m, const char *pre, const struct avma *v)
{
	static const struct {
		unsigned bit;
		const char *name;
	} advs[] = {
		{ ADV_SEQ, "MADV_SEQUENTIAL" },
		{ ADV_RAND, "MADV_RANDOM" },
		{ ADV_HUGE, "MADV_HUGEPAGE" },
		{ ADV_NOHUGE, "MADV_NOHUGEPAGE" },
	};
	unsigned i;

	for (i = 0; i < sizeof(advs) / sizeof(advs[0]); i++)
		if (v->adv & advs[i].bit)
			fprintf(m, "%smadvise(0x%llx, %llu, %s) = 0 <0.000000>\n",
				pre, v->start, v->end - v->start,
				advs[i].name);
}

/* A descriptor number @pid does not use (@fds sorted, @nfds of them). */
static int free_fd(const int *fds, int nfds)
{
	int want = 0, i;

	for (i = 0; i < nfds && fds[i] <= want; i++)
		if (fds[i] == want)
			want++;
	return want;
}

int ralab_attach_describe(int pid, const char *log,
			  struct ralab_attach_info *info,
			  struct ralab_diag *diag)
{
	int *fds = NULL, *tids = NULL, nfds, ntids, i, err = 0, spare;
	struct ralab_attach_info in = { .digest = 14695981039346656037ull };
	struct avma *vmas = NULL;
	unsigned nvmas = 0, k, j;
	char dir[64], cwd[PATH_MAX], pre[96];
	struct timeval tv;
	struct afd *a = NULL;
	struct seen seen = { 0 };
	FILE *m = NULL;
	char *text = NULL;
	size_t len = 0;
	ssize_t cn;

	if (pid <= 0)
		return kx_err(diag, -EINVAL, "no process %d", pid);
	snprintf(dir, sizeof(dir), "/proc/%d/cwd", pid);
	cn = readlink(dir, cwd, sizeof(cwd) - 1);
	if (cn < 0)
		return kx_err(diag, -errno, "process %d: %s", pid,
			    errno == ENOENT ? "no such process" :
					      strerror(errno));
	cwd[cn] = '\0';
	fds = calloc(ATTACH_MAX_FDS, sizeof(*fds));
	tids = calloc(ATTACH_MAX_TASKS, sizeof(*tids));
	a = malloc(sizeof(*a));
	m = open_memstream(&text, &len);
	if (!fds || !tids || !a || !m) {
		err = -ENOMEM;
		goto out;
	}
	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	ntids = numbered(dir, tids, ATTACH_MAX_TASKS);
	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	nfds = ntids < 0 ? ntids : numbered(dir, fds, ATTACH_MAX_FDS);
	if (ntids < 0 || nfds < 0) {
		err = ntids < 0 ? ntids : nfds;
		kx_err(diag, err, "process %d: %s%s", pid,
		     err == -E2BIG ? "more than 4096 threads or descriptors" :
				     strerror(-err),
		     err == -EACCES ? " (attaching needs root or the process's owner)" : "");
		goto out;
	}
	if ((err = read_vmas(pid, &vmas, &nvmas, &in.skipped))) {
		kx_err(diag, err, "process %d: its mappings: %s", pid,
		     strerror(-err));
		goto out;
	}
	gettimeofday(&tv, NULL);
	snprintf(pre, sizeof(pre), "%d %lld.%06ld ", pid, (long long)tv.tv_sec,
		 (long)tv.tv_usec);
	in.threads = (unsigned)ntids;
	if (!usable_path(cwd))
		snprintf(cwd, sizeof(cwd), "/");
	fprintf(m, "%schdir(", pre);
	kx_put_path(m, cwd);
	fprintf(m, ") = 0 <0.000000>\n");
	for (i = 0; i < ntids; i++)
		if (tids[i] != pid)
			fprintf(m, "%sclone(child_stack=NULL, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM) = %d <0.000000>\n",
				pre, tids[i]);
	for (i = 0; i < nfds; i++) {
		int r = read_fd(pid, fds[i], a, &in.skipped);

		if (r < 0) {
			err = r;
			kx_err(diag, err, "process %d: descriptor %d: %s", pid,
			     fds[i], strerror(-err));
			goto out;
		}
		if (!r)
			continue;
		in.fds++;
		/*
		 * Reads move what the log would need; a write-only one
		 * (stdout, a log file) others may share and move.
		 */
		if ((a->flags & O_ACCMODE) != O_WRONLY) {
			digest(&in.digest, &a->fd, sizeof(a->fd));
			digest(&in.digest, &a->pos, sizeof(a->pos));
			digest(&in.digest, a->path, strlen(a->path));
		}
		fprintf(m, "%sopenat(AT_FDCWD, ", pre);
		kx_put_path(m, a->path);
		fputs(", ", m);
		put_flags(m, a->flags);
		fprintf(m, ") = %d <0.000000>\n", a->fd);
		if (a->pos) {
			in.read_before++;
			fprintf(m, "%slseek(%d, %llu, SEEK_SET) = %llu <0.000000>\n",
				pre, a->fd, a->pos, a->pos);
		}
		if (log)
			put_cached(m, pre, pid, a->fd, a->fd, a->path, &in,
				   &seen);
	}
	/*
	 * Each mapped file through a descriptor number the process does not
	 * use, closed at once (the mapping keeps the file): its VMAs as
	 * /proc/PID/maps lists them, a file's together.
	 */
	spare = free_fd(fds, nfds);
	for (k = 0; k < nvmas; k++) {
		bool shared_write = false;

		if (vmas[k].done)
			continue;
		for (j = k; j < nvmas; j++)
			if (!strcmp(vmas[j].path, vmas[k].path))
				shared_write |= vmas[j].perms[3] == 's' &&
						vmas[j].perms[1] == 'w';
		fprintf(m, "%sopenat(AT_FDCWD, ", pre);
		kx_put_path(m, vmas[k].path);
		fprintf(m, ", %s) = %d <0.000000>\n",
			shared_write ? "O_RDWR" : "O_RDONLY", spare);
		for (j = k; j < nvmas; j++) {
			const struct avma *v = &vmas[j];
			char prot[40] = "";

			if (v->done || strcmp(v->path, vmas[k].path))
				continue;
			vmas[j].done = true;
			in.maps++;
			if (v->perms[0] == 'r')
				strcat(prot, "|PROT_READ");
			if (v->perms[1] == 'w')
				strcat(prot, "|PROT_WRITE");
			if (v->perms[2] == 'x')
				strcat(prot, "|PROT_EXEC");
			fprintf(m, "%smmap(0x%llx, %llu, %s, %s|MAP_FIXED, %d, 0x%llx) = 0x%llx <0.000000>\n",
				pre, v->start, v->end - v->start,
				prot[0] ? prot + 1 : "PROT_NONE",
				v->perms[3] == 's' ? "MAP_SHARED" : "MAP_PRIVATE",
				spare, v->off, v->start);
			put_adv(m, pre, v);
		}
		if (log)
			put_cached(m, pre, pid, -1, spare, vmas[k].path, &in,
				   &seen);
		fprintf(m, "%sclose(%d) = 0 <0.000000>\n", pre, spare);
	}
	fprintf(m, "%s# ralab attached\n", pre);
	if (fflush(m)) {
		err = -ENOMEM;
		goto out;
	}
	if (log) {
		FILE *o = fopen(log, "we");

		if (!o) {
			err = kx_err(diag, -errno, "%s: %s", log, strerror(errno));
			goto out;
		}
		fprintf(o, "%s# ralab attach pid=%d threads=%u fds=%u maps=%u\n",
			pre, pid, in.threads, in.fds, in.maps);
		fwrite(text, 1, len, o);
		if (fclose(o))
			err = kx_err(diag, -EIO, "%s: %s", log, strerror(errno));
	}
out:
	if (m)
		fclose(m);
	free(text);
	free_vmas(vmas, nvmas);
	while (seen.n)
		free(seen.v[--seen.n]);
	free(seen.v);
	free(a);
	free(fds);
	free(tids);
	if (!err && info)
		*info = in;
	return err;
}
