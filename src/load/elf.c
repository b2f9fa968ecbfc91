/* load/elf.c - ELF program loader (libelf): copies the executable PT_LOAD
 * segments of a 32- or 64-bit ARM ELF file into a program image. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/core.h>
#include <etmtrace/error.h>
#include <etmtrace/image.h>

#include "common/strbuf.h"

#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif

/* Check the ELF header: an executable image for 32-bit ARM or AArch64. */
static int elf_check_header(Elf *e, const char *path, char *errbuf,
			    size_t errlen)
{
	GElf_Ehdr eh;
	int cls;

	if (elf_kind(e) != ELF_K_ELF)
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: not an ELF file", path);
	cls = gelf_getclass(e);
	if (cls != ELFCLASS32 && cls != ELFCLASS64)
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: unknown ELF class", path);
	if (!gelf_getehdr(e, &eh))
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: bad ELF header: %s", path, elf_errmsg(-1));
	if (eh.e_machine != EM_ARM && eh.e_machine != EM_AARCH64)
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: not an ARM ELF file (e_machine %u)", path,
				   (unsigned)eh.e_machine);
	return 0;
}

/* Program header @i into *@pc if it is an executable PT_LOAD segment.
 * Returns 1 if taken, 0 if skipped, or a negative error. */
static int elf_add_segment(struct etm_piece *pc, Elf *e, size_t i,
			   const char *raw, size_t rawsize, uint64_t bias,
			   uint64_t *total, const char *path, char *errbuf,
			   size_t errlen)
{
	GElf_Phdr ph;

	if (!gelf_getphdr(e, (int)i, &ph))
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: bad program header %zu: %s", path, i,
				   elf_errmsg(-1));
	if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) || !ph.p_filesz)
		return 0;
	if (ph.p_offset > rawsize || ph.p_filesz > rawsize - ph.p_offset)
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: segment %zu (offset 0x%llx, size 0x%llx) "
				   "lies beyond the end of the file",
				   path, i, (unsigned long long)ph.p_offset,
				   (unsigned long long)ph.p_filesz);
	/* overlapping segments could copy the file many times over: the
	 * bytes loaded may not exceed the file size */
	*total += ph.p_filesz;
	if (*total > rawsize)
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: executable segments overlap (more bytes "
				   "than the %zu-byte file)",
				   path, rawsize);
	if (ph.p_vaddr + bias < ph.p_vaddr ||
	    ph.p_vaddr + bias > ETM_IMAGE_TOP - ph.p_filesz)
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: segment %zu at 0x%llx (0x%llx bytes) lies "
				   "beyond the 32-bit address space",
				   path, i,
				   (unsigned long long)(ph.p_vaddr + bias),
				   (unsigned long long)ph.p_filesz);
	pc->addr = ph.p_vaddr + bias;
	pc->n = (size_t)ph.p_filesz;
	pc->p = (const uint8_t *)raw + ph.p_offset;
	return 1;
}

/* libelf silently shortens a program header table cut by the end of the
 * file; a truncated file must be an error, not "no segments". */
static int elf_check_phdrs(Elf *e, size_t rawsize, const char *path,
			   char *errbuf, size_t errlen)
{
	GElf_Ehdr eh;
	uint64_t need;

	if (!gelf_getehdr(e, &eh))
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: bad ELF header: %s", path, elf_errmsg(-1));
	if (eh.e_phnum == 0 || eh.e_phnum == PN_XNUM)
		return 0;
	need = (uint64_t)eh.e_phnum * eh.e_phentsize;
	if (eh.e_phoff > rawsize || need > rawsize - eh.e_phoff)
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: program headers lie beyond the end of the "
				   "file (truncated?)",
				   path);
	return 0;
}

static int elf_load(struct etm_image *img, Elf *e, const char *path,
		    uint64_t bias, char *errbuf, size_t errlen)
{
	size_t nph, i, rawsize, added = 0;
	struct etm_piece *pcs;
	uint64_t total = 0;
	const char *raw;
	int rc;

	rc = elf_check_header(e, path, errbuf, errlen);
	if (rc < 0)
		return rc;
	if (elf_getphdrnum(e, &nph) != 0)
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: bad program headers: %s", path,
				   elf_errmsg(-1));
	raw = elf_rawfile(e, &rawsize);
	if (!raw)
		return etm_err_msg(errbuf, errlen, -etme_parse,
				   "%s: cannot read ELF data: %s", path,
				   elf_errmsg(-1));
	rc = elf_check_phdrs(e, rawsize, path, errbuf, errlen);
	if (rc < 0)
		return rc;
	pcs = malloc((nph ? nph : 1) * sizeof(*pcs));
	if (!pcs)
		return etm_err_msg(errbuf, errlen, -etme_nomem, "out of memory");
	for (i = 0; i < nph && rc >= 0; i++) {
		rc = elf_add_segment(&pcs[added], e, i, raw, rawsize, bias,
				     &total, path, errbuf, errlen);
		added += rc > 0;
	}
	/* all at once: O(n log n) for many segments in any order */
	if (rc >= 0) {
		rc = etm_image_add_buffers(img, etm_space_any, pcs, added, path);
		if (rc < 0)
			etm_err_msg(errbuf, errlen, rc, "%s: %s", path,
				    etm_errstr(rc));
	}
	free(pcs);
	return rc < 0 ? rc : (int)added;
}

/* ELF file @path opened for reading: *@fd and *@e (NULL with the error
 * set when libelf cannot read it; then 0 is still returned and the caller
 * closes *@fd), or an error before the file was opened. */
static int elf_open(const char *path, int *fd, Elf **e, int *rc, char *errbuf,
		    size_t errlen)
{
	*e = NULL;
	*rc = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return etm_err_msg(errbuf, errlen, -etme_internal,
				   "libelf initialisation failed");
	*fd = open(path, O_RDONLY);
	if (*fd < 0)
		return etm_err_msg(errbuf, errlen, -etme_io, "%s: %s", path,
				   strerror(errno));
	*e = elf_begin(*fd, ELF_C_READ, NULL);
	if (!*e)
		*rc = etm_err_msg(errbuf, errlen, -etme_parse, "%s: %s", path,
				  elf_errmsg(-1));
	return 0;
}

int etm_image_add_elf(struct etm_image *img, const char *path, uint64_t bias,
		      char *errbuf, size_t errlen)
{
	Elf *e;
	int fd, rc, r;

	if (!img || !path)
		return -etme_invalid;
	r = elf_open(path, &fd, &e, &rc, errbuf, errlen);
	if (r < 0)
		return r;
	if (e) {
		rc = elf_load(img, e, path, bias, errbuf, errlen);
		elf_end(e);
	}
	close(fd);
	return rc;
}

int etm_image_is_elf(const char *path)
{
	unsigned char m[SELFMAG] = { 0 };
	FILE *f = path ? fopen(path, "rb") : NULL;
	size_t n;

	if (!f)
		return 0;
	n = fread(m, 1, SELFMAG, f);
	fclose(f);
	return n == SELFMAG && !memcmp(m, ELFMAG, SELFMAG);
}

#ifndef SHT_ARM_ATTRIBUTES
#define SHT_ARM_ATTRIBUTES 0x70000003
#endif

/* The .ARM.attributes section of @e (SHT_ARM_ATTRIBUTES) into @a. */
static int elf_attrs(Elf *e, const char *path, struct etm_arm_attrs *a,
		     char *errbuf, size_t errlen)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;
	int big = elf_getident(e, NULL)[EI_DATA] == ELFDATA2MSB;

	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_ARM_ATTRIBUTES)
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d || (d->d_size && !d->d_buf))
			return etm_err_msg(errbuf, errlen, -etme_parse,
					   "%s: cannot read .ARM.attributes: %s",
					   path, elf_errmsg(-1));
		if (etm_arm_attrs_parse(d->d_buf, d->d_size, big, a) < 0)
			return etm_err_msg(errbuf, errlen, -etme_parse,
					   "%s: malformed .ARM.attributes", path);
		return 0;
	}
	return 0;
}

int etm_elf_arm_attrs(const char *path, struct etm_arm_attrs *a, char *errbuf,
		      size_t errlen)
{
	GElf_Ehdr eh;
	Elf *e;
	int fd, rc, r;

	if (!path || etm_arm_attrs_parse(NULL, 0, 0, a) < 0)
		return -etme_invalid;
	r = elf_open(path, &fd, &e, &rc, errbuf, errlen);
	if (r < 0)
		return r;
	if (e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh) &&
	    eh.e_machine == EM_ARM)
		rc = elf_attrs(e, path, a, errbuf, errlen);
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}
