// SPDX-License-Identifier: MIT
/*
 * tune.c - 'ralab tune': which read_ahead_kb (and max_sectors_kb) for
 * these workloads on this device.  Every pair of values is simulated with
 * the time model; the pair with the least time per byte read wins (the
 * least time, for workloads of fixed size; timed ones, fio's time_based,
 * read more instead of ending sooner), and the one recommended is the
 * smallest read_ahead_kb within --within percent of it,
 * because a larger window costs memory and, for random reads, device
 * bandwidth spent on pages nobody reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define TUNE_MAX_VALUES 32
#define TUNE_MAX_SETS 16

static const uint32_t default_ra[] = {
	16, 32, 64, 128, 256, 512, 1024, 2048, 4096,
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: ralab tune [OPTIONS] CASE...\n"
		"\n"
		"Simulate the cases for every read_ahead_kb (and max_sectors_kb) given\n"
		"and print, per setting, the total modelled time, throughput, time\n"
		"readers stalled on I/O, device reads and pages read ahead but never\n"
		"read; then the fastest setting and the one recommended: the smallest\n"
		"read_ahead_kb whose time per byte read (the total time, unless the\n"
		"cases are timed) is within --within percent of the fastest (a larger\n"
		"window holds more memory for the same speed).\n"
		"Times come from the device model: give one (--set device=nvme,\n"
		"loop or hdd, or dev_* values); the default 'ideal' device has no\n"
		"latency, so readahead could not matter.\n"
		"\n"
		"options:\n"
		"  --ra KB,KB,...      read_ahead_kb values (default 16,32,...,4096)\n"
		"  --msk KB,KB,...     max_sectors_kb values (default: each case's)\n"
		"  --within PCT        tolerance of the recommendation (default 2)\n"
		"  --policy SPEC       as for 'ralab sim' (default linux-6.18)\n"
		"  --set KEY=VALUE     as for 'ralab sim' (repeatable)\n"
		"  --format FMT        text (default) or csv (one row per setting)\n"
		"  -h, --help          this text\n");
}

/* "16,32,..." into @v; prints the error and returns -1 if bad. */
static int parse_list(const char *opt, const char *arg, uint32_t *v,
		      unsigned *n)
{
	const char *p = arg;

	*n = 0;
	while (*p) {
		char *end;
		unsigned long x;

		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		x = strtoul(p, &end, 10);
		if (errno || x > 1u << 22 || *n == TUNE_MAX_VALUES ||
		    (*end && *end != ','))
			goto bad;
		v[(*n)++] = (uint32_t)x;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			goto bad;
	}
	if (*n)
		return 0;
bad:
	fprintf(stderr, "ralab tune: %s wants up to %d whole numbers of KiB, as 128,512, not '%s'\n",
		opt, TUNE_MAX_VALUES, arg);
	return -1;
}

/* Set @key (a KiB value) in @wl; print the error and return -1 if bad. */
static int set_kb(struct ralab_workload *wl, const char *key,
		  const char *opt, uint32_t kb)
{
	struct ralab_diag d = { 0 };
	char v[16];

	snprintf(v, sizeof(v), "%u", kb);
	if (!ralab_workload_set(wl, key, v, &d))
		return 0;
	fprintf(stderr, "ralab tune: %s %s: %s\n", opt, v, d.msg);
	return -1;
}

struct point {
	uint32_t ra, msk;
	uint64_t elapsed_ns, wait_ns, bytes, reads, unused;
	bool unused_known;
};

/*
 * What 'fastest' means: time per byte the application read.  For a
 * workload of fixed size that orders settings as its time does; a timed
 * one (runtime) takes the same time under every setting and reads more
 * under a better one.
 */
static double cost(const struct point *pt)
{
	return pt->bytes ? (double)pt->elapsed_ns / (double)pt->bytes
			 : (double)pt->elapsed_ns;
}

static void print_point_text(const struct point *pt, const struct point *best,
			     const struct point *rec)
{
	double mbs = pt->elapsed_ns ?
		(double)pt->bytes * 1e3 / (double)pt->elapsed_ns : 0.0;
	char unused[24] = "?";

	if (pt->unused_known)
		snprintf(unused, sizeof(unused), "%llu",
			 (unsigned long long)pt->unused);
	printf("%8u %7u %11.2f %7.3f %9.1f %11.2f %10llu %10s%s%s\n", pt->ra,
	       pt->msk, (double)pt->elapsed_ns / 1e6,
	       cost(best) > 0 ? cost(pt) / cost(best) : 1.0,
	       mbs, (double)pt->wait_ns / 1e6,
	       (unsigned long long)pt->reads, unused,
	       pt == best ? "  fastest" : "", pt == rec ? "  recommended" : "");
}

int cli_tune(int argc, char **argv)
{
	uint32_t ra[TUNE_MAX_VALUES], msk[TUNE_MAX_VALUES];
	unsigned nra = 0, nmsk = 0, nsets = 0, ncases = 0, i, c, a, m;
	unsigned npm, npts; /* max_sectors_kb values (1: the cases'), points */
	const char *sets[TUNE_MAX_SETS], *policy = NULL;
	struct ralab_load_opts lo;
	enum cli_fmt fmt = CLI_FMT_TEXT;
	struct ralab_workload **wl = NULL;
	struct point *pts = NULL, *best, *rec;
	struct cli_policy pol;
	char **cases;
	double within = 2.0;
	bool ideal = true;
	int ret = 0, rerr;

	cases = calloc((size_t)argc, sizeof(*cases)); /* borrowed from argv */
	if (!cases)
		return 1;
	for (i = 1; i < (unsigned)argc; i++) {
		const char *o = argv[i];

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			goto out;
		}
		if (!strcmp(o, "--ra") || !strcmp(o, "--msk") ||
		    !strcmp(o, "--within") || !strcmp(o, "--policy") ||
		    !strcmp(o, "--set") || !strcmp(o, "--format")) {
			const char *v;

			if (i + 1 >= (unsigned)argc) {
				fprintf(stderr, "ralab tune: %s needs a value\n", o);
				ret = 2;
				goto out;
			}
			v = argv[++i];
			if (!strcmp(o, "--ra") ? parse_list(o, v, ra, &nra) :
			    !strcmp(o, "--msk") ? parse_list(o, v, msk, &nmsk) :
			    0) {
				ret = 2;
				goto out;
			}
			if (!strcmp(o, "--within")) {
				char *end;

				within = strtod(v, &end);
				if (*end || end == v || !(within >= 0 && within <= 100)) {
					fprintf(stderr, "ralab tune: --within wants a percentage from 0 to 100, not '%s'\n", v);
					ret = 2;
					goto out;
				}
			} else if (!strcmp(o, "--policy")) {
				policy = v;
			} else if (!strcmp(o, "--set")) {
				if (nsets == TUNE_MAX_SETS) {
					fprintf(stderr, "ralab tune: at most %d --set options\n", TUNE_MAX_SETS);
					ret = 2;
					goto out;
				}
				sets[nsets++] = v;
			} else if (!strcmp(o, "--format")) {
				if (cli_parse_fmt("tune", v, &fmt) ||
				    fmt == CLI_FMT_JSON) {
					if (fmt == CLI_FMT_JSON)
						fprintf(stderr, "ralab tune: --format is text or csv\n");
					ret = 2;
					goto out;
				}
			}
		} else if (o[0] == '-' && o[1]) {
			fprintf(stderr, "ralab tune: unknown option '%s' (see ralab tune --help)\n", o);
			ret = 2;
			goto out;
		} else {
			cases[ncases++] = argv[i];
		}
	}
	if (!ncases) {
		fprintf(stderr, "ralab tune: no case given (see ralab tune --help)\n");
		ret = 2;
		goto out;
	}
	if (!nra) {
		nra = sizeof(default_ra) / sizeof(default_ra[0]);
		memcpy(ra, default_ra, sizeof(default_ra));
	}
	if (cli_policy_parse(policy, NULL, 0, &pol)) {
		ret = 2;
		goto out;
	}
	/* Load and check everything before the first run. */
	wl = calloc(ncases, sizeof(*wl));
	npm = nmsk ? nmsk : 1;
	npts = nra * npm;
	pts = calloc(npts, sizeof(*pts));
	if (!wl || !pts) {
		ret = 1;
		goto out;
	}
	if (cli_load_opts(sets, nsets, &lo)) {
		ret = 2;
		goto out;
	}
	for (c = 0; c < ncases; c++) {
		struct ralab_diag d = { 0 };
		int err = ralab_workload_load_opts(cases[c], &lo, &wl[c], &d);

		if (err) {
			fprintf(stderr, "%s\n", d.msg[0] ? d.msg : ralab_strerror(err));
			ret = 2;
			goto out;
		}
		for (i = 0; i < nsets; i++)
			if (cli_apply_set(wl[c], sets[i])) {
				ret = 2;
				goto out;
			}
		cli_print_notes("tune", cases[c], wl[c]);
		if (strcmp(ralab_workload_config(wl[c])->device, "ideal"))
			ideal = false;
	}
	for (a = 0; a < nra; a++)
		for (m = 0; m < npm; m++) {
			struct point *pt = &pts[a * npm + m];

			pt->ra = ra[a];
			pt->msk = nmsk ? msk[m] : 0;
			pt->unused_known = true;
			for (c = 0; c < ncases; c++) {
				struct ralab_run_opts ro = {
					.policy = pol.name,
					.patches = pol.patches,
					.nr_patches = pol.nr_patches,
				};
				struct ralab_stats st;

				/* max_sectors_kb first, as on the kernel. */
				if ((nmsk && set_kb(wl[c], "max_sectors_kb", "--msk", msk[m])) ||
				    set_kb(wl[c], "read_ahead_kb", "--ra", ra[a])) {
					ret = 2;
					goto out;
				}
				if (!nmsk)
					pt->msk = ralab_workload_config(wl[c])->max_sectors_kb;
				rerr = ralab_run(wl[c], &ro, &st);
				if (rerr) {
					fprintf(stderr, "ralab tune: %s: %s\n",
						cases[c], ralab_strerror(rerr));
					ret = rerr == -EOPNOTSUPP ? 2 : 1;
					goto out;
				}
				pt->elapsed_ns += st.elapsed_ns;
				pt->wait_ns += st.wait_ns;
				pt->bytes += st.bytes_read;
				pt->reads += st.data_reads;
				if (st.ra_pages_unused == UINT64_MAX)
					pt->unused_known = false;
				else
					pt->unused += st.ra_pages_unused;
			}
		}
	/* The fastest; then the smallest read_ahead_kb close enough to it. */
	best = rec = &pts[0];
	for (i = 1; i < npts; i++)
		if (cost(&pts[i]) < cost(best))
			best = &pts[i];
	for (i = 0; i < npts; i++) {
		double lim = cost(best) * (1.0 + within / 100.0);

		if (cost(&pts[i]) <= lim &&
		    (cost(rec) > lim || pts[i].ra < rec->ra ||
		     (pts[i].ra == rec->ra && cost(&pts[i]) < cost(rec))))
			rec = &pts[i];
	}
	if (fmt == CLI_FMT_CSV) {
		printf("read_ahead_kb,max_sectors_kb,elapsed_ns,wait_ns,bytes_read,device_reads,ra_pages_unused,fastest,recommended\n");
		for (i = 0; i < npts; i++) {
			const struct point *pt = &pts[i];

			printf("%u,%u,%llu,%llu,%llu,%llu,", pt->ra, pt->msk,
			       (unsigned long long)pt->elapsed_ns,
			       (unsigned long long)pt->wait_ns,
			       (unsigned long long)pt->bytes,
			       (unsigned long long)pt->reads);
			if (pt->unused_known)
				printf("%llu", (unsigned long long)pt->unused);
			printf(",%d,%d\n", pt == best, pt == rec);
		}
		goto out;
	}
	printf("# ralab tune: %u case%s, policy %s, device %s%s\n", ncases,
	       ncases == 1 ? "" : "s", pol.label,
	       ralab_workload_config(wl[0])->device,
	       ideal ? " (no latency: readahead cannot pay off here; see --help)" : "");
	printf("%8s %7s %11s %7s %9s %11s %10s %10s\n", "ra_kb", "msk_kb",
	       "time_ms", "x_best", "MB/s", "stall_ms", "dev_reads",
	       "unused_pg");
	for (i = 0; i < npts; i++)
		print_point_text(&pts[i], best, rec);
	printf("recommended: read_ahead_kb=%u max_sectors_kb=%u (%.2f ms, %+.1f%% of the fastest, read_ahead_kb=%u)\n",
	       rec->ra, rec->msk, (double)rec->elapsed_ns / 1e6,
	       cost(best) > 0 ? 100.0 * (cost(rec) - cost(best)) / cost(best)
			      : 0.0,
	       best->ra);
out:
	if (wl)
		for (c = 0; c < ncases; c++)
			ralab_workload_free(wl[c]);
	free(wl);
	free(pts);
	free(cases);
	return ret;
}
