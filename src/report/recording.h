/* SPDX-License-Identifier: MIT */
/*
 * recording.h - a kernel recording's text as ralab output.
 */
#ifndef RALAB_REPORT_RECORDING_H
#define RALAB_REPORT_RECORDING_H
#include <stdio.h>

#include "ralab.h"

/*
 * ralab__recording_text - @buf (malloc'ed, NUL-terminated; taken over) as
 * ralab output text.  Output of ralab (with its data_reads= and
 * folio_orders= lines) and text without kernel events come back
 * unchanged.  A raw event log, the kernel's events alone with block
 * sectors absolute on the device (the shared recordings' events.txt), gets
 * file-relative sectors and the summary lines derived from its events.
 * Return: the text (malloc'ed), or NULL if out of memory.
 */
char *ralab__recording_text(char *buf);

/*
 * Where a recorded kernel put the folios it added, one line after the
 * events (ralab kernel --trace):
 *
 *   folio_pfns=P0 D1 D2 ...
 *
 * P0 the first added folio's page frame number, Dk how far folio k starts
 * after folio k - 1 ends (pfn_k - pfn_{k-1} - 2^order_{k-1}, signed: 0
 * where it follows it in memory), and "0*N" for N zeros in a row.
 *
 * ralab__folio_pfns_write - the line for @n folios @m (ofs, order, pfn).
 * Return: 0, or -EIO when @out fails.
 */
int ralab__folio_pfns_write(FILE *out, const struct ralab_folio_mem *m,
			    size_t n);

/*
 * ralab__recording_folio_mem - the folios of @text's add events (in order)
 * with their pfns from its folio_pfns= line: *@out (malloc'ed; NULL and
 * *@n 0 when @text has no such line).  Return: 0, -EINVAL (a malformed
 * line, or not one pfn per add event: @diag says "@name:LINE: ..."), or
 * -ENOMEM.
 */
int ralab__recording_folio_mem(const char *text, const char *name,
			       struct ralab_folio_mem **out, size_t *n,
			       struct ralab_diag *diag);

#endif
