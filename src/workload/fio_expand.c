// SPDX-License-Identifier: MIT
/*
 * fio_expand.c - what fio 3.33 does to an option line before it parses
 * the value: ${VAR} from the environment, then the keywords $pagesize,
 * $mb_memory and $ncpus, then, if a keyword was replaced and the line
 * holds + - * or /, the value handed to bc(1).
 *
 * Checked against fio 3.33 itself ('fio --showcmd' prints the values it
 * took; tests/fio/keywords.txt):
 *
 *   size=8*$pagesize          32768      (bc)
 *   numjobs=$ncpus-2          0 on two CPUs
 *   bs=${BS}                  the environment's BS, "" when unset
 *   size=128m/2               no keyword: not evaluated; fio's size
 *                             parser then takes "128m" (ralab refuses
 *                             it as not a size)
 *   bs=4k-$pagesize           bc cannot read "4k": fio drops the job
 *   size=$pagesize*k          bc reads k as a variable (0): ralab
 *                             refuses such values rather than guess
 *
 * bc runs with scale=0: integers, '/' and '%' truncating toward zero,
 * '^' right-associative and below unary minus (-2^2 is 4), a negative
 * exponent giving 1/b^n truncated.  ralab evaluates that subset itself
 * (64-bit; larger is refused) instead of running bc.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

struct bc {
	const char *s;
	const char *err; /* first error, static text */
	bool big;        /* it is beyond 64 bits (which bc is not) */
};

static void bc_blank(struct bc *b)
{
	while (*b->s == ' ' || *b->s == '\t')
		b->s++;
}

static int64_t bc_fail(struct bc *b, const char *why)
{
	if (!b->err)
		b->err = why;
	return 0;
}

/* A value beyond 64 bits: bc would go on, ralab does not. */
static int64_t bc_big(struct bc *b)
{
	if (!b->err)
		b->big = true;
	return bc_fail(b, "beyond 64 bits");
}

static int64_t bc_expr(struct bc *b);

static int64_t bc_unary(struct bc *b)
{
	int64_t v = 0;

	bc_blank(b);
	if (b->err)
		return 0;
	if (b->s[0] == '-') {
		/* "--" is bc's decrement, a syntax error before a number. */
		if (b->s[1] == '-')
			return bc_fail(b, "a syntax error");
		b->s++;
		v = bc_unary(b);
		if (v == INT64_MIN)
			return bc_big(b);
		return -v;
	}
	if (b->s[0] == '(') {
		b->s++;
		v = bc_expr(b);
		bc_blank(b);
		if (*b->s != ')')
			return bc_fail(b, "a syntax error");
		b->s++;
		return v;
	}
	if (*b->s < '0' || *b->s > '9')
		return bc_fail(b, "a syntax error");
	for (; *b->s >= '0' && *b->s <= '9'; b->s++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, *b->s - '0', &v))
			return bc_big(b);
	return v;
}

static int64_t bc_pow(struct bc *b)
{
	int64_t base = bc_unary(b), e, r = 1;

	bc_blank(b);
	if (b->err || *b->s != '^')
		return base;
	b->s++;
	e = bc_pow(b); /* right-associative: 2^3^2 is 2^9 */
	if (b->err)
		return 0;
	/* GNU bc 1.07's limit (measured: "exponent too large in raise") */
	if (e > 2147483649 || e < -2147483649)
		return bc_fail(b, "an exponent beyond 2147483649");
	/* 0, 1 and -1 without a loop (the exponent may be huge) */
	if (base == 0 && e < 0)
		return bc_fail(b, "a division by zero");
	if (base == 0)
		return e == 0;
	if (base == 1)
		return 1;
	if (base == -1)
		return e & 1 ? -1 : 1;
	/* 1/base^-e, truncated */
	if (e < 0)
		return 0;
	/* |base| >= 2 overflows within 63 steps */
	while (e-- > 0)
		if (__builtin_mul_overflow(r, base, &r))
			return bc_big(b);
	return r;
}

static int64_t bc_term(struct bc *b)
{
	int64_t v = bc_pow(b), w;
	char op;

	for (;;) {
		bc_blank(b);
		op = *b->s;
		if (b->err || (op != '*' && op != '/' && op != '%'))
			return v;
		b->s++;
		w = bc_pow(b);
		if (b->err)
			return 0;
		if (op == '*') {
			if (__builtin_mul_overflow(v, w, &v))
				return bc_big(b);
			continue;
		}
		if (w == 0)
			return bc_fail(b, "a division by zero");
		if (v == INT64_MIN && w == -1)
			return bc_big(b);
		v = op == '/' ? v / w : v % w;
	}
}

static int64_t bc_expr(struct bc *b)
{
	int64_t v = bc_term(b), w;
	char op;

	for (;;) {
		bc_blank(b);
		op = *b->s;
		if (b->err || (op != '+' && op != '-'))
			return v;
		b->s++;
		/* "a--b", "a++b": bc's decrement and increment */
		if (*b->s == op)
			return bc_fail(b, "a syntax error");
		w = bc_term(b);
		if (b->err)
			return 0;
		if (op == '+' ? __builtin_add_overflow(v, w, &v) :
				__builtin_sub_overflow(v, w, &v))
			return bc_big(b);
	}
}

/*
 * The keywords' values: fio takes them from the machine it runs on
 * (sysconf), and so does ralab; $pagesize is the model's page size.
 */
static unsigned long kw_value(unsigned i)
{
	long pages, psz, n;

	switch (i) {
	case 0:
		return 4096;
	case 1:
		pages = sysconf(_SC_PHYS_PAGES);
		psz = sysconf(_SC_PAGESIZE);
		if (pages <= 0 || psz <= 0)
			return 0;
		return (unsigned long)((uint64_t)pages * (uint64_t)psz >> 20);
	default:
		n = sysconf(_SC_NPROCESSORS_ONLN);
		return n > 0 ? (unsigned long)n : 1;
	}
}

int ralab__fio_expand(const char *in, char *out, size_t size, char *why,
		      size_t whysz)
{
	static const char *const words[] = { "$pagesize", "$mb_memory",
					     "$ncpus" };
	size_t n = 0, i;
	const char *p = in, *eq;
	bool replaced = false;
	struct bc b = { 0 };
	int64_t v;

	/*
	 * ${VAR}: the variable's value, or nothing when it is not set; a
	 * "${" without its '}' stays as it is.
	 */
	while (*p) {
		const char *end, *val = NULL;
		size_t len;

		if (p[0] == '$' && p[1] == '{' && (end = strchr(p + 2, '}'))) {
			char name[256];

			if ((size_t)(end - p - 2) >= sizeof(name)) {
				snprintf(why, whysz, "'%.40s': the variable name is too long", p);
				return -EINVAL;
			}
			memcpy(name, p + 2, (size_t)(end - p - 2));
			name[end - p - 2] = '\0';
			if (name[0])
				val = getenv(name);
			len = val ? strlen(val) : 0;
			if (n + len >= size) {
				snprintf(why, whysz, "the option is too long once ${%s} is replaced", name);
				return -EINVAL;
			}
			memcpy(out + n, val ? val : "", len);
			n += len;
			p = end + 1;
			continue;
		}
		if (n + 1 >= size) {
			snprintf(why, whysz, "option too long");
			return -EINVAL;
		}
		out[n++] = *p++;
	}
	out[n] = '\0';

	/* The keywords, every occurrence, in fio's order. */
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char *s, num[24];
		size_t wl = strlen(words[i]), nl;

		while ((s = strstr(out, words[i]))) {
			nl = (size_t)snprintf(num, sizeof(num), "%lu", kw_value((unsigned)i));
			/* Every value is shorter than its keyword. */
			memcpy(s, num, nl);
			memmove(s + nl, s + wl, strlen(s + wl) + 1);
			replaced = true;
		}
	}
	if (!replaced || !strpbrk(out, "+-*/") || strchr(out, '\''))
		return 0;
	eq = strchr(out, '=');
	if (!eq)
		return 0;
	if (strlen(out) >= 128 || strlen(eq + 1) > 100) {
		snprintf(why, whysz, "'%.60s': fio 3.33 hands values of over 100 characters to its parser without bc: write the value out",
			 eq + 1);
		return -EINVAL;
	}
	/*
	 * Letters are variables (0) or hex digits to bc, '.' a fraction:
	 * what fio would take then is not worth guessing.
	 */
	if (eq[1 + strspn(eq + 1, "0123456789+-*/%^() \t")]) {
		snprintf(why, whysz, "'%s': fio 3.33 hands this to bc once a $keyword is replaced, and ralab evaluates only integers with + - * / %% ^ ( ): write the value out",
			 eq + 1);
		return -EINVAL;
	}
	b.s = eq + 1;
	v = bc_expr(&b);
	bc_blank(&b);
	if (!b.err && *b.s)
		b.err = "a syntax error";
	if (b.err) {
		if (b.big)
			snprintf(why, whysz, "'%s' is beyond 64 bits", eq + 1);
		else
			snprintf(why, whysz, "bc cannot evaluate '%s': %s (fio 3.33 drops the job)",
				 eq + 1, b.err);
		return -EINVAL;
	}
	snprintf(out + (eq + 1 - out), size - (size_t)(eq + 1 - out), "%lld",
		 (long long)v);
	return 0;
}
