// SPDX-License-Identifier: MIT
/*
 * test_workload.c - what the public API says of a loaded workload: its
 * files and jobs (ralab_workload_nr_files, ralab_workload_nr_jobs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "ralab.h"

/* Write @text to a temporary .ops file; its path in @path. */
static int ops_file(const char *text, char *path, size_t len)
{
	FILE *f;
	int fd;

	snprintf(path, len, "/tmp/ralab-unit-XXXXXX.ops");
	fd = mkstemps(path, 4);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -1;
	}
	fputs(text, f);
	return fclose(f);
}

static int counts(const char *text, unsigned files, unsigned jobs)
{
	struct ralab_workload *wl = NULL;
	struct ralab_diag d = { 0 };
	char path[64];
	int err;

	ASSERT_TRUE(!ops_file(text, path, sizeof(path)));
	err = ralab_workload_load(path, &wl, &d);
	unlink(path);
	ASSERT_EQ_U64(err, 0);
	ASSERT_EQ_U64(ralab_workload_nr_files(wl), files);
	ASSERT_EQ_U64(ralab_workload_nr_jobs(wl), jobs);
	ralab_workload_free(wl);
	return 0;
}

static int test_one_file(void)
{
	return counts("# file_size: 1M\nread 4K 4\n", 1, 1);
}

static int test_two_files(void)
{
	return counts("# file_size: 1M\nfile second 8M\nread 4K 2\n"
		      "use second\nread 4K 2\n", 2, 1);
}

static int test_jobs(void)
{
	return counts("# file_size: 1M\njob a\nread 4K 2\njob b\nread 4K 2\n",
		      1, 2);
}

int main(void)
{
	TEST(test_one_file);
	TEST(test_two_files);
	TEST(test_jobs);
	return TEST_SUMMARY("test_workload");
}
