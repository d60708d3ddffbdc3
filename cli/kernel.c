// SPDX-License-Identifier: MIT
/*
 * kernel.c - 'ralab kernel' (record a case on the running kernel) and
 * 'ralab check' (record and simulate, then compare).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "report/recording.h"

/* Set by a signal; the recorder polls it (signal handlers need a static). */
static volatile int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* SIGINT/SIGTERM stop the recording; the recorder cleans up. */
volatile int *cli_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL); /* no SA_RESTART: syscalls return EINTR */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	return &stop_flag;
}

static void usage_kernel(FILE *out)
{
	fprintf(out,
		"usage: ralab kernel [OPTIONS] CASE.ops\n"
		"       ralab kernel --teardown [--workdir DIR]\n"
		"\n"
		"Run the workload on the running kernel and print what 'ralab sim'\n"
		"prints, from the kernel's own tracepoints, plus kernel=, meta_reads=\n"
		"(requests outside the file's extents), stat_reads=/stat_sectors= (from\n"
		"/sys/block/loopN/stat), extents=, breaks= (where a file is not\n"
		"disk-contiguous other than extent_kb says), ops_seconds= (wall time of the\n"
		"ops) and read_lat_p50_us= .. read_lat_max_us= (wall time of each\n"
		"read, as the time model reports it); evicted_by_others= and\n"
		"evicted_by= where another task (DAMON's kdamond, kswapd) evicted\n"
		"pages of the case's files during the run, which the model does not\n"
		"(a note on stderr says so; the kworkers that drop what the case's\n"
		"RWF_DONTCACHE writes wrote back are its own).  Needs root, a loop device,\n"
		"tracefs and mkfs.xfs or mkfs.ext4.  The readahead calls come from\n"
		"the readahead tracepoints (Linux 6.18+) or, on 6.1 to 6.16, from\n"
		"kprobes of its own on the same functions (without order= on sync\n"
		"and async calls: those kernels have no ra->order); on other kernels\n"
		"only the page-cache and block events are recorded.\n"
		"\n"
		"It attaches a loop device with direct I/O over a sparse image in the\n"
		"work directory, makes the case's file system (once) and a test file of\n"
		"file_size random bytes (kept for later cases; in extents of extent_kb\n"
		"or extent_breaks and with the case's holes, inserted with\n"
		"FALLOC_FL_INSERT_RANGE, if it sets them; checked with FIEMAP), writes\n"
		"max_sectors_kb\n"
		"then read_ahead_kb, evicts the file with POSIX_FADV_DONTNEED, traces in\n"
		"a tracefs instance of its own and runs the ops with real system calls;\n"
		"concurrent jobs run as threads of one process (descriptors shared,\n"
		"delays and think times kept; iodepth above 1, rate limits and exitall\n"
		"are refused), and job.NAME.* lines give each job's wall time.\n"
		"A case with 'madvise ... pageout' runs on the CPU it starts on\n"
		"(MADV_PAGEOUT passes over order-0 folios still in another CPU's\n"
		"LRU batch; the model is of a task that stays on one CPU).\n"
		"It removes the loop device, mount and instance on every exit, SIGINT\n"
		"and SIGTERM included, and reclaims what a killed run left.\n"
		"\n"
		"options:\n"
		"  --trace             print every event first, as 'ralab sim --trace' does,\n"
		"                      then folio_pfns=: where each folio added lay in\n"
		"                      memory (which 'ralab check' gives the model)\n"
		"  --workdir DIR       images and mount points (default /tmp/ralab-kernel)\n"
		"  --set KEY=VALUE     override a header value (as in 'ralab sim')\n"
		"  --format FMT        text: key=value lines (default); json: one object\n"
		"                      (docs/schema/sim.schema.json, with a \"kernel\"\n"
		"                      object); csv: a header row and a value row\n"
		"  --device-filter     have tracefs filter on the loop device only and keep\n"
		"                      the case's files' events by inode while reading\n"
		"                      the trace (what it does by itself where the\n"
		"                      files' inode numbers are too scattered for a\n"
		"                      tracefs filter); more crosses the trace buffer\n"
		"  --teardown          remove everything the recorder created and exit\n"
		"  -h, --help          this text\n"
		"\n"
		"exit status: 0 recorded, 2 bad input or missing prerequisite, 1 failure,\n"
		"130 interrupted\n");
}

static void usage_check(FILE *out)
{
	fprintf(out,
		"usage: ralab check [OPTIONS] CASE...\n"
		"\n"
		"For each case, record it on the running kernel ('ralab kernel') and\n"
		"simulate it ('ralab sim'), then compare as 'ralab diff' does: print\n"
		"MATCH, or the first divergence with context and which of readahead\n"
		"events, folio orders and data reads differ.\n"
		"\n"
		"A CASE that is a directory is a case recorded earlier: its case.ops\n"
		"is simulated and compared with its recording, the first found of\n"
		"kernel.out.gz, kernel.out (ralab kernel --trace), events.txt.gz,\n"
		"events.txt (raw kernel events, absolute sectors); nothing runs on\n"
		"the kernel and root is not needed.  Where the recording has a\n"
		"folio_pfns= line, the model's folios lie in memory where the\n"
		"kernel's did, so bios and requests merge as they did.\n"
		"\n"
		"A kernel before 6.18 has no readahead tracepoints: on 6.1 to 6.16\n"
		"the recorder reads the calls with kprobes, compared without order=;\n"
		"where it cannot, the recording holds the page-cache and block\n"
		"events, which are then compared in order (as with --strict).\n"
		"\n"
		"options:\n"
		"  --strict            the folio and request streams must match too\n"
		"  --set KEY=VALUE     override a header value, as in 'ralab sim'\n"
		"                      (a recorded case: for the model only, e.g.\n"
		"                      device=loop, whose I/O takes time)\n"
		"  --ignore FIELD      compare the readahead events without FIELD\n"
		"                      (prev_pos, mmap_miss, ...; repeatable); on 6.1\n"
		"                      kernels prev_pos is left out of cases recorded\n"
		"                      now, as timing decides it there\n"
		"  --workdir DIR       as for 'ralab kernel'\n"
		"  --policy NAME       simulate with this policy (default: linux-6.18\n"
		"                      for recorded cases; for cases recorded now, the\n"
		"                      running kernel's: linux-6.12 on 6.10 to 6.16,\n"
		"                      linux-6.9 on 6.9, linux-6.8 on 6.8, linux-6.1\n"
		"                      before)\n"
		"  --format FMT        text (default); json: one object with a verdict\n"
		"                      per case (docs/schema/check.schema.json); csv:\n"
		"                      a row per case; printed after the last case\n"
		"  -h, --help          this text\n"
		"\n"
		"exit status: 0 all match, 1 some case differs, 2 bad input or missing\n"
		"prerequisite, 130 interrupted\n");
}

/* "NAME=F:OFS ..." for the first @n breaks (none: no line). */
static void print_breaks(FILE *out, const char *name, unsigned n,
			 const struct ralab_break *b)
{
	unsigned i;

	if (!n)
		return;
	if (n > RALAB_MAX_BREAKS)
		n = RALAB_MAX_BREAKS;
	fprintf(out, "%s=", name);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%u:%llu", i ? " " : "", b[i].file,
			(unsigned long long)b[i].ofs);
	fprintf(out, "\n");
}

/* rebreaks_gen_at=FILE:GEN:OFS ... (OFS 0: generation GEN begins). */
static void print_gen_breaks(FILE *out, const struct ralab_kernel_result *res)
{
	unsigned i, n = res->rebreaks_gen;

	if (!n)
		return;
	if (n > RALAB_MAX_BREAKS)
		n = RALAB_MAX_BREAKS;
	fprintf(out, "rebreaks_gen_at=");
	for (i = 0; i < n; i++)
		fprintf(out, "%s%u:%u:%llu", i ? " " : "",
			res->rebrk_gen[i].file, res->rebrk_gen[i].gen,
			(unsigned long long)res->rebrk_gen[i].ofs);
	fprintf(out, "\n");
}

/* The summary of a kernel run, and what only a kernel run has. */
static void print_text(FILE *out, const struct ralab_workload *wl,
		       const struct ralab_kernel_result *res)
{
	cli_print_summary(out, wl, "kernel", &res->st, false);
	fprintf(out, "kernel=%s\n", res->kernel);
	fprintf(out, "meta_reads=%llu\n", (unsigned long long)res->meta_reads);
	fprintf(out, "stat_reads=%llu\n", (unsigned long long)res->stat_reads);
	fprintf(out, "stat_sectors=%llu\n", (unsigned long long)res->stat_sectors);
	fprintf(out, "extents=%u\n", res->extents);
	fprintf(out, "breaks=%u\n", res->breaks);
	fprintf(out, "memcpy_back_min=%llu\n",
		(unsigned long long)res->memcpy_back_min);
	fprintf(out, "memcpy_back_max=%llu\n",
		(unsigned long long)res->memcpy_back_max);
	/* Only where it happened: recordings without it stay as they were. */
	if (res->evicted_pages)
		fprintf(out, "evicted_by_others=%llu\nevicted_by=%s\n",
			(unsigned long long)res->evicted_pages,
			res->evicted_by[0] ? res->evicted_by : "?");
	print_breaks(out, "breaks_at", res->breaks, res->brk);
	print_breaks(out, "rebreaks_at", res->rebreaks, res->rebrk);
	print_gen_breaks(out, res);
	fprintf(out, "ops_seconds=%.6f\n", (double)res->ops_ns / 1e9);
	/* Wall time of each read, bucketed as the model's read_lat_*. */
	fprintf(out, "read_lat_p50_us=%.2f\n", (double)res->st.lat_p50_ns / 1e3);
	fprintf(out, "read_lat_p90_us=%.2f\n", (double)res->st.lat_p90_ns / 1e3);
	fprintf(out, "read_lat_p99_us=%.2f\n", (double)res->st.lat_p99_ns / 1e3);
	fprintf(out, "read_lat_max_us=%.2f\n", (double)res->st.lat_max_ns / 1e3);
	/* Jobs: wall time, from the run's start; waits are not visible. */
	cli_print_jobs(out, &res->st, false);
}

/*
 * A traced recording's events, printed as they come, and where each
 * folio added lies in memory (kept for its folio_pfns= line).
 */
struct traced {
	FILE *out;
	struct ralab_folio_mem *m; /* owned */
	size_t n, cap;
	bool lost; /* out of memory, or an add event without its pfn */
};

static void traced_event(void *arg, const struct ralab_event *ev)
{
	struct traced *t = arg;

	cli_print_event(t->out, ev);
	if (ev->type != RALAB_EV_ADD_FOLIO || t->lost)
		return;
	if (!ev->pfn) {
		t->lost = true;
		return;
	}
	if (t->n == t->cap) {
		size_t c = t->cap ? 2 * t->cap : 1024;
		struct ralab_folio_mem *m = realloc(t->m, c * sizeof(*m));

		if (!m) {
			t->lost = true;
			return;
		}
		t->m = m;
		t->cap = c;
	}
	t->m[t->n++] = (struct ralab_folio_mem){ ev->ofs, ev->pfn, ev->order };
}

static int record(const struct ralab_workload *wl, const char *workdir,
		  FILE *out, bool trace, bool device_filter, enum cli_fmt fmt)
{
	struct cli_windows win = { .trace = trace };
	struct traced tr = { .out = out };
	struct ralab_kernel_opts ko = {
		.workdir = workdir,
		.device_filter = device_filter,
		.stop = &stop_flag,
		.on_event = trace ? traced_event : NULL,
		.event_arg = &tr,
	};
	struct ralab_kernel_result res;
	struct ralab_diag d = { 0 };
	int err;

	if (fmt == CLI_FMT_JSON) {
		/* Events go to stdout before the object, as with ralab sim. */
		ko.on_event = cli_collect_window;
		ko.event_arg = &win;
	}
	err = ralab_kernel_run(wl, &ko, &res, &d);
	if (err) {
		free(win.w);
		free(tr.m);
	}
	if (err == -EINTR) {
		fprintf(stderr, "ralab kernel: interrupted; cleaned up\n");
		return 130;
	}
	if (err) {
		const char *name = ralab_workload_name(wl);

		if (!strncmp(d.msg, name, strlen(name)))
			fprintf(stderr, "%s\n", d.msg);
		else
			fprintf(stderr, "ralab kernel: %s: %s\n", name,
				d.msg[0] ? d.msg : ralab_strerror(err));
		return err == -EPERM || err == -ENOENT || err == -ENODEV ||
			       err == -EINVAL ?
			       2 :
			       1;
	}
	/*
	 * The model lays each file out as the case says; where the
	 * filesystem broke one elsewhere, the kernel starts a new bio there.
	 */
	if (res.breaks)
		fprintf(stderr,
			"ralab kernel: note: the filesystem broke the %u file(s) in %u place(s) the case's layout does not (breaks_at=); the kernel cuts requests there, and 'ralab check' has the model do the same\n",
			ralab_workload_nr_files(wl), res.breaks);
	if (res.breaks > RALAB_MAX_BREAKS || res.rebreaks > RALAB_MAX_BREAKS ||
	    res.rebreaks_gen > RALAB_MAX_BREAKS)
		fprintf(stderr,
			"ralab kernel: note: more than %u places where a file is not disk-contiguous (breaks %u, rebreaks %u, by generation %u): only the first %u of each are listed, and the model reads past them as if contiguous\n",
			RALAB_MAX_BREAKS, res.breaks, res.rebreaks,
			res.rebreaks_gen, RALAB_MAX_BREAKS);
	if (res.evicted_pages)
		fprintf(stderr,
			"ralab kernel: note: during the run another task (%s) evicted %llu page(s) of the case's files in %llu folio(s) (evicted_by_others=): the recording is not the workload's alone, and where the workload reads those pages again the kernel reads them anew and the model does not (kdamond: DAMON's pageout of memory it found idle; kswapd: reclaim); record the case again\n",
			res.evicted_by[0] ? res.evicted_by : "?",
			(unsigned long long)res.evicted_pages,
			(unsigned long long)res.evicted_folios);
	if (fmt == CLI_FMT_JSON) {
		cli_print_json(out, wl, "kernel", &res.st, &win, &res);
		free(win.w);
		free(tr.m); /* none: the events went to win */
		return 0;
	}
	/* After the events: 'ralab check' places the model's folios so. */
	if (fmt == CLI_FMT_TEXT && tr.n && !tr.lost)
		ralab__folio_pfns_write(out, tr.m, tr.n);
	free(tr.m);
	if (fmt == CLI_FMT_CSV) {
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		if (!m)
			return 1;
		print_text(m, wl, &res);
		fclose(m);
		cli_print_csv(out, text);
		free(text);
		return 0;
	}
	print_text(out, wl, &res);
	return 0;
}

int cli_kernel(int argc, char **argv)
{
	const char *workdir = NULL, *path = NULL, *sets[64];
	struct ralab_load_opts lo;
	struct ralab_workload *wl = NULL;
	struct ralab_diag d = { 0 };
	bool trace = false, teardown = false, device_filter = false;
	enum cli_fmt fmt = CLI_FMT_TEXT;
	unsigned nsets = 0, k;
	int i, err, ret;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_kernel(stdout);
			return 0;
		} else if (!strcmp(a, "--trace")) {
			trace = true;
		} else if (!strcmp(a, "--teardown")) {
			teardown = true;
		} else if (!strcmp(a, "--device-filter")) {
			device_filter = true;
		} else if (!strcmp(a, "--workdir") || !strcmp(a, "--set") ||
			   !strcmp(a, "--format")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab kernel: %s needs a value\n", a);
				return 2;
			}
			a = argv[++i];
			if (!strcmp(argv[i - 1], "--workdir")) {
				workdir = a;
			} else if (!strcmp(argv[i - 1], "--format")) {
				if (cli_parse_fmt("kernel", a, &fmt))
					return 2;
			} else if (nsets == 64) {
				fprintf(stderr, "ralab kernel: too many --set options\n");
				return 2;
			} else {
				sets[nsets++] = a;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "ralab kernel: unknown option '%s' (see ralab kernel --help)\n", a);
			return 2;
		} else if (path) {
			fprintf(stderr, "ralab kernel: one case at a time\n");
			return 2;
		} else {
			path = a;
		}
	}
	if (teardown) {
		if (path) {
			fprintf(stderr, "ralab kernel: --teardown takes no case\n");
			return 2;
		}
		err = ralab_kernel_teardown(workdir, &d);
		if (err) {
			fprintf(stderr, "ralab kernel: %s\n", d.msg[0] ? d.msg : ralab_strerror(err));
			return 2;
		}
		return 0;
	}
	if (!path) {
		fprintf(stderr, "ralab kernel: no case given (see ralab kernel --help)\n");
		return 2;
	}
	if (cli_load_opts(sets, nsets, &lo))
		return 2;
	err = ralab_workload_load_opts(path, &lo, &wl, &d);
	if (err) {
		fprintf(stderr, "%s\n", d.msg[0] ? d.msg : ralab_strerror(err));
		return 2;
	}
	for (k = 0; k < nsets; k++) {
		if (cli_apply_set(wl, sets[k])) {
			ralab_workload_free(wl);
			return 2;
		}
	}
	cli_print_notes("kernel", path, wl);
	cli_catch_signals();
	if (fmt == CLI_FMT_CSV && trace) {
		fprintf(stderr, "ralab kernel: --format csv does not take --trace\n");
		ralab_workload_free(wl);
		return 2;
	}
	ret = record(wl, workdir, stdout, trace, device_filter, fmt);
	ralab_workload_free(wl);
	return ret;
}

/*
 * @arg as a case: a .ops file to record now (*@rec = NULL), or a directory
 * holding case.ops and a recording.  Both strings are malloc'ed.  Return 0,
 * or -1 after printing the error (*@ops NULL: out of memory).
 */
static int find_recording(const char *arg, char **ops, char **rec)
{
	static const char *const names[] = {
		"kernel.out.gz", "kernel.out", "events.txt.gz", "events.txt",
	};
	struct stat sb;
	unsigned k;

	*rec = NULL;
	if (stat(arg, &sb) || !S_ISDIR(sb.st_mode)) {
		*ops = strdup(arg);
		return *ops ? 0 : -1;
	}
	if (asprintf(ops, "%s/case.ops", arg) < 0) {
		*ops = NULL;
		return -1;
	}
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		if (asprintf(rec, "%s/%s", arg, names[k]) < 0) {
			*rec = NULL;
			return -1;
		}
		if (!access(*rec, R_OK))
			return 0;
		free(*rec);
		*rec = NULL;
	}
	fprintf(stderr, "ralab check: %s: a directory without a recording (kernel.out.gz, kernel.out, events.txt.gz or events.txt)\n",
		arg);
	return -1;
}

/*
 * The policy nearest the running kernel, for cases recorded now without
 * --policy: 6.17 brought ra->order and the async trim (linux-6.18); 6.10
 * the 2024 series (linux-6.12); 6.9 order-1 folios in readahead
 * (linux-6.9); 6.8 is linux-6.8 (a loop device without merges, no
 * shao-2024); before that linux-6.1.  Checked on 6.1.192, Ubuntu's
 * 6.8.0-31, 6.12.117 and 6.18.44 only.
 */
static const char *policy_for_kernel(const char *release)
{
	unsigned major = 0, minor = 0;

	if (sscanf(release, "%u.%u", &major, &minor) != 2 || major > 6 ||
	    (major == 6 && minor >= 17))
		return "linux-6.18";
	if (major == 6 && minor >= 10)
		return "linux-6.12";
	if (major == 6 && minor >= 9)
		return "linux-6.9";
	if (major == 6 && minor == 8)
		return "linux-6.8";
	return "linux-6.1";
}

/*
 * A difference where the model's I/O took no time and the case drops
 * pages: the kernel's DONTNEED may have met readahead I/O or writeback
 * in flight (it keeps those folios), which only a device that takes
 * time can.
 */
static void hint_device(const struct ralab_workload *wl, const char *name)
{
	const struct ralab_config *c = ralab_workload_config(wl);
	const char *ops = ralab_workload_ops_text(wl);

	if (c->dev_latency_ns || c->dev_bandwidth || !ops ||
	    !strstr(ops, "dontneed"))
		return;
	fflush(stdout);
	fprintf(stderr, "ralab check: note: %s: the model's device completes I/O at once; if the kernel's DONTNEED met readahead I/O or writeback still in flight (it keeps those folios), only a device that takes time matches: try --set device=loop (docs/design.md)\n",
		name);
}

/*
 * A difference in how requests were cut alone (the same events and
 * folios): where the kernel's folios lay in memory decides it (see
 * ralab_config.phys_merge; a recording without folio_pfns=).  Run the
 * model again with the other placement and say so if that matches.
 * @ktext: the recording (a copy made before the first comparison, which
 * takes its text apart), taken over; @label: the policy's.  True if the
 * note was given.
 */
static bool hint_phys_merge(struct ralab_workload *wl,
			    const struct ralab_run_opts *ro0, const char *label,
			    char *ktext, const struct cli_cmp *cmp,
			    const char *name)
{
	bool pm = !ralab_workload_config(wl)->phys_merge;
	struct ralab_run_opts ro = *ro0;
	struct ralab_stats st;
	char *stext = NULL, *dtext = NULL;
	size_t slen = 0, dlen = 0;
	FILE *sf, *df = NULL;
	int r = -1;

	/* Placed where the recording's folios were: nothing to try. */
	if (!ktext || ro0->folio_mem ||
	    cli_apply_set(wl, pm ? "phys_merge=1" : "phys_merge=0")) {
		free(ktext);
		return false;
	}
	sf = open_memstream(&stext, &slen);
	if (sf) {
		ro.on_event = cli_print_event;
		ro.event_arg = sf;
		if (!ralab_run(wl, &ro, &st))
			cli_print_summary(sf, wl, label, &st, false);
		if (fclose(sf) == 0 && stext)
			df = open_memstream(&dtext, &dlen);
	}
	if (df) {
		/* Takes both texts over. */
		r = cli_compare_texts(df, "kernel", ktext, "ralab", stext, cmp,
				      NULL);
		fclose(df);
	} else {
		free(ktext);
		free(stext);
	}
	free(dtext);
	cli_apply_set(wl, pm ? "phys_merge=0" : "phys_merge=1");
	if (r)
		return false;
	fflush(stdout);
	fprintf(stderr, "ralab check: note: %s: with --set phys_merge=%d (%s) the model matches: %s\n",
		name, pm,
		pm ? "the folios of a read one after another in memory" :
		     "no two folios adjacent in memory",
		pm ? "the kernel's pages lay together, as in memory not yet fragmented, and merged into larger segments" :
		     "the kernel's pages lay apart in memory");
	return true;
}

/* A recording's evicted_by_others= (pages), 0 if it has none. */
static unsigned long long evicted_pages(const char *ktext)
{
	const char *p = ktext ? strstr(ktext, "\nevicted_by_others=") : NULL;
	unsigned long long n;

	return p && sscanf(p, "\nevicted_by_others=%llu", &n) == 1 ? n : 0;
}

/*
 * Where, during the recording, another task (DAMON's kdamond, kswapd)
 * evicted pages of the case's files, which the model cannot know of:
 * the note 'ralab check' gives with a difference, in @note (empty if
 * none).  Read before the comparison, which takes @ktext over.
 */
static void evicted_note(const char *ktext, const char *name, char *note,
			 size_t len)
{
	const char *by = ktext ? strstr(ktext, "\nevicted_by=") : NULL;
	unsigned long long n = evicted_pages(ktext);

	note[0] = '\0';
	if (!n)
		return;
	by = by ? by + strlen("\nevicted_by=") : "?";
	snprintf(note, len, "ralab check: note: %s: during the recording another task (%.*s) evicted %llu page(s) of the case's files, which the model does not; where the workload read them again the kernel read them anew: record the case again\n",
		 name, (int)strcspn(by, "\n"), by, n);
}

/*
 * Record @wl into the memory stream *@kf (over *@ktext, *@klen); where
 * another task evicted pages of its files during the run (the recording
 * says evicted_by_others=), record it again, twice at most: such a run
 * is not the workload's alone.  Return: record()'s, or 1 with *@kf NULL
 * if a new stream cannot be had.
 */
static int record_undisturbed(const struct ralab_workload *wl,
			      const char *workdir, FILE **kf, char **ktext,
			      size_t *klen, const char *name)
{
	unsigned tries;
	int r = 0;

	for (tries = 0; tries < 3; tries++) {
		if (tries) {
			fprintf(stderr, "ralab check: note: %s: recording it again (%u of 2)\n",
				name, tries);
			fclose(*kf);
			free(*ktext);
			*ktext = NULL;
			*klen = 0;
			*kf = open_memstream(ktext, klen);
			if (!*kf)
				return 1;
		}
		r = record(wl, workdir, *kf, true, false, CLI_FMT_TEXT);
		if (r || fflush(*kf) || !evicted_pages(*ktext))
			break;
	}
	return r;
}

/* Does the recording's rebreaks_at= list a break of @file? */
static bool has_rebreaks(const char *ktext, unsigned file)
{
	const char *p = strstr(ktext, "\nrebreaks_at=");
	unsigned long long o;
	unsigned f;
	int used;

	if (!p)
		return false;
	p += strlen("\nrebreaks_at=");
	while (sscanf(p, "%u:%llu%n", &f, &o, &used) == 2) {
		if (f == file)
			return true;
		p += used;
	}
	return false;
}

/*
 * A recording's rebreaks_gen_at= (each generation but the last of a file
 * truncated more than once) given to the model.  Return: 0, or 2.
 */
static int model_gen_rebreaks(struct ralab_workload *wl, const char *ktext)
{
	const char *p = strstr(ktext, "\nrebreaks_gen_at=");
	unsigned nf = ralab_workload_nr_files(wl);
	uint64_t ofs[RALAB_MAX_BREAKS];
	unsigned long long o;
	unsigned file, gen, cf = 0, cg = 0, n = 0;
	struct ralab_diag d = { 0 };
	bool *had;
	int used, err = 0;

	if (!p)
		return 0;
	had = calloc(nf ? nf : 1, sizeof(*had));
	if (!had)
		return 2;
	p += strlen("\nrebreaks_gen_at=");
	for (;;) {
		bool more = sscanf(p, "%u:%u:%llu%n", &file, &gen, &o,
				   &used) == 3;

		/* A generation ends where the next begins (OFS 0) or at the end. */
		if (cg && (!more || !o)) {
			if (ralab_workload_set_rebreaks_gen(wl, cf, cg, ofs, n,
							    &d)) {
				err = 2;
				break;
			}
			cg = 0;
		}
		if (!more)
			break;
		p += used;
		if (!o) {
			cf = file;
			cg = gen;
			n = 0;
			if (file < nf)
				had[file] = true;
		} else if (cg && file == cf && gen == cg &&
			   n < RALAB_MAX_BREAKS) {
			ofs[n++] = o;
		}
	}
	/*
	 * A file with generations and none of rebreaks_at= ended
	 * contiguous: its last generation has no breaks (not "unknown").
	 */
	for (file = 0; !err && file < nf; file++)
		if (had[file] && !has_rebreaks(ktext, file) &&
		    ralab_workload_set_rebreaks(wl, file, NULL, 0, &d))
			err = 2;
	free(had);
	if (err)
		fprintf(stderr, "ralab check: %s\n", d.msg);
	return err;
}

/*
 * A recording's rebreaks_at= (where a file truncated and written anew is
 * not disk-contiguous) given to the model.  Return: 0, or 2 if it cannot
 * be.
 */
static int model_rebreaks(struct ralab_workload *wl, const char *ktext)
{
	const char *p = strstr(ktext, "\nrebreaks_at=");
	unsigned nf = ralab_workload_nr_files(wl), f;

	if (model_gen_rebreaks(wl, ktext))
		return 2;
	if (!p)
		return 0;
	for (f = 0; f < nf; f++) {
		uint64_t ofs[RALAB_MAX_BREAKS];
		const char *q = p + strlen("\nrebreaks_at=");
		struct ralab_diag d = { 0 };
		unsigned long long o;
		unsigned n = 0, file;
		bool listed = false;
		int used;

		/*
		 * F:0 lists file F (recordings since 2026-12-02), which may
		 * have no breaks: its rewrite is contiguous.  Before, a file
		 * without breaks was not listed (unknown: it keeps its own).
		 */
		while (n < RALAB_MAX_BREAKS &&
		       sscanf(q, "%u:%llu%n", &file, &o, &used) == 2) {
			q += used;
			if (file != f)
				continue;
			listed = true;
			if (o)
				ofs[n++] = o;
		}
		if (!listed)
			continue;
		if (ralab_workload_set_rebreaks(wl, f, ofs, n, &d)) {
			fprintf(stderr, "ralab check: %s\n", d.msg);
			return 2;
		}
	}
	return 0;
}

/*
 * A recording's breaks_at= (ralab kernel: where the filesystem broke a
 * file other than the case says) given to the model, added to the case's
 * own layout of that file, and its rebreaks_at= too.  Return: 0, or 2 if
 * it cannot be.
 */
/*
 * The case's extent_kb as each file's breaks, listed (a file with breaks
 * of its own keeps those), and extent_kb 0: so that the breaks the
 * filesystem made by itself can join them.  Return: 0, or 2.
 */
static int explicit_extents(struct ralab_workload *wl)
{
	uint64_t e = (uint64_t)ralab_workload_config(wl)->extent_kb * 1024;
	unsigned nf = ralab_workload_nr_files(wl), f;
	struct ralab_diag d = { 0 };

	for (f = 0; f < nf; f++) {
		uint64_t size = ralab_workload_file_size(wl, f), *ofs, k, n;
		int err;

		if (ralab_workload_breaks(wl, f, NULL, 0) || size <= e)
			continue;
		n = (size - 1) / e;
		if (n > (1u << 22)) {
			fprintf(stderr, "ralab check: the recording has breaks the case's extent_kb does not, and %llu extents of %llu KiB are too many to list with them\n",
				(unsigned long long)n,
				(unsigned long long)(e / 1024));
			return 2;
		}
		ofs = malloc(n * sizeof(*ofs));
		if (!ofs)
			return 1;
		for (k = 0; k < n; k++)
			ofs[k] = (k + 1) * e;
		err = ralab_workload_set_breaks(wl, f, ofs, (unsigned)n, &d);
		free(ofs);
		if (err) {
			fprintf(stderr, "ralab check: %s\n", d.msg);
			return 2;
		}
	}
	if (ralab_workload_set(wl, "extent_kb", "0", &d)) {
		fprintf(stderr, "ralab check: %s\n", d.msg);
		return 2;
	}
	return 0;
}

/*
 * The recording machine's memcpy (memcpy_back_min= and _max=, what its
 * C library copies backward) given to the model, unless --set gave one.
 * Return: 0, or 2.
 */
static int model_memcpy(struct ralab_workload *wl, const char *ktext,
			const char *const *sets, unsigned nsets)
{
	static const char *const keys[] = { "memcpy_back_min", "memcpy_back_max" };
	struct ralab_diag d = { 0 };
	unsigned k, i;

	for (i = 0; i < nsets; i++)
		if (!strncmp(sets[i], "memcpy_back_", 12))
			return 0;
	for (k = 0; k < 2; k++) {
		char pat[32], val[24];
		const char *p;

		snprintf(pat, sizeof(pat), "\n%s=", keys[k]);
		p = strstr(ktext, pat);
		if (!p || sscanf(p + strlen(pat), "%23[0-9]", val) != 1)
			continue;
		if (ralab_workload_set(wl, keys[k], val, &d)) {
			fprintf(stderr, "ralab check: %s\n", d.msg);
			return 2;
		}
	}
	return 0;
}

static int model_breaks(struct ralab_workload *wl, const char *ktext)
{
	const char *p = strstr(ktext, "\nbreaks_at=");
	const struct ralab_config *c = ralab_workload_config(wl);
	unsigned nf = ralab_workload_nr_files(wl), f;
	int rerr = model_rebreaks(wl, ktext);

	if (rerr || !p)
		return rerr;
	if (c->extent_kb && (rerr = explicit_extents(wl)))
		return rerr;
	for (f = 0; f < nf; f++) {
		unsigned n = ralab_workload_breaks(wl, f, NULL, 0), file, k;
		uint64_t *ofs = malloc((n + RALAB_MAX_BREAKS) * sizeof(*ofs));
		const char *q = p + strlen("\nbreaks_at=");
		struct ralab_diag d = { 0 };
		unsigned long long o;
		int used, err;

		if (!ofs)
			return 1;
		n = ralab_workload_breaks(wl, f, ofs, n);
		while (sscanf(q, "%u:%llu%n", &file, &o, &used) == 2) {
			q += used;
			if (file != f)
				continue;
			/* In order, as the recorder lists them. */
			for (k = n; k > 0 && ofs[k - 1] > o; k--)
				ofs[k] = ofs[k - 1];
			ofs[k] = o;
			n++;
		}
		err = ralab_workload_set_breaks(wl, f, ofs, n, &d);
		free(ofs);
		if (err) {
			fprintf(stderr, "ralab check: %s\n", d.msg);
			return 2;
		}
	}
	return 0;
}

int cli_check(int argc, char **argv)
{
	const char *workdir = NULL, *policy = NULL;
	enum cli_fmt fmt = CLI_FMT_TEXT;
	struct cli_verdict *verdicts = NULL;
	const char **cases;
	char **reports = NULL, **ops = NULL, **rec = NULL;
	unsigned nv = 0, ncases = 0, c;
	struct cli_cmp cmp = { 0 }, live_cmp;
	const char *sets[64]; /* borrowed from argv */
	struct ralab_load_opts lo;
	unsigned nsets = 0, k;
	bool strict = false;
	int i, ret = 0;

	cases = calloc((size_t)argc, sizeof(*cases)); /* borrowed from argv */
	ops = calloc((size_t)argc, sizeof(*ops));     /* owned */
	rec = calloc((size_t)argc, sizeof(*rec));     /* owned; NULL: record */
	if (!cases || !ops || !rec) {
		free(cases);
		free(ops);
		free(rec);
		return 1;
	}

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_check(stdout);
			ret = 0;
			goto out;
		} else if (!strcmp(a, "--strict")) {
			strict = true;
		} else if (!strcmp(a, "--workdir") || !strcmp(a, "--policy") ||
			   !strcmp(a, "--format") || !strcmp(a, "--ignore") ||
			   !strcmp(a, "--set")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab check: %s needs a value\n", a);
				ret = 2;
			} else if (a[2] == 's') {
				if (nsets == sizeof(sets) / sizeof(sets[0])) {
					fprintf(stderr, "ralab check: too many --set options\n");
					ret = 2;
				} else {
					sets[nsets++] = argv[++i];
				}
			} else if (a[2] == 'i') {
				ret = cli_cmp_ignore("check", &cmp, argv[++i]);
			} else if (a[2] == 'w') {
				workdir = argv[++i];
			} else if (a[2] == 'p') {
				policy = argv[++i];
			} else if (cli_parse_fmt("check", argv[++i], &fmt)) {
				ret = 2;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "ralab check: unknown option '%s'\n", a);
			ret = 2;
		} else {
			cases[ncases++] = a;
		}
		if (ret)
			goto out;
	}
	if (!ncases) {
		fprintf(stderr, "ralab check: no case given (see ralab check --help)\n");
		ret = 2;
		goto out;
	}
	struct cli_policy pol, live;
	struct cli_progress prog;
	struct utsname u;
	bool all_live = true;

	if (cli_policy_parse(policy, NULL, 0, &pol)) {
		ret = 2;
		goto out;
	}
	/* Cases recorded now are compared with the running kernel's model. */
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "unknown");
	if (cli_policy_parse(policy ? policy : policy_for_kernel(u.release),
			     NULL, 0, &live)) {
		ret = 2;
		goto out;
	}
	cmp.strict = strict;
	live_cmp = cmp;
	/*
	 * 6.1 moves ra->prev_pos after each folio copied (linux-6.1), so
	 * where a read meets a folio still under I/O timing decides it: the
	 * recordings of 6.1 are compared without it (tests/kernels/README).
	 */
	if (!policy && !strcmp(live.name, "linux-6.1") &&
	    (ret = cli_cmp_ignore("check", &live_cmp, "prev_pos")))
		goto out;
	if (cli_load_opts(sets, nsets, &lo)) {
		ret = 2;
		goto out;
	}
	/*
	 * Every case must parse (and every recorded one have its recording)
	 * before the first is recorded.
	 */
	for (c = 0; c < ncases; c++) {
		struct ralab_workload *wl = NULL;
		struct ralab_diag d = { 0 };
		int err;

		if (find_recording(cases[c], &ops[c], &rec[c])) {
			ret = ops[c] ? 2 : 1;
			goto out;
		}
		err = ralab_workload_load_opts(ops[c], &lo, &wl, &d);

		if (err) {
			fprintf(stderr, "%s\n", d.msg[0] ? d.msg : ralab_strerror(err));
			ret = 2;
			goto out;
		}
		for (k = 0; k < nsets; k++)
			if (cli_apply_set(wl, sets[k])) {
				ralab_workload_free(wl);
				ret = 2;
				goto out;
			}
		cli_print_notes("check", ops[c], wl);
		ralab_workload_free(wl);
	}
	if (fmt != CLI_FMT_TEXT) {
		verdicts = calloc(ncases, sizeof(*verdicts));
		reports = calloc(ncases, sizeof(*reports));
		if (!verdicts || !reports) {
			ret = 1;
			goto out;
		}
	}
	cli_catch_signals();
	cli_progress_start(&prog, ncases);
	for (c = 0; c < ncases; c++) {
		const struct cli_policy *cp = rec[c] ? &pol : &live;
		struct ralab_run_opts ro = {
			.policy = cp->name,
			.patches = cp->patches,
			.nr_patches = cp->nr_patches,
		};
		struct ralab_workload *wl = NULL;
		struct ralab_diag d = { 0 };
		struct ralab_stats st;
		char *ktext = NULL, *stext = NULL;
		size_t klen = 0, slen = 0;
		FILE *kf, *sf;
		int r, err;

		err = ralab_workload_load_opts(ops[c], &lo, &wl, &d);
		if (err) {
			fprintf(stderr, "%s\n", d.msg[0] ? d.msg : ralab_strerror(err));
			ret = 2;
			goto out;
		}
		/* Checked above; a recorded case's recording stays as it is. */
		for (k = 0; k < nsets; k++)
			cli_apply_set(wl, sets[k]);
		kf = open_memstream(&ktext, &klen);
		sf = open_memstream(&stext, &slen);
		if (!kf || !sf) {
			if (kf)
				fclose(kf);
			if (sf)
				fclose(sf);
			free(ktext);
			free(stext);
			ralab_workload_free(wl);
			ret = 1;
			goto out;
		}
		if (rec[c]) {
			char *t = cli_load_recording(rec[c]);

			if (t)
				fputs(t, kf);
			else
				fprintf(stderr, "ralab check: %s: %s\n", rec[c],
					strerror(errno ? errno : EIO));
			r = t ? 0 : 2;
			free(t);
		} else {
			r = record_undisturbed(wl, workdir, &kf, &ktext, &klen,
					       cases[c]);
		}
		ro.on_event = cli_print_event;
		ro.event_arg = sf;
		/* Where the filesystem broke a file itself, so does the model. */
		if (!r && fflush(kf) == 0 && ktext)
			r = model_breaks(wl, ktext);
		if (!r && ktext)
			r = model_memcpy(wl, ktext, sets, nsets);
		/* Its folios where the kernel's lay in memory. */
		if (!r && ktext) {
			struct ralab_folio_mem *fm = NULL;
			size_t nfm = 0;

			const char *kname = rec[c] ? rec[c] : cases[c];

			err = ralab__recording_folio_mem(ktext, kname, &fm,
							 &nfm, &d);
			if (err == -EINVAL)
				fprintf(stderr, "%s\n", d.msg);
			r = err == -EINVAL ? 2 : err ? 1 : 0;
			ro.folio_mem = fm;
			ro.nr_folio_mem = nfm;
		}
		err = r ? 0 : ralab_run(wl, &ro, &st);
		if (!r && !err)
			cli_print_summary(sf, wl, cp->label, &st, false);
		if (kf) /* NULL: record_undisturbed() ran out of memory */
			fclose(kf);
		fclose(sf);
		if (r || err) {
			if (err)
				fprintf(stderr, "ralab check: %s: %s\n",
					cases[c], ralab_strerror(err));
			free((void *)ro.folio_mem);
			free(ktext);
			free(stext);
			ralab_workload_free(wl);
			ret = r ? r : err == -EOPNOTSUPP ? 2 : 1;
			goto out;
		}
		cli_progress_end(&prog);
		if (fmt == CLI_FMT_TEXT) {
			char note[512];
			char *kcopy = ktext ? strdup(ktext) : NULL;
			struct cli_verdict vd = { 0 };
			bool placed = false;

			printf("== %s\n", cases[c]);
			if (!rec[c] && !policy)
				printf("policy: %s (for the running kernel %s)\n",
				       live.label, u.release);
			evicted_note(ktext, cases[c], note, sizeof(note));
			r = cli_compare_texts(stdout, "kernel", ktext, "ralab",
					      stext, rec[c] ? &cmp : &live_cmp,
					      &vd);
			if (r == 1 && vd.ra && vd.folio_orders &&
			    vd.folio_stream && !vd.rq_stream)
				placed = hint_phys_merge(wl, &ro, cp->label,
							 kcopy,
							 rec[c] ? &cmp :
								  &live_cmp,
							 cases[c]);
			else
				free(kcopy);
			if (r == 1) {
				if (!placed)
					hint_device(wl, cases[c]);
				fflush(stdout);
				fputs(note, stderr);
			}
		} else {
			size_t len = 0;
			FILE *m = open_memstream(&reports[nv], &len);

			if (!m) {
				free((void *)ro.folio_mem);
				free(ktext);
				free(stext);
				ralab_workload_free(wl);
				ret = 1;
				goto out;
			}
			r = cli_compare_texts(m, "kernel", ktext, "ralab", stext,
					      rec[c] ? &cmp : &live_cmp,
					      &verdicts[nv]);
			fclose(m);
			nv++;
		}
		fflush(stdout);
		if (r)
			ret = r > ret ? r : ret;
		free((void *)ro.folio_mem);
		ralab_workload_free(wl);
		cli_progress_step(&prog, cases[c]);
	}
	cli_progress_end(&prog);
	for (c = 0; c < ncases; c++)
		all_live = all_live && !rec[c];
	if (fmt != CLI_FMT_TEXT)
		cli_print_verdicts(stdout, fmt, "check", cases, "kernel",
				   all_live ? live.label : pol.label, strict,
				   verdicts, reports, nv);
out:
	if (reports)
		for (i = 0; (unsigned)i < nv; i++)
			free(reports[i]);
	for (c = 0; c < ncases; c++) {
		free(ops[c]);
		free(rec[c]);
	}
	free(ops);
	free(rec);
	free(reports);
	free(cases);
	free(verdicts);
	return ret;
}
