// SPDX-License-Identifier: MIT
/*
 * fio_rand.c - the random offsets of fio 3.x, draw for draw.
 *
 * Which blocks a random fio job reads, and in which order, decides what
 * readahead does with them (two draws that happen to be adjacent look
 * sequential).  To put a random job's reads in fio's order, ralab draws
 * them as fio does (fio 3.33; lib/rand.c, io_u.c, init.c):
 *
 *  - the generator is L'Ecuyer's combined Tausworthe generator (taus88,
 *    fio's default random_generator=tausworthe), seeded by an LCG and
 *    cranked six times;
 *  - with randrepeat=1 (fio's default) the offset generator of the job
 *    with thread number T (1, 2, ... over every clone of every job, in
 *    file order) is seeded with 0xb1899bed * T whatever randseed says,
 *    and seeded again at every loop;
 *  - a draw r picks block floor(lastb * r / 2^32) of the file's lastb
 *    blocks; with the random map (norandommap unset), a block already
 *    done gives the next free block after it, wrapping to the start;
 *  - the other generators come from randseed (default 0x89): seed the
 *    slot with randseed * 0x9e370001^4, then for slot i the seed is
 *    s_i * T + i with s_{i+1} = s_i * 0x9e370001; percentage_random
 *    decides "random" when 1 + floor(100 * r / 2^32) <= the percentage,
 *    with r from slot 10 (FIO_RAND_SEQ_RAND_READ_OFF).
 *
 * Checked against fio 3.33's own iologs (ioengine=null, write_iolog):
 * the fixtures in tests/fio/rand.
 */
#include <stdlib.h>
#include <string.h>

#include "workload.h"

static uint64_t seed_min(uint64_t x, uint64_t m)
{
	return x < m ? x + m : x;
}

uint32_t ralab__taus88(struct fio_taus88 *t)
{
	t->s1 = ((t->s1 & 0xfffffffeu) << 12) ^ (((t->s1 << 13) ^ t->s1) >> 19);
	t->s2 = ((t->s2 & 0xfffffff8u) << 4) ^ (((t->s2 << 2) ^ t->s2) >> 25);
	t->s3 = ((t->s3 & 0xfffffff0u) << 17) ^ (((t->s3 << 3) ^ t->s3) >> 11);
	return t->s1 ^ t->s2 ^ t->s3;
}

void ralab__taus88_seed(struct fio_taus88 *t, uint32_t seed)
{
	int i;

	/* fio's LCG starts from (2^31)+(2^17)+(2^7) in C, that is 53. */
	t->s1 = (uint32_t)seed_min((53u * 69069u) ^ seed, 1);
	t->s2 = (uint32_t)seed_min((t->s1 * 69069u) ^ seed, 7);
	t->s3 = (uint32_t)seed_min((t->s2 * 69069u) ^ seed, 15);
	for (i = 0; i < 6; i++)
		ralab__taus88(t);
}

uint64_t ralab__fio_seed(uint64_t randseed, unsigned thread, unsigned slot)
{
	uint64_t s = randseed;
	unsigned i;

	for (i = 0; i < 4; i++)
		s *= 0x9e370001ull;
	for (i = 0; i < slot; i++)
		s *= 0x9e370001ull;
	return s * thread + slot;
}

uint64_t ralab__fio_pick(uint32_t r, uint64_t lastb)
{
	return (uint64_t)((double)lastb * (r / 4294967296.0));
}

int ralab__fio_map_init(struct fio_map *m, uint64_t n)
{
	m->n = n;
	m->done = 0;
	m->bits = calloc((size_t)((n + 63) / 64) + 1, sizeof(*m->bits));
	return m->bits ? 0 : -1;
}

void ralab__fio_map_free(struct fio_map *m)
{
	free(m->bits);
	m->bits = NULL;
}

void ralab__fio_map_reset(struct fio_map *m)
{
	memset(m->bits, 0, (size_t)((m->n + 63) / 64) * sizeof(*m->bits));
	m->done = 0;
}

bool ralab__fio_map_test(const struct fio_map *m, uint64_t b)
{
	return m->bits[b / 64] >> (b % 64) & 1;
}

void ralab__fio_map_set(struct fio_map *m, uint64_t b)
{
	if (!ralab__fio_map_test(m, b)) {
		m->bits[b / 64] |= 1ull << (b % 64);
		m->done++;
	}
}

/* The first free block in [from, to), or UINT64_MAX. */
static uint64_t first_free(const struct fio_map *m, uint64_t from,
			   uint64_t to)
{
	while (from < to) {
		uint64_t w = ~m->bits[from / 64] >> (from % 64);

		if (w) {
			uint64_t b = from + (uint64_t)__builtin_ctzll(w);

			return b < to ? b : UINT64_MAX;
		}
		from = (from / 64 + 1) * 64;
	}
	return UINT64_MAX;
}

uint64_t ralab__fio_map_next_free(const struct fio_map *m, uint64_t b)
{
	uint64_t f = first_free(m, b + 1, m->n);

	return f != UINT64_MAX ? f : first_free(m, 0, b < m->n ? b : m->n);
}

uint64_t *ralab__fio_order(uint64_t lastb, uint64_t count, uint32_t seed,
			   bool map)
{
	uint64_t *v = malloc((size_t)(count ? count : 1) * sizeof(*v)), i;
	struct fio_taus88 t;
	struct fio_map m = { 0 };

	if (!v || (map && ralab__fio_map_init(&m, lastb))) {
		free(v);
		return NULL;
	}
	ralab__taus88_seed(&t, seed);
	for (i = 0; i < count; i++) {
		uint64_t b = ralab__fio_pick(ralab__taus88(&t), lastb);

		if (map) {
			if (ralab__fio_map_test(&m, b))
				b = ralab__fio_map_next_free(&m, b);
			ralab__fio_map_set(&m, b); /* count <= lastb: found */
		}
		v[i] = b;
	}
	ralab__fio_map_free(&m);
	return v;
}
