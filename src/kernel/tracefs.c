// SPDX-License-Identifier: MIT
/*
 * tracefs.c - small file I/O for tracefs and sysfs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/tracefs.h"
#include "ralab.h"

static const char *const tracefs_roots[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

int kx_write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(val))
		err = -EIO;
	close(fd);
	return err;
}

int kx_read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int kx_task_list(int pid, char *buf, size_t len, struct ralab_diag *diag)
{
	struct dirent *de;
	char dir[64];
	size_t n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	d = opendir(dir);
	if (!d)
		return kx_err(diag, -errno, "process %d: its threads: %s", pid,
			      strerror(errno));
	buf[0] = '\0';
	while ((de = readdir(d))) {
		int w;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		w = snprintf(buf + n, len - n, "%s%s", n ? " " : "",
			     de->d_name);
		if (w < 0 || (size_t)w >= len - n) {
			closedir(d);
			return kx_err(diag, -E2BIG, "process %d: too many threads to trace",
				      pid);
		}
		n += (size_t)w;
	}
	closedir(d);
	return n ? 0 : kx_err(diag, -ESRCH, "process %d: no threads", pid);
}

const char *kx_find_tracefs(void)
{
	char probe[256];
	unsigned i;

	for (i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]); i++) {
		snprintf(probe, sizeof(probe), "%s/instances", tracefs_roots[i]);
		if (!access(probe, F_OK))
			return tracefs_roots[i];
	}
	return NULL;
}

unsigned long long kx_overruns(const char *inst)
{
	unsigned long long lost = 0;
	char path[700], buf[2048], *p;
	unsigned cpu;

	for (cpu = 0; cpu < 4096; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/stats", inst, cpu);
		if (kx_read_small(path, buf, sizeof(buf)))
			break;
		p = strstr(buf, "overrun:");
		if (p)
			lost += strtoull(p + 8, NULL, 10);
	}
	return lost;
}

int kx_err(struct ralab_diag *diag, int err, const char *fmt, ...)
{
	va_list ap;

	if (diag) {
		va_start(ap, fmt);
		vsnprintf(diag->msg, sizeof(diag->msg), fmt, ap);
		va_end(ap);
		diag->line = 0;
	}
	return err;
}

void kx_put_path(FILE *m, const char *p)
{
	fputc('"', m);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', m);
		fputc(*p, m);
	}
	fputc('"', m);
}

int kx_inst_write(const char *inst, const char *file, const char *val,
		  struct ralab_diag *diag)
{
	char path[600];
	int err;

	snprintf(path, sizeof(path), "%s/%s", inst, file);
	err = kx_write_file(path, val);
	if (err)
		return kx_err(diag, err, "writing %s to %s: %s", val, path,
			      strerror(-err));
	return 0;
}

int kx_inst_create(const char *event, const char *who, const char *suffix,
		   char *inst, size_t len, struct ralab_diag *diag)
{
	const char *tfs = kx_find_tracefs();
	char path[600];

	inst[0] = '\0';
	if (geteuid())
		return kx_err(diag, -EPERM, "%s traced as root only", who);
	if (!tfs)
		return kx_err(diag, -ENOENT,
			      "no tracefs with instances (mount -t tracefs nodev /sys/kernel/tracing)");
	snprintf(path, sizeof(path), "%s/events/%s", tfs, event);
	if (access(path, F_OK))
		return kx_err(diag, -ENOENT, "this kernel has no %s tracepoint",
			      event);
	snprintf(inst, len, "%s/instances/" INSTANCE_PREFIX "%d%s", tfs,
		 (int)getpid(), suffix);
	if (mkdir(inst, 0700)) {
		int err = -errno;

		kx_err(diag, err, "creating trace instance %s: %s", inst,
		       strerror(-err));
		inst[0] = '\0';
		return err;
	}
	return 0;
}

void kx_inst_remove(const char *inst)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/tracing_on", inst);
	kx_write_file(path, "0");
	rmdir(inst);
}
