// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ralab.h"
#include "workload/workload.h"

const char *ralab_strerror(int err)
{
	/* ralab_run()'s own meaning of it. */
	if (err == -EOPNOTSUPP)
		return "the policy does not model this case: a block_size above 4096 needs a policy of 6.18's code (linux-6.18 or a variant of it), and splice(2), sendfile(2) or 'via splice' a kernel of 6.5 or later (filemap_splice_read(); not linux-6.1 or ctx-2013-*)";
	return strerror(err < 0 ? -err : err);
}

int wl_vdiag(struct ralab_diag *d, const char *name, unsigned line,
	     const char *fmt, va_list ap)
{
	int n;

	if (!d)
		return -EINVAL;
	d->line = line;
	if (line)
		n = snprintf(d->msg, sizeof(d->msg), "%s:%u: ", name, line);
	else
		n = snprintf(d->msg, sizeof(d->msg), "%s: ", name);
	if (n > 0 && (size_t)n < sizeof(d->msg))
		vsnprintf(d->msg + n, sizeof(d->msg) - (size_t)n, fmt, ap);
	return -EINVAL;
}

int wl_diag(struct ralab_diag *d, const char *name, unsigned line,
	    const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = wl_vdiag(d, name, line, fmt, ap);
	va_end(ap);
	return err;
}
