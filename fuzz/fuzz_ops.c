// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the .ops parser, and for the model on what parses:
 * any input must either be rejected with a FILE:LINE message or run.
 *
 *   make fuzz && build/fuzz/fuzz_ops -max_total_time=600 fuzz/corpus
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ralab.h"
#include "workload/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every event formatted, as --trace prints it, and its window followed. */
static void on_event(void *arg, const struct ralab_event *ev)
{
	struct ralab_window_state *ws = arg;
	char buf[256];
	int n = ralab_event_format(ev, buf, sizeof(buf));

	if (n < 0 || (size_t)n >= sizeof(buf))
		__builtin_trap();
	ralab_event_window(ev, ws);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ralab_workload *wl = NULL;
	struct ralab_diag d;
	struct ralab_stats st;
	struct ralab_window_state ws = { 0 };
	struct ralab_run_opts ro = { .on_event = on_event, .event_arg = &ws };
	uint64_t work = 0;
	unsigned i;
	int err;

	err = ralab_workload_parse("fuzz.ops", (const char *)data, size, &wl, &d);
	if (err) {
		/* Every rejection names the file. */
		if (err == -22 && strncmp(d.msg, "fuzz.ops:", 9))
			__builtin_trap();
		return 0;
	}
	/* Keep runs short: small files, bounded op counts. */
	if (wl->cfg.file_size > (4u << 20) &&
	    ralab_workload_set(wl, "file_size", "4M", &d))
		goto out;
	for (i = 0; i < wl->nr_ops; i++) {
		const struct op *op = &wl->ops[i];

		uint64_t fsize = op->ino && op->ino < wl->nr_files ?
					 wl->files[op->ino].size :
					 wl->cfg.file_size;

		/* Reads to the end of another file count by its size. */
		if (op->kind == OP_TOUCH) /* a byte every count bytes */
			work += op->len / (op->count ? op->count : 1) + 1;
		else
			work += op->to_eof ? fsize / (op->len ? op->len : 1) + 1
					   : op->count + 1;
	}
	if (work > 20000)
		goto out;
	/*
	 * 'repeat' runs a job's ops until its runtime: keep that to a few
	 * hundred passes (a read costs at least cpu_syscall_ns).
	 */
	for (i = 0; i < wl->nr_jobs; i++) {
		struct wl_job *j = &wl->jobs[i];

		if (j->runtime_ns > 20000)
			j->runtime_ns = 20000;
		if (wl->cfg.cpu_syscall_ns < 100)
			j->repeat = false;
	}
	ralab_run(wl, &ro, &st);
out:
	ralab_workload_free(wl);
	return 0;
}
