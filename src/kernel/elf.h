/* SPDX-License-Identifier: MIT */
/*
 * elf.h - how the kernel's ELF loader (load_elf_binary()) maps a program
 * that execve() runs: what 'ralab record' notes of each program the log
 * executes, since no system call shows those mappings.
 */
#ifndef RALAB_KERNEL_ELF_H
#define RALAB_KERNEL_ELF_H

#include <stdbool.h>
#include <stdint.h>

#define KX_ELF_MAX_LOADS 16

/* A PT_LOAD program header: what elf_load() maps of the file, and where. */
struct kx_elf_load {
	uint64_t off, vaddr, filesz, memsz;
	unsigned prot; /* PROT_READ | PROT_WRITE | PROT_EXEC of p_flags */
};

struct kx_elf {
	uint64_t phoff, phlen;       /* the program headers (elf_read()) */
	uint64_t interp_off, interp_len; /* PT_INTERP (0 length: none) */
	char interp[256];            /* its path ("" if none or too long) */
	uint64_t entry;              /* e_entry: where it starts running */
	bool dyn;                    /* ET_DYN (position-independent) */
	/*
	 * What the load bias is: 0 for ET_EXEC; for a position-independent
	 * program (ET_DYN with PT_INTERP) started without address-space
	 * randomization, ELF_ET_DYN_BASE aligned as load_elf_binary()
	 * aligns it (x86-64 only); otherwise not known (@have_bias false).
	 */
	bool have_bias;
	uint64_t bias;
	unsigned nload;
	struct kx_elf_load load[KX_ELF_MAX_LOADS];
};

/*
 * kx_elf_read - the program headers of the ELF file at @path, as
 * load_elf_binary() reads them; @norandom: the program ran with
 * ADDR_NO_RANDOMIZE (or randomize_va_space 0).  Return: 0, -ENOEXEC (not
 * a 64-bit little-endian ET_EXEC or ET_DYN ELF file, or more than
 * KX_ELF_MAX_LOADS segments), or -errno.
 */
int kx_elf_read(const char *path, bool norandom, struct kx_elf *e);

#endif
