// SPDX-License-Identifier: MIT
/*
 * fio_names.c - every option name fio 3.33 knows, to tell a typo from an
 * option ralab does not model.
 *
 * The names are fio's own answers, not read from its source: each of
 * "fio --cmdhelp=all" (217 options), the alias "fio --cmdhelp=NAME" gives
 * for each (readwrite, blocksize, timeout, ...), and the options of the
 * engines ralab runs ("fio --enghelp=ENGINE": sync, psync, pvsync2,
 * libaio, posixaio, io_uring, mmap).  fio refuses any other name in a job
 * file ("Bad option <siz=1m>", "Did you mean size?") and drops the job.
 */
#include <stddef.h>
#include <string.h>

#include "workload.h"

const char *const ralab__fio_names[] = {
	"allow_file_create", "allow_mounted_write", "allrandrepeat", "atomic",
	"ba", "block_error_percentiles", "blockalign", "blocksize",
	"blocksize_range", "blocksize_unaligned", "bs", "bs_unaligned",
	"bsrange", "bssplit", "buffer_compress_chunk",
	"buffer_compress_percentage", "buffer_pattern", "buffered",
	"bwavgtime", "cgroup", "cgroup_nodelete", "cgroup_weight",
	"clat_percentiles", "clocksource", "cmd_type", "cmdprio",
	"cmdprio_bssplit", "cmdprio_class", "cmdprio_percentage",
	"continue_on_error", "cpumask", "cpus_allowed", "cpus_allowed_policy",
	"create_fsync", "create_on_open", "create_only", "create_serialize",
	"dedupe_global", "dedupe_mode", "dedupe_percentage",
	"dedupe_working_set_percentage", "description", "direct", "directory",
	"disable_bw", "disable_bw_measurement", "disable_clat", "disable_lat",
	"disable_slat", "disk_util", "do_verify", "end_fsync", "error_dump",
	"exec_postrun", "exec_prerun", "exit_what", "exitall",
	"exitall_on_error", "experimental_verify", "fadvise_hint",
	"fallocate", "fdatasync", "file_append", "file_service_type",
	"filename", "filename_format", "fileoffset", "filesize",
	"fill_device", "fill_fs", "fixedbufs", "flow", "flow_id",
	"flow_sleep", "force_async", "fsync", "fsync_on_close", "gid",
	"group_reporting", "gtod_cpu", "gtod_reduce", "hipri",
	"hipri_percentage", "hugepage-size", "ignore_error",
	"ignore_zone_limits", "invalidate", "io_limit", "io_size",
	"io_submit_mode", "iodepth", "iodepth_batch",
	"iodepth_batch_complete", "iodepth_batch_complete_max",
	"iodepth_batch_complete_min", "iodepth_batch_submit", "iodepth_low",
	"ioengine", "iomem", "iopsavgtime", "ioscheduler",
	"job_max_open_zones", "kb_base", "lat_percentiles",
	"latency_percentile", "latency_run", "latency_target",
	"latency_window", "lockfile", "lockmem", "log_alternate_epoch",
	"log_alternate_epoch_clock_id", "log_avg_msec", "log_compression",
	"log_compression_cpus", "log_entries", "log_hist_coarseness",
	"log_hist_msec", "log_max_value", "log_offset", "log_prio",
	"log_store_compressed", "log_unix_epoch", "loops", "max_latency",
	"max_open_zones", "mem", "merge_blktrace_file",
	"merge_blktrace_iters", "merge_blktrace_scalars", "name", "new_group",
	"nice", "nonvectored", "norandommap", "nowait", "nr_files", "nrfiles",
	"numa_cpu_nodes", "numa_mem_policy", "number_ios", "numjobs",
	"offset", "offset_align", "offset_increment", "opendir", "openfiles",
	"overwrite", "per_job_logs", "percentage_random", "percentile_list",
	"pre_read", "prio", "prioclass", "profile", "ramp_time",
	"random_distribution", "random_generator", "randrepeat", "randseed",
	"rate", "rate_cycle", "rate_ignore_thinktime", "rate_iops",
	"rate_iops_min", "rate_min", "rate_process", "ratecycle", "ratemin",
	"read_beyond_wp", "read_iolog", "read_iolog_chunked", "readwrite",
	"refill_buffers", "registerfiles", "replay_align", "replay_no_stall",
	"replay_redirect", "replay_scale", "replay_skip", "replay_time_scale",
	"runtime", "rw", "rw_sequencer", "rwmixread", "rwmixwrite",
	"scramble_buffers", "serialize_overlap", "significant_figures",
	"size", "slat_percentiles", "sqthread_poll", "sqthread_poll_cpu",
	"ss", "ss_dur", "ss_ramp", "startdelay", "stats", "steadystate",
	"steadystate_duration", "steadystate_ramp_time", "stonewall", "sync",
	"sync_file_range", "thinktime", "thinktime_blocks",
	"thinktime_blocks_type", "thinktime_iotime", "thinktime_spin", "thp",
	"thread", "time_based", "timeout", "trim_backlog",
	"trim_backlog_batch", "trim_percentage", "trim_verify_zero", "uid",
	"uncached", "unified_rw_reporting", "unique_filename", "unit_base",
	"unlink", "unlink_each_loop", "userspace_reap", "verify",
	"verify_async", "verify_backlog", "verify_backlog_batch",
	"verify_dump", "verify_fatal", "verify_interval", "verify_offset",
	"verify_only", "verify_pattern", "verify_state_load",
	"verify_state_save", "wait_for", "wait_for_previous", "write_barrier",
	"write_bw_log", "write_hint", "write_hist_log", "write_iolog",
	"write_iops_log", "write_lat_log", "zero_buffers",
	"zone_reset_frequency", "zone_reset_threshold", "zonecapacity",
	"zonemode", "zonerange", "zonesize", "zoneskip",
};

const size_t ralab__fio_nr_names =
	sizeof(ralab__fio_names) / sizeof(ralab__fio_names[0]);

/* Edit distance of @a and @b (insertions, deletions, substitutions). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64];

	if (la >= 64 || lb >= 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

const char *ralab__fio_closest_option(const char *name)
{
	const char *best = NULL;
	size_t i, d, best_d = 3; /* as fio: a name at most 2 edits away */

	for (i = 0; i < ralab__fio_nr_names; i++) {
		d = distance(name, ralab__fio_names[i]);
		if (d < best_d) {
			best_d = d;
			best = ralab__fio_names[i];
		}
	}
	return best;
}
