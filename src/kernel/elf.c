// SPDX-License-Identifier: MIT
/*
 * elf.c - the program headers of an executable, read as the kernel's ELF
 * loader reads them (fs/binfmt_elf.c, load_elf_binary()): the header's
 * e_phoff and e_phnum, PT_INTERP, and each PT_LOAD segment, which
 * elf_load() maps MAP_PRIVATE at load_bias + p_vaddr.
 *
 * The load bias of a position-independent program (ET_DYN with an
 * interpreter) is ELF_ET_DYN_BASE (2/3 of the 47-bit user address space
 * on x86-64), plus a random offset unless the process runs with
 * ADDR_NO_RANDOMIZE, aligned down to the largest power-of-two p_align of
 * its PT_LOAD segments (at least a page), less the first segment's
 * p_vaddr, page-aligned.  'ralab record' runs the program without
 * randomization so that this is known (it is what gdb does too).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kernel/elf.h"

#define PAGE 4096ull
#define ET_EXEC_ 2
#define ET_DYN_ 3
#define EM_X86_64_ 62
#define PT_LOAD_ 1
#define PT_INTERP_ 3
#define PHDR_SIZE 56
/* x86-64: DEFAULT_MAP_WINDOW / 3 * 2, with DEFAULT_MAP_WINDOW 2^47 - 4096. */
#define ET_DYN_BASE_X86_64 ((((1ull << 47) - PAGE) / 3) * 2)

static uint64_t le(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static bool read_at(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n == (ssize_t)len;
}

int kx_elf_read(const char *path, bool norandom, struct kx_elf *e)
{
	unsigned char eh[64], ph[PHDR_SIZE];
	uint64_t type, machine, phnum, align = PAGE, i;
	int fd, err = 0;

	memset(e, 0, sizeof(*e));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	/* 64-bit, little-endian, version 1 (what this host runs). */
	if (!read_at(fd, eh, sizeof(eh), 0) || memcmp(eh, "\177ELF", 4) ||
	    eh[4] != 2 || eh[5] != 1 || le(eh + 54, 2) != PHDR_SIZE) {
		close(fd);
		return -ENOEXEC;
	}
	type = le(eh + 16, 2);
	machine = le(eh + 18, 2);
	e->entry = le(eh + 24, 8);
	e->dyn = type == ET_DYN_;
	e->phoff = le(eh + 32, 8);
	phnum = le(eh + 56, 2);
	e->phlen = phnum * PHDR_SIZE;
	/* load_elf_phdrs(): 1 to 65536 bytes of headers. */
	if ((type != ET_EXEC_ && type != ET_DYN_) || !phnum ||
	    e->phlen > 65536) {
		close(fd);
		return -ENOEXEC;
	}
	for (i = 0; !err && i < phnum; i++) {
		uint64_t pt, pa;
		struct kx_elf_load *l;

		if (!read_at(fd, ph, sizeof(ph), e->phoff + i * PHDR_SIZE)) {
			err = -ENOEXEC;
			break;
		}
		pt = le(ph, 4);
		if (pt == PT_INTERP_ && !e->interp_len) {
			e->interp_off = le(ph + 8, 8);
			e->interp_len = le(ph + 32, 8);
			/* NUL-terminated, as load_elf_binary() requires. */
			if (e->interp_len >= 2 &&
			    e->interp_len <= sizeof(e->interp) &&
			    (!read_at(fd, e->interp, e->interp_len,
				      e->interp_off) ||
			     e->interp[e->interp_len - 1]))
				e->interp[0] = '\0';
			continue;
		}
		if (pt != PT_LOAD_)
			continue;
		if (e->nload == KX_ELF_MAX_LOADS) {
			err = -ENOEXEC;
			break;
		}
		l = &e->load[e->nload++];
		l->prot = (unsigned)(((le(ph + 4, 4) & 4) ? 1 : 0) |  /* PF_R */
				     ((le(ph + 4, 4) & 2) ? 2 : 0) |  /* PF_W */
				     ((le(ph + 4, 4) & 1) ? 4 : 0));  /* PF_X */
		l->off = le(ph + 8, 8);
		l->vaddr = le(ph + 16, 8);
		l->filesz = le(ph + 32, 8);
		l->memsz = le(ph + 40, 8);
		pa = le(ph + 48, 8);
		/* maximum_alignment(): powers of two only. */
		if (pa && !(pa & (pa - 1)) && pa > align)
			align = pa;
		/* p_offset and p_vaddr agree modulo the page. */
		if ((l->off ^ l->vaddr) % PAGE || l->filesz > l->memsz)
			err = -ENOEXEC;
	}
	close(fd);
	if (err)
		return err;
	if (!e->nload)
		return -ENOEXEC;
	if (type == ET_EXEC_) {
		e->have_bias = true;
	} else if (e->interp_len && norandom && machine == EM_X86_64_) {
		e->bias = ((ET_DYN_BASE_X86_64 & ~(align - 1)) - e->load[0].vaddr) &
			  ~(PAGE - 1);
		e->have_bias = true;
	}
	return 0;
}
