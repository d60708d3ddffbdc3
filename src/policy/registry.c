// SPDX-License-Identifier: MIT
/*
 * registry.c - every readahead policy ralab knows, in one table.
 * The first entry is the default.
 */
#include <string.h>

#include "policy.h"

extern const struct ralab_policy_ops ralab_policy_linux_6_18;

static const struct ralab_policy_ops *const policies[] = {
	&ralab_policy_linux_6_18,
};

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
