// SPDX-License-Identifier: MIT
/*
 * annotate.c - what an strace log cannot show, added to it after the run
 * ('ralab record'): each file's size, filesystem, device settings and
 * layout on the disk, so that the replay reads the same file the same way.
 *
 * A line per file read, at the end of the log:
 *
 *   # ralab file "PATH" size=N fs=xfs read_ahead_kb=128 max_sectors_kb=1280
 *     max_hw_sectors_kb=1280 breaks=OFF,... holes=OFF+LEN,... unaligned=N
 *
 * (one line).  breaks= lists the byte offsets where a block of data is
 * not the disk block after the data before it, as FIEMAP reports it: the
 * filesystem starts a new bio there (docs/design.md, block layer).
 * holes= lists the holes and unwritten extents, which are read without
 * I/O.  unaligned= counts edges not on a 4 KiB boundary (a filesystem of
 * smaller blocks), left out.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fiemap.h>

#include "kernel/elf.h"
#include "kernel/fiemap.h"
#include "kernel/tracefs.h"
#include "ralab.h"
#include "workload/trace.h"
#include "workload/workload.h"

#define PAGE 4096u

static const char *fs_name(long type, char *buf, size_t len)
{
	switch ((unsigned long)type) {
	case 0x58465342: return "xfs";
	case 0xef53: return "ext4"; /* ext2 and ext3 too: the same read path */
	case 0x9123683e: return "btrfs";
	case 0x01021994: return "tmpfs";
	case 0x794c7630: return "overlay";
	case 0x6969: return "nfs";
	case 0xf2f52010: return "f2fs";
	}
	snprintf(buf, len, "0x%lx", (unsigned long)type);
	return buf;
}

/* A whole number from a sysfs file of the block device @dev's queue. */
static bool queue_value(dev_t dev, const char *name, unsigned *v)
{
	char path[128], buf[32];
	FILE *f;
	bool ok;

	/* A partition has no queue of its own: its disk's is one up. */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/%s",
		 major(dev), minor(dev), name);
	f = fopen(path, "re");
	if (!f) {
		snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/../queue/%s",
			 major(dev), minor(dev), name);
		f = fopen(path, "re");
	}
	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) && sscanf(buf, "%u", v) == 1;
	fclose(f);
	return ok;
}

/*
 * The layout of a file of @size with extents @x, as the read path sees
 * it: breaks where a block of data is not the disk block after the data
 * before it (holes take no disk space: data on both sides of one may
 * well be contiguous), and holes, which unwritten extents are too (both
 * read as zeroes, no I/O).
 */
struct brk {
	uint64_t *ofs;
	unsigned n, cap, unaligned;
	uint64_t *hole; /* pairs [start, end) */
	unsigned nh, caph;
	bool oom;
};

static void brk_add(struct brk *b, uint64_t ofs, uint64_t size)
{
	if (!ofs || ofs >= size)
		return;
	if (ofs % PAGE) {
		b->unaligned++;
		return;
	}
	if (b->n && b->ofs[b->n - 1] >= ofs)
		return;
	if (!tb_grow((void **)&b->ofs, &b->cap, b->n + 1, sizeof(*b->ofs))) {
		b->oom = true;
		return;
	}
	b->ofs[b->n++] = ofs;
}

/* A hole [a, e): whole 4 KiB blocks of it (the file's last one, whole). */
static void hole_add(struct brk *b, uint64_t a, uint64_t e, uint64_t size)
{
	uint64_t top = (size + PAGE - 1) / PAGE * PAGE;

	if (e > size)
		e = size;
	if (e == size)
		e = top;
	if (a % PAGE || e % PAGE)
		b->unaligned++;
	a = (a + PAGE - 1) / PAGE * PAGE;
	e = e / PAGE * PAGE;
	if (a >= e)
		return;
	if (b->nh && b->hole[2 * b->nh - 1] >= a) { /* joins the one before */
		if (e > b->hole[2 * b->nh - 1])
			b->hole[2 * b->nh - 1] = e;
		return;
	}
	if (!tb_grow((void **)&b->hole, &b->caph, 2 * b->nh + 2,
		     sizeof(*b->hole))) {
		b->oom = true;
		return;
	}
	b->hole[2 * b->nh] = a;
	b->hole[2 * b->nh + 1] = e;
	b->nh++;
}

static void layout_breaks(const struct kx_extent *x, unsigned n, uint64_t size,
			  struct brk *b)
{
	uint64_t end = 0;  /* file offset where the extent before ends */
	uint64_t phys = 0; /* disk offset after the last data */
	bool have_data = false;
	unsigned i;

	for (i = 0; i < n && x[i].logical < size; i++) {
		uint64_t len = x[i].length;

		if (x[i].logical > end)
			hole_add(b, end, x[i].logical, size);
		if (x[i].flags & FIEMAP_EXTENT_UNWRITTEN) {
			hole_add(b, x[i].logical, x[i].logical + len, size);
		} else {
			if (have_data && x[i].physical != phys)
				brk_add(b, x[i].logical, size);
			phys = x[i].physical + len;
			have_data = true;
		}
		end = x[i].logical + len;
	}
	if (end < size)
		hole_add(b, end, size, size);
}

/* Unescaped in the log as strace's paths are: \" and \\. */
/*
 * The '# ralab file' line of @path (or a comment saying why none).
 * Return: 0, or -ENOMEM.
 */
/*
 * The inodes the run added page-cache folios to, as ralab_cache_rec_finish()
 * listed them in the log ("# ralab pages-added dev=MAJ:MIN ino=N"), with
 * whether the list is whole ("# ralab pages-added traced").
 */
struct added {
	struct {
		unsigned maj, min;
		unsigned long long ino;
	} *v;
	size_t n;
	bool whole;
	/*
	 * 'ralab record -p': a file's readahead state at the attach
	 * ("# ralab attach-ra dev=MAJ:MIN ino=N f_ra=..."), for its line.
	 */
	struct {
		unsigned maj, min;
		unsigned long long ino;
		char fra[96];
	} *ra;
	size_t nra;
};

static int read_added(const char *text, size_t len, struct added *a)
{
	const char *p = text, *end = text + len;
	size_t cap = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[192], fra[96];
		unsigned maj, min;
		unsigned long long ino;

		if (l > 20 && l < sizeof(line) &&
		    !strncmp(p, "# ralab attach-ra ", 18)) {
			memcpy(line, p, l);
			line[l] = '\0';
			if (sscanf(line + 18, "dev=%u:%u ino=%llu f_ra=%95s",
				   &maj, &min, &ino, fra) == 4) {
				void *g = realloc(a->ra, (a->nra + 1) *
							       sizeof(*a->ra));

				if (!g)
					return -ENOMEM;
				a->ra = g;
				a->ra[a->nra].maj = maj;
				a->ra[a->nra].min = min;
				a->ra[a->nra].ino = ino;
				memcpy(a->ra[a->nra].fra, fra, sizeof(fra));
				a->nra++;
			}
		}
		if (l > 24 && l < sizeof(line) &&
		    !strncmp(p, "# ralab pages-added ", 20)) {
			memcpy(line, p, l);
			line[l] = '\0';
			if (!strncmp(line + 20, "traced", 6)) {
				a->whole = true;
			} else if (sscanf(line + 20, "dev=%u:%u ino=%llu", &maj,
					  &min, &ino) == 3) {
				if (a->n == cap) {
					size_t c = cap ? 2 * cap : 64;
					void *g;

					g = realloc(a->v, c * sizeof(*a->v));
					if (!g)
						return -ENOMEM;
					a->v = g;
					cap = c;
				}
				a->v[a->n].maj = maj;
				a->v[a->n].min = min;
				a->v[a->n].ino = ino;
				a->n++;
			}
		}
		p += l + 1;
	}
	return 0;
}

/* Whether the run added folios of the file @st is (or nothing says). */
static bool got_pages(const struct added *a, const struct stat *st)
{
	size_t k;

	/*
	 * Only on a block device's filesystem is the device the tracepoint
	 * names the one stat() gives: overlayfs, say, caches its files'
	 * pages under the inodes of the filesystems below it.
	 */
	if (!a || !a->whole || !major(st->st_dev))
		return true;
	for (k = 0; k < a->n; k++)
		if (a->v[k].maj == major(st->st_dev) &&
		    a->v[k].min == minor(st->st_dev) &&
		    a->v[k].ino == (unsigned long long)st->st_ino)
			return true;
	return false;
}

static int describe(FILE *m, const char *path, bool direct,
		    const struct added *added, unsigned *described,
		    unsigned *cached)
{
	struct kx_extent *x = NULL;
	struct brk b = { 0 };
	unsigned ra, msk, mhw, n = 0, k;
	char fsbuf[24];
	struct statfs sfs;
	struct stat st;
	int fd, err;

	if (strchr(path, '\n'))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fprintf(m, "# ralab: %s: %s\n", path,
		    fd < 0 ? strerror(errno) : "not a regular file now");
		if (fd >= 0)
			close(fd);
		return 0;
	}
	fprintf(m, "# ralab file ");
	kx_put_path(m, path);
	fprintf(m, " size=%llu", (unsigned long long)st.st_size);
	if (!fstatfs(fd, &sfs))
		fprintf(m, " fs=%s", fs_name((long)sfs.f_type, fsbuf, sizeof(fsbuf)));
	if (major(st.st_dev) && queue_value(st.st_dev, "read_ahead_kb", &ra) &&
	    queue_value(st.st_dev, "max_sectors_kb", &msk) &&
	    queue_value(st.st_dev, "max_hw_sectors_kb", &mhw))
		fprintf(m, " read_ahead_kb=%u max_sectors_kb=%u max_hw_sectors_kb=%u",
		    ra, msk, mhw);
	err = kx_extents(fd, &x, &n);
	close(fd);
	if (!err) {
		layout_breaks(x, n, (uint64_t)st.st_size, &b);
		for (k = 0; k < b.n; k++)
			fprintf(m, "%s%llu", k ? "," : " breaks=",
			    (unsigned long long)b.ofs[k]);
		for (k = 0; k < b.nh; k++)
			fprintf(m, "%s%llu+%llu", k ? "," : " holes=",
			    (unsigned long long)b.hole[2 * k],
			    (unsigned long long)(b.hole[2 * k + 1] - b.hole[2 * k]));
		if (b.unaligned)
			fprintf(m, " unaligned=%u", b.unaligned);
	}
	/*
	 * Read through the page cache, and not a folio of it added: all in
	 * the page cache (O_DIRECT reads add none).
	 */
	if (!direct && !got_pages(added, &st)) {
		fprintf(m, " cached=1");
		(*cached)++;
	}
	for (k = 0; added && k < added->nra; k++)
		if (added->ra[k].maj == major(st.st_dev) &&
		    added->ra[k].min == minor(st.st_dev) &&
		    added->ra[k].ino == (unsigned long long)st.st_ino) {
			fprintf(m, " f_ra=%s", added->ra[k].fra);
			break;
		}
	fprintf(m, "\n");
	if (err)
		fprintf(m, "# ralab: FIEMAP on %s: %s (its layout is not known)\n",
		    path, strerror(-err));
	free(b.ofs);
	free(b.hole);
	free(x);
	(*described)++;
	return b.oom ? -ENOMEM : 0;
}

/*
 * A '# ralab exec' line for the program at @path, which execve() ran:
 * what the kernel's ELF loader read and mapped of it (its program
 * headers @e, as kx_elf_read() gave them with result @err), for the
 * replay; elf=0 for a file that is not ELF (a script: only its first
 * line is read).
 */
static void exec_note(FILE *m, const char *path, int err,
		      const struct kx_elf *e)
{
	unsigned i;

	if (err && err != -ENOEXEC)
		return;
	fprintf(m, "# ralab exec ");
	kx_put_path(m, path);
	if (err) {
		fprintf(m, " elf=0\n");
		return;
	}
	fprintf(m, " phdrs=%llu+%llu", (unsigned long long)e->phoff,
		(unsigned long long)e->phlen);
	if (e->interp_len)
		fprintf(m, " interp=%llu+%llu", (unsigned long long)e->interp_off,
			(unsigned long long)e->interp_len);
	if (e->interp[0] && !strchr(e->interp, '\n')) {
		fprintf(m, " interp_path=");
		kx_put_path(m, e->interp);
	}
	fprintf(m, " entry=0x%llx", (unsigned long long)e->entry);
	if (e->have_bias)
		fprintf(m, " bias=0x%llx", (unsigned long long)e->bias);
	for (i = 0; i < e->nload; i++)
		fprintf(m, "%s%llu:0x%llx:%llu:%llu:%s%s%s", i ? "," : " loads=",
			(unsigned long long)e->load[i].off,
			(unsigned long long)e->load[i].vaddr,
			(unsigned long long)e->load[i].filesz,
			(unsigned long long)e->load[i].memsz,
			(e->load[i].prot & 1) ? "r" : "-",
			(e->load[i].prot & 2) ? "w" : "-",
			(e->load[i].prot & 4) ? "x" : "-");
	fprintf(m, "\n");
}

/*
 * Whether @path is under a '# ralab evicted "DIR"' line of @text (a file
 * or directory 'ralab record --evict' dropped before the run).
 */
static bool evicted_in(const char *text, size_t len, const char *path)
{
	const char *l = text, *end = text + len;

	while (l < end) {
		const char *nl = memchr(l, '\n', (size_t)(end - l)), *p, *q;

		if (!nl)
			nl = end;
		if ((size_t)(nl - l) > 17 &&
		    !memcmp(l, "# ralab evicted \"", 17)) {
			p = l + 17;
			q = memchr(p, '"', (size_t)(nl - p));
			if (q && ralab__path_under(path, p, (size_t)(q - p)))
				return true;
		}
		l = nl + 1;
	}
	return false;
}

/*
 * The interpreter of the program at @path (ld.so), described too when
 * the replay reads it (it is not where the loader's files are, or it was
 * evicted): execve() reads and maps it from its file.  Once per path
 * (@done, @ndone, up to 16).
 */
static int interp_note(FILE *m, const struct kx_elf *prog, const char *text,
		       size_t len, struct added *added, unsigned *described,
		       unsigned *cached, char (*done)[256], unsigned *ndone,
		       char *const *paths, unsigned npaths)
{
	const char *ip = prog->interp;
	struct kx_elf e;
	unsigned k, before = *described;
	int err;

	if (!ip[0] || strchr(ip, '\n') ||
	    (ralab__loader_path(ip) && !evicted_in(text, len, ip)))
		return 0;
	/* Once, and not if the log reads it itself (described as such). */
	for (k = 0; k < *ndone; k++)
		if (!strcmp(done[k], ip))
			return 0;
	for (k = 0; k < npaths; k++)
		if (!strcmp(paths[k], ip))
			return 0;
	if (*ndone == 16)
		return 0;
	memcpy(done[(*ndone)++], ip, sizeof(prog->interp));
	err = describe(m, ip, false, added, described, cached);
	if (!err && *described > before)
		exec_note(m, ip, kx_elf_read(ip, true, &e), &e);
	return err;
}

/*
 * Whether the programs of the log at @text ran without address-space
 * randomization: 'ralab record', the only writer of '# ralab faults'
 * lines, runs them so; or the system has it off.
 */
static bool ran_norandom(const char *text, size_t len)
{
	char buf[8] = "";
	FILE *f;

	if ((len >= 15 && !strncmp(text, "# ralab faults ", 15)) ||
	    memmem(text, len, "\n# ralab faults ", 16))
		return true;
	f = fopen("/proc/sys/kernel/randomize_va_space", "re");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return buf[0] == '0';
}

int ralab_trace_annotate(const char *log, unsigned *nfiles,
			 unsigned *ncached, struct ralab_diag *diag)
{
	unsigned n = 0, k, described = 0, cached = 0;
	struct added added = { 0 };
	char **paths = NULL, *text, *out = NULL;
	bool *direct = NULL, *exec = NULL, norandom;
	char interps[16][256];
	unsigned ninterps = 0;
	struct kx_elf e;
	size_t len, olen = 0;
	int err, fd;
	FILE *m;

	fd = open(log, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kx_err(diag, -errno, "%s: %s", log, strerror(errno));
	err = ralab__read_fd(fd, WL_MAX_TRACE, &text, &len);
	close(fd);
	if (err)
		return kx_err(diag, err, "%s: %s", log,
			    err == -EFBIG ? "larger than 1 GiB: not a log ralab reads" :
					    strerror(-err));
	if (!text)
		return kx_err(diag, -ENODATA, "%s: empty", log);
	if (!strncmp(text, "# ralab file ", 13) ||
	    memmem(text, len, "\n# ralab file ", 14)) {
		free(text);
		return kx_err(diag, -EEXIST, "%s: the log has its files described already", log);
	}
	err = ralab__strace_paths(log, text, len, &paths, &direct, &exec, &n,
				  diag);
	if (!err)
		err = read_added(text, len, &added);
	norandom = ran_norandom(text, len);
	if (err) {
		free(text);
		free(added.v);
		free(added.ra);
		for (k = 0; paths && k < n; k++)
			free(paths[k]);
		free(paths);
		free(direct);
		free(exec);
		return err;
	}
	m = open_memstream(&out, &olen);
	err = m ? 0 : -ENOMEM;
	for (k = 0; !err && k < n; k++) {
		unsigned before = described;

		err = describe(m, paths[k], direct[k], &added, &described,
			       &cached);
		if (!err && exec[k] && described > before) {
			int xerr = kx_elf_read(paths[k], norandom, &e);

			exec_note(m, paths[k], xerr, &e);
			if (!xerr)
				err = interp_note(m, &e, text, len, &added,
						  &described, &cached,
						  interps, &ninterps, paths,
						  n);
		}
	}
	free(text);
	free(added.v);
	free(added.ra);
	free(direct);
	free(exec);
	for (k = 0; k < n; k++)
		free(paths[k]);
	free(paths);
	if ((m && fclose(m)) || err) {
		free(out);
		return -ENOMEM;
	}
	fd = open(log, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0 || (olen && write(fd, out, olen) != (ssize_t)olen))
		err = kx_err(diag, -errno, "%s: %s", log, strerror(errno));
	if (fd >= 0 && close(fd) && !err)
		err = kx_err(diag, -errno, "%s: %s", log, strerror(errno));
	free(out);
	if (!err && nfiles)
		*nfiles = described;
	if (!err && ncached)
		*ncached = cached;
	return err;
}

int ralab_trace_note_evicted(const char *log, const char *const *paths,
			     unsigned n, struct ralab_diag *diag)
{
	unsigned k;
	FILE *m;
	int err = 0;

	if (!n)
		return 0;
	m = fopen(log, "ae");
	if (!m)
		return kx_err(diag, -errno, "%s: %s", log, strerror(errno));
	for (k = 0; k < n; k++) {
		/*
		 * As given (made absolute) and as realpath() gives it: a
		 * program may open either (ld.so opens
		 * /lib/x86_64-linux-gnu/libz.so.1, a link into /usr/lib on
		 * Debian 12).
		 */
		char *real = realpath(paths[k], NULL), given[8192];

		/* Gone since (nothing of it to keep), or longer than a path
		 * the log's reader takes (1023 bytes). */
		if (!real || strlen(real) > 1000) {
			free(real);
			continue;
		}
		if (paths[k][0] == '/')
			snprintf(given, sizeof(given), "%s", paths[k]);
		else if (!getcwd(given, sizeof(given) / 2))
			given[0] = '\0';
		else
			snprintf(given + strlen(given),
				 sizeof(given) - strlen(given), "/%s",
				 paths[k]);
		if (given[0] && strlen(given) <= 1000 && strcmp(given, real)) {
			fprintf(m, "# ralab evicted ");
			kx_put_path(m, given);
			fprintf(m, "\n");
		}
		fprintf(m, "# ralab evicted ");
		kx_put_path(m, real);
		fprintf(m, "\n");
		free(real);
	}
	if (ferror(m))
		err = kx_err(diag, -EIO, "%s: cannot write", log);
	if (fclose(m) && !err)
		err = kx_err(diag, -errno, "%s: %s", log, strerror(errno));
	return err;
}
