// SPDX-License-Identifier: MIT
/*
 * fio's I/Os: offsets, sizes and files.  Each tests/fio/rand/NAME.fio was
 * run by fio 3.33 itself (ioengine=null, an iolog per job:
 * tests/tools/record-fio-reads.sh) and NAME.reads lists the reads it
 * issued, "JOB FILE OFFSET LENGTH", in order per job (a time_based job:
 * its first reads), and its writes and syncs (rw, randrw) with a last
 * field "w" or "s".  ralab's reading of the job file must issue the same
 * I/Os in the same order: every offset and length, not only the set.
 * Files are compared by the order in which a job first uses them; the
 * mmap engine's I/Os are its touches.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "workload/workload.h"

#define DIR_ "tests/fio/rand/"
#define MAX_READS (1u << 16)

struct rd {
	char job[48];
	unsigned file; /* the file's rank in its job's first uses */
	unsigned long long off, len;
	char kind;     /* r: read, w: write, s: sync (off, len 0) */
};

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 &&
	    fseek(fp, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, fp) == (size_t)n) {
		buf[n] = 0;
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	return buf;
}

/* The rank of @name among the files @job used so far (adds it). */
static unsigned rank(char names[][64], unsigned *nr, const char *name)
{
	unsigned i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(names[i], name))
			return i;
	snprintf(names[*nr], 64, "%s", name);
	return (*nr)++;
}

/* fio's reads, from NAME.reads; the job name is fio's section. */
static int load_fio(const char *path, struct rd *v, unsigned *n)
{
	FILE *fp = fopen(path, "r");
	char job[32], file[64], names[64][64], last[48] = "", line[256];
	unsigned long long off, len;
	unsigned nr = 0;
	char kind;

	if (!fp)
		return 1;
	*n = 0;
	while (*n < MAX_READS && fgets(line, sizeof(line), fp)) {
		int got = sscanf(line, "%31s %63s %llu %llu %c", job, file,
				 &off, &len, &kind);

		if (got < 4)
			break;
		if (got == 4)
			kind = 'r';
		/*
		 * Clones of a section: "b.1.0" is the second clone's file;
		 * a file named otherwise (filename=) is the first clone's.
		 */
		char key[40];
		size_t jl = strlen(job);
		const char *c = !strncmp(file, job, jl) && file[jl] == '.'
					? file + jl + 1
					: "0";

		snprintf(key, sizeof(key), "%s.%.*s", job, (int)strcspn(c, "."), c);
		if (strcmp(key, last)) {
			snprintf(last, sizeof(last), "%s", key);
			nr = 0;
		}
		snprintf(v[*n].job, sizeof(v[*n].job), "%s", key);
		v[*n].file = rank(names, &nr, file);
		v[*n].off = off;
		v[*n].len = len;
		v[*n].kind = kind;
		(*n)++;
	}
	fclose(fp);
	return 0;
}

/*
 * ralab's reads of one job, walking its ops (v[] from *n on); a
 * time_based job's ops from 'repeat' on run again until @limit reads.
 */
static int walk_job(const struct ralab_workload *wl, const struct wl_job *jd,
		    struct rd *v, unsigned *n, unsigned limit)
{
	static unsigned long long pos[MAX_FDS];
	struct fio_carry carry = { .valid = false };
	unsigned map_ino[MAX_MAPS] = { 0 };
	char names[64][64];
	unsigned nr = 0, i, start = *n;
	uint64_t k;

	for (i = jd->first_op; i < jd->first_op + jd->nr_ops; i++) {
		const struct op *o = &wl->ops[i];

		if (jd->repeat && *n - start >= limit)
			break;
		if (jd->repeat && i + 1 == jd->first_op + jd->nr_ops)
			i = jd->first_op + jd->repeat_op - 1; /* after this op */
		uint64_t *order = NULL;
		unsigned f;

		if (o->kind == OP_OPEN) {
			pos[o->fd] = 0;
			continue;
		}
		if (o->kind == OP_SEEK) {
			pos[o->fd] = o->off;
			continue;
		}
		if (o->kind == OP_MMAP) {
			map_ino[o->map] = o->ino;
			continue;
		}
		/* The mmap engine's I/Os are its copies (COUNT of them). */
		if (o->kind != OP_READ && o->kind != OP_PREAD &&
		    o->kind != OP_STRIDE_PREAD && o->kind != OP_FIO_PREAD &&
		    o->kind != OP_FIO_PWRITE &&
		    o->kind != OP_TOUCH && o->kind != OP_MEMCPY &&
		    o->kind != OP_PWRITE && o->kind != OP_WRITE &&
		    o->kind != OP_FSYNC)
			continue;
		f = rank(names, &nr,
			 wl->files[o->kind == OP_TOUCH || o->kind == OP_MEMCPY ?
					   map_ino[o->map] : o->ino].name);
		if ((o->kind == OP_FIO_PREAD || o->kind == OP_FIO_PWRITE) &&
		    !(order = ralab__op_order(o, &carry)))
			return 1;
		for (k = 0; k < (o->kind == OP_PREAD || o->kind == OP_TOUCH ||
				 o->kind == OP_PWRITE || o->kind == OP_FSYNC ?
					 1 :
					 o->count);
		     k++) {
			struct rd *r = &v[*n];

			if (*n == MAX_READS)
				return 1;
			snprintf(r->job, sizeof(r->job), "%s", jd->name);
			r->file = f;
			r->len = o->len;
			r->kind = o->kind == OP_PWRITE || o->kind == OP_WRITE ||
						  o->kind == OP_FIO_PWRITE ||
						  (o->kind == OP_MEMCPY && o->wfault) ? 'w' :
				  o->kind == OP_FSYNC  ? 's' :
							 'r';
			if (o->kind == OP_FSYNC) {
				r->off = r->len = 0;
			} else if (o->kind == OP_READ || o->kind == OP_WRITE) {
				r->off = pos[o->fd];
				pos[o->fd] += o->len;
			} else if (o->kind == OP_PREAD || o->kind == OP_TOUCH ||
				   o->kind == OP_PWRITE) {
				r->off = o->off;
			} else if (o->kind == OP_MEMCPY) {
				r->off = o->off + k * o->len;
			} else if (o->kind == OP_STRIDE_PREAD) {
				r->off = o->off + k * (uint64_t)o->stride;
			} else {
				r->off = o->off + order[k] * o->len;
			}
			(*n)++;
		}
		free(order);
	}
	if (jd->repeat && *n - start > limit)
		*n = start + limit; /* fio's reads were cut there too */
	return 0;
}

static int check(const char *name)
{
	static struct rd want[MAX_READS], got[MAX_READS];
	char path[256];
	char *text, *ops = NULL;
	size_t len;
	unsigned nw, ng = 0, i;
	struct ralab_workload *wl = NULL;
	struct ralab_load_opts lo = { 0 };
	struct ralab_diag diag;

	snprintf(path, sizeof(path), DIR_ "%s.reads", name);
	ASSERT_TRUE(!load_fio(path, want, &nw));
	snprintf(path, sizeof(path), DIR_ "%s.fio", name);
	ASSERT_TRUE((text = slurp(path, &len)) != NULL);
	/*
	 * "; fio_files: fresh" or "existing": how the files stood when fio
	 * ran (tests/tools/record-fio-reads.sh with FIO_FILES).
	 */
	if (strstr(text, "\n; fio_files: fresh\n"))
		lo.fio_files = RALAB_FIO_FILES_FRESH;
	else if (strstr(text, "\n; fio_files: existing\n"))
		lo.fio_files = RALAB_FIO_FILES_EXISTING;
	ASSERT_TRUE(ralab__fio_to_ops_opts(path, text, len, &lo, &ops,
					   &diag) == 0);
	free(text);
	ASSERT_TRUE(ralab_workload_parse(path, ops, strlen(ops), &wl, &diag) ==
		    0);
	free(ops);
	/* Each time_based job repeats up to fio's count of its own reads. */
	for (i = 0; i < wl->nr_jobs; i++) {
		unsigned k, limit = 0;

		for (k = 0; k < nw; k++)
			limit += !strcmp(want[k].job, wl->jobs[i].name);
		ASSERT_TRUE(!walk_job(wl, &wl->jobs[i], got, &ng, limit));
	}
	ralab_workload_free(wl);
	for (i = 0; i < nw && i < ng; i++) {
		if (strcmp(want[i].job, got[i].job) ||
		    want[i].file != got[i].file || want[i].off != got[i].off ||
		    want[i].len != got[i].len || want[i].kind != got[i].kind) {
			fprintf(stderr,
				"%s: I/O %u: fio %s file %u %c at %llu+%llu, ralab %s file %u %c at %llu+%llu\n",
				name, i, want[i].job, want[i].file,
				want[i].kind, want[i].off, want[i].len,
				got[i].job, got[i].file, got[i].kind,
				got[i].off, got[i].len);
			return 1;
		}
	}
	if (ng != nw)
		fprintf(stderr, "%s: fio made %u reads, ralab %u\n", name, nw,
			ng);
	ASSERT_EQ_U64(ng, nw);
	return 0;
}

/* The generator alone: fio 3.33's first draws for thread 1 (--debug=random). */
static int test_taus88(void)
{
	struct fio_taus88 t;

	ralab__taus88_seed(&t, FIO_RANDSEED);
	ASSERT_EQ_U64(ralab__taus88(&t), 259043585);
	ASSERT_EQ_U64(ralab__taus88(&t), 3179521932u);
	ASSERT_EQ_U64(ralab__taus88(&t), 3621444214u);
	return 0;
}

/* tausworthe64: fio 3.33's first draws for thread 1 (--debug=random). */
static int test_taus258(void)
{
	struct fio_rng r;

	ralab__rng_seed(&r, FIO_RANDSEED, true);
	ASSERT_EQ_U64(ralab__rng(&r), 17311067694306724737ull);
	ASSERT_EQ_U64(ralab__rng(&r), 485009114434689783ull);
	ASSERT_EQ_U64(ralab__rng(&r), 1488059811897507987ull);
	return 0;
}

int main(void)
{
	DIR *d = opendir(DIR_);
	struct dirent *e;
	unsigned n = 0;

	TEST(test_taus88);
	TEST(test_taus258);
	if (!d) {
		fprintf(stderr, "no %s\n", DIR_);
		return 1;
	}
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char name[200];

		if (l < 5 || strcmp(e->d_name + l - 4, ".fio"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(l - 4), e->d_name);
		n++;
		if (check(name)) {
			fprintf(stderr, "FAIL fio reads %s\n", name);
			t_failed++;
		} else {
			t_passed++;
		}
	}
	closedir(d);
	if (n < 229) {
		fprintf(stderr, "only %u job files in %s\n", n, DIR_);
		t_failed++;
	}
	return TEST_SUMMARY("test_fio_rand");
}
