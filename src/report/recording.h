/* SPDX-License-Identifier: MIT */
/*
 * recording.h - a kernel recording's text as ralab output.
 */
#ifndef RALAB_REPORT_RECORDING_H
#define RALAB_REPORT_RECORDING_H

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

#endif
