// SPDX-License-Identifier: MIT
/*
 * recorder.c - run a workload on the running kernel and record what it did,
 * in ralab's terms, so that the model can be checked against the machine.
 *
 *   workdir/ralab-xfs.img   sparse image, kept (mkfs once); -frag.img
 *                           for files in extents (extent_kb)
 *   workdir/mnt-xfs/        mount point while recording
 *     data-SIZE.bin         test file: SIZE random bytes, one extent, kept
 *   /dev/loopN              attached per run, direct I/O, autoclear
 *   tracefs/instances/ralab-PID   a private trace instance per run
 *
 * Every run detaches, unmounts and removes what it attached, mounted and
 * created, on every exit path; a run first reclaims what a killed run left
 * (loop devices backed by the work directory's images, their mounts, and
 * instances of dead recorder processes).  Runs are serialised with a lock
 * file.  Only devices this code attached are ever touched.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* preadv2(2)'s uncached reads (6.14); older headers lack the name. */
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

#include "block/blk.h"
#include "kernel/fiemap.h"
#include "kernel/tracefs.h"
#include "ralab.h"
#include "report/latency.h"
#include "report/window.h"
#include "workload/workload.h"

#define IMAGE_BYTES (8ull << 30)
#define TRACE_BUFFER_KB 32768       /* per CPU, at least */
#define TRACE_BUFFER_MAX_KB (1u << 20) /* per CPU, at most */
#define TRACE_EVENT_BYTES 96        /* an event in the ring buffer, with room */


static const char *const events[] = {
	"readahead/page_cache_sync_ra",
	"readahead/page_cache_async_ra",
	"readahead/page_cache_ra_order",
	"readahead/page_cache_ra_unbounded",
	"filemap/mm_filemap_add_to_page_cache",
	/*
	 * Not part of the recording: a folio of the test files that another
	 * task (DAMON's kdamond, kswapd) evicts during the run, which the
	 * model cannot know of (ralab_kernel_result's evicted_pages).
	 */
	"filemap/mm_filemap_delete_from_page_cache",
	"block/block_rq_issue", /* the last: filtered on the device */
};

#define NR_EVENTS (sizeof(events) / sizeof(events[0]))
/* events[] before this one are the readahead tracepoints (6.18 and later). */
#define FIRST_NON_RA_EVENT 4

/*
 * Kernels before 6.18 have no readahead tracepoints; recording there keeps
 * the page-cache and block events only, which ralab check then compares
 * in order (cli/diff.c).  Return: true if the readahead ones exist.
 */
static bool have_ra_events(const char *tracefs)
{
	char path[256];
	unsigned i;

	for (i = 0; i < FIRST_NON_RA_EVENT; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/enable", tracefs,
			 events[i]);
		if (access(path, W_OK))
			return false;
	}
	return true;
}

/* One test file of the case. */
struct rfile {
	char path[384];
	uint64_t size;
	bool unwritten; /* preallocated, no data: made anew for every run */
	unsigned long ino;
	struct kx_extent *ext;
	unsigned next;
	/*
	 * After a run that truncates: the extents the rewritten file ended
	 * with, where reads after the rewrite went (owned).
	 */
	struct kx_extent *ext2;
	unsigned next2;
	/*
	 * Truncates before the last: gen[k] are the extents the file had
	 * when truncated the (k + 2)-th time, where reads after the
	 * (k + 1)-th went (owned).  trace_collect() counts the markers
	 * (rewrites); 0: the extents of before the run (ext).
	 */
	struct rgen {
		struct kx_extent *ext;
		unsigned n;
	} *gen;
	unsigned nr_gen, rewrites;
	unsigned truncs; /* truncates so far (run_job) */
	/* The case's layout: byte offsets where extents start (owned). */
	uint64_t *want;
	unsigned nwant;
	/* Its holes, [hole[2j], hole[2j + 1]) bytes (borrowed from the case). */
	const uint64_t *hole;
	unsigned nh;
};

struct rec {
	const struct ralab_workload *wl;
	bool writes; /* descriptors read-write: maps_writable or 'mmap ... write' */
	bool maps_writable; /* ralab__wl_writes(): every mapping PROT_WRITE */
	/*
	 * dontcache_writes(wl): the folios those writes drop when their
	 * writeback ends are deleted by a kworker, the workload's own doing.
	 */
	bool dontcache_writes;
	bool truncates; /* a truncate or punch op: files made anew each run */
	bool mlocks;    /* an mlock op or a MAP_LOCKED mapping */
	const struct ralab_kernel_opts *opts;
	struct ralab_diag *diag;
	struct ralab_kernel_result *res;
	const char *fsname;
	const char *tracefs;
	char workdir[256];
	char img[320], mnt[320], inst[320];
	struct rfile files[MAX_FILES];
	unsigned nr_files;
	/* The files' inode numbers, ascending (trace_setup()). */
	unsigned long ino_sorted[MAX_FILES];
	char loopname[32]; /* "loopN" */
	int lock_fd, loop_fd;
	bool mounted, inst_created;
	bool kprobes; /* ours are defined (group ralab_PID) */
	char comm[16]; /* this process's, for the kprobe filter */
	unsigned long buf_kb; /* the trace buffer per CPU */
	struct ralab_window_state win; /* ra_window_account()'s state */
	unsigned kdev;      /* kernel dev_t encoding: major << 20 | minor */
	pthread_mutex_t lock; /* diag, for jobs running as threads */
	/* Each job's thread, to tell whose events are whose (several jobs). */
	int job_tid[MAX_JOBS];
};

static int rerr(struct rec *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rerr(struct rec *r, int err, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&r->lock);
	if (r->diag && !r->diag->msg[0]) {
		va_start(ap, fmt);
		vsnprintf(r->diag->msg, sizeof(r->diag->msg), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&r->lock);
	return err;
}

static bool stopped(const struct rec *r)
{
	return r->opts && r->opts->stop && *r->opts->stop;
}

static bool have_program(const char *name)
{
	static const char *const dirs[] = { "/usr/sbin", "/sbin", "/usr/bin",
					    "/bin" };
	char path[128];
	unsigned i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		if (!access(path, X_OK))
			return true;
	}
	return false;
}

int ralab_kernel_check(enum ralab_fs fs, struct ralab_diag *diag)
{
	struct rec r = { .diag = diag, .lock = PTHREAD_MUTEX_INITIALIZER };
	const char *t;
	char path[256];
	unsigned i;

	if (diag)
		diag->msg[0] = '\0';
	if (geteuid() != 0)
		return rerr(&r, -EPERM, "recording needs root (loop devices, mount, tracefs)");
	if (access("/dev/loop-control", R_OK | W_OK))
		return rerr(&r, -ENODEV, "no loop devices: /dev/loop-control is missing");
	t = kx_find_tracefs();
	if (!t)
		return rerr(&r, -ENOENT, "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
	for (i = have_ra_events(t) ? 0 : FIRST_NON_RA_EVENT; i < NR_EVENTS; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/enable", t, events[i]);
		if (access(path, W_OK))
			return rerr(&r, -ENOENT, "this kernel has no tracepoint %s",
				    events[i]);
	}
	if (!have_program(fs == RALAB_FS_EXT4 ? "mkfs.ext4" : "mkfs.xfs"))
		return rerr(&r, -ENOENT, "%s is not installed (package %s)",
			    fs == RALAB_FS_EXT4 ? "mkfs.ext4" : "mkfs.xfs",
			    fs == RALAB_FS_EXT4 ? "e2fsprogs" : "xfsprogs");
	return 0;
}

/* ---- leftovers ------------------------------------------------------- */

/* Unmount every mount of block device @maj:@min. */
static void umount_dev(unsigned maj, unsigned min)
{
	char line[4096];
	FILE *f;
	bool again = true;

	while (again) {
		again = false;
		f = fopen("/proc/self/mountinfo", "re");
		if (!f)
			return;
		while (fgets(line, sizeof(line), f)) {
			unsigned a, b;
			char mp[1024];

			if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &a, &b, mp) != 3)
				continue;
			if (a == maj && b == min) {
				if (umount2(mp, 0) && umount2(mp, MNT_DETACH))
					continue;
				again = true;
				break;
			}
		}
		fclose(f);
	}
}

/*
 * Detach loop devices whose backing file is under @workdir (ours by
 * construction), after unmounting them; remove trace instances of
 * recorders that are no longer running.
 */
/*
 * Kernels before 6.18 have no readahead tracepoints.  From 6.1 to 6.16 the
 * recorder puts kprobes of its own (group ralab_PID) on the entry of the
 * four functions instead, reading their arguments and the file_ra_state
 * through readahead_control->ra, which those kernels lay out as
 *
 *   struct readahead_control: file, mapping, ra (+16), _index (+24)
 *   struct file_ra_state: start, size (+8, u32), async_size (+12),
 *                         ra_pages (+16), mmap_miss (+20), prev_pos (+24)
 *
 * (6.17 added ra->order where mmap_miss was, and took page_cache_ra_order's
 * order argument away: not probed.)  Those kernels have no ra->order, so
 * their sync and async calls carry none (RALAB_ORDER_UNKNOWN).  Kprobe
 * definitions are global: each run removes its own on every exit path, and
 * those of recorders that died.  Verified against the same probes of
 * tests/tools/record-cases-vm.sh under 6.1.192, 6.8.0-31 and 6.12.117
 * (tests/tools/check-vm.sh).
 */
#define KPROBE_GROUP "ralab_"
#define KP_RA "size=+8(+16($arg1)):u32 async_size=+12(+16($arg1)):u32 " \
	      "ra_pages=+16(+16($arg1)):u32"
#define KP_MORE "mmap_miss=+20(+16($arg1)):u32 prev_pos=+24(+16($arg1)):s64"

static const char *const kprobes[][2] = {
	{ "page_cache_sync_ra",
	  "index=+24($arg1):u64 req_count=$arg2:u64 " KP_RA " " KP_MORE },
	{ "page_cache_async_ra",
	  "index=+24($arg1):u64 req_count=$arg3:u64 " KP_RA " " KP_MORE },
	{ "page_cache_ra_order",
	  "index=+24($arg1):u64 order=$arg3:u32 " KP_RA },
	{ "page_cache_ra_unbounded",
	  "index=+24($arg1):u64 nr_to_read=$arg2:u64 lookahead_size=$arg3:u64" },
};

#define NR_KPROBES (sizeof(kprobes) / sizeof(kprobes[0]))

/* Does this kernel lay readahead_control and file_ra_state out as above? */
static bool kprobe_layout_known(void)
{
	struct utsname u;
	unsigned major, minor;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major == 6 && minor >= 1 && minor <= 16;
}

/* Remove the kprobes of group ralab_@pid (all of them; absent ones too). */
static void kprobes_remove(const char *tracefs, long pid)
{
	char path[256], def[128];
	unsigned i;

	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
	for (i = 0; i < NR_KPROBES; i++) {
		snprintf(def, sizeof(def), "-:%s%ld/%s", KPROBE_GROUP, pid,
			 kprobes[i][0]);
		kx_write_file(path, def);
	}
}

/* Remove the kprobes of recorders that are no longer running. */
static void kprobes_reclaim(const char *tracefs)
{
	char path[256], buf[16384], *p;
	size_t g = strlen(KPROBE_GROUP);

	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
	if (kx_read_small(path, buf, sizeof(buf)))
		return;
	for (p = buf; (p = strstr(p, ":" KPROBE_GROUP)); p += g) {
		char *end;
		long pid = strtol(p + 1 + g, &end, 10);

		if (*end == '/' && pid > 0 && pid != getpid() &&
		    kill((pid_t)pid, 0) && errno == ESRCH)
			kprobes_remove(tracefs, pid);
	}
}

static void reclaim(const char *workdir, const char *tracefs)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	char path[512], back[512];
	size_t wl = strlen(workdir);

	while (d && (de = readdir(d))) {
		unsigned maj, min;
		char dev[64];
		int fd;

		if (strncmp(de->d_name, "loop", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file",
			 de->d_name);
		if (kx_read_small(path, back, sizeof(back)))
			continue;
		if (strncmp(back, workdir, wl) || back[wl] != '/')
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dev", de->d_name);
		if (kx_read_small(path, dev, sizeof(dev)) ||
		    sscanf(dev, "%u:%u", &maj, &min) != 2)
			continue;
		umount_dev(maj, min);
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			ioctl(fd, LOOP_CLR_FD, 0);
			close(fd);
		}
	}
	if (d)
		closedir(d);
	if (!tracefs)
		return;
	snprintf(path, sizeof(path), "%s/instances", tracefs);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
			continue;
		pid = strtol(de->d_name + strlen(INSTANCE_PREFIX), &end, 10);
		/* ralab record's page-cache instance: "ralab-PID-pages". */
		if ((*end && strcmp(end, "-pages")) || pid <= 0)
			continue;
		if (pid != getpid() && kill((pid_t)pid, 0) == 0)
			continue; /* a live recorder's */
		snprintf(path, sizeof(path), "%s/instances/%s", tracefs,
			 de->d_name);
		rmdir(path);
	}
	if (d)
		closedir(d);
	kprobes_reclaim(tracefs);
}

/* ---- setup ----------------------------------------------------------- */

/*
 * Runs @argv with stdin and the other of stdout/stderr on /dev/null and
 * @which (1 or 2) on a pipe.  Returns the child's pid and, in *@rd, the
 * pipe's read end (the caller's to close and then reap()), or -errno.
 */
static pid_t spawn_piped(char *const argv[], int which, int *rd)
{
	int pipefd[2], err;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return err;
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		dup2(nul, 0);
		dup2(nul, 3 - which);
		dup2(pipefd[1], which);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	*rd = pipefd[0];
	return pid;
}

/* Waits for @pid; 0 when it exited with status 0, else -EIO (or -errno). */
static int reap(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return WIFEXITED(st) && !WEXITSTATUS(st) ? 0 : -EIO;
}

static int run_cmd(struct rec *r, char *const argv[])
{
	char msg[256] = "";
	int err, rd;
	ssize_t n;
	pid_t pid;

	pid = spawn_piped(argv, 2, &rd);
	if (pid < 0)
		return rerr(r, (int)pid, "%s: %s", argv[0], strerror((int)-pid));
	n = read(rd, msg, sizeof(msg) - 1);
	if (n > 0)
		msg[n] = '\0';
	close(rd);
	err = reap(pid);
	if (err == -EIO) {
		char *nl = strchr(msg, '\n');

		if (nl)
			*nl = '\0';
		return rerr(r, -EIO, "%s failed: %s", argv[0],
			    msg[0] ? msg : "no message");
	}
	if (err)
		return rerr(r, err, "waitpid: %s", strerror(-err));
	return 0;
}

/*
 * This machine's glibc memcpy: the sizes it copies with vector loops,
 * backward where source and destination are 4 KiB aliased
 * (sim_memcpy()), from rep_movsb_stop_threshold to the non-temporal
 * threshold, as the dynamic loader reports them (glibc 2.33 and later,
 * x86: 'ld.so --list-diagnostics').  Both 0 where it cannot say, or
 * where the range is empty (Intel: the two thresholds are one).
 */
static void host_memcpy(uint64_t *min, uint64_t *max)
{
	char ldso[] = "/lib64/ld-linux-x86-64.so.2";
	char diag[] = "--list-diagnostics";
	char *const argv[] = { ldso, diag, NULL };
	unsigned long long stop = 0, nt = 0, v;
	char line[256];
	FILE *in;
	pid_t pid;
	int rd;

	*min = *max = 0;
	if (access(ldso, X_OK))
		return;
	pid = spawn_piped(argv, 1, &rd);
	if (pid < 0)
		return;
	in = fdopen(rd, "r");
	while (in && fgets(line, sizeof(line), in)) {
		if (sscanf(line, "x86.cpu_features.rep_movsb_stop_threshold=%llx", &v) == 1)
			stop = v;
		else if (sscanf(line, "x86.cpu_features.non_temporal_threshold=%llx", &v) == 1)
			nt = v;
	}
	if (in)
		fclose(in);
	else
		close(rd);
	reap(pid);
	if (stop && nt > stop) {
		*min = stop;
		*max = nt;
	}
}

static int attach_loop(struct rec *r)
{
	struct loop_config cfg;
	int ctl, back, nr, tries;
	char dev[64];

	back = open(r->img, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (back < 0)
		return rerr(r, -errno, "%s: %s", r->img, strerror(errno));
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		close(back);
		return rerr(r, -errno, "/dev/loop-control: %s", strerror(errno));
	}
	for (tries = 0; tries < 16; tries++) {
		nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0)
			break;
		snprintf(dev, sizeof(dev), "/dev/loop%d", nr);
		r->loop_fd = open(dev, O_RDWR | O_CLOEXEC);
		if (r->loop_fd < 0)
			continue;
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (unsigned)back;
		cfg.info.lo_flags = LO_FLAGS_DIRECT_IO | LO_FLAGS_AUTOCLEAR;
		snprintf((char *)cfg.info.lo_file_name,
			 sizeof(cfg.info.lo_file_name), "%.63s", r->img);
		if (!ioctl(r->loop_fd, LOOP_CONFIGURE, &cfg)) {
			struct stat st;

			snprintf(r->loopname, sizeof(r->loopname), "loop%d", nr);
			/* The tracepoints' dev_t: MAJOR << 20 | MINOR. */
			if (!fstat(r->loop_fd, &st))
				r->kdev = (major(st.st_rdev) << 20) |
					  minor(st.st_rdev);
			break;
		}
		close(r->loop_fd);
		r->loop_fd = -1;
		if (errno != EBUSY)
			break;
	}
	close(ctl);
	close(back);
	if (r->loop_fd < 0)
		return rerr(r, -ENODEV, "could not attach a loop device to %s", r->img);
	return 0;
}

static int sysfs_queue(struct rec *r, const char *key, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", r->loopname, key);
	return kx_read_small(path, buf, len);
}

static int set_queue(struct rec *r, const char *key, unsigned val)
{
	char path[128], v[32], back[32];
	int err;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", r->loopname, key);
	snprintf(v, sizeof(v), "%u", val);
	err = kx_write_file(path, v);
	if (err)
		return rerr(r, err, "writing %u to %s: %s", val, path, strerror(-err));
	if (kx_read_small(path, back, sizeof(back)) ||
	    (val && strtoul(back, NULL, 10) != val))
		return rerr(r, -EIO, "%s reads %s after writing %u", path, back, val);
	return 0;
}

/* Check the device limits the model assumes, then apply the case's. */
static int setup_queue(struct rec *r)
{
	const struct ralab_config *c = ralab_workload_config(r->wl);
	char v[64], dio[16], path[128];
	int err;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/dio", r->loopname);
	if (kx_read_small(path, dio, sizeof(dio)) || strcmp(dio, "1"))
		return rerr(r, -EIO, "%s did not enable direct I/O", r->loopname);
	if ((err = sysfs_queue(r, "max_hw_sectors_kb", v, sizeof(v))))
		return rerr(r, err, "reading max_hw_sectors_kb: %s", strerror(-err));
	if (strtoul(v, NULL, 10) != c->max_hw_sectors_kb)
		return rerr(r, -EINVAL, "the case needs max_hw_sectors_kb %u; this loop device has %s",
			    c->max_hw_sectors_kb, v);
	if (!sysfs_queue(r, "max_segments", v, sizeof(v)) &&
	    strtoul(v, NULL, 10) != c->max_segments)
		return rerr(r, -EINVAL, "the model assumes max_segments %u; this loop device has %s",
			    c->max_segments, v);
	if (!sysfs_queue(r, "max_segment_size", v, sizeof(v)) &&
	    strtoul(v, NULL, 10) != c->max_segment_size)
		return rerr(r, -EINVAL, "the model assumes max_segment_size %u; this loop device has %s",
			    c->max_segment_size, v);
	/* max_sectors_kb first: writing it re-derives read_ahead_kb. */
	if ((err = set_queue(r, "max_sectors_kb", c->max_sectors_kb)))
		return err;
	return set_queue(r, "read_ahead_kb", c->read_ahead_kb);
}

static int make_or_mount(struct rec *r)
{
	const struct ralab_config *c = ralab_workload_config(r->wl);
	bool ext4 = c->fs == RALAB_FS_EXT4;
	const char *opts = ext4 ? "noinit_itable" : NULL;
	char dev[64];
	struct stat st;
	int fd, err;
	bool fresh = false;

	if (stat(r->img, &st) || (uint64_t)st.st_size != IMAGE_BYTES) {
		fd = open(r->img, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0)
			return rerr(r, -errno, "%s: %s", r->img, strerror(errno));
		if (ftruncate(fd, (off_t)IMAGE_BYTES)) {
			err = -errno;
			close(fd);
			unlink(r->img);
			return rerr(r, err, "%s: %s", r->img, strerror(-err));
		}
		close(fd);
		fresh = true;
	}
	if ((err = attach_loop(r)))
		return err;
	snprintf(dev, sizeof(dev), "/dev/%s", r->loopname);
	if (mkdir(r->mnt, 0700) && errno != EEXIST)
		return rerr(r, -errno, "%s: %s", r->mnt, strerror(errno));
	if (!fresh && mount(dev, r->mnt, r->fsname, 0, opts) == 0) {
		r->mounted = true;
		return 0;
	}
	if (stopped(r))
		return -EINTR;
	{
		char prog[16], force[4], quiet[4] = "-q", bflag[4] = "-b";
		char bsize[32];
		char *argv[] = { prog, force, quiet, dev, NULL, NULL, NULL };

		snprintf(prog, sizeof(prog), "mkfs.%s", r->fsname);
		snprintf(force, sizeof(force), "%s", ext4 ? "-F" : "-f");
		/* XFS's large block sizes (6.12): mkfs.xfs -b size=N. */
		if (c->block_size > RALAB_PAGE_SIZE) {
			snprintf(bsize, sizeof(bsize), "size=%u",
				 c->block_size);
			argv[4] = bflag;
			argv[5] = bsize;
		}
		if ((err = run_cmd(r, argv)))
			return err;
	}
	if (mount(dev, r->mnt, r->fsname, 0, opts))
		return rerr(r, -errno, "mount %s on %s: %s", dev, r->mnt, strerror(errno));
	r->mounted = true;
	return 0;
}

/* The file's extents into @rf->ext. */
static int load_extents(struct rec *r, struct rfile *rf, int fd)
{
	int err;

	free(rf->ext);
	rf->ext = NULL;
	rf->next = 0;
	err = kx_extents(fd, &rf->ext, &rf->next);
	if (err)
		return rerr(r, err, "FIEMAP on %s: %s", rf->path, strerror(-err));
	return 0;
}

/*
 * The layout the case asks of file @i: its extent_breaks, or extents of
 * extent_kb (none: one extent), into @rf->want.
 */
static int want_layout(struct rec *r, struct rfile *rf, unsigned i)
{
	const struct wl_file *f = &r->wl->files[i];
	uint64_t e = (uint64_t)r->wl->cfg.extent_kb * 1024, n = 0, k;

	free(rf->want);
	rf->want = NULL;
	rf->nwant = 0;
	rf->hole = f->hole;
	rf->nh = f->nhole;
	rf->unwritten = f->unwritten;
	if (f->nbrk)
		n = f->nbrk;
	else if (e && rf->size > e)
		n = (rf->size - 1) / e;
	if (!n)
		return 0;
	if (n > UINT32_MAX)
		return -ENOMEM;
	rf->want = malloc(n * sizeof(*rf->want));
	if (!rf->want)
		return -ENOMEM;
	for (k = 0; k < n; k++)
		rf->want[k] = f->nbrk ? f->brk[k] : (k + 1) * e;
	rf->nwant = (unsigned)n;
	/*
	 * A break in a hole (or at its start) is where the data after the
	 * hole starts: nothing is read in between.
	 */
	if (rf->nh) {
		unsigned j = 0, m = 0;

		for (k = 0; k < n; k++) {
			uint64_t w = rf->want[k];

			while (j < rf->nh && rf->hole[2 * j + 1] <= w)
				j++;
			if (j < rf->nh && rf->hole[2 * j] <= w)
				w = rf->hole[2 * j + 1];
			if (w < rf->size && (!m || w > rf->want[m - 1]))
				rf->want[m++] = w;
		}
		rf->nwant = m;
	}
	return 0;
}

/* Is @ofs one of @rf's wanted extent starts? */
static bool wanted(const struct rfile *rf, uint64_t ofs)
{
	unsigned lo = 0, hi = rf->nwant;

	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;

		if (rf->want[mid] < ofs)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rf->nwant && rf->want[lo] == ofs;
}

/*
 * Where the file's next block is not disk-contiguous with the one before
 * (the filesystem starts a new bio there), against the case's layout.
 * FIEMAP may report one run of blocks as several extents (ext4: at most
 * 128 MiB each); only the breaks between them count.  A break the layout
 * wants that is missing is an error (-EIO with the diagnostic); breaks the
 * filesystem made by itself are counted and listed (res->breaks,
 * res->brk) for 'ralab check' to give the model.
 */
static int check_layout(struct rec *r, const struct rfile *rf, unsigned fi)
{
	struct ralab_kernel_result *res = r->res;
	uint64_t bs = ralab_workload_config(r->wl)->block_size;
	uint64_t pos = 0, got = 0, top = (rf->size + bs - 1) / bs * bs;
	unsigned i, h = 0;

	for (i = 0; i <= rf->next; i++) {
		const struct kx_extent *x = i < rf->next ? &rf->ext[i] : NULL;
		const struct kx_extent *w = i ? &rf->ext[i - 1] : NULL;
		uint64_t at = x ? x->logical : top;
		bool brk;

		if (w)
			pos = w->logical + w->length;
		/*
		 * Unwritten blocks read as zeroes, without I/O: a file left
		 * so by an older ralab's rewrite is not the case's file.
		 */
		if (x && (x->flags & FIEMAP_EXTENT_UNWRITTEN) && !rf->unwritten)
			return rerr(r, -EIO,
				    "%s: the file has unwritten blocks at byte %llu where the case has data",
				    rf->path, (unsigned long long)x->logical);
		/* A gap in the extents: one of the case's holes, exactly. */
		if (at > pos) {
			if (h >= rf->nh || rf->hole[2 * h] != pos ||
			    (x ? rf->hole[2 * h + 1] != at :
				 rf->hole[2 * h + 1] < rf->size))
				return rerr(r, -EIO,
					    "%s: the file has a hole at byte %llu where the case has none",
					    rf->path, (unsigned long long)pos);
			h++;
		}
		if (!x || !w)
			continue;
		brk = w->physical + w->length != x->physical;
		if (!brk)
			continue;
		if (wanted(rf, x->logical)) {
			got++;
			continue;
		}
		if (rf->nwant)
			return rerr(r, -EIO,
				    "%s: the filesystem did not lay the file out as the case says (a break at byte %llu; if its free space is fragmented, 'ralab kernel --teardown' starts afresh)",
				    rf->path, (unsigned long long)x->logical);
		if (res->breaks < RALAB_MAX_BREAKS)
			res->brk[res->breaks] = (struct ralab_break){
				fi, x->logical, 0
			};
		res->breaks++;
	}
	if (h != rf->nh)
		return rerr(r, -EIO,
			    "%s: the file has %u of the case's %u holes",
			    rf->path, h, rf->nh);
	if (got != rf->nwant)
		return rerr(r, -EIO,
			    "%s: the filesystem did not lay the file out as the case says (%llu of its %u breaks; if its free space is fragmented, 'ralab kernel --teardown' starts afresh)",
			    rf->path, (unsigned long long)got, rf->nwant);
	return 0;
}

/*
 * Preallocate @rf in extents of extent_kb, each one block apart on the
 * disk from the next (the model's layout, blk.c).  Allocators place a
 * file's blocks as they see fit, so the gaps are made, not asked for: a
 * chunk of extents is allocated with a block before each, in one request
 * (one run on the disk, taken from large free space rather than the holes
 * such gaps leave behind), and then each gap block is cut out of the file
 * (FALLOC_FL_COLLAPSE_RANGE moves what follows down in the file, not on
 * the disk; only the chunk follows, so the work stays linear in the size):
 *
 *   fallocate:  [ e0 ]g[ e1 ]g[ e2 ]     a chunk in one run (a later
 *                                        chunk starts with a g too)
 *   collapse:   [ e0 ][ e1 ][ e2 ]       in the file; on the disk the g
 *                                        blocks are free: all apart
 */
#define LAYOUT_CHUNK (8ull << 20) /* bytes allocated at once, at most */

/* A short name for a list of offsets (FNV-1a over the values). */
static unsigned list_hash(const uint64_t *v, unsigned n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	unsigned k;

	for (k = 0; k < n; k++)
		h = (h ^ v[k]) * 0x100000001b3ull;
	return (unsigned)(h ^ (h >> 32));
}

/* Where extent @j of @rf starts (j = nwant + 1: the file's end). */
static uint64_t extent_start(const struct rfile *rf, uint64_t j)
{
	return !j ? 0 : j <= rf->nwant ? rf->want[j - 1] : rf->size;
}

static int preallocate(struct rec *r, struct rfile *rf, int fd)
{
	/* A gap is a block: FALLOC_FL_COLLAPSE_RANGE cuts whole blocks. */
	uint64_t bs = ralab_workload_config(r->wl)->block_size;
	uint64_t k0, j, n;

	if (!rf->size)
		return 0;
	if (!rf->nwant)
		return fallocate(fd, 0, 0, (off_t)rf->size) ? -errno : 0;
	/* Chunks of up to 256 extents, about LAYOUT_CHUNK bytes. */
	for (k0 = 0; k0 <= rf->nwant; k0 += n) {
		uint64_t o = extent_start(rf, k0), end, gaps;

		n = 0;
		do {
			end = extent_start(rf, k0 + ++n);
		} while (k0 + n <= rf->nwant && n < 256 &&
			 end - o < LAYOUT_CHUNK);
		/* A gap before every extent of the chunk but the file's first. */
		gaps = n - (k0 == 0);
		if (stopped(r))
			return -EINTR;
		if (fallocate(fd, 0, (off_t)o, (off_t)(end - o + gaps * bs)))
			return -errno;
		for (j = k0 == 0; j < n; j++)
			if (fallocate(fd, FALLOC_FL_COLLAPSE_RANGE,
				      (off_t)extent_start(rf, k0 + j),
				      (off_t)bs))
				return -errno;
	}
	return 0;
}

/* @n bytes of xorshift data (state *@x) at the end of @fd. */
static int write_data(struct rec *r, const struct rfile *rf, int fd,
		      uint64_t n, uint64_t *x)
{
	uint64_t *buf = malloc(1 << 20);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (n && !err) {
		size_t k = n < (1u << 20) ? (size_t)n : (1u << 20), i;
		ssize_t w;

		if (stopped(r)) {
			err = -EINTR;
			break;
		}
		for (i = 0; i < (1u << 20) / 8; i++) {
			*x ^= *x << 13;
			*x ^= *x >> 7;
			*x ^= *x << 17;
			buf[i] = *x;
		}
		w = write(fd, buf, k);
		if (w < 0)
			err = rerr(r, -errno, "writing %s: %s", rf->path, strerror(errno));
		else
			n -= (uint64_t)w;
	}
	free(buf);
	return err;
}

/*
 * A file with holes: its data laid out as the case says with the holes
 * left out, then each hole inserted (FALLOC_FL_INSERT_RANGE moves what
 * follows up in the file, not on the disk), so the data on both sides of
 * a hole stays disk-contiguous unless a break is there, as in the model:
 *
 *   data:    [ d0 ][ d1 ]|[ d2 ]        | a break (a gap on the disk)
 *   insert:  [ d0 ] hole [ d1 ]|[ d2 ]
 */
static int make_holey(struct rec *r, struct rfile *rf, int fd)
{
	struct rfile d = *rf;
	uint64_t x = 0x9e3779b97f4a7c15ull ^ rf->size, cur, *cw = NULL;
	unsigned k, j = 0, n = 0;
	int err;

	/* The data's size, and the breaks where they fall in the data. */
	d.size = rf->size;
	for (k = 0; k < rf->nh; k++) {
		uint64_t a = rf->hole[2 * k], b = rf->hole[2 * k + 1];

		d.size -= (b < rf->size ? b : rf->size) - a;
	}
	if (rf->nwant && !(cw = malloc(rf->nwant * sizeof(*cw))))
		return -ENOMEM;
	for (k = 0; k < rf->nwant; k++) {
		uint64_t w = rf->want[k], before = 0;

		for (j = 0; j < rf->nh && rf->hole[2 * j] < w; j++)
			before += (rf->hole[2 * j + 1] < w ? rf->hole[2 * j + 1] : w) -
				  rf->hole[2 * j];
		w -= before;
		if (w && w < d.size && (!n || w > cw[n - 1]))
			cw[n++] = w;
	}
	d.want = cw;
	d.nwant = n;
	err = preallocate(r, &d, fd);
	if (err)
		err = rerr(r, err, "preallocating %s: %s", rf->path, strerror(-err));
	if (!err)
		err = write_data(r, rf, fd, d.size, &x);
	for (k = 0, cur = d.size; !err && k < rf->nh; k++) {
		uint64_t a = rf->hole[2 * k], len = rf->hole[2 * k + 1] - a;

		if (a < cur ? fallocate(fd, FALLOC_FL_INSERT_RANGE, (off_t)a, (off_t)len) :
			      ftruncate(fd, (off_t)(a + len)))
			err = rerr(r, -errno, "making hole %llu+%llu in %s: %s",
				   (unsigned long long)a, (unsigned long long)len,
				   rf->path, strerror(errno));
		cur += len;
	}
	if (!err && ftruncate(fd, (off_t)rf->size))
		err = rerr(r, -errno, "%s: %s", rf->path, strerror(errno));
	if (!err && fsync(fd))
		err = rerr(r, -errno, "fsync %s: %s", rf->path, strerror(errno));
	free(cw);
	return err;
}

/* A test file: SIZE bytes of xorshift data, preallocated, kept. */
static int make_file(struct rec *r, struct rfile *rf)
{
	char done[400];
	struct stat st;
	uint64_t x = 0x9e3779b97f4a7c15ull ^ rf->size;
	int fd, err = 0;

	snprintf(done, sizeof(done), "%s.done", rf->path);
	if (!r->truncates && !rf->unwritten && !stat(rf->path, &st) &&
	    (uint64_t)st.st_size == rf->size && !access(done, F_OK))
		return 0;
	unlink(done);
	fd = open(rf->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return rerr(r, -errno, "%s: %s", rf->path, strerror(errno));
	if (rf->nh) {
		err = make_holey(r, rf, fd);
		goto out;
	}
	/* fallocate(2) over the new file, as fio lays one out for writes. */
	if (rf->unwritten) {
		if (fallocate(fd, 0, 0, (off_t)rf->size))
			err = rerr(r, -errno, "fallocate %s: %s", rf->path,
				   strerror(errno));
		else if (fsync(fd))
			err = rerr(r, -errno, "fsync %s: %s", rf->path,
				   strerror(errno));
		goto out;
	}
	if ((err = preallocate(r, rf, fd))) {
		err = rerr(r, err, "preallocating %s: %s (is the file too large for the %llu GiB image?)",
			   rf->path, strerror(-err),
			   (unsigned long long)(IMAGE_BYTES >> 30));
		goto out;
	}
	err = write_data(r, rf, fd, rf->size, &x);
	if (!err && fsync(fd))
		err = rerr(r, -errno, "fsync %s: %s", rf->path, strerror(errno));
out:
	close(fd);
	/* A file the run truncates and rewrites is not kept for others. */
	if (!err && !r->truncates && !rf->unwritten) {
		fd = open(done, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
	return err;
}

/*
 * Remove the data files earlier cases left in the image (kept so that
 * their next run need not lay them out again), but for this case's made
 * so far (and their markers): with their blocks freed, the image's free
 * space is in long runs again for a file that needs them.
 */
static void free_image_space(struct rec *r)
{
	DIR *d = opendir(r->mnt);
	struct dirent *e;
	char p[700];
	unsigned i;

	if (!d)
		return;
	while ((e = readdir(d))) {
		bool ours = false;

		if (strncmp(e->d_name, "data-", 5))
			continue;
		snprintf(p, sizeof(p), "%s/%s", r->mnt, e->d_name);
		for (i = 0; i < r->nr_files && !ours; i++)
			ours = !strncmp(p, r->files[i].path,
					strlen(r->files[i].path));
		if (!ours)
			unlink(p);
	}
	closedir(d);
}

/*
 * Make (or find) @rf, read its extents and check its layout.  A file kept
 * from an earlier run that does not have the layout the case asks for (a
 * filesystem may move blocks; an older ralab laid files out otherwise) is
 * made again; if that fails too (the image's free space is in short runs:
 * files made anew for each run of cases that truncate leave it so), once
 * more after the other cases' files in the image are removed.
 */
static int prepare_file(struct rec *r, struct rfile *rf, unsigned fi,
			struct stat *st)
{
	unsigned extents = r->res->extents, breaks = r->res->breaks;
	char done[400];
	int tries, err, fd;

	if ((err = want_layout(r, rf, fi)))
		return err;
	for (tries = 0; tries < 3; tries++) {
		r->res->extents = extents;
		r->res->breaks = breaks;
		if ((err = make_file(r, rf)) || stopped(r))
			return err ? err : -EINTR;
		fd = open(rf->path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return rerr(r, -errno, "%s: %s", rf->path, strerror(errno));
		err = fstat(fd, st) ? -errno : load_extents(r, rf, fd);
		close(fd);
		if (err)
			return err;
		r->res->extents += rf->next;
		err = check_layout(r, rf, fi);
		if (err != -EIO || tries == 2)
			return err;
		if (tries)
			free_image_space(r);
		/* Forget the diagnostic and make the file again. */
		pthread_mutex_lock(&r->lock);
		if (r->diag)
			r->diag->msg[0] = '\0';
		pthread_mutex_unlock(&r->lock);
		snprintf(done, sizeof(done), "%s.done", rf->path);
		unlink(done);
		unlink(rf->path);
	}
	return err;
}

/* POSIX_FADV_DONTNEED, then check with mincore() that nothing is cached. */
static int evict(struct rec *r, struct rfile *rf)
{
	size_t pages = (size_t)((rf->size + 4095) / 4096), i, left = 0;
	unsigned char *vec;
	int fd, tries;
	void *map;

	fd = open(rf->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rerr(r, -errno, "%s: %s", rf->path, strerror(errno));
	if (!pages) {
		close(fd);
		return 0;
	}
	vec = malloc(pages);
	map = mmap(NULL, (size_t)rf->size, PROT_READ, MAP_SHARED, fd, 0);
	if (!vec || map == MAP_FAILED) {
		free(vec);
		if (map != MAP_FAILED)
			munmap(map, (size_t)rf->size);
		close(fd);
		return rerr(r, -ENOMEM, "cannot check the page cache of %s", rf->path);
	}
	for (tries = 0; tries < 5; tries++) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		left = 0;
		if (mincore(map, (size_t)rf->size, vec))
			break;
		for (i = 0; i < pages; i++)
			left += vec[i] & 1;
		if (!left)
			break;
		usleep(100000);
	}
	munmap(map, (size_t)rf->size);
	free(vec);
	close(fd);
	if (left)
		return rerr(r, -EBUSY, "%zu pages of %s stay cached after POSIX_FADV_DONTNEED", left, rf->path);
	return 0;
}

/*
 * Before 6.18: define the kprobes and enable them in the run's instance,
 * where the layout is known (kprobe_layout_known()); elsewhere, or without
 * kprobe events, the recording has no readahead calls, as before.  The
 * trace lines carry the thread group (options/record-tgid, set by
 * trace_setup()), so that parse_line() keeps the calls of this process
 * only.
 */
static int kprobes_setup(struct rec *r)
{
	char path[512], def[512];
	unsigned i;
	int err;

	snprintf(path, sizeof(path), "%s/kprobe_events", r->tracefs);
	if (!kprobe_layout_known() || access(path, W_OK))
		return 0;
	r->kprobes = true;
	for (i = 0; i < NR_KPROBES; i++) {
		snprintf(def, sizeof(def), "p:%s%d/%s %s %s", KPROBE_GROUP,
			 (int)getpid(), kprobes[i][0], kprobes[i][0],
			 kprobes[i][1]);
		if ((err = kx_write_file(path, def)))
			return rerr(r, err, "defining the kprobe on %s: %s",
				    kprobes[i][0], strerror(-err));
	}
	/* Fewer lines in the buffer where the kernel filters on comm. */
	snprintf(path, sizeof(path), "%s/events/%s%d/filter", r->inst,
		 KPROBE_GROUP, (int)getpid());
	if (r->comm[0]) {
		snprintf(def, sizeof(def), "comm == \"%s\"", r->comm);
		kx_write_file(path, def);
	}
	snprintf(path, sizeof(path), "%s/events/%s%d/enable", r->inst,
		 KPROBE_GROUP, (int)getpid());
	if ((err = kx_write_file(path, "1")))
		return rerr(r, err, "enabling the kprobes: %s", strerror(-err));
	return 0;
}

/*
 * The trace buffer's size per CPU: room for the events the model expects
 * of the case (all of them could land on one CPU), at least
 * TRACE_BUFFER_KB, at most TRACE_BUFFER_MAX_KB and a quarter of the
 * available memory over all CPUs.  A case that still overflows it is
 * refused after the run (trace_collect()), never half-recorded.
 */
static unsigned long trace_buffer_kb(const struct rec *r)
{
	struct ralab_stats st;
	unsigned long long nev = 0, avail_kb = 0, kb;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char buf[4096], *p;
	unsigned o;

	if (!ralab_run(r->wl, NULL, &st)) {
		nev = st.sync_ra + st.async_ra + st.ra_order +
			 st.ra_unbounded + st.data_reads;
		for (o = 0; o <= RALAB_MAX_ORDER; o++)
			nev += st.folios[o];
	}
	kb = nev * TRACE_EVENT_BYTES / 1024;
	if (kb < TRACE_BUFFER_KB)
		return TRACE_BUFFER_KB;
	if (!kx_read_small("/proc/meminfo", buf, sizeof(buf)) &&
	    (p = strstr(buf, "MemAvailable:")))
		avail_kb = strtoull(p + 13, NULL, 10);
	if (ncpu < 1)
		ncpu = 1;
	if (avail_kb && kb > avail_kb / 4 / (unsigned long long)ncpu)
		kb = avail_kb / 4 / (unsigned long long)ncpu;
	if (kb > TRACE_BUFFER_MAX_KB)
		kb = TRACE_BUFFER_MAX_KB;
	return kb < TRACE_BUFFER_KB ? TRACE_BUFFER_KB : (unsigned long)kb;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * The files' inodes as a tracefs filter term in @buf: runs of consecutive
 * numbers as ranges ("i_ino >= A && i_ino <= B"), which is what a case of
 * many files created in turn gets from XFS.  -E2BIG if it does not fit
 * (tracefs takes a filter under a page).
 */
static int ino_filter(const struct rec *r, char *buf, size_t len)
{
	size_t n = 0;
	unsigned i, j;
	int k;

	for (i = 0; i < r->nr_files; i = j) {
		for (j = i + 1; j < r->nr_files &&
		     r->ino_sorted[j] == r->ino_sorted[j - 1] + 1; j++)
			;
		if (j - i > 1)
			k = snprintf(buf + n, len - n, "%s(i_ino >= %lu && i_ino <= %lu)",
				     i ? " || " : "", r->ino_sorted[i],
				     r->ino_sorted[j - 1]);
		else
			k = snprintf(buf + n, len - n, "%si_ino == %lu",
				     i ? " || " : "", r->ino_sorted[i]);
		if (k < 0 || (size_t)k >= len - n)
			return -E2BIG;
		n += (size_t)k;
	}
	return 0;
}

/*
 * Whether the tracepoint line @p (from its event name on) is about one of
 * the test files: its "ino=HEX" or "ino HEX" field is one of theirs.
 * Lines without the field (kprobes, block requests) are left to their
 * own filters.  The kernel filters on inodes too (ino_filter()), but not
 * where the files' numbers make too long a filter.
 */
static bool our_ino(const struct rec *r, const char *p)
{
	const char *q = strstr(p, " ino=");
	unsigned long ino;

	if (!q)
		q = strstr(p, " ino ");
	if (!q)
		return true;
	if (sscanf(q + 5, "%lx", &ino) != 1)
		return false;
	return bsearch(&ino, r->ino_sorted, r->nr_files, sizeof(ino),
		       cmp_ulong) != NULL;
}

static int trace_setup(struct rec *r)
{
	char path[512], val[4096], inos[3072];
	unsigned i;
	int err;

	for (i = 0; i < r->nr_files; i++)
		r->ino_sorted[i] = r->files[i].ino;
	qsort(r->ino_sorted, r->nr_files, sizeof(r->ino_sorted[0]), cmp_ulong);
	/* Too many scattered inodes: the device alone, and our_ino(). */
	if ((r->opts && r->opts->device_filter) ||
	    ino_filter(r, inos, sizeof(inos)))
		snprintf(inos, sizeof(inos), "s_dev == %u", r->kdev);

	snprintf(r->inst, sizeof(r->inst), "%s/instances/%s%d", r->tracefs,
		 INSTANCE_PREFIX, (int)getpid());
	if (mkdir(r->inst, 0700))
		return rerr(r, -errno, "creating trace instance %s: %s", r->inst, strerror(errno));
	r->inst_created = true;
	/*
	 * One clock for every CPU: with the default (local), events of one
	 * thread that moved between CPUs can come out of order.
	 */
	snprintf(path, sizeof(path), "%s/trace_clock", r->inst);
	if ((err = kx_write_file(path, "mono")))
		return rerr(r, err, "%s: %s", path, strerror(-err));
	snprintf(path, sizeof(path), "%s/buffer_size_kb", r->inst);
	r->buf_kb = trace_buffer_kb(r);
	snprintf(val, sizeof(val), "%lu", r->buf_kb);
	if ((err = kx_write_file(path, val)))
		return rerr(r, err, "%s: %s", path, strerror(-err));
	/*
	 * Lines name their thread group: from_us() tells this process's
	 * kprobe hits and page-cache deletes from other tasks'.
	 */
	snprintf(path, sizeof(path), "%s/options/record-tgid", r->inst);
	if ((err = kx_write_file(path, "1")))
		return rerr(r, err, "%s: %s", path, strerror(-err));
	if (!have_ra_events(r->tracefs) && (err = kprobes_setup(r)))
		return err;
	for (i = have_ra_events(r->tracefs) ? 0 : FIRST_NON_RA_EVENT;
	     i < NR_EVENTS; i++) {
		if (i == NR_EVENTS - 1)
			snprintf(val, sizeof(val), "dev == %u", r->kdev);
		else if (strstr(events[i], "delete_from") && r->comm[0])
			/* The workload's own deletes need no room. */
			snprintf(val, sizeof(val), "s_dev == %u && (%s) && comm != \"%s\"",
				 r->kdev, inos, r->comm);
		else
			snprintf(val, sizeof(val), "s_dev == %u && (%s)",
				 r->kdev, inos);
		snprintf(path, sizeof(path), "%s/events/%s/filter", r->inst, events[i]);
		if ((err = kx_write_file(path, val)))
			return rerr(r, err, "setting filter %s: %s", path, strerror(-err));
		snprintf(path, sizeof(path), "%s/events/%s/enable", r->inst, events[i]);
		if ((err = kx_write_file(path, "1")))
			return rerr(r, err, "enabling %s: %s", path, strerror(-err));
	}
	return 0;
}

static int read_stat(struct rec *r, uint64_t *reads, uint64_t *sectors)
{
	char path[128], buf[512];
	unsigned long long a, b, c2;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", r->loopname);
	if (kx_read_small(path, buf, sizeof(buf)) ||
	    sscanf(buf, "%llu %llu %llu", &a, &b, &c2) != 3)
		return rerr(r, -EIO, "cannot read %s", path);
	*reads = a;
	*sectors = c2;
	return 0;
}

/* ---- the ops, with real system calls ----------------------------------- */

static uint64_t max_len(const struct ralab_workload *wl)
{
	uint64_t m = 4096;
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++) {
		enum op_kind k = wl->ops[i].kind;

		if ((k == OP_READ || k == OP_PREAD || k == OP_RAND_PREAD ||
		     k == OP_STRIDE_PREAD || k == OP_SHUFFLE_PREAD ||
		     k == OP_FIO_PREAD || k == OP_WRITE || k == OP_PWRITE ||
		     k == OP_FIO_PWRITE) &&
		    wl->ops[i].len > m)
			m = wl->ops[i].len;
	}
	return m;
}

/* write(2), pwrite(2) or fio's pwrite? */
static bool write_call(const struct op *op)
{
	return op->kind == OP_WRITE || op->kind == OP_PWRITE ||
	       op->kind == OP_FIO_PWRITE;
}

/*
 * Does the case write data (write, pwrite, touch ... write, fallocate)?
 * Not truncate, punch or zero-range, which move none; those count for
 * ralab__wl_writes(), which decides read-write descriptors and writable
 * mappings.
 */
static bool data_writes_of(const struct ralab_workload *wl)
{
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++)
		if (write_call(&wl->ops[i]) ||
		    wl->ops[i].kind == OP_FALLOCATE ||
		    ((wl->ops[i].kind == OP_TOUCH ||
		      wl->ops[i].kind == OP_MEMCPY) && wl->ops[i].wfault))
			return true;
	return false;
}

/*
 * Does the case fallocate (unwritten extents: in a hole, allocated), or
 * truncate file @ino (grown back, its holes are filled where the model
 * takes its blocks to go, not the file's own holes of the layout)?
 */
static bool resizes(const struct ralab_workload *wl, unsigned ino)
{
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++)
		if (wl->ops[i].kind == OP_FALLOCATE ||
		    (wl->ops[i].kind == OP_TRUNCATE && wl->ops[i].ino == ino))
			return true;
	return false;
}

/*
 * Does a write of @wl reach into a file's own holes?  The filesystem then
 * allocates blocks there, where the model does not follow
 * (ralab_stats.hole_writes).  Writes beside the holes overwrite blocks in
 * place and leave the layout as it is.  Which writes reach a hole depends
 * on the file position and on the folios that faults find, so the
 * model's own run tells (and after the run, holes_kept() checks it).
 */
static bool writes_reach_holes(const struct ralab_workload *wl)
{
	const struct ralab_run_opts ro = { .policy = "linux-6.18" };
	struct ralab_stats st;

	/* A run that fails (out of memory) cannot tell: refused too. */
	return ralab_run(wl, &ro, &st) || st.hole_writes;
}

/*
 * Are @rf's holes still where the case has them, now that its writes are
 * written back?  A block allocated in one moved data where the recording
 * does not say: -EIO, the run not kept.
 */
static int holes_kept(struct rec *r, const struct rfile *rf)
{
	struct kx_extent *ext = NULL;
	unsigned n = 0, i, j;
	int fd = open(rf->path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return rerr(r, -errno, "%s: %s", rf->path, strerror(errno));
	err = kx_extents(fd, &ext, &n);
	close(fd);
	if (err)
		return rerr(r, err, "FIEMAP on %s: %s", rf->path, strerror(-err));
	for (i = 0; i < n && !err; i++)
		for (j = 0; j < rf->nh; j++)
			if (ext[i].logical < rf->hole[2 * j + 1] &&
			    rf->hole[2 * j] < ext[i].logical + ext[i].length) {
				err = rerr(r, -EIO,
					   "%s: the run allocated blocks in the file's hole at byte %llu, which the model said no write reaches: not recorded",
					   rf->path,
					   (unsigned long long)rf->hole[2 * j]);
				break;
			}
	free(ext);
	return err;
}

/*
 * Does the case map a range writable ('mmap ... write', 'mprotect ... w')?
 * Its descriptors are then opened read-write (a shared mapping of one
 * opened read-only cannot get PROT_WRITE).
 */
static bool map_writes(const struct ralab_workload *wl)
{
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++)
		if ((wl->ops[i].kind == OP_MMAP && wl->ops[i].mwrite) ||
		    (wl->ops[i].kind == OP_MPROTECT &&
		     (wl->ops[i].advice & PROT_W_)))
			return true;
	return false;
}

/* Does the case lock (an mlock op or a MAP_LOCKED mapping)? */
static bool mlocks(const struct ralab_workload *wl)
{
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++)
		if (wl->ops[i].kind == OP_MLOCK ||
		    (wl->ops[i].kind == OP_MMAP && wl->ops[i].locked))
			return true;
	return false;
}

/* Does the case write with RWF_DONTCACHE ('rwf dontcache', then writes)? */
static bool dontcache_writes(const struct ralab_workload *wl)
{
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++)
		if (write_call(&wl->ops[i]) && wl->ops[i].dontcache)
			return true;
	return false;
}

/* Does the case truncate, or punch holes (a layout not kept for others)? */
static bool truncates(const struct ralab_workload *wl)
{
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++)
		if (wl->ops[i].kind == OP_TRUNCATE ||
		    wl->ops[i].kind == OP_PUNCH)
			return true;
	return false;
}

/* Does the case punch holes (or zero a range) in file @ino? */
static bool punches(const struct ralab_workload *wl, unsigned ino)
{
	unsigned i;

	for (i = 0; i < wl->nr_ops; i++)
		if (wl->ops[i].kind == OP_PUNCH && wl->ops[i].ino == ino)
			return true;
	return false;
}

#define MAP_BASE 0x200000000000ull
#define MAP_ALIGN (2ull << 20)
/*
 * Address space per (job, slot): 16 GiB, so that the 64 x 64 slots end
 * below 128 TiB (47-bit user addresses).  A longer mapping reaches into
 * the next slot's range, whose mmap then fails (MAP_FIXED_NOREPLACE).
 */
#define MAP_SPAN (1ull << 34)
_Static_assert(MAP_BASE + (uint64_t)MAX_JOBS * MAX_MAPS * MAP_SPAN <= 1ull << 47,
	       "the mapping slots fit in the user address space");

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ull + (uint64_t)t->tv_nsec;
}

/*
 * Until CLOCK_MONOTONIC reaches @t ns: sleep to 100 us before it, then
 * spin, since a sleep wakes tens of microseconds late and a replay of
 * thousands of short gaps would fall behind by as many (fio's iolog
 * replay spins too).
 */
static void wait_until(struct rec *r, uint64_t t, bool yield)
{
	struct timespec now, at;

	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ts_ns(&now) >= t || stopped(r))
			return;
		if (t - ts_ns(&now) > 200000) {
			at.tv_sec = (time_t)((t - 100000) / 1000000000ull);
			at.tv_nsec = (long)((t - 100000) % 1000000000ull);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
		} else if (yield) {
			/*
			 * Jobs spinning on every CPU keep the loop device's
			 * worker waiting (2 jobs on 2 CPUs: 5-7% slower).
			 */
			sched_yield();
		}
	}
}

/*
 * One job's run: its figures are kept apart so that jobs running as
 * threads share nothing but the descriptors and the mappings table (whose
 * slots are per job).
 */
struct rjob {
	struct rec *r;
	struct rrun *run;
	unsigned job;
	bool threaded;
	uint64_t lat[LAT_BUCKETS], reads, syscalls, bytes;
	uint64_t think_calls; /* read calls since its last think */
	bool before_epoch; /* its 'epoch' op to come: no think time yet */
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC */
	struct fio_carry carry; /* its fio-pread generator (cont) */
	int rwf; /* the current op's preadv2(2) flags (RWF_DONTCACHE) */
	bool splice; /* the current op's reads splice ('via splice') */
	int err;
};

/* What the jobs of a run share. */
struct rrun {
	int *fds;
	char *bufs[MAX_JOBS];  /* one read buffer per job */
	size_t bufsz;
	uint64_t t0;           /* the run's start, CLOCK_MONOTONIC ns */
	/* Mappings by job and slot: a job's slots are its own (op.map). */
	void *map[MAX_JOBS * MAX_MAPS];
	size_t map_len[MAX_JOBS * MAX_MAPS];
	uint64_t map_off[MAX_JOBS * MAX_MAPS];
	/* Jobs ended (under rec.lock), for 'wait-for' jobs to wait on. */
	bool done[MAX_JOBS];
	pthread_cond_t ended;
};

/* Read @n bytes out of pipe @rfd into @buf (@bufsz): 0, or -1. */
static int pipe_empty(int rfd, char *buf, size_t bufsz, uint64_t n)
{
	while (n) {
		ssize_t r = read(rfd, buf, bufsz < n ? bufsz : (size_t)n);

		if (r <= 0)
			return -1;
		n -= (uint64_t)r;
	}
	return 0;
}

/*
 * splice OFF LEN PAGES: splice(2) from the file into a pipe of its own
 * with PAGES free buffers (F_SETPIPE_SZ to the power of two at or above
 * PAGES, the rest taken by whole pages written first), emptied and closed
 * after; sendfile OFF LEN: sendfile(2) to /dev/null.  Timed as reads.
 */
static int sys_splice(struct rjob *j, int fd, const struct op *op, char *buf,
		      size_t bufsz)
{
	struct timespec t0, t1;
	unsigned bufs = PIPE_DEF_BUFFERS, k;
	uint64_t left;
	ssize_t n = -1;
	loff_t off = (loff_t)op->off;
	int p[2] = { -1, -1 }, out = -1, err = 0;

	if (op->kind == OP_SENDFILE) {
		out = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (out < 0)
			return rerr(j->r, -errno, "/dev/null: %s", strerror(errno));
	} else {
		if (pipe2(p, O_CLOEXEC))
			return rerr(j->r, -errno, "pipe: %s", strerror(errno));
		while (bufs < op->count)
			bufs *= 2;
		while (bufs / 2 >= op->count)
			bufs /= 2;
		if (bufs != PIPE_DEF_BUFFERS &&
		    fcntl(p[1], F_SETPIPE_SZ, (int)(bufs * 4096u)) < 0)
			err = rerr(j->r, -errno, "F_SETPIPE_SZ: %s", strerror(errno));
		memset(buf, 0, bufsz < 4096 ? bufsz : 4096);
		for (k = 0; !err && k < bufs - op->count; k++)
			if (write(p[1], buf, 4096) != 4096)
				err = rerr(j->r, -EIO, "filling a pipe: %s", strerror(errno));
	}
	j->syscalls++;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!err)
		n = op->kind == OP_SENDFILE ?
			    sendfile(out, fd, &off, (size_t)op->len) :
			    splice(fd, &off, p[1], NULL, (size_t)op->len, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!err) {
		j->lat[lat_bucket((uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull +
				  (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec)]++;
		j->reads++;
		if (n > 0)
			j->bytes += (uint64_t)n;
		else if (n < 0 && errno == EINTR)
			err = -EINTR;
	}
	/* Empty the pipe: what was written first, then what was spliced. */
	left = (uint64_t)(bufs - op->count) * 4096 + (n > 0 ? (uint64_t)n : 0);
	if (!err && p[0] >= 0 && pipe_empty(p[0], buf, bufsz, left))
		err = rerr(j->r, -EIO, "emptying a pipe: %s", strerror(errno));
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	if (out >= 0)
		close(out);
	return err;
}

/*
 * A read made as fio's splice engine makes it ('via splice'): splice(2)
 * of 64 KiB at most into a pipe of 16 buffers, emptied after each, until
 * @len or EOF; at @pos, or at the file position.  What it read, or -1.
 */
static ssize_t splice_read_call(int fd, int64_t pos, uint64_t len,
				bool use_pos, char *buf, size_t bufsz)
{
	loff_t off = (loff_t)pos;
	uint64_t done = 0;
	int p[2];

	if (pipe2(p, O_CLOEXEC))
		return -1;
	while (done < len) {
		size_t ask = len - done < 65536 ? (size_t)(len - done) : 65536;
		ssize_t n = splice(fd, use_pos ? &off : NULL, p[1], NULL, ask, 0);

		if (n <= 0) {
			if (n < 0 && !done)
				done = UINT64_MAX;
			break;
		}
		done += (uint64_t)n;
		if (pipe_empty(p[0], buf, bufsz, (uint64_t)n))
			break;
	}
	close(p[0]);
	close(p[1]);
	return done == UINT64_MAX ? -1 : (ssize_t)done;
}

static int sys_read(struct rjob *j, int fd, int64_t pos, uint64_t len,
		    bool use_pos, char *buf, size_t bufsz, int64_t *got)
{
	struct timespec t0, t1;
	const struct wl_job *wj = &j->r->wl->jobs[j->job];
	uint64_t think = wj->think_ns;
	ssize_t n;

	j->syscalls++;
	if (len > bufsz)
		return rerr(j->r, -E2BIG, "a read of %llu bytes is larger than the recorder's buffer",
			    (unsigned long long)len);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (j->splice) {
		n = splice_read_call(fd, pos, len, use_pos, buf, bufsz);
	} else if (j->rwf) {
		struct iovec iov = { buf, len };

		/* Offset -1: at the file position, as read(2). */
		n = preadv2(fd, &iov, 1, use_pos ? pos : -1, j->rwf);
	} else {
		n = use_pos ? pread(fd, buf, len, pos) : read(fd, buf, len);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	j->lat[lat_bucket((uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000ull +
			  (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec)]++;
	j->reads++;
	if (n < 0) {
		if (errno == EINTR)
			return -EINTR;
		if (j->rwf && errno == EOPNOTSUPP)
			return rerr(j->r, -EOPNOTSUPP, "preadv2(RWF_DONTCACHE): not supported by this kernel (6.14 or later) or file system");
		*got = -1;
	} else {
		j->bytes += (uint64_t)n;
		*got = n;
	}
	/* The job's think time follows every (EVERY-th) read call. */
	if (j->before_epoch)
		think = 0;
	if (think && wj->think_every > 1 && ++j->think_calls < wj->think_every)
		think = 0;
	if (think) {
		struct timespec now;

		j->think_calls = 0;
		clock_gettime(CLOCK_MONOTONIC, &now);
		wait_until(j->r, ts_ns(&now) + think, j->threaded);
	}
	return 0;
}

/*
 * A buffered write of @len bytes (at @pos, or at the file position), cut
 * at the end of the file (a size of @size) as the model cuts it: the case
 * overwrites its file in place and never grows it.
 */
static int sys_write(struct rjob *j, int fd, int64_t pos, uint64_t len,
		     bool use_pos, uint64_t size, const char *buf,
		     size_t bufsz, int64_t *got)
{
	ssize_t n;

	j->syscalls++;
	*got = 0;
	if (len > bufsz)
		return rerr(j->r, -E2BIG, "a write of %llu bytes is larger than the recorder's buffer",
			    (unsigned long long)len);
	if (!use_pos && (pos = lseek(fd, 0, SEEK_CUR)) < 0)
		return rerr(j->r, -errno, "lseek: %s", strerror(errno));
	if ((uint64_t)pos >= size)
		return 0;
	if (len > size - (uint64_t)pos)
		len = size - (uint64_t)pos;
	if (j->rwf) {
		struct iovec iov = { (void *)buf, len };

		/* Offset -1: at the file position, as write(2). */
		n = pwritev2(fd, &iov, 1, use_pos ? pos : -1, j->rwf);
	} else {
		n = use_pos ? pwrite(fd, buf, len, pos) : write(fd, buf, len);
	}
	if (n < 0 && j->rwf && errno == EOPNOTSUPP)
		return rerr(j->r, -EOPNOTSUPP, "pwritev2(RWF_DONTCACHE): not supported by this kernel (6.14 or later) or file system");
	if (n < 0)
		return errno == EINTR ? -EINTR :
		       rerr(j->r, -errno, "write: %s", strerror(errno));
	*got = n;
	return 0;
}

/*
 * ftruncate(@fd, @size) of file @ino, then a marker in the trace: from
 * there on its reads go to the blocks its rewrite gets (and, below
 * @size, those it kept).  Where those are is
 * known at the next truncate (the extents then, taken without writing
 * anything back: gen) or after the run (ext2).
 */
static int truncate_file(struct rec *r, int fd, unsigned ino, uint64_t size)
{
	struct rfile *rf = &r->files[ino];
	struct kx_extent *x = NULL;
	char path[400], val[64];
	unsigned n = 0;
	struct rgen *g;
	int err;

	pthread_mutex_lock(&r->lock);
	if (rf->truncs) {
		err = kx_extents_nosync(fd, &x, &n);
		g = err ? NULL : realloc(rf->gen, (rf->nr_gen + 1) * sizeof(*g));
		if (!g) {
			free(x);
			pthread_mutex_unlock(&r->lock);
			return rerr(r, err ? err : -ENOMEM, "FIEMAP on %s: %s",
				    rf->path, strerror(err ? -err : ENOMEM));
		}
		rf->gen = g;
		rf->gen[rf->nr_gen++] = (struct rgen){ x, n };
	}
	rf->truncs++;
	pthread_mutex_unlock(&r->lock);
	if (ftruncate(fd, (off_t)size))
		return rerr(r, -errno, "ftruncate: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/trace_marker", r->inst);
	snprintf(val, sizeof(val), "ralab-truncate %u", ino);
	if ((err = kx_write_file(path, val)))
		return rerr(r, err, "%s: %s", path, strerror(-err));
	return 0;
}

/*
 * Where extents @ext of file @fi (a rewrite's) are not disk-contiguous,
 * appended to @out as generation @gen: the model takes data after a hole
 * to be as far on the disk as in the file (the allocators aim there),
 * but for the file's own holes, which take no space (struct
 * blk_layout), so a break is where they are not.
 */
static void extent_breaks(const struct rfile *rf,
			  const struct kx_extent *ext, unsigned n,
			  unsigned fi, unsigned gen, struct ralab_break *out,
			  unsigned *nout)
{
	const struct kx_extent *w = NULL;
	unsigned i, j;

	for (i = 0; i < n; i++) {
		const struct kx_extent *x = &ext[i];
		uint64_t a, b, own = 0;

		/* Not allocated yet (delalloc): nothing of the disk. */
		if (x->flags & FIEMAP_EXTENT_UNKNOWN)
			continue;
		if (!w) {
			w = x;
			continue;
		}
		/*
		 * The file's own holes in the gap take no disk space (a
		 * truncate keeps those below its size), the rest of it does.
		 */
		a = w->logical + w->length;
		b = x->logical;
		for (j = 0; j < rf->nh; j++) {
			uint64_t lo = rf->hole[2 * j] > a ? rf->hole[2 * j] : a;
			uint64_t hi = rf->hole[2 * j + 1] < b ?
					      rf->hole[2 * j + 1] : b;

			if (lo < hi)
				own += hi - lo;
		}
		if (x->physical - (w->physical + w->length) !=
		    x->logical - (w->logical + w->length) - own) {
			if (*nout < RALAB_MAX_BREAKS)
				out[*nout] = (struct ralab_break){
					fi, x->logical, gen
				};
			++*nout;
		}
		w = x;
	}
}

/* File @fi's rewrite as the run left it (ext2), and each generation's. */
static void rewrite_breaks(struct rec *r, const struct rfile *rf,
			   unsigned fi)
{
	struct ralab_kernel_result *res = r->res;
	unsigned g;

	/*
	 * The file first, at offset 0 (no break can be there): a rewrite
	 * without breaks is listed too, contiguous rather than unknown.
	 */
	if (res->rebreaks < RALAB_MAX_BREAKS)
		res->rebrk[res->rebreaks] = (struct ralab_break){ fi, 0, 0 };
	res->rebreaks++;
	extent_breaks(rf, rf->ext2, rf->next2, fi, 0, res->rebrk,
		      &res->rebreaks);
	/*
	 * Each generation but the last as the next truncate found it,
	 * after a marker at offset 0 (listed even without breaks).
	 */
	for (g = 0; g < rf->nr_gen; g++) {
		if (res->rebreaks_gen < RALAB_MAX_BREAKS)
			res->rebrk_gen[res->rebreaks_gen] =
				(struct ralab_break){ fi, 0, g + 1 };
		res->rebreaks_gen++;
		extent_breaks(rf, rf->gen[g].ext, rf->gen[g].n, fi, g + 1,
			      res->rebrk_gen, &res->rebreaks_gen);
	}
}

static int open_fd(struct rec *r, int *fds, const struct op *op)
{
	fds[op->fd] = open(r->files[op->ino].path,
			   (r->writes ? O_RDWR : O_RDONLY) | O_CLOEXEC |
				   (op->direct ? O_DIRECT : 0));
	if (fds[op->fd] < 0)
		return rerr(r, -errno, "%s: %s", r->files[op->ino].path,
			    strerror(errno));
	return 0;
}

/* The ops of job @j->job, from its start ('delay' after the run's). */
static int run_job(struct rjob *j)
{
	struct rec *r = j->r;
	struct rrun *run = j->run;
	const struct ralab_workload *wl = r->wl;
	const struct wl_job *wj = &wl->jobs[j->job];
	unsigned k, end = j->job + 1 < wl->nr_jobs ?
				  wl->jobs[j->job + 1].first_op : wl->nr_ops;
	char *buf = run->bufs[j->job];
	size_t bufsz = run->bufsz;
	int *fds = run->fds;
	volatile char sink = 0;
	struct timespec t, op_t0;
	int err = 0;

	if (wj->delay_ns)
		wait_until(r, run->t0 + wj->delay_ns, j->threaded);
	clock_gettime(CLOCK_MONOTONIC, &t);
	j->start_ns = ts_ns(&t);
	j->before_epoch = wj->epoch_line != 0;
	op_t0 = t;
	for (k = wj->first_op; k < end && !err; k++) {
		const struct op *op = &wl->ops[k];

		if (op->kind != OP_PACE)
			clock_gettime(CLOCK_MONOTONIC, &op_t0);
		j->rwf = op->dontcache ? RWF_DONTCACHE : 0;
		j->splice = op->splice;

		unsigned slot = j->job * MAX_MAPS + op->map;
		int fd = op->kind == OP_OPEN || op->kind == OP_TOUCH ||
				 op->kind == OP_MEMCPY ||
				 op->kind == OP_MADVISE || op->kind == OP_MUNMAP ||
				 op->kind == OP_MLOCK || op->kind == OP_MPROTECT ||
				 op->kind == OP_DUMP || op->kind == OP_PAUSE ||
				 op->kind == OP_PACE || op->kind == OP_EPOCH ?
			 -1 :
			 fds[op->fd];
		uint64_t i, x, size = r->files[op->ino].size;
		int64_t got;

		switch (op->kind) {
		case OP_OPEN:
			if (!j->threaded)
				err = open_fd(r, fds, op);
			break;
		case OP_CLOSE:
			/* Threads: when the group has ended (run_group). */
			if (!j->threaded) {
				close(fd);
				fds[op->fd] = -1;
			}
			break;
		case OP_READ:
			for (i = 0; !err && (op->to_eof || i < op->count); i++) {
				err = sys_read(j, fd, 0, op->len, false, buf, (size_t)bufsz, &got);
				if (op->to_eof && got <= 0)
					break;
				if (stopped(r))
					err = -EINTR;
			}
			break;
		case OP_PREAD:
			err = sys_read(j, fd, (int64_t)op->off, op->len, true, buf, (size_t)bufsz, &got);
			break;
		case OP_SPLICE:
		case OP_SENDFILE:
			err = sys_splice(j, fd, op, buf, (size_t)bufsz);
			break;
		case OP_SEEK:
			if (lseek(fd, (off_t)op->off, SEEK_SET) < 0)
				err = rerr(r, -errno, "lseek: %s", strerror(errno));
			break;
		case OP_SETFL: {
			int fl = fcntl(fd, F_GETFL);

			j->syscalls++;
			if (fl < 0 ||
			    fcntl(fd, F_SETFL, op->direct ? fl | O_DIRECT : fl & ~O_DIRECT))
				err = rerr(r, -errno, "fcntl(F_SETFL): %s", strerror(errno));
			break;
		}
		case OP_FSYNC:
			j->syscalls++;
			if (fsync(fd))
				err = rerr(r, -errno, "fsync: %s", strerror(errno));
			break;
		case OP_TRUNCATE:
			j->syscalls++;
			err = truncate_file(r, fd, op->ino, op->off);
			break;
		case OP_FALLOCATE:
			j->syscalls++;
			if (fallocate(fd, op->advice ? FALLOC_FL_KEEP_SIZE : 0,
				      (off_t)op->off, (off_t)op->len))
				err = rerr(r, -errno, "fallocate: %s", strerror(errno));
			break;
		case OP_PUNCH:
			j->syscalls++;
			if (op->madv_remove) {
				/*
				 * EINVAL at a locked VMA, having punched the
				 * VMAs before it, as DONTNEED below.
				 */
				if (run->map[slot] &&
				    madvise((char *)run->map[slot] +
						    (op->off - run->map_off[slot]),
					    (size_t)op->len, MADV_REMOVE) &&
				    !(errno == EINVAL && r->mlocks))
					err = rerr(r, -errno,
						   "madvise(MADV_REMOVE): %s",
						   strerror(errno));
				break;
			}
			if (fallocate(fd, (op->advice ? FALLOC_FL_ZERO_RANGE :
							 FALLOC_FL_PUNCH_HOLE) |
						  FALLOC_FL_KEEP_SIZE,
				      (off_t)op->off, (off_t)op->len))
				err = rerr(r, -errno, "fallocate (%s): %s",
					   op->advice ? "zero range" : "punch",
					   strerror(errno));
			break;
		case OP_PWRITE:
			err = sys_write(j, fd, (int64_t)op->off, op->len, true,
					size, buf, (size_t)bufsz, &got);
			break;
		case OP_FIO_PWRITE: {
			uint64_t *order = ralab__op_order(op, NULL);

			if (!order) {
				err = -ENOMEM;
				break;
			}
			for (i = 0; !err && i < op->count; i++) {
				err = sys_write(j, fd, (int64_t)(op->off + order[i] * op->len),
						op->len, true, size, buf,
						(size_t)bufsz, &got);
				if (stopped(r))
					err = -EINTR;
			}
			free(order);
			break;
		}
		case OP_WRITE:
			for (i = 0; !err && i < op->count; i++) {
				err = sys_write(j, fd, 0, op->len, false, size,
						buf, (size_t)bufsz, &got);
				if (!err && got <= 0)
					break;
				if (stopped(r))
					err = -EINTR;
			}
			break;
		case OP_RAND_PREAD:
			x = op->seed;
			for (i = 0; !err && i < op->count; i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				err = sys_read(j, fd, (int64_t)((x % (size / op->len)) * op->len),
					       op->len, true, buf, (size_t)bufsz, &got);
				if (stopped(r))
					err = -EINTR;
			}
			break;
		case OP_SHUFFLE_PREAD:
		case OP_FIO_PREAD: {
			uint64_t *order = ralab__op_order(op, &j->carry);

			if (!order) {
				err = -ENOMEM;
				break;
			}
			for (i = 0; !err && i < op->count; i++) {
				err = sys_read(j, fd, (int64_t)(op->off + order[i] * op->len),
					       op->len, true, buf, (size_t)bufsz, &got);
				if (stopped(r))
					err = -EINTR;
			}
			free(order);
			break;
		}
		case OP_STRIDE_PREAD:
			for (i = 0; !err && i < op->count; i++) {
				err = sys_read(j, fd, (int64_t)op->off + (int64_t)i * op->stride,
					       op->len, true, buf, (size_t)bufsz, &got);
				if (stopped(r))
					err = -EINTR;
			}
			break;
		case OP_FADVISE:
			j->syscalls++;
			posix_fadvise(fd, (off_t)op->off, (off_t)op->len, op->advice);
			break;
		case OP_READAHEAD:
			j->syscalls++;
			readahead(fd, (off64_t)op->off, (size_t)op->len);
			break;
		case OP_MMAP:
			j->syscalls++;
			/*
			 * At an address congruent to the offset modulo 2 MiB, as
			 * the model assumes (and thp_get_unmapped_area() does for
			 * large mappings): fault-around windows depend on it.
			 * Each (job, slot) has an address range of its own.
			 */
			run->map_len[slot] = (size_t)op->len;
			run->map_off[slot] = op->off;
			run->map[slot] = mmap((void *)(MAP_BASE + slot * MAP_SPAN +
						     (op->off & (MAP_ALIGN - 1))),
					    run->map_len[slot],
					    PROT_READ |
						    (r->maps_writable || op->mwrite ?
							     PROT_WRITE : 0) |
						    (op->exec ? PROT_EXEC : 0),
					    MAP_SHARED | MAP_FIXED_NOREPLACE |
						    (op->populate ? MAP_POPULATE : 0) |
						    (op->locked ? MAP_LOCKED : 0),
					    fd,
					    (off_t)op->off);
			if (run->map[slot] == MAP_FAILED) {
				run->map[slot] = NULL;
				err = rerr(r, -errno, "mmap: %s", strerror(errno));
			}
			break;
		case OP_TOUCH: {
			volatile char *m = run->map[slot];

			if (op->populate) {
				int adv = op->wfault ? MADV_POPULATE_WRITE
						     : MADV_POPULATE_READ;

				j->syscalls++;
				if (m && madvise((char *)m + (op->off -
							      run->map_off[slot]),
						 (size_t)op->len, adv))
					err = rerr(r, -errno,
						   "madvise(MADV_POPULATE_%s): %s",
						   op->wfault ? "WRITE" : "READ",
						   strerror(errno));
				break;
			}
			/* A write stores without reading: a write fault. */
			for (i = op->off; m && i < op->off + op->len; i += op->count) {
				if (op->wfault)
					m[i - run->map_off[slot]] = 0x5a;
				else
					sink += m[i - run->map_off[slot]];
				if (i + op->count < i)
					break;
			}
			break;
		}
		case OP_MEMCPY: {
			/*
			 * The C library's own memcpy (through a volatile
			 * pointer, so that the compiler cannot inline it):
			 * which way it copies, and so the order of the faults,
			 * is this machine's (sim_memcpy() models it).
			 */
			void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
			char *m = run->map[slot], *b = NULL;
			size_t bo = (size_t)op->stride;

			if (!m)
				break;
			if (posix_memalign((void **)&b, RALAB_PAGE_SIZE,
					   (size_t)op->len + RALAB_PAGE_SIZE)) {
				err = rerr(r, -ENOMEM, "no memory for a %llu-byte copy",
					   (unsigned long long)op->len);
				break;
			}
			memset(b, 0x5a, (size_t)op->len + RALAB_PAGE_SIZE);
			for (i = 0; i < op->count; i++) {
				char *at = m + (op->off + i * op->len - run->map_off[slot]);

				if (op->wfault)
					cpy(at, b + bo, (size_t)op->len);
				else
					cpy(b + bo, at, (size_t)op->len);
			}
			sink += b[bo];
			free(b);
			break;
		}
		case OP_MADVISE:
			j->syscalls++;
			/*
			 * DONTNEED, COLD and PAGEOUT fail with EINVAL at a
			 * locked VMA, having done the VMAs before it: the
			 * program sees the error; the run goes on.
			 */
			if (run->map[slot] &&
			    madvise((char *)run->map[slot] + (op->off - run->map_off[slot]),
				    (size_t)op->len, op->advice) &&
			    !(errno == EINVAL && r->mlocks &&
			      (op->advice == MADV_DONTNEED_ ||
			       op->advice == MADV_COLD_ ||
			       op->advice == MADV_PAGEOUT_)))
				err = rerr(r, -errno, "madvise: %s", strerror(errno));
			break;
		case OP_MLOCK: {
			char *at = run->map[slot] ?
					   (char *)run->map[slot] +
						   (op->off - run->map_off[slot]) :
					   NULL;

			j->syscalls++;
			if (at && (op->advice == MLOCK_OFF_ ?
					   munlock(at, (size_t)op->len) :
				   op->advice == MLOCK_ONFAULT_ ?
					   mlock2(at, (size_t)op->len,
						  MLOCK_ONFAULT) :
					   mlock(at, (size_t)op->len)))
				err = rerr(r, -errno, "%s: %s",
					   op->advice ? "mlock" : "munlock",
					   strerror(errno));
			break;
		}
		case OP_MPROTECT:
			j->syscalls++;
			if (run->map[slot] &&
			    mprotect((char *)run->map[slot] +
					     (op->off - run->map_off[slot]),
				     (size_t)op->len,
				     (op->advice & PROT_R_ ? PROT_READ : 0) |
					     (op->advice & PROT_W_ ? PROT_WRITE : 0) |
					     (op->advice & PROT_X_ ? PROT_EXEC : 0)))
				err = rerr(r, -errno, "mprotect: %s",
					   strerror(errno));
			break;
		case OP_MUNMAP:
			j->syscalls++;
			if (!run->map[slot])
				break;
			/* Part of it (a hole), else all that is left. */
			if (op->len) {
				char *at = (char *)run->map[slot] +
					   (op->off - run->map_off[slot]);

				if (munmap(at, (size_t)op->len))
					err = rerr(r, -errno, "munmap: %s",
						   strerror(errno));
				break;
			}
			munmap(run->map[slot], run->map_len[slot]);
			run->map[slot] = NULL;
			break;
		case OP_DUMP:
			/* The kernel shows no folio orders to userspace. */
			break;
		case OP_CACHED:
		case OP_RA_STATE:
			/* Refused before the run (ralab_kernel_run()). */
			break;
		case OP_EPOCH:
			/* Think time from here (a rate or runtime is refused). */
			j->before_epoch = false;
			break;
		case OP_PACE:
			/* No earlier than that long after the op before began. */
			wait_until(r, ts_ns(&op_t0) + op->len, j->threaded);
			break;
		case OP_PAUSE: {
			/* The application's time between calls. */
			struct timespec now;

			clock_gettime(CLOCK_MONOTONIC, &now);
			wait_until(r, ts_ns(&now) + op->len, j->threaded);
			break;
		}
		}
		if (!err && stopped(r))
			err = -EINTR;
	}
	clock_gettime(CLOCK_MONOTONIC, &t);
	j->end_ns = ts_ns(&t);
	(void)sink;
	return err;
}

static void *job_thread(void *arg)
{
	struct rjob *j = arg;
	struct rrun *run = j->run;
	uint64_t need = j->r->wl->jobs[j->job].wait_for;
	unsigned k;

	j->r->job_tid[j->job] = (int)syscall(SYS_gettid);
	/*
	 * wait-for: start when those jobs have ended (ops.c keeps them in
	 * this group or an earlier one: a later one would be a cycle).
	 */
	pthread_mutex_lock(&j->r->lock);
	for (k = 0; k < MAX_JOBS; k++)
		while ((need >> k & 1) && !run->done[k])
			pthread_cond_wait(&run->ended, &j->r->lock);
	pthread_mutex_unlock(&j->r->lock);
	j->err = run_job(j);
	pthread_mutex_lock(&j->r->lock);
	run->done[j->job] = true;
	pthread_cond_broadcast(&run->ended);
	pthread_mutex_unlock(&j->r->lock);
	return NULL;
}

/*
 * Jobs [@first, @end): one runs in this thread; several run as threads of
 * this process, started together, sharing its descriptors as the model's
 * jobs do.  Their descriptors are all opened first and closed when all
 * have ended: a thread may reach a descriptor before the thread that
 * opens it would have (a descriptor opened later is the same: a fresh
 * struct file with a fresh readahead state).
 */
static int run_group(struct rec *r, struct rrun *run, struct rjob *jobs,
		     unsigned first, unsigned end)
{
	const struct ralab_workload *wl = r->wl;
	unsigned a = wl->jobs[first].first_op,
		 b = end < wl->nr_jobs ? wl->jobs[end].first_op : wl->nr_ops;
	pthread_t tid[MAX_JOBS];
	unsigned i, started = 0;
	bool alone = end - first == 1;
	int err = 0;

	if (alone && wl->nr_jobs == 1)
		return run_job(&jobs[first]);
	/*
	 * A job alone in its group runs as before, but in a thread of its
	 * own: the trace tells the jobs' events apart by thread.
	 */
	for (i = a; i < b && !err && !alone; i++)
		if (wl->ops[i].kind == OP_OPEN)
			err = open_fd(r, run->fds, &wl->ops[i]);
	for (i = first; i < end && !err; i++) {
		jobs[i].threaded = !alone;
		if (pthread_create(&tid[i], NULL, job_thread, &jobs[i])) {
			err = rerr(r, -EAGAIN, "cannot start a thread for job '%s'",
				   wl->jobs[i].name);
			/* Those waiting for it (wait-for) go on, to fail. */
			pthread_mutex_lock(&r->lock);
			for (; i < end; i++)
				run->done[i] = true;
			pthread_cond_broadcast(&run->ended);
			pthread_mutex_unlock(&r->lock);
		} else {
			started++;
		}
	}
	for (i = first; i < first + started; i++) {
		pthread_join(tid[i], NULL);
		if (!err)
			err = jobs[i].err;
	}
	for (i = a; i < b && !alone; i++)
		if (wl->ops[i].kind == OP_CLOSE && run->fds[wl->ops[i].fd] >= 0) {
			close(run->fds[wl->ops[i].fd]);
			run->fds[wl->ops[i].fd] = -1;
		}
	return err;
}

/*
 * A job's read buffer: page-aligned, as O_DIRECT reads need, and in pages
 * that are not physically contiguous.  A direct read's bio takes a
 * vector per page of the buffer, but merges a page into the vector before
 * it when the two are adjacent in memory (bvec_try_merge_page()), so its
 * 256 vectors may hold more pages and where it ends, and its requests
 * split, would depend on where the allocator put the pages.  The model
 * takes a vector per page: the even pages are faulted in first, then the
 * odd ones, so that no page follows its neighbour in memory (whichever
 * way the allocator hands pages out), and no huge page.  Written through:
 * writes may come before any read fills it, and a write copying from a
 * page not yet faulted in copies short and retries (other reads on ext4).
 */
static uint64_t pfn_of(int pm, const void *p)
{
	uint64_t e = 0;

	if (pread(pm, &e, sizeof(e), (off_t)((uintptr_t)p / 4096 * 8)) !=
	    (ssize_t)sizeof(e))
		return 0;
	return e & ((1ull << 55) - 1); /* 0 without CAP_SYS_ADMIN */
}

/*
 * Where page @k of @b (@n pages) follows page @k - 1 in memory (seen in
 * /proc/self/pagemap, as root), put another page there: a new page, moved
 * into place with mremap(), until one does not (a few tries; what is left
 * is a merge as a program may get).
 */
static void unmerge_pages(char *b, size_t n)
{
	int pm = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	uint64_t *pfn = pm >= 0 ? calloc(n, sizeof(*pfn)) : NULL;
	size_t k;

	if (pfn && pread(pm, pfn, n * sizeof(*pfn),
			 (off_t)((uintptr_t)b / 4096 * 8)) ==
			   (ssize_t)(n * sizeof(*pfn))) {
		/* 0 without CAP_SYS_ADMIN: nothing to compare. */
		for (k = 0; k < n; k++)
			pfn[k] &= (1ull << 55) - 1;
		for (k = 1; k < n; k++) {
			unsigned tries;

			for (tries = 0; tries < 8 && pfn[k - 1] &&
					pfn[k] == pfn[k - 1] + 1;
			     tries++) {
				void *q = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

				if (q == MAP_FAILED)
					break;
				memset(q, 0xa5, 4096);
				if (mremap(q, 4096, 4096,
					   MREMAP_MAYMOVE | MREMAP_FIXED,
					   b + k * 4096) == MAP_FAILED) {
					munmap(q, 4096);
					break;
				}
				pfn[k] = pfn_of(pm, b + k * 4096);
			}
		}
	}
	free(pfn);
	if (pm >= 0)
		close(pm);
}

/*
 * Whole pages: unmerge_pages() replaces pages, and a last page shared
 * with the next allocation would take the allocator's own data with it
 * (a read of 70000 bytes: heap corruption, a crash a few runs in ten).
 */
static char *read_buffer(size_t size)
{
	char *b;
	size_t k, pass;

	size = (size + 4095) & ~(size_t)4095;
	if (posix_memalign((void **)&b, 4096, size))
		return NULL;
	madvise(b, size, MADV_NOHUGEPAGE);
	for (pass = 0; pass < 2; pass++)
		for (k = pass * 4096; k < size; k += 8192)
			memset(b + k, 0xa5, size - k < 4096 ? size - k : 4096);
	unmerge_pages(b, size / 4096);
	return b;
}

/*
 * MADV_PAGEOUT reclaims only folios on the LRU, and madvise_pageout()
 * drains only its own CPU's lru_add batch: order-0 folios the task added
 * on another CPU before it moved stay off the LRU and in the cache, so an
 * unpinned run reclaims a different number of folios each time (eleven
 * runs of one case: 118 to 133 folios read again).  A case with a
 * pageout runs on the CPU it starts on (its threads inherit the mask), as
 * the model assumes; the old mask is in *@old.  True if pinned.
 */
static bool pin_one_cpu(const struct rec *r, cpu_set_t *old)
{
	const struct ralab_workload *wl = r->wl;
	cpu_set_t one;
	unsigned i;
	int cpu;
	/*
	 * mlock() too: mlock_folio() and munlock_folio() batch per CPU,
	 * and a folio in another CPU's batch holds a reference that keeps
	 * fadvise(DONTNEED) from dropping it (lru_add_drain() drains only
	 * the caller's CPU).
	 */
	bool pin = r->mlocks;

	for (i = 0; i < wl->nr_ops && !pin; i++)
		pin = wl->ops[i].kind == OP_MADVISE &&
		      wl->ops[i].advice == MADV_PAGEOUT_;
	if (!pin || (cpu = sched_getcpu()) < 0 ||
	    sched_getaffinity(0, sizeof(*old), old))
		return false;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return !sched_setaffinity(0, sizeof(one), &one);
}

static int run_ops(struct rec *r, int *fds)
{
	const struct ralab_workload *wl = r->wl;
	uint64_t bufsz = max_len(wl), lat[LAT_BUCKETS] = { 0 }, reads = 0;
	struct rrun *run;
	struct rjob *jobs;
	unsigned i, k, first;
	int slack, err = 0;
	struct timespec t;
	cpu_set_t cpus;
	bool pinned;

	if (bufsz > (1ull << 31))
		return rerr(r, -E2BIG, "reads larger than 2 GiB are not recorded");
	run = calloc(1, sizeof(*run));
	jobs = calloc(wl->nr_jobs, sizeof(*jobs));
	if (!run || !jobs) {
		free(run);
		free(jobs);
		return -ENOMEM;
	}
	run->fds = fds;
	run->bufsz = (size_t)bufsz;
	pthread_cond_init(&run->ended, NULL);
	for (i = 0; i < wl->nr_jobs && !err; i++) {
		jobs[i] = (struct rjob){ .r = r, .run = run, .job = i };
		if (!(run->bufs[i] = read_buffer((size_t)bufsz)))
			err = -ENOMEM;
	}
	pinned = pin_one_cpu(r, &cpus);
	/* pause and pace sleep: not 50 us late (the default slack). */
	slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
	clock_gettime(CLOCK_MONOTONIC, &t);
	run->t0 = ts_ns(&t);
	/* Groups of concurrent jobs, one after another ('wait'). */
	for (first = 0, i = 1; !err && i <= wl->nr_jobs; i++)
		if (i == wl->nr_jobs || wl->jobs[i].wait) {
			err = run_group(r, run, jobs, first, i);
			first = i;
		}
	clock_gettime(CLOCK_MONOTONIC, &t);
	if (slack > 0)
		prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
	if (pinned)
		sched_setaffinity(0, sizeof(cpus), &cpus);
	for (k = 0; k < MAX_JOBS * MAX_MAPS; k++)
		if (run->map[k])
			munmap(run->map[k], run->map_len[k]);
	r->res->ops_ns = ts_ns(&t) - run->t0;
	for (i = 0; i < wl->nr_jobs; i++) {
		struct rjob *j = &jobs[i];
		struct ralab_job_stats *js = &r->res->st.job[i];

		for (k = 0; k < LAT_BUCKETS; k++)
			lat[k] += j->lat[k];
		reads += j->reads;
		r->res->st.syscalls += j->syscalls;
		r->res->st.bytes_read += j->bytes;
		snprintf(js->name, sizeof(js->name), "%s", wl->jobs[i].name);
		if (j->start_ns) {
			js->start_ns = j->start_ns - run->t0;
			js->elapsed_ns = j->end_ns - j->start_ns;
		}
		js->reads = j->reads;
		js->bytes = j->bytes;
		js->lat_p50_ns = lat_pct(j->lat, j->reads, 50);
		js->lat_p99_ns = lat_pct(j->lat, j->reads, 99);
		free(run->bufs[i]);
	}
	r->res->st.nr_jobs = wl->nr_jobs;
	r->res->st.lat_p50_ns = lat_pct(lat, reads, 50);
	r->res->st.lat_p90_ns = lat_pct(lat, reads, 90);
	r->res->st.lat_p99_ns = lat_pct(lat, reads, 99);
	r->res->st.lat_max_ns = lat_pct(lat, reads, 100);
	free(jobs);
	pthread_cond_destroy(&run->ended);
	free(run);
	return err;
}

/* ---- from trace text to events ----------------------------------------- */

/* A sector of the device as a sector of one of the case's files. */
static bool sector_to_file(const struct rec *r, uint64_t sector, uint64_t *rel)
{
	uint64_t byte = sector * 512;
	unsigned f, i;

	for (f = 0; f < r->nr_files; f++) {
		const struct rfile *rf = &r->files[f];
		/* Past a truncate: the blocks the file's rewrite got. */
		const struct kx_extent *ext = rf->ext;
		unsigned n = rf->next;

		if (rf->rewrites > rf->nr_gen) {
			ext = rf->ext2;
			n = rf->next2;
		} else if (rf->rewrites) {
			ext = rf->gen[rf->rewrites - 1].ext;
			n = rf->gen[rf->rewrites - 1].n;
		}
		for (i = 0; i < n; i++) {
			const struct kx_extent *e = &ext[i];

			if (e->flags & FIEMAP_EXTENT_UNKNOWN)
				continue; /* not allocated yet */
			if (byte >= e->physical && byte < e->physical + e->length) {
				*rel = (e->logical + (byte - e->physical)) / 512;
				return true;
			}
		}
	}
	return false;
}

static void deliver(struct rec *r, const struct ralab_event *ev)
{
	struct ralab_stats *st = &r->res->st;

	switch (ev->type) {
	case RALAB_EV_SYNC_RA: st->sync_ra++; break;
	case RALAB_EV_ASYNC_RA: st->async_ra++; break;
	case RALAB_EV_RA_ORDER: st->ra_order++; break;
	case RALAB_EV_RA_UNBOUNDED: st->ra_unbounded++; break;
	case RALAB_EV_ADD_FOLIO:
		if (ev->order <= RALAB_MAX_ORDER)
			st->folios[ev->order]++;
		st->pages_added += 1ull << ev->order;
		break;
	case RALAB_EV_RQ_ISSUE:
		st->data_reads++;
		st->data_sectors += ev->nr_sectors;
		st->rq_size_hist[blk_rq_bucket(ev->nr_sectors)]++;
		break;
	}
	ra_window_account(st, ev, &r->win);
	if (r->opts && r->opts->on_event)
		r->opts->on_event(r->opts->event_arg, ev);
}

/*
 * Is a trace line (with options/record-tgid: "comm-pid (tgid) [cpu] ...")
 * from this process?
 */
static bool from_us(const char *line)
{
	const char *p = strstr(line, ") [");
	int tgid;

	while (p && p > line && *p != '(')
		p--;
	return p && *p == '(' && sscanf(p + 1, " %d", &tgid) == 1 &&
	       tgid == (int)getpid();
}

/*
 * The thread that wrote a trace line ("comm-PID [cpu]" or, with
 * options/record-tgid, "comm-PID (tgid) [cpu]"): its PID, and in *@dash
 * the '-' that ends its comm; 0 if the line has none.
 */
static int line_pid(const char *line, const char **dash)
{
	const char *p = strstr(line, "] "), *e;
	int pid = 0, mul = 1;

	/* Back from the CPU's "[": over it, the tgid, to the PID. */
	while (p && p > line && *p != '[')
		p--;
	while (p && p > line && p[-1] == ' ')
		p--;
	if (p && p > line && p[-1] == ')') {
		while (p > line && *p != '(')
			p--;
		while (p > line && p[-1] == ' ')
			p--;
	}
	if (!p || p == line)
		return 0;
	for (e = p; e > line && e[-1] >= '0' && e[-1] <= '9' && mul < 100000000; e--) {
		pid += (e[-1] - '0') * mul;
		mul *= 10;
	}
	if (e == p || e == line || e[-1] != '-')
		return 0;
	*dash = e - 1;
	return pid;
}

/* The job whose thread wrote a trace line, or NULL. */
static const char *job_of_line(const struct rec *r, const char *line)
{
	const char *dash;
	int pid = line_pid(line, &dash);
	unsigned i;

	for (i = 0; pid && i < r->wl->nr_jobs && i < MAX_JOBS; i++)
		if (r->job_tid[i] && r->job_tid[i] == pid)
			return r->wl->jobs[i].name;
	return NULL;
}

static int parse_line(struct rec *r, char *line)
{
	struct ralab_event ev;
	unsigned long long a, b, c2;
	unsigned o, sz, as, rp, mm;
	long long pp;
	char *p;

	memset(&ev, 0, sizeof(ev));
	if ((p = strstr(line, " tracing_mark_write: ralab-truncate "))) {
		unsigned f = (unsigned)strtoul(p + 36, NULL, 10);

		if (f < r->nr_files)
			r->files[f].rewrites++;
		return 0;
	}
	/* A kprobe's line: "name: (symbol+0x0/0x..) fields", ours only. */
	if (strstr(line, ": (page_cache_") && !from_us(line))
		return 0;
	if ((p = strstr(line, " page_cache_")) || (p = strstr(line, " mm_filemap_")))
		if (!our_ino(r, p))
			return 0;
	if ((p = strstr(line, " page_cache_sync_ra: ")) ||
	    (p = strstr(line, " page_cache_async_ra: "))) {
		ev.type = p[12] == 's' ? RALAB_EV_SYNC_RA : RALAB_EV_ASYNC_RA;
		p = strstr(p, " index=");
		if (p && sscanf(p, " index=%llu req_count=%llu size=%u async_size=%u ra_pages=%u mmap_miss=%u prev_pos=%lld",
				&a, &b, &sz, &as, &rp, &mm, &pp) == 7)
			o = RALAB_ORDER_UNKNOWN; /* kprobes: no ra->order */
		else if (!p || sscanf(p, " index=%llu req_count=%llu order=%u size=%u async_size=%u ra_pages=%u mmap_miss=%u prev_pos=%lld",
				      &a, &b, &o, &sz, &as, &rp, &mm, &pp) != 8)
			return -EPROTO;
		ev.index = a;
		ev.req_count = b;
		ev.order = o;
		ev.size = sz;
		ev.async_size = as;
		ev.ra_pages = rp;
		ev.mmap_miss = mm;
		ev.prev_pos = pp;
	} else if ((p = strstr(line, " page_cache_ra_order: "))) {
		ev.type = RALAB_EV_RA_ORDER;
		p = strstr(p, " index=");
		if (!p || sscanf(p, " index=%llu order=%u size=%u async_size=%u ra_pages=%u",
				 &a, &o, &sz, &as, &rp) != 5)
			return -EPROTO;
		ev.index = a;
		ev.order = o;
		ev.size = sz;
		ev.async_size = as;
		ev.ra_pages = rp;
	} else if ((p = strstr(line, " page_cache_ra_unbounded: "))) {
		ev.type = RALAB_EV_RA_UNBOUNDED;
		p = strstr(p, " index=");
		if (!p || sscanf(p, " index=%llu nr_to_read=%llu lookahead_size=%llu",
				 &a, &b, &c2) != 3)
			return -EPROTO;
		ev.index = a;
		ev.nr_to_read = b;
		ev.lookahead_size = c2;
	} else if ((p = strstr(line, " mm_filemap_add_to_page_cache: "))) {
		ev.type = RALAB_EV_ADD_FOLIO;
		{
			const char *q = strstr(p, " pfn=0x");

			if (q && sscanf(q, " pfn=0x%llx", &b) == 1)
				ev.pfn = b;
		}
		p = strstr(p, " ofs=");
		if (!p || sscanf(p, " ofs=%llu order=%u", &a, &o) != 2)
			return -EPROTO;
		ev.ofs = a;
		ev.order = o;
	} else if ((p = strstr(line, " mm_filemap_delete_from_page_cache: "))) {
		const char *c = line;

		/* The workload's own (DONTNEED, truncate): the model's too. */
		if (from_us(line))
			return 0;
		while (*c == ' ')
			c++;
		/* Its RWF_DONTCACHE writes' drops, at writeback's end. */
		if (r->dontcache_writes && !strncmp(c, "kworker/", 8))
			return 0;
		p = strstr(p, " order=");
		if (!p || sscanf(p, " order=%u", &o) != 1 || o > 30)
			return -EPROTO;
		if (!r->res->evicted_folios) {
			/* The first evictor's comm, up to its "-PID". */
			const char *dash;

			if (line_pid(c, &dash) && dash > c)
				snprintf(r->res->evicted_by,
					 sizeof(r->res->evicted_by), "%.*s",
					 (int)(dash - c), c);
		}
		r->res->evicted_folios++;
		r->res->evicted_pages += 1ull << o;
		return 0;
	} else if ((p = strstr(line, " block_rq_issue: "))) {
		char rwbs[16];
		uint64_t rel;

		p += strlen(" block_rq_issue: ");
		if (sscanf(p, "%*u,%*u %15s %*u", rwbs) != 1)
			return -EPROTO;
		p = strchr(p, ')');
		if (!p || sscanf(p + 1, " %llu + %u", &a, &o) != 2)
			return -EPROTO;
		if (rwbs[0] != 'R')
			return 0; /* writes: journal, metadata */
		if (!sector_to_file(r, a, &rel)) {
			r->res->meta_reads++;
			return 0;
		}
		ev.type = RALAB_EV_RQ_ISSUE;
		ev.sector = rel;
		ev.nr_sectors = o;
		ev.readahead = strchr(rwbs, 'A') != NULL;
		ev.sync = strchr(rwbs, 'S') != NULL;
	} else {
		return 0;
	}
	if (r->wl->nr_jobs > 1)
		ev.job = job_of_line(r, line);
	deliver(r, &ev);
	return 0;
}

static int trace_collect(struct rec *r)
{
	char path[512], *text = NULL, *line, *next;
	size_t len = 0, cap = 0;
	uint64_t lost = 0;
	unsigned cpu;
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/events/enable", r->inst);
	kx_write_file(path, "0");
	for (cpu = 0; cpu < 4096; cpu++) {
		char buf[2048], *s;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/stats", r->inst, cpu);
		if (kx_read_small(path, buf, sizeof(buf)))
			break;
		if ((s = strstr(buf, "overrun: ")))
			lost += strtoull(s + 9, NULL, 10);
		if ((s = strstr(buf, "dropped events: ")))
			lost += strtoull(s + 16, NULL, 10);
	}
	if (lost)
		return rerr(r, -ENOSPC, "the trace buffer lost %llu events (it holds %lu KiB per CPU, sized to what the model expects within a quarter of the free memory); record a smaller case",
			    (unsigned long long)lost, r->buf_kb);
	snprintf(path, sizeof(path), "%s/trace", r->inst);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rerr(r, -errno, "%s: %s", path, strerror(errno));
	for (;;) {
		ssize_t n;

		if (cap - len < 65536) {
			char *t;

			cap = cap ? cap * 2 : 1 << 20;
			t = realloc(text, cap);
			if (!t) {
				err = -ENOMEM;
				break;
			}
			text = t;
		}
		n = read(fd, text + len, cap - len - 1);
		if (n < 0) {
			err = rerr(r, -errno, "reading %s: %s", path, strerror(errno));
			break;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (err) {
		free(text);
		return err;
	}
	text[len] = '\0';
	for (line = text; *line && !err; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (line[0] == '#')
			continue;
		if (parse_line(r, line))
			err = rerr(r, -EPROTO, "unexpected trace line: %.200s", line);
	}
	free(text);
	return err;
}

/* ---- the run ------------------------------------------------------------ */

static void cleanup(struct rec *r)
{
	if (r->inst_created) {
		char path[512];

		snprintf(path, sizeof(path), "%s/events/enable", r->inst);
		kx_write_file(path, "0");
		rmdir(r->inst);
		r->inst_created = false;
	}
	/* After the instance: kprobes enabled anywhere cannot be removed. */
	if (r->kprobes) {
		kprobes_remove(r->tracefs, (long)getpid());
		r->kprobes = false;
	}
	if (r->mounted) {
		if (umount2(r->mnt, 0))
			umount2(r->mnt, MNT_DETACH);
		r->mounted = false;
	}
	if (r->loop_fd >= 0) {
		/* Autoclear detaches at the last close; make sure. */
		ioctl(r->loop_fd, LOOP_CLR_FD, 0);
		close(r->loop_fd);
		r->loop_fd = -1;
	}
	if (r->lock_fd >= 0) {
		close(r->lock_fd);
		r->lock_fd = -1;
	}
}

static int lock_workdir(struct rec *r)
{
	char path[320];

	if (mkdir(r->workdir, 0700) && errno != EEXIST)
		return rerr(r, -errno, "%s: %s", r->workdir, strerror(errno));
	snprintf(path, sizeof(path), "%s/lock", r->workdir);
	r->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (r->lock_fd < 0)
		return rerr(r, -errno, "%s: %s", path, strerror(errno));
	while (flock(r->lock_fd, LOCK_EX)) {
		if (errno != EINTR || stopped(r))
			return rerr(r, -errno, "locking %s: %s", path, strerror(errno));
	}
	return 0;
}

static int set_workdir(struct rec *r, const char *workdir)
{
	const char *w = workdir ? workdir : RALAB_KERNEL_WORKDIR;
	size_t n = strlen(w);

	if (w[0] != '/' || n >= 200)
		return rerr(r, -EINVAL, "the work directory must be an absolute path of less than 200 characters: '%s'", w);
	memcpy(r->workdir, w, n + 1);
	while (n > 1 && r->workdir[n - 1] == '/')
		r->workdir[--n] = '\0';
	return 0;
}

int ralab_kernel_run(const struct ralab_workload *wl,
		     const struct ralab_kernel_opts *opts,
		     struct ralab_kernel_result *res, struct ralab_diag *diag)
{
	const struct ralab_config *c = ralab_workload_config(wl);
	struct rec *r;
	uint64_t reads0 = 0, sect0 = 0, reads1 = 0, sect1 = 0;
	struct utsname u;
	struct stat st;
	int err, *fds = NULL;
	bool frag = false, data_writes, holed = false, resized = false;
	char bs[16];
	unsigned i;

	memset(res, 0, sizeof(*res));
	/* Where a job with a runtime stops depends on this machine's speed. */
	for (i = 0; i < wl->nr_jobs; i++) {
		if (wl->jobs[i].runtime_ns) {
			if (diag)
				snprintf(diag->msg, sizeof(diag->msg),
					 "%s:%u: job '%s' has a runtime: where it stops depends on time, so 'ralab kernel' cannot record it (use counts: size, loops or number_ios in fio)",
					 ralab_workload_name(wl),
					 wl->jobs[i].runtime_line, wl->jobs[i].name);
			return -EINVAL;
		}
	}
	/*
	 * sendfile(2) to /dev/null takes all it is given: a destination that
	 * stops early (a socket's buffer full) is not reproduced.
	 */
	for (i = 0; i < wl->nr_ops; i++) {
		const struct op *op = &wl->ops[i];

		/*
		 * Folios are not put in a page cache without I/O, nor is a
		 * file's readahead state set.
		 */
		if (op->kind == OP_CACHED || op->kind == OP_RA_STATE) {
			if (diag)
				snprintf(diag->msg, sizeof(diag->msg),
					 op->kind == OP_CACHED ?
						 "%s:%u: 'cached' puts folios in the page cache without reading them, which only the model can do (a log of 'ralab record -p' has them: the kernel's at the attach)" :
						 "%s:%u: 'ra' sets a descriptor's readahead state, which only the model can do (a log of 'ralab record -p' has it: the kernel's at the attach)",
					 ralab_workload_name(wl), op->line);
			return -EINVAL;
		}
		if (op->kind == OP_SENDFILE && op->count < op->len) {
			if (diag)
				snprintf(diag->msg, sizeof(diag->msg),
					 "%s:%u: sendfile that stops after %llu of %llu bytes: 'ralab kernel' sends to /dev/null, which takes them all",
					 ralab_workload_name(wl), op->line,
					 (unsigned long long)op->count,
					 (unsigned long long)op->len);
			return -EINVAL;
		}
	}
	/*
	 * Concurrent jobs run as threads, with their delays and think times;
	 * what the recorder does not reproduce is refused, not approximated.
	 */
	for (i = 0; i < wl->nr_jobs; i++) {
		const struct wl_job *j = &wl->jobs[i];
		const char *what = j->iodepth > 1 ? "an iodepth above 1" :
				   j->rate_iops || j->rate_bps ? "a rate limit" :
				   j->exitall ? "exitall" : NULL;

		if (what) {
			if (diag)
				snprintf(diag->msg, sizeof(diag->msg),
					 "%s:%u: job '%s' has %s, which 'ralab kernel' does not reproduce (it runs each job as one thread)",
					 ralab_workload_name(wl), j->line, j->name, what);
			return -EINVAL;
		}
	}
	/* The kernel fails allocations by itself; none can be injected. */
	if (c->alloc_fail_ppm) {
		if (diag)
			snprintf(diag->msg, sizeof(diag->msg),
				 "%s: alloc_fail_ppm is a model setting: the kernel cannot be made to fail readahead allocations",
				 ralab_workload_name(wl));
		return -EINVAL;
	}
	err = ralab_kernel_check(c->fs, diag);
	if (err)
		return err;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->wl = wl;
	r->maps_writable = ralab__wl_writes(wl);
	r->writes = r->maps_writable || map_writes(wl);
	r->dontcache_writes = dontcache_writes(wl);
	r->truncates = truncates(wl);
	r->mlocks = mlocks(wl);
	r->opts = opts;
	r->diag = diag;
	r->res = res;
	r->lock_fd = r->loop_fd = -1;
	pthread_mutex_init(&r->lock, NULL);
	r->fsname = c->fs == RALAB_FS_EXT4 ? "ext4" : "xfs";
	r->tracefs = kx_find_tracefs();
	if (!kx_read_small("/proc/self/comm", r->comm, sizeof(r->comm)))
		r->comm[strcspn(r->comm, "\n\"")] = '\0';
	if (!uname(&u))
		snprintf(res->kernel, sizeof(res->kernel), "%s", u.release);
	host_memcpy(&res->memcpy_back_min, &res->memcpy_back_max);

	if ((err = set_workdir(r, opts ? opts->workdir : NULL)) ||
	    (err = lock_workdir(r)))
		goto out;
	reclaim(r->workdir, r->tracefs);
	for (i = 0; i < wl->nr_ops; i++)
		if (wl->ops[i].kind == OP_TOUCH && wl->ops[i].wfault == TOUCH_COW) {
			err = rerr(r, -EINVAL, "line %u: 'touch ... cow' (a write through a private mapping) is not recorded: the recorder's mappings are shared",
				   wl->ops[i].line);
			goto out;
		}
	/*
	 * A punch, a zero-range or a truncate moves no data (a
	 * zero-range's unwritten extents in a hole are never read, and
	 * what a truncate frees is a hole): not a write here.
	 */
	data_writes = data_writes_of(wl);
	for (i = 0; data_writes && i < wl->nr_files; i++) {
		if (wl->files[i].nhole) {
			holed = true;
			resized |= resizes(wl, i);
		}
		/* The parser refuses a punched file truncated or fallocated. */
		holed |= punches(wl, i);
	}
	/* The model's run, once for all files, only where none resizes. */
	if (holed && (resized || writes_reach_holes(wl))) {
		err = rerr(r, -EINVAL, "the case writes into a file's own or punched holes, or writes and fallocates or truncates where a file has holes: that would allocate blocks and change the layout, which is not recorded");
		goto out;
	}
	/*
	 * Fragmented layouts (extent_kb) leave single free blocks behind,
	 * where the filesystem would later put parts of other files: they
	 * get images of their own, so one-extent files stay one extent.
	 */
	for (i = 0; i < wl->nr_files; i++)
		frag |= wl->files[i].nbrk > 0 || wl->files[i].nhole > 0;
	frag |= c->extent_kb > 0;
	/* A block size of its own makes an image of its own: -b16k. */
	bs[0] = '\0';
	if (c->block_size > RALAB_PAGE_SIZE)
		snprintf(bs, sizeof(bs), "-b%uk", c->block_size >> 10);
	snprintf(r->img, sizeof(r->img), "%s/ralab-%s%s%s.img", r->workdir,
		 r->fsname, bs, frag ? "-frag" : "");
	snprintf(r->mnt, sizeof(r->mnt), "%s/mnt-%s%s%s", r->workdir,
		 r->fsname, bs, frag ? "-frag" : "");
	if ((err = make_or_mount(r)) || stopped(r))
		goto out;
	for (i = 0; i < wl->nr_files; i++) {
		struct rfile *rf = &r->files[i];

		rf->size = wl->files[i].size;
		{
			const struct wl_file *f = &wl->files[i];
			char lay[24] = "";

			/* A fragmented layout is a file of its own, kept too. */
			if (f->nbrk)
				snprintf(lay, sizeof(lay), "-b%08x",
					 list_hash(f->brk, f->nbrk));
			else if (c->extent_kb)
				snprintf(lay, sizeof(lay), "-x%u", c->extent_kb);
			if (f->nhole)
				snprintf(lay + strlen(lay), sizeof(lay) - strlen(lay),
					 "-h%08x", list_hash(f->hole, 2 * f->nhole));
			if (f->unwritten)
				snprintf(lay + strlen(lay), sizeof(lay) - strlen(lay),
					 "-u");
			if (i)
				snprintf(rf->path, sizeof(rf->path),
					 "%s/data-%llu%s-%s.bin", r->mnt,
					 (unsigned long long)rf->size, lay,
					 wl->files[i].name);
			else
				snprintf(rf->path, sizeof(rf->path),
					 "%s/data-%llu%s.bin", r->mnt,
					 (unsigned long long)rf->size, lay);
		}
		r->nr_files = i + 1;
		if ((err = prepare_file(r, rf, i, &st)))
			goto out;
		rf->ino = (unsigned long)st.st_ino;
	}
	if ((err = setup_queue(r)))
		goto out;
	for (i = 0; i < r->nr_files; i++)
		if ((err = evict(r, &r->files[i])))
			goto out;
	if ((err = trace_setup(r)) || (err = read_stat(r, &reads0, &sect0)))
		goto out;
	if (stopped(r)) {
		err = -EINTR;
		goto out;
	}
	fds = malloc(sizeof(*fds) * (wl->nr_fds ? wl->nr_fds : 1));
	if (!fds) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < wl->nr_fds; i++)
		fds[i] = -1;
	/* The case's own open: a fresh struct file and ra state. */
	fds[0] = open(r->files[0].path,
		      (r->writes ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fds[0] < 0) {
		err = rerr(r, -errno, "%s: %s", r->files[0].path, strerror(errno));
		goto out;
	}
	err = run_ops(r, fds);
	for (i = 0; i < wl->nr_fds; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (err)
		goto out;
	if ((err = read_stat(r, &reads1, &sect1)))
		goto out;
	res->stat_reads = reads1 - reads0;
	res->stat_sectors = sect1 - sect0;
	for (i = 0; r->truncates && i < r->nr_files; i++) {
		struct rfile *rf = &r->files[i];
		int fd = open(rf->path, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			err = rerr(r, -errno, "%s: %s", rf->path, strerror(errno));
			goto out;
		}
		err = kx_extents(fd, &rf->ext2, &rf->next2);
		close(fd);
		if (err) {
			err = rerr(r, err, "FIEMAP on %s: %s", rf->path, strerror(-err));
			goto out;
		}
		if (rf->truncs)
			rewrite_breaks(r, rf, i);
	}
	err = trace_collect(r);
	/* Written files go back clean: the next run can evict them. */
	for (i = 0; r->writes && i < r->nr_files; i++) {
		int fd = open(r->files[i].path, O_RDWR | O_CLOEXEC);

		if (fd < 0 || fsync(fd)) {
			if (!err)
				err = rerr(r, -errno, "fsync %s: %s",
					   r->files[i].path, strerror(errno));
		}
		if (fd >= 0)
			close(fd);
	}
	/* Written back now: no block may have gone into a hole. */
	for (i = 0; !err && r->writes && i < r->nr_files; i++)
		if (r->files[i].nh)
			err = holes_kept(r, &r->files[i]);
out:
	cleanup(r);
	if (!err && stopped(r))
		err = -EINTR;
	for (i = 0; i < r->nr_files; i++) {
		free(r->files[i].ext);
		free(r->files[i].ext2);
		while (r->files[i].nr_gen)
			free(r->files[i].gen[--r->files[i].nr_gen].ext);
		free(r->files[i].gen);
		free(r->files[i].want);
	}
	free(fds);
	free(r);
	return err;
}

int ralab_kernel_teardown(const char *workdir, struct ralab_diag *diag)
{
	struct rec r = { .diag = diag, .lock_fd = -1, .loop_fd = -1,
			 .lock = PTHREAD_MUTEX_INITIALIZER };
	static const char *const names[] = {
		"ralab-xfs.img", "ralab-ext4.img", "ralab-xfs-frag.img",
		"ralab-ext4-frag.img", "mnt-xfs", "mnt-ext4", "mnt-xfs-frag",
		"mnt-ext4-frag", "lock",
	};
	char path[512];
	unsigned i;
	int err;

	if (diag)
		diag->msg[0] = '\0';
	if (geteuid() != 0)
		return rerr(&r, -EPERM, "teardown needs root");
	if ((err = set_workdir(&r, workdir)))
		return err;
	reclaim(r.workdir, kx_find_tracefs());
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", r.workdir, names[i]);
		if (unlink(path) && errno == EISDIR)
			rmdir(path);
		else
			rmdir(path);
	}
	rmdir(r.workdir);
	return 0;
}
