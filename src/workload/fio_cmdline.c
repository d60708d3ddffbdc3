// SPDX-License-Identifier: MIT
/*
 * fio_cmdline.c - a fio command line as a job file.
 *
 * Many fio runs never had a job file: "fio --name=seq --rw=read --bs=4k
 * --size=1g" in a bug report or a blog post.  fio 3.33 reads such a line
 * as a job file whose options before the first --name are [global]'s
 * (its JSON output lists them as "global options") and where each
 * --name=X starts job [X] (--name=global a global section again); with no
 * --name there is no job.  fio --showcmd writes a job file so, which is
 * how this is checked: tests/fio/cmdline.txt holds fio's own command lines
 * for the recorded job files of tests/fio/real, and each must make the
 * events the kernel made of its job file.
 *
 * The text made here has one line per word, so a message's line number is
 * the word's position in the command line (1: "fio", a [global] header):
 *
 *   fio --bs=8k --name=a --rw=read   ->   [global]
 *                                         bs=8k
 *                                         [a]
 *                                         rw=read
 *
 * Values are taken as typed: fio expands no ${VAR} or $pagesize in a
 * command line (the shell may have).  fio reads its words with glibc's
 * getopt_long_only(), so an option may start with one dash or two
 * ("-bs=8k", common in blog posts), and one that needs a value takes the
 * next word when it has no '=' ("-iodepth 16", "--direct --rw=read" is
 * direct=--rw=read).  Which options need one was measured on fio 3.33
 * (fio --parse-only --OPT: "requires an argument"): all but the few of
 * no_value[] below.  Abbreviations, which getopt allows where they are
 * unique, are read as the names they are (and refused as unknown).
 * fio's own options are not a job's: those that change only its output
 * are left out, the others are errors.  "fio [output options] JOB.fio" is
 * the job file (a command line pasted from a shell).  With job options
 * beside it, fio reads the file after them: their [global] part is a
 * default of the file's jobs too, their jobs come first
 * (ralab__fio_cmdline_file_to_ops()).  Two job files are refused.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

#define CMDLINE_NAME "fio command line"
#define MAX_WORDS 4096

/* fio's own options (fio 3.33's l_opts) that change only its output. */
static const char *const output_only[] = {
	"output", "output-format", "minimal", "terse-version", "eta",
	"eta-newline", "eta-interval", "status-interval", "warnings-fatal",
	"max-jobs", "alloc-size",
};

/* fio's own options that are not a job's, nor only about its output. */
static const char *const not_a_job[] = {
	"debug", "parse-only", "bandwidth-log", "version", "help", "cmdhelp",
	"enghelp", "showcmd", "readonly", "section", "server", "daemonize",
	"client", "remote-config", "idle-prof", "inflate-log", "trigger-file",
	"trigger-timeout", "trigger", "trigger-remote", "aux-path", "crctest",
	"latency-log", "merge-blktrace-only",
};

/*
 * The options fio 3.33 gives no required value (getopt's optional_argument:
 * fio's flag options and its own options that act alone); any other
 * option written without '=' takes the next word as its value.  The last
 * five are io engines' (libaio's userspace_reap, io_uring's and pvsync2's
 * hipri, io_uring's others).
 */
static const char *const no_value[] = {
	"bs_unaligned", "exitall", "exitall_on_error", "group_reporting",
	"new_group", "norandommap", "refill_buffers", "stonewall", "thread",
	"time_based", "verify_only", "zero_buffers", "minimal",
	"warnings-fatal", "parse-only", "bandwidth-log", "version", "help",
	"cmdhelp", "enghelp", "showcmd", "readonly", "server", "crctest",
	"merge-blktrace-only", "userspace_reap", "hipri", "fixedbufs",
	"registerfiles", "sqthread_poll",
};

static bool listed(const char *key, size_t len, const char *const *list,
		   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(list[i]) == len && !strncmp(key, list[i], len))
			return true;
	return false;
}

/*
 * The next word of @s at *@pos, as a shell would split it (blanks between
 * words; '...' literal; "..." and \ escaping the next character), into
 * @out (@size bytes).  0, 1 at the end, or -EINVAL (@why set).
 */
static int next_word(const char *s, size_t *pos, char *out, size_t size,
		     const char **why)
{
	size_t i = *pos, n = 0;
	char quote = 0;

	while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
		i++;
	if (!s[i]) {
		*pos = i;
		return 1;
	}
	for (; s[i]; i++) {
		char c = s[i];

		if (!quote && (c == ' ' || c == '\t' || c == '\n' || c == '\r'))
			break;
		if (quote != '\'' && c == '\\' && s[i + 1]) {
			c = s[++i];
		} else if (!quote && (c == '\'' || c == '"')) {
			quote = c;
			continue;
		} else if (quote && c == quote) {
			quote = 0;
			continue;
		}
		if (n + 1 >= size) {
			*why = "a word longer than 1000 characters";
			return -EINVAL;
		}
		out[n++] = c;
	}
	if (quote) {
		*why = "a quote is not closed";
		return -EINVAL;
	}
	out[n] = '\0';
	*pos = i;
	return 0;
}

bool ralab__is_fio_cmdline(const char *s)
{
	return !strncmp(s, "fio ", 4) || !strncmp(s, "fio\t", 4);
}

int ralab__fio_cmdline_to_ops(const char *cmdline,
			      const struct ralab_load_opts *lo, char **ops,
			      char **job_file, struct ralab_diag *diag)
{
	struct wl_text job = { 0 };
	char word[1024], value[1024];
	const char *why = NULL;
	unsigned no = 0, job_opts = 0, file_at = 0;
	size_t pos = 0;
	int err;

	*ops = NULL;
	*job_file = NULL;
	for (;;) {
		const char *key, *eq, *val;
		unsigned at;
		size_t klen;

		err = next_word(cmdline, &pos, word, sizeof(word), &why);
		if (err == 1)
			break;
		if (err)
			goto fail_word;
		if (++no > MAX_WORDS) {
			err = wl_diag(diag, CMDLINE_NAME, no, "more than %d words", MAX_WORDS);
			goto out;
		}
		if (no == 1) {
			/* "fio" (or a path to it): the options before any
			 * --name are [global]'s. */
			const char *base = strrchr(word, '/');

			if (strcmp(base ? base + 1 : word, "fio")) {
				err = wl_diag(diag, CMDLINE_NAME, no, "not a fio command line ('%.60s' is not fio)", word);
				goto out;
			}
			ralab__text_printf(&job, "[global]\n");
			continue;
		}
		if (word[0] != '-' || !word[1] || !strcmp(word, "--")) {
			/*
			 * A job file (getopt moves it after the options):
			 * "fio job.fio" reads it, with output options only.
			 */
			if (!strcmp(word, "--") || *job_file) {
				err = wl_diag(diag, CMDLINE_NAME, no, "'%.60s': one job file at most, and no '--', in a fio command line here",
					   word);
				goto out;
			}
			*job_file = strdup(word);
			if (!*job_file) {
				err = -ENOMEM;
				goto out;
			}
			file_at = no;
			ralab__text_printf(&job, "\n");
			continue;
		}
		if (strpbrk(word, "#;\n")) {
			err = wl_diag(diag, CMDLINE_NAME, no, "'%.60s': '#' and ';' are not read in a command line here (put the job in a job file)",
				   word);
			goto out;
		}
		/* getopt_long_only(): "-bs=8k" is "--bs=8k". */
		key = word + (word[1] == '-' ? 2 : 1);
		eq = strchr(key, '=');
		klen = eq ? (size_t)(eq - key) : strlen(key);
		at = no;
		val = eq ? eq + 1 : NULL;
		if (!eq && !listed(key, klen, no_value,
				   sizeof(no_value) / sizeof(no_value[0]))) {
			/* A required argument: the next word, whatever it is. */
			err = next_word(cmdline, &pos, value, sizeof(value), &why);
			if (err == 1) {
				err = wl_diag(diag, CMDLINE_NAME, at, "--%.60s needs a value (fio: \"option requires an argument\")",
					   key);
				goto out;
			}
			if (err)
				goto fail_word;
			if (++no > MAX_WORDS) {
				err = wl_diag(diag, CMDLINE_NAME, no, "more than %d words", MAX_WORDS);
				goto out;
			}
			if (strpbrk(value, "#;\n")) {
				err = wl_diag(diag, CMDLINE_NAME, no, "'%.60s': '#' and ';' are not read in a command line here (put the job in a job file)",
					   value);
				goto out;
			}
			val = value;
		}
		if (listed(key, klen, output_only,
			   sizeof(output_only) / sizeof(output_only[0]))) {
			ralab__text_printf(&job, "\n%s", val && !eq ? "\n" : "");
			continue;
		}
		if (klen >= 7 && !strncmp(key, "include", 7)) {
			/* A job file's include line, not an option. */
			err = wl_diag(diag, CMDLINE_NAME, at, "--%.*s is not a fio option", (int)klen, key);
			goto out;
		}
		if (listed(key, klen, not_a_job,
			   sizeof(not_a_job) / sizeof(not_a_job[0]))) {
			err = wl_diag(diag, CMDLINE_NAME, at, "--%.*s is fio's own option, not a job's: not supported",
				   (int)klen, key);
			goto out;
		}
		job_opts++;
		if (klen == 4 && !strncmp(key, "name", 4)) {
			if (!val || !val[0] || strpbrk(val, "[]")) {
				err = wl_diag(diag, CMDLINE_NAME, at, "--name needs a job name (without '[' or ']')");
				goto out;
			}
			ralab__text_printf(&job, "[%s]\n", val);
		} else if (val) {
			ralab__text_printf(&job, "%.*s=%s\n", (int)klen, key, val);
		} else {
			ralab__text_printf(&job, "%s\n", key);
		}
		/* One line per word: the value's word is an empty line. */
		if (val && !eq)
			ralab__text_printf(&job, "\n");
	}
	if (job.oom) {
		err = -ENOMEM;
		goto out;
	}
	if (!no) {
		err = wl_diag(diag, CMDLINE_NAME, 0, "empty");
		goto out;
	}
	if (*job_file && !job_opts) {
		/* "fio JOB.fio": the caller loads the file. */
		err = 0;
		if (access(*job_file, F_OK))
			err = wl_diag(diag, CMDLINE_NAME, file_at, "job file '%.200s': %s",
				   *job_file, strerror(errno));
		goto out;
	}
	if (*job_file) {
		/*
		 * Job options and a job file: fio 3.33 reads the file after
		 * the line, the line's [global] options as defaults of the
		 * file's jobs and its --name jobs first (checked with fio's
		 * iologs in tests/suites/fio.sh).
		 */
		char *text = NULL;
		size_t len = 0;
		bool opened;

		err = ralab__read_regular(*job_file, WL_MAX_FILE, &text, &len,
					  &opened);
		if (opened && err == -EINVAL)
			err = wl_diag(diag, CMDLINE_NAME, file_at, "job file '%.200s': not a regular file",
				   *job_file);
		else if (err == -EFBIG)
			err = wl_diag(diag, CMDLINE_NAME, file_at, "job file '%.200s': larger than 64 MiB",
				   *job_file);
		else if (err && err != -ENOMEM)
			err = wl_diag(diag, CMDLINE_NAME, file_at, "job file '%.200s': %s",
				   *job_file, strerror(-err));
		if (!err)
			err = ralab__fio_cmdline_file_to_ops(CMDLINE_NAME, job.s,
							     strlen(job.s), *job_file,
							     text ? text : "", len,
							     lo, ops, diag);
		free(text);
		free(*job_file);
		*job_file = NULL;
		goto out;
	}
	/* fio 3.33 takes a command line's values as typed: no $ keywords. */
	err = ralab__fio_job_to_ops(CMDLINE_NAME, job.s, strlen(job.s), true,
				    lo, ops, diag);
	goto out;
fail_word:
	err = wl_diag(diag, CMDLINE_NAME, no + 1, "%s", why);
out:
	if (err) {
		free(*job_file);
		*job_file = NULL;
	}
	free(job.s);
	return err;
}
