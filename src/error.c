// SPDX-License-Identifier: MIT
#include <string.h>

#include "ralab.h"

const char *ralab_strerror(int err)
{
	return strerror(err < 0 ? -err : err);
}
