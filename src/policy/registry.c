// SPDX-License-Identifier: MIT
/*
 * registry.c - every readahead policy ralab knows, in one table.
 * The first entry is the default.
 */
#include <errno.h>
#include <string.h>

#include "policy.h"

extern const struct ralab_policy_ops ralab_policy_linux_6_18;
extern const struct ralab_policy_ops ralab_policy_linux_6_12;
extern const struct ralab_policy_ops ralab_policy_linux_6_9;
extern const struct ralab_policy_ops ralab_policy_linux_6_8;
extern const struct ralab_policy_ops ralab_policy_linux_6_1;
extern const struct ralab_policy_ops ralab_policy_park_2026;
extern const struct ralab_policy_ops ralab_policy_kara_2026;
extern const struct ralab_policy_ops ralab_policy_ctx_old;
extern const struct ralab_policy_ops ralab_policy_ctx_new;
extern const struct ralab_policy_ops ralab_policy_ctx_rampup;
extern const struct ralab_policy_ops ralab_policy_ctx_off;

static const struct ralab_policy_ops *const policies[] = {
	&ralab_policy_linux_6_18,
	&ralab_policy_linux_6_12,
	&ralab_policy_linux_6_9,
	&ralab_policy_linux_6_8,
	&ralab_policy_linux_6_1,
	&ralab_policy_park_2026,
	&ralab_policy_kara_2026,
	&ralab_policy_ctx_old,
	&ralab_policy_ctx_new,
	&ralab_policy_ctx_rampup,
	&ralab_policy_ctx_off,
};

/* Jan Kara, "mm: Fix various readahead quirks", June 2024, merged for 6.10. */
static const struct ralab_patch patches[] = {
	{ "kara-2024/01", "linux-6.9", 1, "readahead: Make sure sync readahead reads needed page", true },
	{ "kara-2024/02", "linux-6.9", 2, "filemap: Fix page_cache_next_miss() when no hole found", true },
	{ "kara-2024/03", "linux-6.9", 3, "readahead: Properly shorten readahead when falling back to do_page_cache_ra()", true },
	{ "kara-2024/04", "linux-6.9", 4, "readahead: Drop pointless index from force_page_cache_ra()", false },
	{ "kara-2024/05", "linux-6.9", 5, "readahead: Drop index argument of page_cache_async_readahead()", false },
	{ "kara-2024/06", "linux-6.9", 6, "readahead: Drop dead code in page_cache_ra_order()", false },
	{ "kara-2024/07", "linux-6.9", 7, "readahead: Drop dead code in ondemand_readahead()", true },
	{ "kara-2024/08", "linux-6.9", 8, "readahead: Disentangle async and sync readahead", true },
	{ "kara-2024/09", "linux-6.9", 9, "readahead: Fold try_context_readahead() into its single caller", false },
	{ "kara-2024/10", "linux-6.9", 10, "readahead: Simplify gotos in page_cache_sync_ra()", false },
	/* Y. Shao, Dec 2024, 6.13, backported to the stable kernels. */
	{ "shao-2024", "linux-6.9", 11, "mm/readahead: fix large folio support in async readahead", true },
	/* C. Zhiling, Jun 2025, 6.17, backported to the stable kernels. */
	{ "chi-2025", "linux-6.9", 12, "readahead: fix return value of page_cache_next_miss() when no hole is found", true },
	/*
	 * R. Roberts, "Readahead tweaks for larger folios" v5, Jun 2025, 6.17
	 * (18ebe55a9236 is 02), on 6.16 = linux-6.9+kara-2024+shao-2024.
	 */
	{ "roberts-2025/01", "linux-6.9", 13, "mm/readahead: Honour new_order in page_cache_ra_order()", true },
	{ "roberts-2025/02", "linux-6.9", 14, "mm/readahead: Terminate async readahead on natural boundary", true },
	{ "roberts-2025/03", "linux-6.9", 15, "mm/readahead: Make space in struct file_ra_state", false },
	{ "roberts-2025/04", "linux-6.9", 16, "mm/readahead: Store folio order in struct file_ra_state", true },
	{ "roberts-2025/05", "linux-6.9", 17, "mm/filemap: Allow arch to request folio size for exec memory", true },
	/*
	 * J. Kim, "improve fadvise(POSIX_FADV_WILLNEED) with large folio",
	 * linux-mm and f2fs lists, 2 Dec 2025 (3/3 as resent on 3 Dec, "v2":
	 * ra->order += 2); a proposal, not merged.  policy.h: KIM_2025().
	 */
	{ "kim-2025/01", "linux-6.18", 18, "mm/readahead: fix the broken readahead for POSIX_FADV_WILLNEED", true },
	{ "kim-2025/02", "linux-6.18", 19, "mm/readahead: use page_cache_sync_ra for FADVISE_FAV_WILLNEED", true },
	{ "kim-2025/03", "linux-6.18", 20, "mm/readahead: try to allocate high order pages for FADVISE_FAV_WILLNEED (v2)", true },
	/*
	 * A. Li, linux-mm, 23 Sep 2025 (on 6.17); not merged: J. Kara
	 * objected that it destroys the readahead state.  policy.h: LI_2025.
	 */
	{ "li-2025", "linux-6.18", 21, "mm/readahead: Skip fully overlapped range", true },
};

#define NR_PATCHES (sizeof(patches) / sizeof(patches[0]))

unsigned ralab_patch_count(void)
{
	return NR_PATCHES;
}

const char *ralab_patch_name(unsigned i)
{
	return i < NR_PATCHES ? patches[i].name : NULL;
}

const char *ralab_patch_title(unsigned i)
{
	return i < NR_PATCHES ? patches[i].title : NULL;
}

const char *ralab_patch_policy(unsigned i)
{
	return i < NR_PATCHES ? patches[i].policy : NULL;
}

const struct ralab_patch *ralab__patch_find(const char *name)
{
	unsigned i;

	for (i = 0; i < NR_PATCHES; i++)
		if (!strcmp(patches[i].name, name))
			return &patches[i];
	return NULL;
}

#define NR_POLICIES (sizeof(policies) / sizeof(policies[0]))

unsigned ralab_policy_count(void)
{
	return NR_POLICIES;
}

const char *ralab_policy_name(unsigned i)
{
	return i < NR_POLICIES ? policies[i]->name : NULL;
}

const char *ralab_policy_source(unsigned i)
{
	return i < NR_POLICIES ? policies[i]->source : NULL;
}

const struct ralab_policy_ops *ralab__policy_find(const char *name)
{
	unsigned i;

	if (!name)
		return policies[0];
	for (i = 0; i < NR_POLICIES; i++)
		if (!strcmp(policies[i]->name, name))
			return policies[i];
	return NULL;
}

/*
 * A series' name ("kara-2024" for "kara-2024/01".."10"): the bits of all
 * its patches, or -ENOENT (no such series), -EINVAL (another policy's).
 */
static int series_bits(const char *name, const char *policy,
		       unsigned long *bits)
{
	size_t len = strlen(name);
	unsigned i, n = 0;

	for (i = 0; i < NR_PATCHES; i++) {
		if (strncmp(patches[i].name, name, len) ||
		    patches[i].name[len] != '/')
			continue;
		if (strcmp(patches[i].policy, policy))
			return -EINVAL;
		*bits |= 1ul << (patches[i].bit - 1);
		n++;
	}
	return n ? 0 : -ENOENT;
}

int ralab__policy_resolve(const char *name, const char *const *patch_names,
			  unsigned nr_patches,
			  const struct ralab_policy_ops **policy,
			  unsigned long *bits)
{
	unsigned i;

	*policy = ralab__policy_find(name);
	if (!*policy)
		return -ENOENT;
	*bits = (*policy)->patches;
	for (i = 0; i < nr_patches; i++) {
		const struct ralab_patch *p = ralab__patch_find(patch_names[i]);
		int err;

		if (!p) {
			err = series_bits(patch_names[i], (*policy)->name, bits);
			if (err)
				return err;
			continue;
		}
		if (strcmp(p->policy, (*policy)->name))
			return -EINVAL;
		*bits |= 1ul << (p->bit - 1);
	}
	return 0;
}
