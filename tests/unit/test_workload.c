// SPDX-License-Identifier: MIT
/*
 * test_workload.c - what the public API says of a loaded workload: its
 * files and jobs (ralab_workload_nr_files, ralab_workload_nr_jobs,
 * ralab_workload_repeat_ns) and
 * their layouts (ralab_workload_breaks, ralab_workload_set_breaks).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Load @text as a .ops file: ralab_workload_load()'s return. */
static int load_text(const char *text, struct ralab_workload **wl,
		     struct ralab_diag *d)
{
	char path[64];
	int err;

	if (ops_file(text, path, sizeof(path)))
		return -EIO;
	err = ralab_workload_load(path, wl, d);
	unlink(path);
	return err;
}

static int counts(const char *text, unsigned files, unsigned jobs)
{
	struct ralab_workload *wl = NULL;
	struct ralab_diag d = { 0 };

	ASSERT_EQ_U64(load_text(text, &wl, &d), 0);
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

/*
 * Extent starts: the header's list for file 0, replaced, checked against
 * each file's size, dropped; a bad list leaves the old one.
 */
static int test_breaks(void)
{
	static const char text[] = "# file_size: 1M\n# extent_breaks: 64K,512K\n"
				   "file second 8M\nread 4K 2\n";
	const uint64_t good[] = { 4096, 4194304 }, bad[] = { 8192, 4096 };
	const uint64_t outside[] = { 1048576 };
	struct ralab_workload *wl = NULL;
	struct ralab_diag d = { 0 };
	uint64_t got[4];

	ASSERT_EQ_U64(load_text(text, &wl, &d), 0);
	ASSERT_EQ_U64(ralab_workload_breaks(wl, 0, got, 4), 2);
	ASSERT_EQ_U64(got[0], 65536);
	ASSERT_EQ_U64(got[1], 524288);
	ASSERT_EQ_U64(ralab_workload_breaks(wl, 1, got, 4), 0);
	/* 4 MiB is inside the second file (8 MiB), not the first (1 MiB). */
	ASSERT_EQ_U64(ralab_workload_set_breaks(wl, 1, good, 2, &d), 0);
	ASSERT_EQ_U64(ralab_workload_breaks(wl, 1, got, 4), 2);
	ASSERT_EQ_U64(got[1], 4194304);
	ASSERT_TRUE(ralab_workload_set_breaks(wl, 0, good, 2, &d) == -EINVAL);
	ASSERT_TRUE(ralab_workload_set_breaks(wl, 1, bad, 2, &d) == -EINVAL);
	ASSERT_TRUE(ralab_workload_set_breaks(wl, 0, outside, 1, &d) == -EINVAL);
	ASSERT_TRUE(ralab_workload_set_breaks(wl, 2, good, 1, &d) == -EINVAL);
	ASSERT_EQ_U64(ralab_workload_breaks(wl, 0, got, 4), 2);
	ASSERT_EQ_U64(ralab_workload_breaks(wl, 1, got, 4), 2);
	/* --set extent_breaks: replaces file 0's, or leaves it when bad. */
	ASSERT_TRUE(ralab_workload_set(wl, "extent_breaks", "12K,7K", &d) == -EINVAL);
	ASSERT_EQ_U64(ralab_workload_breaks(wl, 0, got, 4), 2);
	ASSERT_EQ_U64(ralab_workload_set(wl, "extent_breaks", "12K", &d), 0);
	ASSERT_EQ_U64(ralab_workload_breaks(wl, 0, got, 4), 1);
	ASSERT_EQ_U64(got[0], 12288);
	ASSERT_EQ_U64(ralab_workload_set_breaks(wl, 0, NULL, 0, &d), 0);
	ASSERT_EQ_U64(ralab_workload_breaks(wl, 0, got, 4), 0);
	ralab_workload_free(wl);
	return 0;
}

/* Parse @text: 0, or -EINVAL with @d's message holding @want. */
static int parses(const char *text, const char *want)
{
	struct ralab_workload *wl = NULL;
	struct ralab_diag d = { 0 };
	int err = load_text(text, &wl, &d);

	ralab_workload_free(wl);
	if (!want) {
		ASSERT_EQ_U64(err, 0);
	} else {
		ASSERT_TRUE(err == -EINVAL);
		ASSERT_TRUE(strstr(d.msg, want) != NULL);
	}
	return 0;
}

/*
 * A mapped file truncated: touches up to its end at that moment parse,
 * past it are refused; a touch is on its mapping's file, not on the
 * current descriptor's (the fuzzer found it taken for the other).
 */
static int test_mapped_truncate(void)
{
	ASSERT_EQ_U64(parses("# file_size: 1M\nmmap 0 1M\ntruncate 5000\n"
			     "touch 4096 4096\npwrite 0 200000\n"
			     "touch 196608 1\nseek 100000\nwrite 200000\n"
			     "touch 299008 1\n", NULL), 0);
	ASSERT_EQ_U64(parses("# file_size: 1M\nmmap 0 1M\ntruncate 5000\n"
			     "touch 8192 1\n", "touch at 8192: past the end"), 0);
	ASSERT_EQ_U64(parses("# file_size: 1M\nmmap 0 1M\ntruncate 5000\n"
			     "seek 100000\nwrite 200000\nread 4K eof\n"
			     "touch 299008 8192\n", "touch at 303104"), 0);
	ASSERT_EQ_U64(parses("# file_size: 1M\nfile two 1M\nmmap 0 1M\n"
			     "use main\nmmap 0 64K\ntruncate 4096\ntouch 0 1M 64K\n",
			     NULL), 0);
	/* Jobs: another may read the file, not write or truncate it. */
	ASSERT_EQ_U64(parses("# file_size: 1M\njob a\nmmap 0 1M\n"
			     "truncate 8192\ntouch 0 8192\njob b\nread 64K 4\n",
			     NULL), 0);
	ASSERT_EQ_U64(parses("# file_size: 1M\njob a\nmmap 0 1M\n"
			     "truncate 8192\ntouch 0 8192\njob b\nwrite 4K\n",
			     "must be in one job (line 3 is in another)"), 0);
	return 0;
}

/* The longest runtime of a repeating job; a runtime without repeat is not one. */
static int test_repeat_ns(void)
{
	struct ralab_workload *wl = NULL;
	struct ralab_diag d = { 0 };

	ASSERT_EQ_U64(load_text("# file_size: 1M\njob a\nruntime 2000\nrepeat\n"
				"read 4K 4\njob b\nruntime 5000\nrepeat\nread 4K 4\n"
				"job c\nruntime 9000\nread 4K 4\n", &wl, &d), 0);
	ASSERT_EQ_U64(ralab_workload_repeat_ns(wl), 5000000);
	ralab_workload_free(wl);
	ASSERT_EQ_U64(load_text("# file_size: 1M\nruntime 9000\nread 4K 4\n", &wl, &d), 0);
	ASSERT_EQ_U64(ralab_workload_repeat_ns(wl), 0);
	ralab_workload_free(wl);
	return 0;
}

/*
 * The parser's view of what mprotect left: a range cut by a later one
 * keeps its other parts, equal neighbours join (as the VMAs merge, so 40
 * calls over one mapping fit), 33 apart do not.
 */
static int test_mprotect_ranges(void)
{
	struct ralab_workload *wl = NULL;
	struct ralab_diag d = { 0 };
	char text[4096];
	size_t n;
	int i;

	ASSERT_EQ_U64(load_text("# file_size: 1M\nmmap 0 1M\nmprotect 0 64K none\n"
				"mprotect 16K 16K r\ntouch 20K 1\ntouch 36K 1\n",
				&wl, &d), -EINVAL);
	ASSERT_TRUE(strstr(d.msg, ":6: touch at 36864: [32768, 65536) is PROT_NONE") != NULL);
	ASSERT_EQ_U64(load_text("# file_size: 1M\nmmap 0 1M\nmprotect 0 64K none\n"
				"mprotect 16K 16K r\ntouch 12K 8K 8K\n",
				&wl, &d), -EINVAL);
	ASSERT_TRUE(strstr(d.msg, "touch at 12288: [0, 16384)") != NULL);
	/* A step that skips the PROT_NONE pages is fine. */
	ASSERT_EQ_U64(load_text("# file_size: 1M\nmmap 0 1M\nmprotect 4K 4K none\n"
				"touch 0 64K 8K\n", &wl, &d), 0);
	ralab_workload_free(wl);
	n = (size_t)snprintf(text, sizeof(text), "# file_size: 1M\nmmap 0 1M\n");
	for (i = 0; i < 40; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "mprotect %dK 4K %s\n", 4 * i,
				      i % 2 ? "r" : "rx");
	for (i = 0; i < 40; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "mprotect %dK 4K r\n", 4 * i);
	text[n] = 0;
	/* 40 ranges apart: the 33rd is refused. */
	ASSERT_EQ_U64(load_text(text, &wl, &d), -EINVAL);
	ASSERT_TRUE(strstr(d.msg, ":35: too many 'mprotect' ranges") != NULL);
	n = (size_t)snprintf(text, sizeof(text), "# file_size: 1M\nmmap 0 1M\n");
	for (i = 0; i < 40; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "mprotect %dK 4K rx\n", 4 * i);
	ASSERT_EQ_U64(load_text(text, &wl, &d), 0);
	ralab_workload_free(wl);
	return 0;
}

int main(void)
{
	TEST(test_one_file);
	TEST(test_repeat_ns);
	TEST(test_mapped_truncate);
	TEST(test_two_files);
	TEST(test_jobs);
	TEST(test_breaks);
	TEST(test_mprotect_ranges);
	return TEST_SUMMARY("test_workload");
}
