// SPDX-License-Identifier: MIT
/*
 * calibrate.c - 'ralab calibrate': fit the device of the time model to
 * this machine's loop device from 'ralab kernel' runs, and say how well
 * the fit holds on cases it was not fitted to.
 *
 * The CPU costs of a read that hits the page cache (cpu_syscall_ns,
 * cpu_page_ns) are measured, not fitted: read(2) over a cached file, 4 KiB
 * and 1 MiB at a time, gives the cost of a call and of a page copied.  The
 * device is then fitted with them: a grid search (then a finer one around
 * the best point) over the per-request latency and the bandwidth,
 * minimising the mean squared relative error of the modelled elapsed time
 * against the kernel's wall time of the ops.  Then, where a fitted case
 * has requests side by side (jobs reading at once), the contention
 * (dev_contention_ns) by a line search, and the latency and bandwidth
 * again with it, twice over; otherwise the contention cannot be told
 * from these cases and the loop preset's stays.  Cases alternate between
 * the fit set and the check set.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define MAX_CASES 32

struct cal_case {
	const char *path;
	struct ralab_workload *wl;
	double kernel_s;
	bool fit;
};

/* What a read(2) that hits the page cache costs on this machine. */
struct cal_cpu {
	uint64_t syscall_ns, page_ns;
};

/* A device: the settings fitted. */
struct cal_dev {
	uint64_t lat_us, bw_mb, share_ns;
};

#define SHARE_MAX_NS 40000

#define PROBE_BYTES (64u << 20)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds per read(2) of @bs bytes over the cached file @fd. */
static double probe_pass(int fd, char *buf, size_t bs)
{
	double t0 = now_s();
	size_t calls = 0;
	ssize_t r;

	if (lseek(fd, 0, SEEK_SET))
		return -1;
	while ((r = read(fd, buf, bs)) > 0)
		calls++;
	if (r < 0 || calls != PROBE_BYTES / bs)
		return -1;
	return (now_s() - t0) / (double)calls;
}

/*
 * Measure @cpu in @dir: write a 64 MiB file (so it is in the page cache),
 * then read it 4 KiB and 1 MiB at a time, alternately, five times each,
 * keeping each size's fastest pass (noise only adds time).  A call of n
 * pages costs syscall_ns + n * page_ns: two sizes give both.  The file is
 * on @dir's filesystem, not the cases' (the recorder unmounts theirs);
 * the cached read path differs little between the two.  0 or -errno.
 */
static int measure_cpu(const char *dir, volatile int *stop,
		       struct cal_cpu *cpu)
{
	char path[4096];
	char *buf = NULL;
	double t4 = INFINITY, t1m = INFINITY, page;
	int fd, err = 0, pass;
	size_t off;

	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	if ((size_t)snprintf(path, sizeof(path), "%s/cpu-probe.XXXXXX", dir) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	unlink(path);
	buf = malloc(1u << 20);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	memset(buf, 0x5a, 1u << 20);
	for (off = 0; off < PROBE_BYTES; off += 1u << 20) {
		ssize_t w = write(fd, buf, 1u << 20);

		if (w != 1 << 20) {
			err = w < 0 ? -errno : -EIO;
			goto out;
		}
	}
	/* Written back first, so that no writeback runs while timing. */
	if (fdatasync(fd)) {
		err = -errno;
		goto out;
	}
	for (pass = 0; pass < 5 && !(stop && *stop); pass++) {
		double a = probe_pass(fd, buf, 4096);
		double b = probe_pass(fd, buf, 1u << 20);

		if (a < 0 || b < 0) {
			err = -EIO;
			goto out;
		}
		t4 = a < t4 ? a : t4;
		t1m = b < t1m ? b : t1m;
	}
	if (stop && *stop) {
		err = -EINTR;
		goto out;
	}
	page = (t1m - t4) / 255;
	if (page < 0)
		page = 0;
	cpu->page_ns = (uint64_t)(page * 1e9 + 0.5);
	cpu->syscall_ns = t4 > page ? (uint64_t)((t4 - page) * 1e9 + 0.5) : 0;
out:
	free(buf);
	close(fd);
	return err;
}

/* Set @cpu on every case's workload (after its device preset). */
static int set_cpu(struct cal_case *cs, unsigned n, const struct cal_cpu *cpu)
{
	struct ralab_diag d;
	char v[32];
	unsigned i;

	for (i = 0; i < n; i++) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)cpu->syscall_ns);
		if (ralab_workload_set(cs[i].wl, "cpu_syscall_ns", v, &d))
			return -EINVAL;
		snprintf(v, sizeof(v), "%llu", (unsigned long long)cpu->page_ns);
		if (ralab_workload_set(cs[i].wl, "cpu_page_ns", v, &d))
			return -EINVAL;
	}
	return 0;
}

static double model_s(struct cal_case *c, const struct cal_dev *dev)
{
	struct ralab_diag d;
	struct ralab_stats st;
	char v[32];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)dev->lat_us);
	if (ralab_workload_set(c->wl, "dev_latency_us", v, &d))
		return -1;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)dev->bw_mb);
	if (ralab_workload_set(c->wl, "dev_bandwidth_mb", v, &d))
		return -1;
	snprintf(v, sizeof(v), "%llu", (unsigned long long)dev->share_ns);
	if (ralab_workload_set(c->wl, "dev_contention_ns", v, &d))
		return -1;
	if (ralab_run(c->wl, NULL, &st))
		return -1;
	return (double)st.elapsed_ns / 1e9;
}

static double error_of(struct cal_case *cs, unsigned n, bool fit,
		       const struct cal_dev *dev)
{
	double sum = 0;
	unsigned i, k = 0;

	for (i = 0; i < n; i++) {
		double m, r;

		if (cs[i].fit != fit)
			continue;
		m = model_s(&cs[i], dev);
		if (m < 0)
			return INFINITY;
		r = (m - cs[i].kernel_s) / cs[i].kernel_s;
		sum += r * r;
		k++;
	}
	return k ? sum / k : 0;
}

/*
 * The latency and bandwidth that fit the fit cases best at @dev's
 * contention: a coarse grid, then finer ones around the best point.
 * Returns the mean squared relative error there.
 */
static double fit_lat_bw(struct cal_case *cs, unsigned n, struct cal_dev *dev)
{
	uint64_t best_lat = 100, best_bw = 700, step_l = 20, step_b = 200;
	struct cal_dev t = *dev;
	double best = INFINITY;
	int pass;

	for (pass = 0; pass < 3; pass++) {
		uint64_t l0 = best_lat > 5 * step_l ? best_lat - 5 * step_l : step_l;
		uint64_t b0 = best_bw > 5 * step_b ? best_bw - 5 * step_b : step_b;

		if (pass == 0) {
			l0 = 10;
			b0 = 100;
		}
		for (t.lat_us = l0; t.lat_us <= l0 + (pass ? 10 : 15) * step_l;
		     t.lat_us += step_l)
			for (t.bw_mb = b0; t.bw_mb <= b0 + (pass ? 10 : 20) * step_b;
			     t.bw_mb += step_b) {
				double e = error_of(cs, n, true, &t);

				if (e < best) {
					best = e;
					best_lat = t.lat_us;
					best_bw = t.bw_mb;
				}
			}
		step_l = step_l > 4 ? step_l / 4 : 1;
		step_b = step_b > 8 ? step_b / 4 : 2;
	}
	dev->lat_us = best_lat;
	dev->bw_mb = best_bw;
	return best;
}

/*
 * The contention that fits best at @dev's latency and bandwidth: 0 to
 * SHARE_MAX_NS in steps of 1 us, then of 100 ns around the best.
 */
static void fit_share(struct cal_case *cs, unsigned n, struct cal_dev *dev)
{
	uint64_t lo = 0, hi = SHARE_MAX_NS, step = 1000, best_s = dev->share_ns;
	double best = error_of(cs, n, true, dev);
	struct cal_dev t = *dev;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (t.share_ns = lo; t.share_ns <= hi; t.share_ns += step) {
			double e = error_of(cs, n, true, &t);

			if (e < best) {
				best = e;
				best_s = t.share_ns;
			}
		}
		lo = best_s > step ? best_s - step : 0;
		hi = best_s + step;
		step = 100;
	}
	dev->share_ns = best_s;
}

/* The fit as JSON or CSV. */
static void print_fmt(struct cal_case *cs, unsigned n, enum cli_fmt fmt,
		      const struct cal_cpu *cpu, const struct cal_dev *dev,
		      bool share_fitted, double fit_err)
{
	unsigned i;

	if (fmt == CLI_FMT_JSON)
		printf("{\n  \"schema_version\": 1,\n  \"tool\": \"ralab\",\n  \"dev_latency_us\": %llu,\n  \"dev_bandwidth_mb\": %llu,\n  \"dev_contention_ns\": %llu,\n  \"contention_fitted\": %s,\n  \"cpu_syscall_ns\": %llu,\n  \"cpu_page_ns\": %llu,\n  \"fit_rms_error\": %.4f,\n  \"check_rms_error\": %.4f,\n  \"cases\": [",
		       (unsigned long long)dev->lat_us,
		       (unsigned long long)dev->bw_mb,
		       (unsigned long long)dev->share_ns,
		       share_fitted ? "true" : "false",
		       (unsigned long long)cpu->syscall_ns,
		       (unsigned long long)cpu->page_ns,
		       sqrt(fit_err), sqrt(error_of(cs, n, false, dev)));
	else
		printf("case,role,kernel_s,model_s,relative_error,dev_latency_us,dev_bandwidth_mb,dev_contention_ns,cpu_syscall_ns,cpu_page_ns\n");
	for (i = 0; i < n; i++) {
		double m = model_s(&cs[i], dev);
		double e = (m - cs[i].kernel_s) / cs[i].kernel_s;

		if (fmt == CLI_FMT_JSON) {
			printf("%s\n    {\"case\": ", i ? "," : "");
			cli_json_str(stdout, cs[i].path);
			printf(", \"role\": \"%s\", \"kernel_s\": %.6f, \"model_s\": %.6f, \"relative_error\": %.4f}",
			       cs[i].fit ? "fit" : "check", cs[i].kernel_s, m, e);
		} else {
			cli_csv_field(stdout, cs[i].path);
			printf(",%s,%.6f,%.6f,%.4f,%llu,%llu,%llu,%llu,%llu\n",
			       cs[i].fit ? "fit" : "check", cs[i].kernel_s, m, e,
			       (unsigned long long)dev->lat_us,
			       (unsigned long long)dev->bw_mb,
			       (unsigned long long)dev->share_ns,
			       (unsigned long long)cpu->syscall_ns,
			       (unsigned long long)cpu->page_ns);
		}
	}
	if (fmt == CLI_FMT_JSON)
		printf("\n  ]\n}\n");
}

int cli_calibrate(int argc, char **argv)
{
	struct cal_case cs[MAX_CASES];
	const char *workdir = NULL;
	unsigned n = 0, i;
	struct ralab_config preset;
	struct cal_dev dev = { 0 };
	bool share_fitted;
	double best;
	struct cal_cpu cpu = { 0 };
	volatile int *stop;
	enum cli_fmt fmt = CLI_FMT_TEXT;
	unsigned runs = 3, run;
	int pass, ret = 0, err;

	for (i = 1; i < (unsigned)argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: ralab calibrate [--workdir DIR] [--runs N] [--format text|json|csv] CASE.ops...\n\n"
			       "Record each case on the running kernel ('ralab kernel'), measure what\n"
			       "a read(2) that hits the page cache costs here (cpu_syscall_ns,\n"
			       "cpu_page_ns: a 64 MiB file in the work directory read 4 KiB and\n"
			       "1 MiB at a time), then fit the time model's device (dev_latency_us,\n"
			       "dev_bandwidth_mb) to the wall time of the ops, on every other case,\n"
			       "and report the error on the cases left out; where a fitted case has\n"
			       "requests side by side (jobs reading at once), dev_contention_ns too,\n"
			       "otherwise the loop preset's is kept.  Prints the settings to\n"
			       "use with --set.  The odd-numbered cases (1st, 3rd, ...) are fitted,\n"
			       "the others checked.\n"
			       "--runs N: record every case N times (default 3; rounds over all the\n"
			       "cases) and keep its fastest run: a run of the same requests can take\n"
			       "twice as long as the next, and noise only adds time.\n"
			       "--format json: one object (docs/schema/calibrate.schema.json);\n"
			       "csv: a row per case.\n");
			return 0;
		}
		if (!strcmp(argv[i], "--format")) {
			if (i + 1 >= (unsigned)argc) {
				fprintf(stderr, "ralab calibrate: --format needs a value\n");
				return 2;
			}
			if (cli_parse_fmt("calibrate", argv[++i], &fmt))
				return 2;
			continue;
		}
		if (!strcmp(argv[i], "--runs")) {
			char *end;
			unsigned long v;

			if (i + 1 >= (unsigned)argc) {
				fprintf(stderr, "ralab calibrate: --runs needs a value\n");
				return 2;
			}
			v = strtoul(argv[++i], &end, 10);
			if (*end || end == argv[i] || argv[i][0] == '-' || v < 1 || v > 20) {
				fprintf(stderr, "ralab calibrate: --runs must be from 1 to 20, not '%s'\n",
					argv[i]);
				return 2;
			}
			runs = (unsigned)v;
			continue;
		}
		if (!strcmp(argv[i], "--workdir")) {
			if (i + 1 >= (unsigned)argc) {
				fprintf(stderr, "ralab calibrate: --workdir needs a value\n");
				return 2;
			}
			workdir = argv[++i];
			continue;
		}
		if (argv[i][0] == '-') {
			fprintf(stderr, "ralab calibrate: unknown option '%s'\n", argv[i]);
			return 2;
		}
		if (n == MAX_CASES) {
			fprintf(stderr, "ralab calibrate: at most %d cases\n", MAX_CASES);
			return 2;
		}
		cs[n].path = argv[i];
		cs[n].fit = !(n % 2);
		n++;
	}
	if (n < 2) {
		fprintf(stderr, "ralab calibrate: give at least two cases (one to fit, one to check)\n");
		return 2;
	}
	/* Every case must parse before the first is recorded. */
	for (i = 0; i < n; i++) {
		struct ralab_diag d = { 0 };

		if (ralab_workload_load(cs[i].path, &cs[i].wl, &d)) {
			fprintf(stderr, "%s\n", d.msg);
			n = i;
			ret = 2;
			goto out;
		}
	}
	stop = cli_catch_signals();
	/* Round after round over all the cases, so a slow spell hits one run
	 * of several cases rather than every run of one. */
	for (run = 0; run < runs * n; run++) {
		struct ralab_diag d = { 0 };
		struct ralab_kernel_opts ko = { .workdir = workdir, .stop = stop };
		struct ralab_kernel_result res;
		double t;

		i = run % n;
		err = ralab_kernel_run(cs[i].wl, &ko, &res, &d);
		if (err == -EINTR) {
			fprintf(stderr, "ralab calibrate: interrupted; cleaned up\n");
			ret = 130;
			goto out;
		}
		if (err) {
			fprintf(stderr, "ralab calibrate: %s: %s\n", cs[i].path,
				d.msg[0] ? d.msg : ralab_strerror(err));
			ret = 2;
			goto out;
		}
		t = (double)res.ops_ns / 1e9;
		if (run < n || t < cs[i].kernel_s)
			cs[i].kernel_s = t;
		if (run >= n)
			continue;
		if (ralab_workload_set(cs[i].wl, "device", "loop", &d)) {
			ret = 1;
			goto out;
		}
	}
	if (!workdir)
		workdir = RALAB_KERNEL_WORKDIR; /* the recorder's, where it ran */
	err = measure_cpu(workdir, stop, &cpu);
	if (err == -EINTR) {
		fprintf(stderr, "ralab calibrate: interrupted; cleaned up\n");
		ret = 130;
		goto out;
	}
	if (err) {
		fprintf(stderr, "ralab calibrate: measuring a cached read(2) in %s: %s\n",
			workdir, strerror(-err));
		ret = 1;
		goto out;
	}
	if (set_cpu(cs, n, &cpu)) {
		ret = 1;
		goto out;
	}
	/*
	 * Latency and bandwidth at the loop preset's contention; then, if
	 * the contention moves the error at all, it and they in turn.
	 */
	ralab_config_default(&preset);
	ralab_config_device(&preset, "loop");
	dev.share_ns = preset.dev_contention_ns;
	best = fit_lat_bw(cs, n, &dev);
	{
		struct cal_dev lo = dev, hi = dev;

		lo.share_ns = 0;
		hi.share_ns = SHARE_MAX_NS;
		share_fitted = error_of(cs, n, true, &lo) !=
			       error_of(cs, n, true, &hi);
	}
	for (pass = 0; share_fitted && pass < 2; pass++) {
		fit_share(cs, n, &dev);
		best = fit_lat_bw(cs, n, &dev);
	}
	if (fmt != CLI_FMT_TEXT) {
		print_fmt(cs, n, fmt, &cpu, &dev, share_fitted, best);
		goto out;
	}
	printf("measured, a cached read(2): cpu_syscall_ns=%llu cpu_page_ns=%llu\n",
	       (unsigned long long)cpu.syscall_ns, (unsigned long long)cpu.page_ns);
	printf("fitted on %u cases: dev_latency_us=%llu dev_bandwidth_mb=%llu dev_contention_ns=%llu (rms relative error %.1f%%)\n",
	       (n + 1) / 2, (unsigned long long)dev.lat_us,
	       (unsigned long long)dev.bw_mb,
	       (unsigned long long)dev.share_ns, 100 * sqrt(best));
	if (!share_fitted)
		printf("dev_contention_ns: the loop preset's; no fitted case has requests side by side (give one with jobs reading at once)\n");
	printf("%-44s %12s %12s %9s %s\n", "case", "kernel_s", "model_s", "error", "set");
	for (i = 0; i < n; i++) {
		double m = model_s(&cs[i], &dev);

		printf("%-44s %12.4f %12.4f %+8.1f%% %s\n", cs[i].path, cs[i].kernel_s, m,
		       100 * (m - cs[i].kernel_s) / cs[i].kernel_s,
		       cs[i].fit ? "fit" : "check");
	}
	printf("check cases: rms relative error %.1f%%\n",
	       100 * sqrt(error_of(cs, n, false, &dev)));
	printf("use: --set dev_latency_us=%llu --set dev_bandwidth_mb=%llu --set dev_contention_ns=%llu --set cpu_syscall_ns=%llu --set cpu_page_ns=%llu\n",
	       (unsigned long long)dev.lat_us, (unsigned long long)dev.bw_mb,
	       (unsigned long long)dev.share_ns,
	       (unsigned long long)cpu.syscall_ns, (unsigned long long)cpu.page_ns);
out:
	for (i = 0; i < n; i++)
		ralab_workload_free(cs[i].wl);
	return ret;
}
