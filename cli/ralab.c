// SPDX-License-Identifier: MIT
/*
 * ralab - command-line client of libralab.
 *
 * Exit status: 0 success, 1 a comparison found differences, 2 bad usage or
 * bad input (nothing was run).
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ralab.h"
#include "cli.h"
#include "report/recording.h"

static const char default_case[] =
	"# The seed-000 case: a 4 KiB read at offset 0, then 1 MiB reads\n"
	"# to EOF of a 512 MiB file.\n"
	"# fs: xfs\n"
	"# file_size: 512M\n"
	"# read_ahead_kb: 128\n"
	"# max_sectors_kb: 512\n"
	"read 4K 1\n"
	"read 1M eof\n";

static void usage_main(FILE *out)
{
	fprintf(out,
		"usage: ralab [COMMAND] [OPTIONS] [ARGS]\n"
		"\n"
		"ralab simulates Linux page-cache readahead exactly: which windows\n"
		"the kernel reads ahead, in which folio orders, and which device\n"
		"requests they become.\n"
		"\n"
		"With no command, ralab runs its embedded default case (seed 000:\n"
		"a 4 KiB read, then 1 MiB reads of a 512 MiB file, read_ahead_kb 128,\n"
		"max_sectors_kb 512) and prints a short report.\n"
		"\n"
		"commands:\n"
		"  sim CASE.ops        simulate a workload; print a key=value summary\n"
		"  kernel CASE.ops     run the workload on the running kernel (root;\n"
		"                      loop device, tracefs) and print what sim prints\n"
		"  check CASE...       run both; MATCH or the first divergence per case\n"
		"                      (a recorded case directory: no kernel run)\n"
		"  diff A B            compare two outputs of 'ralab sim --trace'\n"
		"                      (or of the recorder); exit 1 if they differ\n"
		"  compare CASE...     one table: several policies and settings per case\n"
		"  tune CASE...        which read_ahead_kb / max_sectors_kb on a device\n"
		"  dump CASE.ops       the page cache after the run: folio runs, orders,\n"
		"                      readahead marks\n"
		"  report --html OUT CASE...  a page of charts (windows, orders, requests)\n"
		"  record -- CMD ARGS  run CMD under strace; 'ralab sim' reads the log\n"
		"  record -p PID       the same for a running process, until Ctrl-C\n"
		"  calibrate CASE...   fit the time model's device to this machine (root)\n"
		"\n"
		"CASE files: .ops workloads, fio job files, strace logs (-f -tt or -ttt [-T])\n"
		"and fio iologs (versions 2 and 3); or a fio command line as one argument\n"
		"('fio --name=a --rw=read --bs=4k --size=1g'); 'ralab sim --dump-ops'\n"
		"shows what was read.\n"
		"  policies            list the readahead policies and patches\n"
		"\n"
		"options:\n"
		"  -h, --help          this text ('ralab COMMAND --help' for a command)\n"
		"  -V, --version       print the version\n");
}

static void usage_sim(FILE *out)
{
	fprintf(out,
		"usage: ralab sim [OPTIONS] CASE...\n"
		"\n"
		"CASE is an .ops file or a fio job file (recognised by its [section]s).\n"
		"Run the workload from a cold page cache and print a\n"
		"summary, one key=value per line: data_reads, data_sectors, sync_ra,\n"
		"async_ra, ra_order, ra_unbounded, read_folio, folio_orders (ORDER:COUNT,\n"
		"ascending), pages_added, syscalls, bytes_read.  Several CASEs run one\n"
		"after the other, each from a cold cache, each one's output after a line\n"
		"'== CASE' (with --format json: one array of their objects); all are\n"
		"read before any runs.\n"
		"\n"
		"options:\n"
		"  --trace             first print every event, in order, as the kernel's\n"
		"                      tracepoints print them (no line prefix, no dev/ino;\n"
		"                      block sectors counted from the file's first sector)\n"
		"  --policy NAME       readahead policy (default linux-6.18; see\n"
		"                      'ralab policies'); NAME+PATCH+... applies patches\n"
		"  --patch PATCH       apply a patch on top of the policy (repeatable;\n"
		"                      kara-2024 means all ten of that series)\n"
		"  --set KEY=VALUE     override a header value of the case: fs, file_size,\n"
		"                      read_ahead_kb, max_sectors_kb, max_hw_sectors_kb,\n"
		"                      the time model (device, dev_*, cpu_*) and memory\n"
		"                      pressure (alloc_fail_ppm, alloc_fail_order,\n"
		"                      alloc_fail_seed), the C library's memcpy\n"
		"                      (memcpy_back_min, memcpy_back_max), the files'\n"
		"                      layout (extent_kb, extent_breaks, holes) and the\n"
		"                      filesystem's block_size (4K; XFS to 64K: no writes),\n"
		"                      phys_merge=1 (a read's folios adjacent in memory)\n"
		"                      (repeatable; applied in order, checked as headers are);\n"
		"                      and for a fio job file fio_files=fresh (no file\n"
		"                      exists before the run) or existing (an earlier run\n"
		"                      left them), where a later job lays a file out\n"
		"                      again, larger, and fio's I/Os depend on it\n"
		"  --placement REC     put the folios in memory where the recording REC\n"
		"                      (kernel.out or kernel.out.gz of 'ralab kernel\n"
		"                      --trace') says the kernel put its folios\n"
		"                      (folio_pfns=): the k-th folio added takes the\n"
		"                      k-th place while it is the recording's k-th\n"
		"                      folio (offset and order), as 'ralab check' does;\n"
		"                      the others lie as phys_merge says\n"
		"  --parse-only        check the case and exit (status 0 if valid)\n"
		"  --dump-ops          print the case as .ops (what a fio job file or\n"
		"                      another input was understood as) and exit\n"
		"  --format FMT        text: key=value lines (default); json: one object\n"
		"                      (docs/schema/sim.schema.json), an array of them\n"
		"                      for several CASEs; csv: a header row and a value\n"
		"                      row (one CASE, not with --trace)\n"
		"  -h, --help          this text\n"
		"\n"
		"The .ops format:\n"
		"  # fs: xfs|ext4            header comments before the first op\n"
		"  # file_size: SIZE         (default 512M; SIZE takes K, M, G suffixes)\n"
		"  # read_ahead_kb: N        (default 128)\n"
		"  # max_sectors_kb: N       (default 512; 0 or 4..max_hw_sectors_kb)\n"
		"  # max_hw_sectors_kb: N    (default 1280, the loop device's limit)\n"
		"  read LEN [COUNT|eof]      read(2) from the file position\n"
		"  pread OFF LEN\n"
		"  splice OFF LEN [PAGES]               splice(2) into a pipe, PAGES free (16)\n"
		"  sendfile OFF LEN [BYTES]             sendfile(2): splices until BYTES (LEN)\n"
		"  via splice|read                      the descriptor's reads splice (fio's)\n"
		"  seek OFF\n"
		"  rand-pread LEN COUNT [SEED]          xorshift64 offsets, LEN-aligned\n"
		"  stride-pread OFF LEN STRIDE COUNT    STRIDE may be negative\n"
		"  shuffle-pread OFF SIZE LEN [SEED]    every LEN block once, random order\n"
		"  fio-pread OFF SIZE LEN COUNT SEED [nomap] [cont] [t64]\n"
		"                                       the blocks fio 3.x draws\n"
		"  fadvise OFF LEN normal|random|sequential|willneed|dontneed|noreuse\n"
		"  readahead OFF LEN                    readahead(2)\n"
		"  write LEN [COUNT] | pwrite OFF LEN   buffered writes in place (cut at EOF)\n"
		"  fsync                                write the dirty folios back\n"
		"  truncate SIZE                        ftruncate(2), up to the declared size\n"
		"  fallocate OFF LEN [keep]             fallocate(2): unwritten blocks\n"
		"  punch OFF LEN | zero-range OFF LEN   fallocate(2) PUNCH_HOLE, ZERO_RANGE\n"
		"  open | close | fd N                  more descriptors on the file (the\n"
		"                                       case starts with descriptor 0)\n"
		"  file NAME SIZE | use NAME            more files ('main' is the case's)\n"
		"  mmap-read OFF LEN [STEP]             map, read a byte every STEP (4K), unmap\n"
		"  mmap OFF LEN [populate|locked] [exec] [write]\n"
		"  touch OFF LEN [STEP] [write|cow]\n"
		"  munmap [OFF [LEN]]                   populate: MAP_POPULATE; locked:\n"
		"                                       MAP_LOCKED; exec: PROT_EXEC; write:\n"
		"                                       PROT_WRITE; munmap OFF LEN: a hole\n"
		"  map OFF                              which of two mappings sharing a page\n"
		"  mprotect OFF LEN none|r|rw|rx|rwx|x|w|wx   mprotect(2): VMAs split\n"
		"  mlock OFF LEN [onfault] | munlock OFF LEN   mlock(2), mlock2(2), munlock(2)\n"
		"  madvise OFF LEN normal|random|sequential|willneed|hugepage|dontneed\n"
		"  madvise OFF LEN dontneed_locked      MADV_DONTNEED_LOCKED: locked VMAs too\n"
		"  madvise OFF LEN nohugepage|cold      no PMDs; split large folios in part\n"
		"  madvise OFF LEN pageout              MADV_PAGEOUT: those splits, then the\n"
		"                                       clean folios mapped whole dropped\n"
		"  madvise OFF LEN remove               MADV_REMOVE: a punch of the range\n"
		"  madvise OFF LEN populate_read|populate_write  every page faulted in\n"
		"  job NAME, iodepth, think, ...        several jobs (README.md: the\n"
		"                                       whole format, and the layout\n"
		"                                       headers: extent_kb, extent_breaks,\n"
		"                                       rebreaks, holes, unwritten,\n"
		"                                       block_size)\n");
}

static void usage_diff(FILE *out)
{
	fprintf(out,
		"usage: ralab diff [--strict] [--format text|json|csv] A B\n"
		"\n"
		"Compare two outputs of 'ralab sim --trace' (or of a kernel recording in\n"
		"the same format): the readahead events (sync, async, ra_order,\n"
		"ra_unbounded) in order, the folio order histogram and the number of\n"
		"data reads.  Prints MATCH, or the first divergence with context and\n"
		"which of these differ.  The folio and block request streams are\n"
		"compared too and reported; --strict makes them count for the verdict.\n"
		"--format json gives the verdicts and the report as one object\n"
		"(docs/schema/check.schema.json); csv, the verdicts as a row.\n"
		"\n"
		"exit status: 0 match, 1 differ, 2 bad input\n");
}

static int cmd_policies(int argc, char **argv)
{
	unsigned i;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: ralab policies\n\nList the readahead policies, one per line, with their source.\n");
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "ralab policies: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	for (i = 0; i < ralab_policy_count(); i++)
		printf("%-16s %s\n", ralab_policy_name(i), ralab_policy_source(i));
	printf("\npatches (--patch NAME, or POLICY+NAME; a series' name, as kara-2024,\nroberts-2025 or kim-2025, applies all its patches):\n");
	for (i = 0; i < ralab_patch_count(); i++)
		printf("%-16s on %s: %s\n", ralab_patch_name(i),
		       ralab_patch_policy(i), ralab_patch_title(i));
	return 0;
}

/* An event callback; @arg is the FILE to print to. */
void cli_print_event(void *arg, const struct ralab_event *ev)
{
	char buf[256];
	int n = ralab_event_format(ev, buf, sizeof(buf));

	if (n > 0 && (size_t)n < sizeof(buf)) {
		buf[n] = '\n';
		fwrite(buf, 1, (size_t)n + 1, arg);
	}
}

static const char *fs_name(enum ralab_fs fs)
{
	return fs == RALAB_FS_EXT4 ? "ext4" : "xfs";
}

static void print_orders(FILE *out, const struct ralab_stats *st)
{
	const char *sep = "";
	unsigned o;

	for (o = 0; o <= RALAB_MAX_ORDER; o++) {
		if (!st->folios[o])
			continue;
		fprintf(out, "%s%u:%llu", sep, o,
			(unsigned long long)st->folios[o]);
		sep = " ";
	}
}

/* The time model's figures (device from the case's config). */
static void print_time(FILE *out, const struct ralab_config *c,
		       const struct ralab_stats *st)
{
	unsigned i;

	fprintf(out, "device=%s\n", c->device);
	fprintf(out, "elapsed_us=%.1f\n", (double)st->elapsed_ns / 1e3);
	fprintf(out, "throughput_mb_s=%.1f\n",
		st->elapsed_ns ? (double)st->bytes_read * 1e3 / (double)st->elapsed_ns : 0.0);
	fprintf(out, "read_lat_p50_us=%.2f\n", (double)st->lat_p50_ns / 1e3);
	fprintf(out, "read_lat_p90_us=%.2f\n", (double)st->lat_p90_ns / 1e3);
	fprintf(out, "read_lat_p99_us=%.2f\n", (double)st->lat_p99_ns / 1e3);
	fprintf(out, "wait_us=%.1f\n", (double)st->wait_ns / 1e3);
	fprintf(out, "waits=%llu\n", (unsigned long long)st->waits);
	fprintf(out, "late_ra_waits=%llu\n", (unsigned long long)st->late_ra_waits);
	fprintf(out, "ra_time_to_use_us=");
	{
		const char *sep = "";

		for (i = 0; i < RALAB_TTU_BUCKETS; i++) {
			if (!st->ttu_hist[i])
				continue;
			if (i)
				fprintf(out, "%s%llu%s:%llu", sep, 1ull << (i - 1),
					i + 1 == RALAB_TTU_BUCKETS ? "+" : "",
					(unsigned long long)st->ttu_hist[i]);
			else
				fprintf(out, "%s0:%llu", sep, (unsigned long long)st->ttu_hist[0]);
			sep = " ";
		}
	}
	fprintf(out, "\n");
	cli_print_jobs(out, st, true);
}

void cli_print_jobs(FILE *out, const struct ralab_stats *st, bool waits)
{
	unsigned i;

	if (st->nr_jobs < 2)
		return;
	for (i = 0; i < st->nr_jobs; i++) {
		const struct ralab_job_stats *j = &st->job[i];

		if (j->start_ns)
			fprintf(out, "job.%s.start_us=%.1f\n", j->name, (double)j->start_ns / 1e3);
		fprintf(out, "job.%s.elapsed_us=%.1f\n", j->name, (double)j->elapsed_ns / 1e3);
		fprintf(out, "job.%s.throughput_mb_s=%.1f\n", j->name,
			j->elapsed_ns ? (double)j->bytes * 1e3 / (double)j->elapsed_ns : 0.0);
		fprintf(out, "job.%s.read_lat_p50_us=%.2f\n", j->name, (double)j->lat_p50_ns / 1e3);
		fprintf(out, "job.%s.read_lat_p99_us=%.2f\n", j->name, (double)j->lat_p99_ns / 1e3);
		if (!waits)
			continue;
		fprintf(out, "job.%s.wait_us=%.1f\n", j->name, (double)j->wait_ns / 1e3);
		fprintf(out, "job.%s.late_ra_waits=%llu\n", j->name,
			(unsigned long long)j->late_ra_waits);
	}
}

/*
 * Collect the readahead windows along the run for the JSON output; with
 * --trace, print every event too.
 */
void cli_collect_window(void *arg, const struct ralab_event *ev)
{
	struct cli_windows *cw = arg;
	uint64_t pages = ralab_event_window(ev, &cw->ws);

	if (cw->trace)
		cli_print_event(stdout, ev);
	if (!pages)
		return;
	if (cw->n == cw->cap) {
		size_t cap = cw->cap ? cw->cap * 2 : 1024;
		void *w = cap <= CLI_MAX_WINDOWS ?
			realloc(cw->w, cap * sizeof(*cw->w)) : NULL;

		if (!w) {
			cw->truncated = true;
			return;
		}
		cw->w = w;
		cw->cap = cap;
	}
	cw->w[cw->n].index = ev->index;
	cw->w[cw->n].pages = pages;
	cw->n++;
}

void cli_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", out);
		else if (ch == '\t')
			fputs("\\t", out);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

void cli_csv_field(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void cli_print_csv(FILE *out, const char *text)
{
	const char *l, *next;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		const char *sep = "";

		for (l = text; l && *l; l = next) {
			char *eq = strchr(l, '=');

			next = strchr(l, '\n');
			if (next)
				next++;
			if (!eq || (next && eq > next))
				continue;
			if (pass == 0) {
				fprintf(out, "%s%.*s", sep, (int)(eq - l), l);
			} else {
				const char *v, *end = next ? next - 1 : eq + strlen(eq);

				/* RFC 4180: quoted, quotes doubled. */
				fprintf(out, "%s\"", sep);
				for (v = eq + 1; v < end; v++) {
					if (*v == '"')
						fputc('"', out);
					fputc(*v, out);
				}
				fputc('"', out);
			}
			sep = ",";
		}
		fprintf(out, "\n");
	}
}

/*
 * "KEY=B:N 2B:N ...\n": a histogram of power-of-two buckets from @base,
 * empty buckets left out, the last open-ended ("+").
 */
static void print_hist(FILE *out, const char *key, const uint64_t *h,
		       unsigned n, unsigned long long base)
{
	const char *sep = "";
	unsigned k;

	fprintf(out, "%s=", key);
	for (k = 0; k < n; k++) {
		if (!h[k])
			continue;
		fprintf(out, "%s%llu%s:%llu", sep, base << k,
			k + 1 == n ? "+" : "", (unsigned long long)h[k]);
		sep = " ";
	}
	fprintf(out, "\n");
}

void cli_print_summary(FILE *out, const struct ralab_workload *wl,
		       const char *policy, const struct ralab_stats *st,
		       bool time_model)
{
	const struct ralab_config *c = ralab_workload_config(wl);
	const char *name = ralab_workload_name(wl);
	const char *base = strrchr(name, '/');

	fprintf(out, "case=%s\n", base ? base + 1 : name);
	fprintf(out, "policy=%s\n", policy ? policy : ralab_policy_name(0));
	fprintf(out, "fs=%s\n", fs_name(c->fs));
	fprintf(out, "file_size=%llu\n", (unsigned long long)c->file_size);
	fprintf(out, "read_ahead_kb=%u\n", c->read_ahead_kb);
	fprintf(out, "max_sectors_kb=%u\n", c->max_sectors_kb);
	if (c->extent_kb)
		fprintf(out, "extent_kb=%u\n", c->extent_kb);
	if (c->block_size > RALAB_PAGE_SIZE)
		fprintf(out, "block_size=%u\n", c->block_size);
	if (c->phys_merge)
		fprintf(out, "phys_merge=%u\n", c->phys_merge);
	fprintf(out, "data_reads=%llu\n", (unsigned long long)st->data_reads);
	fprintf(out, "data_sectors=%llu\n",
		(unsigned long long)st->data_sectors);
	fprintf(out, "sync_ra=%llu\n", (unsigned long long)st->sync_ra);
	fprintf(out, "async_ra=%llu\n", (unsigned long long)st->async_ra);
	fprintf(out, "ra_order=%llu\n", (unsigned long long)st->ra_order);
	fprintf(out, "ra_unbounded=%llu\n",
		(unsigned long long)st->ra_unbounded);
	fprintf(out, "read_folio=%llu\n", (unsigned long long)st->read_folio);
	if (c->alloc_fail_ppm)
		fprintf(out, "alloc_failures=%llu\n",
			(unsigned long long)st->alloc_failures);
	fprintf(out, "folio_orders=");
	print_orders(out, st);
	fprintf(out, "\n");
	fprintf(out, "pages_added=%llu\n", (unsigned long long)st->pages_added);
	fprintf(out, "ra_pages=%llu\n", (unsigned long long)st->ra_pages);
	if (st->ra_pages_unused != UINT64_MAX)
		fprintf(out, "ra_pages_unused=%llu\n",
			(unsigned long long)st->ra_pages_unused);
	fprintf(out, "ra_pages_evicted_unused=%llu\n",
		(unsigned long long)st->ra_pages_evicted_unused);
	print_hist(out, "request_sizes_kib", st->rq_size_hist,
		   RALAB_RQ_BUCKETS, 4);
	print_hist(out, "ra_window_pages", st->ra_window_hist,
		   RALAB_WIN_BUCKETS, 1);
	fprintf(out, "syscalls=%llu\n", (unsigned long long)st->syscalls);
	fprintf(out, "bytes_read=%llu\n", (unsigned long long)st->bytes_read);
	if (st->bytes_written)
		fprintf(out, "bytes_written=%llu\nwrite_reads=%llu\n",
			(unsigned long long)st->bytes_written,
			(unsigned long long)st->write_reads);
	if (time_model)
		print_time(out, ralab_workload_config(wl), st);
}

/*
 * A kernel run's breaks, as a JSON member after another (none: nothing):
 * , "KEY": [{"file": F, ["gen": G, ]"ofs": O}, ...]
 */
static void json_breaks(FILE *out, const char *key, unsigned n,
			const struct ralab_break *b, bool gen)
{
	unsigned i;

	if (!n)
		return;
	fprintf(out, ", \"%s\": [", key);
	for (i = 0; i < n && i < RALAB_MAX_BREAKS; i++) {
		fprintf(out, "%s{\"file\": %u, ", i ? ", " : "", b[i].file);
		if (gen)
			fprintf(out, "\"gen\": %u, ", b[i].gen);
		fprintf(out, "\"ofs\": %llu}", (unsigned long long)b[i].ofs);
	}
	fprintf(out, "]");
}

/* As print_hist(), as a JSON member: "KEY": {"B": N, ...},\n */
static void json_hist(FILE *out, const char *key, const uint64_t *h,
		      unsigned n, unsigned long long base)
{
	const char *sep = "";
	unsigned k;

	fprintf(out, "  \"%s\": {", key);
	for (k = 0; k < n; k++) {
		if (!h[k])
			continue;
		fprintf(out, "%s\"%llu\": %llu", sep, base << k,
			(unsigned long long)h[k]);
		sep = ", ";
	}
	fprintf(out, "},\n");
}

/* The summary as one JSON object (schema: docs/schema/sim.schema.json). */
void cli_print_json(FILE *out, const struct ralab_workload *wl,
		    const char *policy, const struct ralab_stats *st,
		    const struct cli_windows *win,
		    const struct ralab_kernel_result *kres)
{
	const struct ralab_config *c = ralab_workload_config(wl);
	const char *sep = "";
	unsigned k;

	fprintf(out, "{\n  \"schema_version\": 1,\n  \"tool\": \"ralab\",\n  \"version\": \"%s\",\n",
		RALAB_VERSION);
	fprintf(out, "  \"case\": ");
	cli_json_str(out, ralab_workload_name(wl));
	fprintf(out, ",\n  \"policy\": ");
	cli_json_str(out, policy ? policy : ralab_policy_name(0));
	fprintf(out, ",\n");
	fprintf(out, "  \"fs\": \"%s\",\n  \"file_size_bytes\": %llu,\n  \"read_ahead_kb\": %u,\n  \"max_sectors_kb\": %u,\n",
		fs_name(c->fs), (unsigned long long)c->file_size,
		c->read_ahead_kb, c->max_sectors_kb);
	if (c->extent_kb)
		fprintf(out, "  \"extent_kb\": %u,\n", c->extent_kb);
	if (c->block_size > RALAB_PAGE_SIZE)
		fprintf(out, "  \"block_size\": %u,\n", c->block_size);
	if (c->phys_merge)
		fprintf(out, "  \"phys_merge\": %u,\n", c->phys_merge);
	fprintf(out, "  \"device_reads\": %llu,\n  \"device_bytes\": %llu,\n",
		(unsigned long long)st->data_reads,
		(unsigned long long)st->data_sectors * 512);
	fprintf(out, "  \"sync_ra_calls\": %llu,\n  \"async_ra_calls\": %llu,\n  \"ra_order_calls\": %llu,\n  \"ra_unbounded_calls\": %llu,\n  \"read_folio_calls\": %llu,\n",
		(unsigned long long)st->sync_ra, (unsigned long long)st->async_ra,
		(unsigned long long)st->ra_order,
		(unsigned long long)st->ra_unbounded,
		(unsigned long long)st->read_folio);
	if (c->alloc_fail_ppm)
		fprintf(out, "  \"alloc_failures\": %llu,\n",
			(unsigned long long)st->alloc_failures);
	fprintf(out, "  \"folio_orders\": {");
	for (k = 0; k <= RALAB_MAX_ORDER; k++) {
		if (!st->folios[k])
			continue;
		fprintf(out, "%s\"%u\": %llu", sep, k,
			(unsigned long long)st->folios[k]);
		sep = ", ";
	}
	fprintf(out, "},\n");
	json_hist(out, "request_sizes_kib", st->rq_size_hist, RALAB_RQ_BUCKETS, 4);
	json_hist(out, "ra_window_pages", st->ra_window_hist, RALAB_WIN_BUCKETS, 1);
	if (win) {
		size_t w;

		fprintf(out, "  \"ra_windows\": [");
		for (w = 0; w < win->n; w++)
			fprintf(out, "%s[%llu, %llu]", w ? ", " : "",
				(unsigned long long)win->w[w].index,
				(unsigned long long)win->w[w].pages);
		fprintf(out, "]");
		if (win->truncated)
			fprintf(out, ",\n  \"ra_windows_truncated\": true");
		fprintf(out, ",\n");
	}
	fprintf(out, "  \"pages_added\": %llu,\n  \"ra_pages\": %llu,\n",
		(unsigned long long)st->pages_added,
		(unsigned long long)st->ra_pages);
	if (st->ra_pages_unused == UINT64_MAX)
		fprintf(out, "  \"ra_pages_unused\": null,\n");
	else
		fprintf(out, "  \"ra_pages_unused\": %llu,\n",
			(unsigned long long)st->ra_pages_unused);
	fprintf(out, "  \"ra_pages_evicted_unused\": %llu,\n  \"syscalls\": %llu,\n  \"bytes_read\": %llu,\n",
		(unsigned long long)st->ra_pages_evicted_unused,
		(unsigned long long)st->syscalls,
		(unsigned long long)st->bytes_read);
	if (st->bytes_written)
		fprintf(out, "  \"bytes_written\": %llu,\n  \"write_reads\": %llu,\n",
			(unsigned long long)st->bytes_written,
			(unsigned long long)st->write_reads);
	if (kres) {
		fprintf(out, "  \"kernel\": {\"release\": \"%s\", \"meta_reads\": %llu, \"stat_reads\": %llu, \"stat_sectors\": %llu, \"extents\": %u, \"breaks\": %u, \"ops_ns\": %llu, \"read_lat_p50_ns\": %llu, \"read_lat_p90_ns\": %llu, \"read_lat_p99_ns\": %llu, \"read_lat_max_ns\": %llu, \"memcpy_back_min\": %llu, \"memcpy_back_max\": %llu, ",
			kres->kernel, (unsigned long long)kres->meta_reads,
			(unsigned long long)kres->stat_reads,
			(unsigned long long)kres->stat_sectors, kres->extents,
			kres->breaks,
			(unsigned long long)kres->ops_ns,
			(unsigned long long)kres->st.lat_p50_ns,
			(unsigned long long)kres->st.lat_p90_ns,
			(unsigned long long)kres->st.lat_p99_ns,
			(unsigned long long)kres->st.lat_max_ns,
			(unsigned long long)kres->memcpy_back_min,
			(unsigned long long)kres->memcpy_back_max);
		fprintf(out, "\"evicted_by_others\": %llu, ",
			(unsigned long long)kres->evicted_pages);
		if (kres->evicted_pages) {
			fprintf(out, "\"evicted_by\": ");
			cli_json_str(out, kres->evicted_by);
			fprintf(out, ", ");
		}
		fprintf(out, "\"breaks_at\": [");
		for (unsigned b = 0; b < kres->breaks && b < RALAB_MAX_BREAKS;
		     b++)
			fprintf(out, "%s{\"file\": %u, \"ofs\": %llu}",
				b ? ", " : "", kres->brk[b].file,
				(unsigned long long)kres->brk[b].ofs);
		fprintf(out, "]");
		json_breaks(out, "rebreaks_at", kres->rebreaks, kres->rebrk,
			    false);
		json_breaks(out, "rebreaks_gen_at", kres->rebreaks_gen,
			    kres->rebrk_gen, true);
		fprintf(out, "},\n");
		fprintf(out, "  \"jobs\": [");
	} else {
		fprintf(out, "  \"device\": \"%s\",\n  \"elapsed_ns\": %llu,\n  \"wait_ns\": %llu,\n  \"waits\": %llu,\n  \"late_ra_waits\": %llu,\n",
			c->device, (unsigned long long)st->elapsed_ns,
			(unsigned long long)st->wait_ns, (unsigned long long)st->waits,
			(unsigned long long)st->late_ra_waits);
		fprintf(out, "  \"read_lat_p50_ns\": %llu,\n  \"read_lat_p90_ns\": %llu,\n  \"read_lat_p99_ns\": %llu,\n",
			(unsigned long long)st->lat_p50_ns, (unsigned long long)st->lat_p90_ns,
			(unsigned long long)st->lat_p99_ns);
		fprintf(out, "  \"ra_time_to_use_us\": {");
		sep = "";
		for (k = 0; k < RALAB_TTU_BUCKETS; k++) {
			if (!st->ttu_hist[k])
				continue;
			fprintf(out, "%s\"%llu\": %llu", sep, k ? 1ull << (k - 1) : 0ull,
				(unsigned long long)st->ttu_hist[k]);
			sep = ", ";
		}
		fprintf(out, "},\n  \"jobs\": [");
	}
	for (k = 0; k < st->nr_jobs; k++) {
		const struct ralab_job_stats *j = &st->job[k];

		fprintf(out, "%s\n    {\"name\": ", k ? "," : "");
		cli_json_str(out, j->name);
		fprintf(out, ", \"start_ns\": %llu, \"elapsed_ns\": %llu, \"reads\": %llu, \"bytes\": %llu, \"wait_ns\": %llu, \"waits\": %llu, \"late_ra_waits\": %llu, \"read_lat_p50_ns\": %llu, \"read_lat_p99_ns\": %llu}",
			(unsigned long long)j->start_ns,
			(unsigned long long)j->elapsed_ns,
			(unsigned long long)j->reads, (unsigned long long)j->bytes,
			(unsigned long long)j->wait_ns, (unsigned long long)j->waits,
			(unsigned long long)j->late_ra_waits,
			(unsigned long long)j->lat_p50_ns,
			(unsigned long long)j->lat_p99_ns);
	}
	fprintf(out, "\n  ]\n}\n");
}

/* Report a library error for @what and return the exit status. */
static int fail(const char *what, int err, const struct ralab_diag *d)
{
	if (err == -EINVAL && d && d->msg[0])
		fprintf(stderr, "%s\n", d->msg);
	else if (d && d->msg[0])
		fprintf(stderr, "%s\n", d->msg);
	else
		fprintf(stderr, "ralab: %s: %s\n", what, ralab_strerror(err));
	return 2;
}

int cli_load_opt(const char *kv, struct ralab_load_opts *lo)
{
	const char *v;

	if (strncmp(kv, "fio_files=", 10))
		return 0;
	v = kv + 10;
	if (!strcmp(v, "fresh")) {
		lo->fio_files = RALAB_FIO_FILES_FRESH;
	} else if (!strcmp(v, "existing")) {
		lo->fio_files = RALAB_FIO_FILES_EXISTING;
	} else {
		fprintf(stderr, "ralab: --set fio_files=%s: fresh (no file of a fio job file exists before the run) or existing (an earlier run, or fio --create_only=1, left them)\n",
			v);
		return 2;
	}
	return 0;
}

int cli_load_opts(const char *const *sets, unsigned nsets,
		  struct ralab_load_opts *lo)
{
	unsigned k;

	memset(lo, 0, sizeof(*lo));
	for (k = 0; k < nsets; k++)
		if (cli_load_opt(sets[k], lo))
			return 2;
	return 0;
}

void cli_print_notes(const char *cmd, const char *path,
		     const struct ralab_workload *wl)
{
	static const char tag[] = "# note: ";
	const char *seen[CLI_MAX_NOTES];
	size_t seen_len[CLI_MAX_NOTES];
	const char *t = ralab_workload_ops_text(wl), *nl;
	unsigned shown = 0, more = 0, k;

	for (; t && *t; t = nl ? nl + 1 : NULL) {
		size_t len;

		nl = strchr(t, '\n');
		if (strncmp(t, tag, sizeof(tag) - 1))
			continue;
		t += sizeof(tag) - 1;
		len = nl ? (size_t)(nl - t) : strlen(t);
		for (k = 0; k < shown; k++)
			if (seen_len[k] == len && !memcmp(seen[k], t, len))
				break;
		if (k < shown)
			continue;
		if (shown == CLI_MAX_NOTES) {
			more++;
			continue;
		}
		seen[shown] = t;
		seen_len[shown++] = len;
		fprintf(stderr, "ralab %s: note: %s: %.*s\n", cmd, path,
			(int)len, t);
	}
	if (more)
		fprintf(stderr, "ralab %s: note: %s: %u more notes ('ralab sim --dump-ops %s' shows them all)\n",
			cmd, path, more, path);
}

int cli_apply_set(struct ralab_workload *wl, const char *kv)
{
	struct ralab_diag d = { 0 };
	char key[64];
	const char *eq = strchr(kv, '=');
	int err;

	if (!eq || eq == kv || (size_t)(eq - kv) >= sizeof(key)) {
		fprintf(stderr, "ralab: --set wants KEY=VALUE, not '%s'\n", kv);
		return 2;
	}
	memcpy(key, kv, (size_t)(eq - kv));
	key[eq - kv] = '\0';
	/* How a fio job file is read: taken when it is (cli_load_opts()). */
	if (!strcmp(key, "fio_files"))
		return 0;
	err = ralab_workload_set(wl, key, eq + 1, &d);
	if (err) {
		fprintf(stderr, "ralab: --set %s: %s\n", kv,
			d.msg[0] ? d.msg : ralab_strerror(err));
		return 2;
	}
	return 0;
}

/*
 * The largest block the workload copies out of (or into) a mapping with
 * memcpy ops (fio's mmap engine copies each I/O), in bytes; 0 if none.
 */
static uint64_t largest_memcpy(const struct ralab_workload *wl)
{
	const char *t = ralab_workload_ops_text(wl);
	uint64_t max = 0;

	for (; t && *t; t = strchr(t, '\n') ? strchr(t, '\n') + 1 : NULL) {
		unsigned long long len;
		char *end;

		if (strncmp(t, "memcpy ", 7))
			continue;
		t = strchr(t + 7, ' ');
		if (!t)
			break;
		len = strtoull(t + 1, &end, 10);
		switch (*end) {
		case 'K': case 'k': len <<= 10; break;
		case 'M': case 'm': len <<= 20; break;
		case 'G': case 'g': len <<= 30; break;
		}
		if (len > max)
			max = len;
	}
	return max;
}

/*
 * Run one loaded case and print what the options ask for.  The notes on
 * what the case's own settings leave to chance go to stderr first.  With
 * @in_array, the JSON object goes without its last newline, as an
 * element of the array cmd_sim() prints around several cases' objects.
 */
static int sim_one(struct ralab_workload *wl, struct ralab_run_opts *ro,
		   const struct cli_policy *pol, bool trace, bool json,
		   bool csv, bool in_array)
{
	const struct ralab_config *cfg = ralab_workload_config(wl);
	bool instant = !cfg->dev_latency_ns && !cfg->dev_bandwidth;
	uint64_t repeat_ns = ralab_workload_repeat_ns(wl), copy;
	struct cli_windows win = { 0 };
	struct ralab_stats st;
	int err;

	/*
	 * Copies of a mapping fault its pages in the order the C library's
	 * memcpy takes them, which the CPU decides (glibc on AMD: backward
	 * from about 1 MiB where source and destination are 4 KiB aliased,
	 * as fio's buffers are); the default copies forward, as on Intel.
	 */
	copy = cfg->memcpy_back_min ? 0 : largest_memcpy(wl);
	if (copy >= (256u << 10))
		fprintf(stderr, "ralab sim: note: the workload copies blocks of up to %llu KiB out of a mapping; the order of their faults is the C library's memcpy's, which copies large blocks backward on some CPUs (glibc on AMD, from about 1 MiB) and forward on others, as this run does (memcpy_back_min=0); 'ralab kernel' prints a machine's memcpy_back_min= and memcpy_back_max= to give with --set\n",
			(unsigned long long)(copy >> 10));
	if (ralab_workload_nr_jobs(wl) > 1 && instant)
		fprintf(stderr, "ralab sim: note: %u jobs on a device whose I/O takes no time never wait for each other's reads; where their interleaving decides readahead (one file or descriptor read by several), give them a device that takes time (--set device=loop or nvme)\n",
			ralab_workload_nr_jobs(wl));
	/*
	 * A job repeating its reads until its runtime on such a device
	 * reads as fast as the CPU costs let it: seconds of it are
	 * millions of reads, each simulated.
	 */
	if (repeat_ns >= 1000000000ull && instant)
		fprintf(stderr, "ralab sim: note: a job repeats its reads for %.0f s (time_based) on a device whose I/O takes no time: only CPU costs bound it, so it makes millions of reads and takes a while to simulate; give it a device that takes time (--set device=loop or nvme)\n",
			(double)repeat_ns / 1e9);
	ro->on_event = NULL;
	ro->event_arg = NULL;
	if (json) {
		win.trace = trace;
		ro->on_event = cli_collect_window;
		ro->event_arg = &win;
	} else if (trace) {
		ro->on_event = cli_print_event;
		ro->event_arg = stdout;
	}
	err = ralab_run(wl, ro, &st);
	if (err) {
		free(win.w);
		return fail("sim", err, NULL);
	}
	/* Where the placement of pages in memory decides the requests. */
	if (st.seg_splits && !cfg->phys_merge)
		fprintf(stderr, "ralab sim: note: max_segments (%u) cut %llu bio(s) of small folios that max_sectors_kb had room for; where the kernel's pages lie together in memory they merge and it makes fewer requests: --set phys_merge=1 gives that end (docs/design.md, \"Where folios lie in memory\")\n",
			cfg->max_segments, (unsigned long long)st.seg_splits);
	/* What the recorder refuses, the model does not follow either. */
	if (st.hole_writes)
		fprintf(stderr, "ralab sim: note: %llu write(s) reached into a file's own holes (# holes) or ranges the case punched (or, on XFS, zeroed): the filesystem allocates blocks there where ralab does not model (docs/design.md, \"Known differences\")\n",
			(unsigned long long)st.hole_writes);
	if (json && !in_array) {
		cli_print_json(stdout, wl, pol->label, &st, &win, NULL);
	} else if (json || csv) {
		/*
		 * Through a buffer: an array's element goes without its last
		 * newline; the CSV row is made of the summary's lines.
		 */
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		if (!m) {
			free(win.w);
			return 1;
		}
		if (json) {
			cli_print_json(m, wl, pol->label, &st, &win, NULL);
			fclose(m);
			fwrite(text, 1, len - (len && text[len - 1] == '\n'),
			       stdout);
		} else {
			cli_print_summary(m, wl, pol->label, &st, true);
			fclose(m);
			cli_print_csv(stdout, text);
		}
		free(text);
	} else {
		cli_print_summary(stdout, wl, pol->label, &st, true);
	}
	free(win.w);
	return 0;
}

static int cmd_sim(int argc, char **argv)
{
	struct ralab_run_opts ro = { 0 };
	struct ralab_workload **wls = NULL; /* owned, one per path */
	struct ralab_diag d = { 0 };
	const char **paths = NULL; /* argv's */
	const char *sets[64], *patch_args[64], *policy_arg = NULL;
	const char *placement = NULL; /* argv's */
	struct ralab_folio_mem *fm = NULL; /* owned */
	unsigned nsets = 0, npatch_args = 0, npaths = 0, k, n;
	struct cli_policy pol;
	struct ralab_load_opts lo;
	enum cli_fmt fmt;
	bool trace = false, parse_only = false, json = false, dump_ops = false;
	bool csv = false, multi;
	int i, err, rc = 0;

	paths = calloc((size_t)argc, sizeof(*paths));
	if (!paths) {
		fprintf(stderr, "ralab sim: out of memory\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_sim(stdout);
			free(paths);
			return 0;
		} else if (!strcmp(a, "--trace")) {
			trace = true;
		} else if (!strcmp(a, "--parse-only")) {
			parse_only = true;
		} else if (!strcmp(a, "--dump-ops")) {
			dump_ops = true;
		} else if (!strcmp(a, "--format")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab sim: --format needs a value\n");
				goto usage;
			}
			if (cli_parse_fmt("sim", argv[++i], &fmt))
				goto usage;
			json = fmt == CLI_FMT_JSON;
			csv = fmt == CLI_FMT_CSV;
		} else if (!strcmp(a, "--policy") || !strcmp(a, "--set") ||
			   !strcmp(a, "--patch") || !strcmp(a, "--placement")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "ralab sim: %s needs a value\n", a);
				goto usage;
			}
			if (!strcmp(a, "--placement")) {
				placement = argv[++i];
			} else if (!strcmp(a, "--policy")) {
				policy_arg = argv[++i];
			} else if (!strcmp(a, "--patch")) {
				if (npatch_args == 64) {
					fprintf(stderr, "ralab sim: too many --patch options\n");
					goto usage;
				}
				patch_args[npatch_args++] = argv[++i];
			} else {
				if (nsets == 64) {
					fprintf(stderr, "ralab sim: too many --set options\n");
					goto usage;
				}
				sets[nsets++] = argv[++i];
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "ralab sim: unknown option '%s' (see ralab sim --help)\n", a);
			goto usage;
		} else {
			paths[npaths++] = a;
		}
	}
	if (!npaths) {
		fprintf(stderr, "ralab sim: no case given (see ralab sim --help)\n");
		goto usage;
	}
	/*
	 * Several cases in JSON: an array of the objects one case gives.  A
	 * CSV table has one case's columns: several are compare's job.
	 */
	if (npaths > 1 && csv) {
		fprintf(stderr, "ralab sim: --format csv takes one case ('%s' and '%s'); 'ralab compare --format csv' tables several, 'ralab sim --format json' gives an array\n",
			paths[0], paths[1]);
		goto usage;
	}
	if (cli_policy_parse(policy_arg, patch_args, npatch_args, &pol))
		goto usage;
	ro.policy = pol.name;
	ro.patches = pol.patches;
	ro.nr_patches = pol.nr_patches;
	/* Every case is loaded before any runs: an input error runs none. */
	wls = calloc(npaths, sizeof(*wls));
	if (!wls) {
		fprintf(stderr, "ralab sim: out of memory\n");
		free(paths);
		return 1;
	}
	if (cli_load_opts(sets, nsets, &lo)) {
		rc = 2;
		goto out;
	}
	if (placement) {
		char *t = cli_load_recording(placement);
		size_t nfm = 0;

		if (!t) {
			fprintf(stderr, "ralab sim: --placement %s: %s\n", placement,
				strerror(errno ? errno : EIO));
			rc = 2;
			goto out;
		}
		err = ralab__recording_folio_mem(t, placement, &fm, &nfm, &d);
		free(t);
		if (err && err != -EINVAL) {
			rc = fail("sim", err, NULL);
			goto out;
		}
		if (!fm) {
			if (err)
				fprintf(stderr, "%s\n", d.msg);
			else
				fprintf(stderr, "ralab sim: --placement %s: no folio_pfns= line (a recording of 'ralab kernel --trace' since folio_pfns= was added has one)\n",
					placement);
			rc = 2;
			goto out;
		}
		ro.folio_mem = fm;
		ro.nr_folio_mem = nfm;
	}
	for (n = 0; n < npaths; n++) {
		err = ralab_workload_load_opts(paths[n], &lo, &wls[n], &d);
		if (err) {
			rc = fail(paths[n], err, &d);
			goto out;
		}
		for (k = 0; k < nsets; k++) {
			if (cli_apply_set(wls[n], sets[k])) {
				rc = 2;
				goto out;
			}
		}
		/* --dump-ops prints them with the rest. */
		if (!dump_ops)
			cli_print_notes("sim", paths[n], wls[n]);
	}
	/* (With --trace, the events come first: text, each case after its
	 * "== CASE".) */
	multi = npaths > 1 && json && !trace && !parse_only && !dump_ops;
	for (n = 0; n < npaths; n++) {
		/*
		 * Several cases: each one's output after a line "== CASE",
		 * or in JSON an element of one array.
		 */
		if (multi)
			fputs(n ? ",\n" : "[\n", stdout);
		else if (npaths > 1 && (dump_ops || !parse_only))
			printf("== %s\n", paths[n]);
		if (dump_ops)
			fputs(ralab_workload_ops_text(wls[n]), stdout);
		if (parse_only || dump_ops)
			continue;
		rc = sim_one(wls[n], &ro, &pol, trace, json, csv, multi);
		if (rc)
			break;
	}
	if (multi && !rc)
		fputs("\n]\n", stdout);
out:
	for (n = 0; n < npaths; n++)
		ralab_workload_free(wls[n]);
	free(wls);
	free(fm);
	free(paths);
	return rc;
usage:
	free(paths);
	return 2;
}

bool cli_policy_known(const char *name)
{
	unsigned i;

	for (i = 0; i < ralab_policy_count(); i++)
		if (!strcmp(ralab_policy_name(i), name))
			return true;
	fprintf(stderr, "ralab: unknown policy '%s'; known:", name);
	for (i = 0; i < ralab_policy_count(); i++)
		fprintf(stderr, " %s", ralab_policy_name(i));
	fprintf(stderr, "\n");
	return false;
}

static int add_patch(struct cli_policy *p, const char *name)
{
	size_t len = strlen(name);
	bool series = false;
	unsigned i;

	/* A series' name (kara-2024, roberts-2025) means all its patches. */
	for (i = 0; i < ralab_patch_count(); i++) {
		const char *pn = ralab_patch_name(i);

		if (!strncmp(pn, name, len) && pn[len] == '/') {
			if (add_patch(p, pn))
				return -1;
			series = true;
		}
	}
	if (series)
		return 0;
	for (i = 0; i < ralab_patch_count(); i++)
		if (!strcmp(ralab_patch_name(i), name))
			break;
	if (i == ralab_patch_count()) {
		fprintf(stderr, "ralab: unknown patch '%s' (see ralab policies)\n", name);
		return -1;
	}
	if (strcmp(ralab_patch_policy(i), p->name)) {
		fprintf(stderr, "ralab: patch %s applies to %s, not to %s\n", name,
			ralab_patch_policy(i), p->name);
		return -1;
	}
	if (p->nr_patches == CLI_MAX_PATCHES) {
		fprintf(stderr, "ralab: too many patches\n");
		return -1;
	}
	p->patches[p->nr_patches++] = ralab_patch_name(i);
	return 0;
}

int cli_policy_parse(const char *spec, const char *const *extra,
		     unsigned nr_extra, struct cli_policy *p)
{
	char *save = NULL, *tok;
	unsigned i;
	size_t n;

	memset(p, 0, sizeof(*p));
	snprintf(p->buf, sizeof(p->buf), "%s", spec ? spec : ralab_policy_name(0));
	tok = strtok_r(p->buf, "+", &save);
	if (!tok) {
		fprintf(stderr, "ralab: empty policy name\n");
		return -1;
	}
	p->name = tok;
	if (!cli_policy_known(p->name))
		return -1;
	while ((tok = strtok_r(NULL, "+", &save)))
		if (add_patch(p, tok))
			return -1;
	for (i = 0; i < nr_extra; i++)
		if (add_patch(p, extra[i]))
			return -1;
	/* The label: as written, e.g. linux-6.9+kara-2024/01, then --patch. */
	n = (size_t)snprintf(p->label, sizeof(p->label), "%s",
			     spec ? spec : p->name);
	for (i = 0; i < nr_extra && n < sizeof(p->label); i++)
		n += (size_t)snprintf(p->label + n, sizeof(p->label) - n, "+%s",
				      extra[i]);
	return 0;
}

/*
 * The main job: the seed-000 case under the 6.18 baseline and the variants
 * of the 2026 thread (and 6.9, before the 2024 series), side by side.
 */
static int cmd_default(void)
{
	static const char *const pols[] = { "linux-6.18", "park-2026",
					    "kara-2026", "linux-6.9" };
	struct ralab_workload *wl = NULL;
	struct ralab_diag d = { 0 };
	struct ralab_stats st[4];
	unsigned i;
	int err;

	err = ralab_workload_parse("seed-000 (embedded)", default_case,
				   sizeof(default_case) - 1, &wl, &d);
	if (err)
		return fail("default case", err, &d);
	/* Time on this machine's loop device (docs/design.md); no event changes. */
	err = ralab_workload_set(wl, "device", "loop", &d);
	if (err) {
		ralab_workload_free(wl);
		return fail("default case", err, &d);
	}
	for (i = 0; i < 4; i++) {
		struct ralab_run_opts ro = { .policy = pols[i] };

		err = ralab_run(wl, &ro, &st[i]);
		if (err) {
			ralab_workload_free(wl);
			return fail("default case", err, NULL);
		}
	}
	printf("ralab %s: Linux page-cache readahead, simulated\n\n", RALAB_VERSION);
	printf("Case: seed 000 (embedded). A 4 KiB read at offset 0, then 1 MiB\n"
	       "reads to EOF of a 512 MiB file on XFS; read_ahead_kb 128,\n"
	       "max_sectors_kb 512.\n\n");
	printf("%-12s %12s %8s %12s %12s %9s  %s\n", "policy", "device reads",
	       "vs 6.18", "KiB/request", "async calls", "time_ms",
	       "folio orders (order:count)");
	for (i = 0; i < 4; i++) {
		printf("%-12s %12llu %8.3f %12.1f %12llu %9.1f  ", pols[i],
		       (unsigned long long)st[i].data_reads,
		       (double)st[i].data_reads / (double)st[0].data_reads,
		       st[i].data_reads ? (double)st[i].data_sectors / 2 /
						  (double)st[i].data_reads :
					  0.0,
		       (unsigned long long)st[i].async_ra,
		       (double)st[i].elapsed_ns / 1e6);
		print_orders(stdout, &st[i]);
		printf("\n");
	}
	printf("\nLinux 6.18.44 issued 3327 device reads for this case, with the same\n"
	       "windows, folios and requests as linux-6.18 here\n"
	       "(tests/cases/seed000-4k-then-1m).  The seed saw 3329 before and 1032\n"
	       "after Park's patch, each with two metadata reads.  The 4 KiB read\n"
	       "shifts every later read by a page, and the 6.17 async trim cuts\n"
	       "windows that start just below a 512 KiB boundary.  time_ms is\n"
	       "modelled on this machine's loop device (ralab calibrate); the\n"
	       "kernel's fastest runs of the case take 0.37 s here (make bench).\n\n");
	printf("Next: ralab compare --help, ralab sim --trace CASE.ops, ralab --help\n");
	ralab_workload_free(wl);
	return 0;
}

/*
 * A run frees its page cache, and the next run (tune, compare, check,
 * calibrate: thousands of cases in one process) would have the C
 * library give the memory back and take it again from the kernel, a
 * page fault per 4 KiB: on a virtual machine that is most of a run's
 * time (make bench: 3.9 ms against 0.6 ms for the seed-000 case).  The
 * process keeps what it freed instead; the output is the same.
 */
static void keep_freed_memory(void)
{
#ifdef M_TRIM_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

int main(int argc, char **argv)
{
	const char *cmd;

	keep_freed_memory();
	if (argc < 2)
		return cmd_default();
	cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage_main(stdout);
		return 0;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		printf("ralab %s\n", RALAB_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "sim"))
		return cmd_sim(argc - 1, argv + 1);
	if (!strcmp(cmd, "diff")) {
		if (argc > 2 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
			usage_diff(stdout);
			return 0;
		}
		return cli_diff(argc - 1, argv + 1);
	}
	if (!strcmp(cmd, "kernel"))
		return cli_kernel(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return cli_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "calibrate"))
		return cli_calibrate(argc - 1, argv + 1);
	if (!strcmp(cmd, "record"))
		return cli_record(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cli_report(argc - 1, argv + 1);
	if (!strcmp(cmd, "dump"))
		return cli_dump(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare"))
		return cli_compare(argc - 1, argv + 1);
	if (!strcmp(cmd, "tune"))
		return cli_tune(argc - 1, argv + 1);
	if (!strcmp(cmd, "policies"))
		return cmd_policies(argc - 1, argv + 1);
	fprintf(stderr, "ralab: unknown command '%s' (see ralab --help)\n", cmd);
	return 2;
}
