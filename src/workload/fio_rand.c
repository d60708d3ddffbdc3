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
 *    a generator seeded with jhash(file name) * T (fio_dist below);
 *  - random_generator=lfsr (lib/lfsr.c) gives each file a Galois LFSR of
 *    the narrowest width w >= 3 with 2^w > blocks, seeded with the low w
 *    bits of 0xb1899bed * T; each step shifts right, sets the top bit and
 *    XORs the tap mask in when the bit shifted out was 0; values above
 *    the last block are skipped; its first step is a double one; after
 *    `blocks` values the file is done (no random map); every later pass
 *    (loop, or io_size beyond size) starts it again from the seed,
 *    without the double step (lfsr_reset() keeps prepare_spin()'s count
 *    spent).
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

	r->lfsr = false;
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

/*
 * Maximal-length LFSR taps by register width (3 to 63 bits), the table
 * fio's lib/lfsr.c takes from a public list of maximal LFSRs: bit
 * positions, the first the width, 0 ending a row.
 */
static const uint8_t lfsr_taps[64][6] = {
	[3] = { 3, 2 },		   [4] = { 4, 3 },
	[5] = { 5, 3 },		   [6] = { 6, 5 },
	[7] = { 7, 6 },		   [8] = { 8, 6, 5, 4 },
	[9] = { 9, 5 },		   [10] = { 10, 7 },
	[11] = { 11, 9 },	   [12] = { 12, 6, 4, 1 },
	[13] = { 13, 4, 3, 1 },	   [14] = { 14, 5, 3, 1 },
	[15] = { 15, 14 },	   [16] = { 16, 15, 13, 4 },
	[17] = { 17, 14 },	   [18] = { 18, 11 },
	[19] = { 19, 6, 2, 1 },	   [20] = { 20, 17 },
	[21] = { 21, 19 },	   [22] = { 22, 21 },
	[23] = { 23, 18 },	   [24] = { 24, 23, 22, 17 },
	[25] = { 25, 22 },	   [26] = { 26, 6, 2, 1 },
	[27] = { 27, 5, 2, 1 },	   [28] = { 28, 25 },
	[29] = { 29, 27 },	   [30] = { 30, 6, 4, 1 },
	[31] = { 31, 28 },	   [32] = { 32, 31, 29, 1 },
	[33] = { 33, 20 },	   [34] = { 34, 27, 2, 1 },
	[35] = { 35, 33 },	   [36] = { 36, 25 },
	[37] = { 37, 5, 4, 3, 2, 1 }, [38] = { 38, 6, 5, 1 },
	[39] = { 39, 35 },	   [40] = { 40, 38, 21, 19 },
	[41] = { 41, 38 },	   [42] = { 42, 41, 20, 19 },
	[43] = { 43, 42, 38, 37 }, [44] = { 44, 43, 18, 17 },
	[45] = { 45, 44, 42, 41 }, [46] = { 46, 45, 26, 25 },
	[47] = { 47, 42 },	   [48] = { 48, 47, 21, 20 },
	[49] = { 49, 40 },	   [50] = { 50, 49, 24, 23 },
	[51] = { 51, 50, 36, 35 }, [52] = { 52, 49 },
	[53] = { 53, 52, 38, 37 }, [54] = { 54, 53, 18, 17 },
	[55] = { 55, 31 },	   [56] = { 56, 55, 35, 34 },
	[57] = { 57, 50 },	   [58] = { 58, 39 },
	[59] = { 59, 58, 38, 37 }, [60] = { 60, 59 },
	[61] = { 61, 60, 46, 45 }, [62] = { 62, 61, 6, 5 },
	[63] = { 63, 62 },
};

int ralab__rng_lfsr(struct fio_rng *r, uint64_t nums, uint64_t seed)
{
	unsigned w, i;

	/* The narrowest register whose 2^w states exceed @nums. */
	for (w = 3; w < 64 && (1ull << w) <= nums; w++)
		;
	if (w == 64 || !nums)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	r->lfsr = true;
	r->lmax = nums - 1;
	for (i = 0; i < 6 && lfsr_taps[w][i]; i++)
		r->lxor |= 1ull << (lfsr_taps[w][i] - 1);
	r->lbit = 1ull << (w - 1);
	/*
	 * Spin 0 has no short cycle, but fio's prepare_spin() still counts
	 * one down: the first step is a step of spin 1 (two shifts).
	 */
	r->lcycle = 1;
	r->lv = seed & ((r->lbit << 1) - 1);
	/* The all-ones state is the one an XNOR register never leaves. */
	return r->lv == (r->lbit << 1) - 1 ? -EINVAL : 0;
}

void ralab__rng_lfsr_reset(struct fio_rng *r)
{
	r->lcycle = 0;
}

static void lfsr_step(struct fio_rng *r)
{
	r->lv = ((r->lv >> 1) | r->lbit) ^ (((r->lv & 1) - 1) & r->lxor);
}

/* The LFSR's next value, or UINT64_MAX once all @lmax + 1 are out. */
static uint64_t lfsr_next(struct fio_rng *r)
{
	if (r->lnum++ > r->lmax)
		return UINT64_MAX;
	do {
		if (r->lcycle && !--r->lcycle)
			lfsr_step(r); /* the double first step */
		lfsr_step(r);
	} while (r->lv > r->lmax);
	return r->lv;
}

uint64_t ralab__fio_pick(struct fio_rng *g, uint64_t lastb)
{
	uint64_t r;

	if (g->lfsr)
		return lfsr_next(g);
	r = ralab__rng(g);

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
