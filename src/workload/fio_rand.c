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
 *    s_i * T + i with s_{i+1} = s_i * 0x9e370001 (allrandrepeat:
 *    0xb1899bed * T + i); percentage_random decides "random" when
 *    1 + floor(100 * r / 2^32) <= the percentage, with r from slot 10
 *    (FIO_RAND_SEQ_RAND_READ_OFF); zoned picks its zone with slot 16,
 *    bsrange and bssplit their sizes with slot 0, file_service_type=
 *    random its files with slot 5 (fio.c);
 *  - zipf, pareto and normal (lib/zipf.c, lib/gauss.c) draw per file from
 *    a generator seeded with jhash(file name) * T (fio_dist below).
 *
 * Checked against fio 3.33's own iologs (ioengine=null, write_iolog):
 * the fixtures in tests/fio/rand.  Where the source could be read in
 * more than one way (the jhash constant, the hash, the seeds of the
 * distributions), fio 3.33 itself decided: its iologs, and gdb on
 * zipf_init()'s arguments.
 */
#include <errno.h>
#include <math.h>
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

/* taus258 (fio's __rand64), and its seeding (__init_rand64). */
static uint64_t taus258(uint64_t *s)
{
	uint64_t x;

	x = ((s[0] << 1) ^ s[0]) >> 53;
	s[0] = ((s[0] & 18446744073709551614ull) << 10) ^ x;
	x = ((s[1] << 24) ^ s[1]) >> 50;
	s[1] = ((s[1] & 18446744073709551104ull) << 5) ^ x;
	x = ((s[2] << 3) ^ s[2]) >> 23;
	s[2] = ((s[2] & 18446744073709547520ull) << 29) ^ x;
	x = ((s[3] << 5) ^ s[3]) >> 24;
	s[3] = ((s[3] & 18446744073709420544ull) << 23) ^ x;
	x = ((s[4] << 3) ^ s[4]) >> 33;
	s[4] = ((s[4] & 18446744073701163008ull) << 8) ^ x;
	return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4];
}

void ralab__rng_seed(struct fio_rng *r, uint64_t seed, bool use64)
{
	static const uint64_t min[5] = { 1, 7, 15, 33, 49 };
	uint64_t x = 53;
	int i;

	r->use64 = use64;
	if (!use64) {
		ralab__taus88_seed(&r->t, (uint32_t)seed);
		return;
	}
	for (i = 0; i < 5; i++)
		x = r->s[i] = seed_min(x * 6906969069ull ^ seed, min[i]);
	for (i = 0; i < 6; i++)
		taus258(r->s);
}

uint64_t ralab__rng(struct fio_rng *r)
{
	return r->use64 ? taus258(r->s) : ralab__taus88(&r->t);
}

double ralab__rng_span(const struct fio_rng *r)
{
	return r->use64 ? 18446744073709551616.0 : 4294967296.0;
}

uint64_t ralab__fio_pick(struct fio_rng *g, uint64_t lastb)
{
	uint64_t r = ralab__rng(g);

	return (uint64_t)((double)lastb * (r / ralab__rng_span(g)));
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

int ralab__fio_map_init(struct fio_map *m, uint64_t n)
{
	m->n = n;
	m->bits = NULL;
	if (n > FIO_MAX_MAP_BLOCKS)
		return -E2BIG;
	m->bits = calloc((size_t)((n + 63) / 64) + 1, sizeof(*m->bits));
	return m->bits ? 0 : -1;
}

void ralab__fio_map_free(struct fio_map *m)
{
	free(m->bits);
	m->bits = NULL;
}

bool ralab__fio_map_test(const struct fio_map *m, uint64_t b)
{
	return m->bits[b / 64] >> (b % 64) & 1;
}

void ralab__fio_map_set(struct fio_map *m, uint64_t b)
{
	m->bits[b / 64] |= 1ull << (b % 64);
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

uint64_t *ralab__fio_order(struct fio_rng *t, uint64_t lastb, uint64_t count,
			   bool map)
{
	uint64_t *v = malloc((size_t)(count ? count : 1) * sizeof(*v)), i;
	struct fio_map m = { 0 };

	if (!v || (map && ralab__fio_map_init(&m, lastb))) {
		free(v);
		return NULL;
	}
	for (i = 0; i < count; i++) {
		uint64_t b = ralab__fio_pick(t, lastb);

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

/*
 * Bob Jenkins' hash as fio 3.33 has it (hash.h): the loop over 12-byte
 * blocks adds one byte of each word, not the word.  It seeds the
 * non-uniform distributions from the file's name.
 */
static uint32_t rol32(uint32_t w, unsigned s)
{
	return (w << s) | (w >> (32 - s));
}

uint32_t ralab__fio_jhash(const char *key, uint32_t len)
{
	const unsigned char *k = (const unsigned char *)key;
	uint32_t a, b, c;

	a = b = c = 0x61c88647u + len;
	while (len > 12) {
		a += k[0];
		b += k[4];
		c += k[8];
		a -= c; a ^= rol32(c, 4); c += b;
		b -= a; b ^= rol32(a, 6); a += c;
		c -= b; c ^= rol32(b, 8); b += a;
		a -= c; a ^= rol32(c, 16); c += b;
		b -= a; b ^= rol32(a, 19); a += c;
		c -= b; c ^= rol32(b, 4); b += a;
		len -= 12;
		k += 12;
	}
	switch (len) {
	case 12: c += (uint32_t)k[11] << 24; /* fall through */
	case 11: c += (uint32_t)k[10] << 16; /* fall through */
	case 10: c += (uint32_t)k[9] << 8; /* fall through */
	case 9: c += k[8]; /* fall through */
	case 8: b += (uint32_t)k[7] << 24; /* fall through */
	case 7: b += (uint32_t)k[6] << 16; /* fall through */
	case 6: b += (uint32_t)k[5] << 8; /* fall through */
	case 5: b += k[4]; /* fall through */
	case 4: a += (uint32_t)k[3] << 24; /* fall through */
	case 3: a += (uint32_t)k[2] << 16; /* fall through */
	case 2: a += (uint32_t)k[1] << 8; /* fall through */
	case 1:
		a += k[0];
		c ^= b; c -= rol32(b, 14);
		a ^= c; a -= rol32(c, 11);
		b ^= a; b -= rol32(a, 25);
		c ^= b; c -= rol32(b, 16);
		a ^= c; a -= rol32(c, 4);
		b ^= a; b -= rol32(a, 14);
		c ^= b; c -= rol32(b, 24);
		break;
	default:
		break;
	}
	return c;
}

#define GOLDEN_RATIO_64 0x61c8864680b583ebull

/*
 * A double to an unsigned 64-bit value as x86-64 converts it: what C
 * leaves undefined (NaN, out of range; zipf over two blocks can give
 * NaN, in fio too) becomes 2^63.
 */
static unsigned long long to_u64(double x)
{
	if (!(x >= 0.0 && x < 18446744073709551616.0))
		return 1ull << 63;
	return (unsigned long long)x;
}
#define ZIPF_MAX_GEN 10000000ull

/*
 * A non-uniform distribution of fio (lib/zipf.c, lib/gauss.c): block
 * numbers of [0, nranges), scrambled by a multiplicative hash and turned
 * by rand_off (the first draw, or nranges * center).
 */
int ralab__fio_dist_init(struct fio_dist *d, int kind, uint64_t nranges,
			 double param, double center, uint32_t seed)
{
	uint64_t i;

	memset(d, 0, sizeof(*d));
	if (!nranges)
		return -1;
	d->kind = kind;
	d->nranges = nranges;
	ralab__taus88_seed(&d->t, seed);
	if (kind == FIO_DIST_NORMAL) {
		if (param != 0.0) {
			d->stddev = (uint64_t)ceil((double)nranges * param / 100.0);
			if (d->stddev > nranges / 2)
				d->stddev = nranges / 2;
		}
		d->rand_off = center == -1 ? 0
					   : (uint64_t)(int64_t)((double)nranges *
								 (center - 0.5));
		return 0;
	}
	d->rand_off = ralab__taus88(&d->t);
	if (center != -1)
		d->rand_off = (uint64_t)((double)nranges * center);
	d->theta = param;
	if (kind == FIO_DIST_ZIPF) {
		uint64_t to_gen = nranges < ZIPF_MAX_GEN ? nranges : ZIPF_MAX_GEN;

		d->zeta2 = pow(1.0, param) + pow(0.5, param);
		for (i = 0; i < to_gen; i++)
			d->zetan += pow(1.0 / (double)(unsigned)(i + 1), param);
	} else {
		d->pareto_pow = log(param) / log(1.0 - param);
	}
	return 0;
}

uint64_t ralab__fio_dist_next(struct fio_dist *d)
{
	unsigned long long val;

	if (d->kind == FIO_DIST_NORMAL) {
		unsigned long long sum = 0;
		int i;

		/* The mean of 12 uniform draws, moved by one deviation. */
		for (i = 0; i < 12; i++)
			sum += ralab__taus88(&d->t) % (d->nranges + 1);
		sum = (sum + 11) / 12;
		if (d->stddev) {
			uint32_t r = ralab__taus88(&d->t);
			int dev = (int)((double)d->stddev * (r / 4294967296.0)) -
				  (int)(d->stddev / 2);

			/* (fio spins here when dev is 0; ralab stops) */
			while (dev && dev + sum >= d->nranges)
				dev /= 2;
			sum += (unsigned long long)(long long)dev;
		}
		return (sum * GOLDEN_RATIO_64 + d->rand_off) % d->nranges;
	}
	if (d->kind == FIO_DIST_ZIPF) {
		double n = (double)d->nranges;
		double alpha = 1.0 / (1.0 - d->theta);
		double eta = (1.0 - pow(2.0 / n, 1.0 - d->theta)) /
			     (1.0 - d->zeta2 / d->zetan);
		double rand_uni = (double)ralab__taus88(&d->t) / 4294967295.0;
		double rand_z = rand_uni * d->zetan;

		if (rand_z < 1.0)
			val = 1;
		else if (rand_z < 1.0 + pow(0.5, d->theta))
			val = 2;
		else
			val = 1 + to_u64(n * pow(eta * rand_uni - eta + 1.0,
						 alpha));
		val--;
	} else {
		double r = (double)ralab__taus88(&d->t) / 4294967295.0;

		val = (unsigned long long)((double)(d->nranges - 1) *
					   pow(r, d->pareto_pow));
	}
	return (val * GOLDEN_RATIO_64 + d->rand_off) % d->nranges;
}
