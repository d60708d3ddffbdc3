// SPDX-License-Identifier: MIT
/*
 * record.c - 'ralab record': run a command under strace and keep the log
 * that 'ralab sim' reads.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define MAX_EVICT 64

#define TRACE_SET "openat,open,openat2,read,pread64,readv,preadv,preadv2,lseek," \
		  "write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync,ftruncate,truncate," \
		  "fallocate,fstat,newfstatat,statx,stat,lstat," \
		  "mmap,munmap,mprotect,msync,mlock,mlock2,munlock,mlockall,munlockall," \
		  "madvise,fadvise64,readahead,close,copy_file_range,sendfile," \
		  "splice," \
		  "dup,dup2,dup3,fcntl,clone,clone3,fork,vfork,execve," \
		  "io_uring_setup,chdir,fchdir"

/* Describe the log's files in it; 0, 1 (failed) or 2 (not a log). */
static int annotate(const char *log)
{
	struct ralab_diag diag = { 0 };
	unsigned n = 0, cached = 0;
	int err = ralab_trace_annotate(log, &n, &cached, &diag);

	if (err) {
		fprintf(stderr, "ralab record: %s\n",
			diag.msg[0] ? diag.msg : strerror(-err));
		return err == -ENOMEM || err == -EIO ? 1 : 2;
	}
	fprintf(stderr, "ralab record: described %u file%s in %s\n", n,
		n == 1 ? "" : "s", log);
	if (cached)
		fprintf(stderr, "ralab record: %u of them %s all in the page cache before the run (cached=1 in the log): the replay leaves %s out; to replay %s reads from the device, record again with --evict PATH (a file or a directory)\n",
			cached, cached == 1 ? "was" : "were",
			cached == 1 ? "it" : "them", cached == 1 ? "its" : "their");
	return 0;
}

/* --evict PATH: drop it from the page cache before the run; 0 or 2. */
static int evict(const char *path)
{
	struct ralab_evict_result res = { 0 };
	struct ralab_diag diag = { 0 };
	int err = ralab_evict(path, &res, &diag);

	if (err) {
		fprintf(stderr, "ralab record: --evict %s\n",
			diag.msg[0] ? diag.msg : strerror(-err));
		return 2;
	}
	if (res.files_left)
		fprintf(stderr, "ralab record: --evict %s: %llu page%s of %u file%s stayed in the page cache (%s first; mapped and locked, or written again, by a running process?)\n",
			path, (unsigned long long)res.pages_left,
			res.pages_left == 1 ? "" : "s", res.files_left,
			res.files_left == 1 ? "" : "s", res.first_left);
	else
		fprintf(stderr, "ralab record: evicted %s (%u file%s)\n", path,
			res.files, res.files == 1 ? "" : "s");
	return 0;
}

/*
 * Option argv[*@i] takes a number from 1 to @max (@what): into *@out, *@i
 * moved past it; 0, or 2 with the error said.
 */
static int opt_number(int argc, char **argv, int *i, long long max,
		      const char *what, long long *out)
{
	const char *opt = argv[*i];
	char *end;

	if (*i + 1 >= argc) {
		fprintf(stderr, "ralab record: %s needs %s\n", opt, what);
		return 2;
	}
	errno = 0;
	*out = strtoll(argv[++*i], &end, 10);
	if (errno || end == argv[*i] || *end || *out <= 0 || *out > max) {
		fprintf(stderr, "ralab record: %s: '%s' is not %s\n", opt,
			argv[*i], what);
		return 2;
	}
	return 0;
}

/* The pid of @tid's tracer, from /proc/TID/status; 0 none, -1 gone. */
static long tracer_of(int tid)
{
	char path[64], line[256];
	long tracer = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %ld", &tracer) == 1)
			break;
	fclose(f);
	return tracer;
}

/*
 * -p PID: trace the running process @target from now on.  Its faults and
 * page cache are traced first, then what it has open and mapped is
 * written to @out (ralab_attach_describe()), then strace attaches to all
 * its threads and appends to @out; *@spid is strace's pid.  Return 0, or
 * an exit status (the recorders freed).
 */
static int attach(int target, long long seconds, const char *out,
		  bool want_faults,
		  struct ralab_fault_rec **faults,
		  struct ralab_cache_rec **cache, pid_t *spid)
{
	struct ralab_attach_info info = { 0 }, again = { 0 };
	struct ralab_diag diag = { 0 };
	char pidarg[32];
	int err, i, st;
	pid_t pid;

	if (want_faults && (err = ralab_fault_rec_attach(target, faults, &diag)))
		fprintf(stderr, "ralab record: page faults not recorded (%s): reads through mmap() will not be replayed\n",
			diag.msg[0] ? diag.msg : strerror(-err));
	if (!geteuid() && (err = ralab_cache_rec_attach(target, cache, &diag)))
		fprintf(stderr, "ralab record: the page cache not traced (%s): every file will be replayed from a cold cache\n",
			diag.msg[0] ? diag.msg : strerror(-err));
	memset(&diag, 0, sizeof(diag));
	err = ralab_attach_describe(target, out, &info, &diag);
	if (err) {
		ralab_fault_rec_free(*faults);
		ralab_cache_rec_free(*cache);
		*faults = NULL;
		*cache = NULL;
		fprintf(stderr, "ralab record: -p %d: %s\n", target,
			diag.msg[0] ? diag.msg : strerror(-err));
		return err == -ENOENT || err == -ESRCH || err == -EACCES ||
				       err == -EPERM ?
			       2 :
			       1;
	}
	snprintf(pidarg, sizeof(pidarg), "%d", target);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	pid = fork();
	if (pid < 0) {
		ralab_fault_rec_free(*faults);
		ralab_cache_rec_free(*cache);
		*faults = NULL;
		*cache = NULL;
		fprintf(stderr, "ralab record: fork: %s\n", strerror(errno));
		return 1;
	}
	if (!pid) {
		/* Ctrl-C makes strace detach: the program runs on. */
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execlp("strace", "strace", "-f", "-ttt", "-T", "-A", "-o", out,
		       "-e", "trace=" TRACE_SET, "-p", pidarg, (char *)NULL);
		_exit(127);
	}
	*spid = pid;
	/*
	 * Attached when the process's first task has strace as its tracer
	 * (10 s at most); strace ends at once where it cannot (the process
	 * traced already, ptrace not allowed).
	 */
	for (i = 0; i < 2000; i++) {
		long t = tracer_of(target);

		if (t == pid || t < 0)
			break;
		if (waitpid(pid, &st, WNOHANG) == pid) {
			pid = 0;
			break;
		}
		usleep(5000);
	}
	if (!pid || tracer_of(target) != pid) {
		if (pid) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
		}
		ralab_fault_rec_free(*faults);
		ralab_cache_rec_free(*cache);
		*faults = NULL;
		*cache = NULL;
		unlink(out);
		fprintf(stderr, "ralab record: -p %d: strace could not attach (%s; strace's message above)\n",
			target,
			tracer_of(target) < 0 ? "the process ended" :
			tracer_of(target) > 0 ? "another tracer has it" :
						"ptrace refused, or strace did not start");
		return 1;
	}
	fprintf(stderr, "ralab record: attached to process %d (%u thread%s, %u file%s open, %u mapping%s of files); ",
		target, info.threads, info.threads == 1 ? "" : "s", info.fds,
		info.fds == 1 ? "" : "s", info.maps, info.maps == 1 ? "" : "s");
	if (seconds)
		fprintf(stderr, "for %lld s (Ctrl-C to stop sooner)\n", seconds);
	else
		fprintf(stderr, "Ctrl-C to stop\n");
	if (!ralab_attach_describe(target, NULL, &again, NULL) &&
	    again.digest != info.digest)
		fprintf(stderr, "ralab record: process %d opened, closed or read files while strace attached: what it did then is not in the log\n",
			target);
	return 0;
}

int cli_record(int argc, char **argv)
{
	const char *out = "ralab.strace", *evicts[MAX_EVICT];
	int nevict = 0, status = 0;
	int i, st, first = -1, go[2], err;
	struct ralab_fault_rec *faults = NULL;
	struct ralab_cache_rec *cache = NULL;
	struct ralab_diag diag = { 0 };
	bool want_faults = true;
	long long target = 0; /* -p PID */
	long long seconds = 0; /* --seconds N: with -p, detach then */
	unsigned nfaults = 0, ninodes = 0;
	char **args;
	pid_t pid;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: ralab record [-o LOG] [--no-faults] [--evict PATH]... -- COMMAND [ARGS...]\n"
			       "       ralab record [-o LOG] [--no-faults] [--evict PATH]... [--seconds N] -p PID\n"
			       "       ralab record --annotate LOG\n\n"
			       "Run COMMAND under 'strace -f -ttt -T' with the system calls that\n"
			       "read files, map them, and make processes and threads (whose\n"
			       "descriptors and memory they share) (%s)\n"
			       "and write the log to LOG (default ralab.strace), for 'ralab sim LOG'.\n\n"
			       "As root, also trace the program's page faults (the tracepoint\n"
			       "exceptions:page_fault_user, in a tracefs instance of its own) and write\n"
			       "them into the log at their times ('# ralab fault' lines, with how long\n"
			       "each waited for I/O, from sched_switch): reads through mmap() are no\n"
			       "system calls, and the replay needs them.  --no-faults: do not.\n"
			       "As root, also trace which files got page-cache folios during the run\n"
			       "(filemap:mm_filemap_add_to_page_cache, an instance of its own): a file\n"
			       "read that got none was all in the cache before (a configuration file,\n"
			       "a module), and its line says cached=1: the replay leaves it out.\n\n"
			       "Then add to the log what strace cannot see, a '# ralab file' line per\n"
			       "file read: its size, filesystem, its device's read_ahead_kb,\n"
			       "max_sectors_kb and max_hw_sectors_kb, and where it is not contiguous\n"
			       "on the disk (FIEMAP: breaks=, holes=), which the replay uses as the\n"
			       "case's header and extent breaks ('ralab sim --set' still overrides).\n"
			       "For a program execve() ran, also a '# ralab exec' line: its ELF\n"
			       "program headers, what the kernel's loader reads and maps of it (the\n"
			       "program's own code and data, which no system call maps; its\n"
			       "interpreter's too, when that file is evicted and replayed).  COMMAND\n"
			       "runs without address-space randomization (ADDR_NO_RANDOMIZE, as gdb\n"
			       "runs a program), so that a position-independent program is where the\n"
			       "log says and its page faults are read as its file's.\n"
			       "--annotate does only that, for a log made with strace by hand (right\n"
			       "after the run, from the directory it ran in).\n\n"
			       "--evict PATH (repeatable): before the run, drop PATH from the page\n"
			       "cache (a file, or every file under a directory: dirty pages written\n"
			       "back, then POSIX_FADV_DONTNEED, checked with mincore()), so that the\n"
			       "program reads it from the device and the replay has its reads; the\n"
			       "log says so ('# ralab evicted'), and the replay then keeps the shared\n"
			       "libraries under it too, which it leaves out otherwise (the loader\n"
			       "reads them cached at every start).\n"
			       "If the command fails, the log is still completed; the exit status\n"
			       "is then 1.\n\n"
			       "-p PID: attach to a running process instead (strace -p, all its\n"
			       "threads), until it ends, Ctrl-C or --seconds N (strace detaches; the\n"
			       "process runs on).  The log starts with what it has open and mapped then, from\n"
			       "/proc/PID, as the calls that would have made it ('# ralab attach'\n"
			       "section), and, as root, the folios of those files in the page cache\n"
			       "then (orders and readahead marks, from /proc/kpageflags), which the\n"
			       "replay starts with, and each file's readahead state, taken from\n"
			       "its first readahead call after the attach (f_ra= on its '# ralab\n"
			       "file' line; where not known, the descriptor starts as just opened,\n"
			       "noted where it had read).\n",
			       TRACE_SET);
			return 0;
		} else if (!strcmp(argv[i], "--annotate")) {
			if (i + 2 != argc) {
				fprintf(stderr, "ralab record: --annotate takes one strace log\n");
				return 2;
			}
			return annotate(argv[i + 1]);
		} else if (!strcmp(argv[i], "--no-faults")) {
			want_faults = false;
		} else if (!strcmp(argv[i], "--evict")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab record: --evict needs a file or a directory\n");
				return 2;
			}
			i++;
			if (nevict == MAX_EVICT) {
				fprintf(stderr, "ralab record: more than %d --evict\n", MAX_EVICT);
				return 2;
			}
			evicts[nevict++] = argv[i];
		} else if (!strcmp(argv[i], "-p")) {
			if (opt_number(argc, argv, &i, INT_MAX, "a process id",
				       &target))
				return 2;
		} else if (!strcmp(argv[i], "--seconds")) {
			if (opt_number(argc, argv, &i, 86400 * 365,
				       "a whole number of seconds (1 or more)",
				       &seconds))
				return 2;
		} else if (!strcmp(argv[i], "-o")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab record: -o needs a file\n");
				return 2;
			}
			out = argv[++i];
		} else if (!strcmp(argv[i], "--")) {
			first = i + 1;
			break;
		} else {
			first = i;
			break;
		}
	}
	if (target && first >= 0 && first < argc) {
		fprintf(stderr, "ralab record: -p PID or a command, not both\n");
		return 2;
	}
	if (!target && (first < 0 || first >= argc)) {
		fprintf(stderr, "usage: ralab record [-o LOG] [--no-faults] [--evict PATH]... -- COMMAND [ARGS...]\n"
				"       ralab record [-o LOG] [--no-faults] [--evict PATH]... [--seconds N] -p PID\n");
		return 2;
	}
	if (seconds && !target) {
		fprintf(stderr, "ralab record: --seconds goes with -p PID (a command runs to its end)\n");
		return 2;
	}
	if (target && kill((pid_t)target, 0) && errno == ESRCH) {
		fprintf(stderr, "ralab record: -p %lld: no such process\n", target);
		return 2;
	}
	if (access("/usr/bin/strace", X_OK) && access("/bin/strace", X_OK)) {
		fprintf(stderr, "ralab record: strace is not installed (package strace)\n");
		return 2;
	}
	for (i = 0; i < nevict; i++)
		if (evict(evicts[i]))
			return 2;
	if (target) {
		if (unlink(out) && errno != ENOENT) {
			fprintf(stderr, "ralab record: %s: %s\n", out, strerror(errno));
			return 1;
		}
		err = attach((int)target, seconds, out, want_faults, &faults,
			     &cache, &pid);
		if (err)
			return err;
		goto traced;
	}
	args = calloc((size_t)(argc - first) + 10, sizeof(*args));
	if (!args)
		return 1;
	args[0] = (char *)"strace";
	args[1] = (char *)"-f";
	args[2] = (char *)"-ttt"; /* the clock the faults are put on */
	args[3] = (char *)"-T"; /* durations: the time between calls is the app's */
	args[4] = (char *)"-o";
	args[5] = (char *)out;
	args[6] = (char *)"-e";
	args[7] = (char *)"trace=" TRACE_SET;
	args[8] = (char *)"--";
	for (i = first; i < argc; i++)
		args[9 + i - first] = argv[i];
	/* Not an old log, if strace does not start. */
	if (unlink(out) && errno != ENOENT) {
		free(args);
		fprintf(stderr, "ralab record: %s: %s\n", out, strerror(errno));
		return 1;
	}
	/* strace waits until the fault trace follows its process. */
	if (pipe(go)) {
		free(args);
		fprintf(stderr, "ralab record: pipe: %s\n", strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		free(args);
		fprintf(stderr, "ralab record: fork: %s\n", strerror(errno));
		return 1;
	}
	if (!pid) {
		int persona;
		char c;

		close(go[1]);
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		close(go[0]);
		/*
		 * No address-space randomization (as gdb runs a program):
		 * the kernel maps a position-independent program at a base
		 * the log can name, so its faults are read as the file's.
		 */
		persona = personality(0xffffffff);
		if (persona >= 0)
			personality((unsigned long)persona | ADDR_NO_RANDOMIZE);
		execvp("strace", args);
		_exit(127);
	}
	free(args);
	close(go[0]);
	/*
	 * Ctrl-C reaches strace and the program (one process group): wait
	 * for them to end, then clean up the trace instance.
	 */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	if (want_faults) {
		err = ralab_fault_rec_start((int)pid, &faults, &diag);
		if (err)
			fprintf(stderr, "ralab record: page faults not recorded (%s): reads through mmap() will not be replayed\n",
				diag.msg[0] ? diag.msg : strerror(-err));
	}
	if (!geteuid()) {
		err = ralab_cache_rec_start((int)pid, &cache, &diag);
		if (err)
			fprintf(stderr, "ralab record: the page cache not traced (%s): every file will be replayed from a cold cache\n",
				diag.msg[0] ? diag.msg : strerror(-err));
	}
	close(go[1]);
traced:
	/* --seconds N: strace detaches then, as at Ctrl-C. */
	if (seconds) {
		struct timespec t0, now;
		pid_t w;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		while ((w = waitpid(pid, &st, WNOHANG)) == 0) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if ((now.tv_sec - t0.tv_sec) * 1000000000ll +
				    (now.tv_nsec - t0.tv_nsec) >=
			    seconds * 1000000000ll) {
				kill(pid, SIGINT);
				break;
			}
			usleep(10000);
		}
		if (w == pid)
			goto waited;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			ralab_fault_rec_free(faults);
			ralab_cache_rec_free(cache);
			return 1;
		}
waited:
	/*
	 * A command that fails (grep finding nothing, cmp finding a
	 * difference) has read what it read: complete the log anyway.
	 */
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	/*
	 * -p: Ctrl-C (or SIGTERM, SIGHUP) is how an attach ends: strace
	 * detaches and dies of it.  The program runs on.
	 */
	if (target && (status == 128 + SIGINT || status == 128 + SIGTERM ||
		       status == 128 + SIGHUP)) {
		fprintf(stderr, "ralab record: detached from process %lld\n",
			target);
		status = 0;
	}
	if (access(out, F_OK)) {
		ralab_fault_rec_free(faults);
		ralab_cache_rec_free(cache);
		fprintf(stderr, "ralab record: no log: strace ended (status %d) before it wrote %s\n",
			status, out);
		return 1;
	}
	if (faults) {
		err = ralab_fault_rec_finish(faults, out, &nfaults, &diag);
		if (err) {
			ralab_cache_rec_free(cache);
			fprintf(stderr, "ralab record: %s\n",
				diag.msg[0] ? diag.msg : strerror(-err));
			return 1;
		}
		fprintf(stderr, "ralab record: %u page fault%s in %s\n", nfaults,
			nfaults == 1 ? "" : "s", out);
	}
	/* After the faults, which rewrite the log; before the files. */
	if (cache) {
		err = ralab_cache_rec_finish(cache, out, &ninodes, &diag);
		if (err) {
			fprintf(stderr, "ralab record: %s\n",
				diag.msg[0] ? diag.msg : strerror(-err));
			return 1;
		}
	}
	/* Before the files: their descriptions take evicted libraries. */
	if (nevict &&
	    ralab_trace_note_evicted(out, evicts, (unsigned)nevict, &diag)) {
		fprintf(stderr, "ralab record: %s\n", diag.msg);
		return 1;
	}
	if (annotate(out))
		return 1;
	if (status) {
		fprintf(stderr, "ralab record: %s (status %d); wrote %s all the same (ralab sim %s)\n",
			target ? "strace failed" : "the command failed", status,
			out, out);
		return 1;
	}
	fprintf(stderr, "ralab record: wrote %s (ralab sim %s)\n", out, out);
	return 0;
}
