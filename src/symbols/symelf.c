/* symbols/symelf.c - functions from an ELF file's symbol table (libelf),
 * then its DWARF through symbols/symdwarf.c. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/error.h>

#include "symbols/sym_int.h"

/* ARM mapping symbols ($a, $t, $d, $x, optionally followed by ".anything")
 * mark code/data boundaries, not functions (ARM IHI 0044, ELF for the Arm
 * Architecture, "Mapping symbols"). */
static int is_mapping_symbol(const char *n)
{
	return n[0] == '$' && strchr("atdx", n[1]) && n[1] &&
	       (n[2] == 0 || n[2] == '.');
}

/* Rank of a symbol among those at the same address (lower wins), or -1 if
 * it is not a function. */
static int sym_elf_rank(Elf *e, const GElf_Sym *sym, const char *name)
{
	int type = GELF_ST_TYPE(sym->st_info), bind = GELF_ST_BIND(sym->st_info);
	int rank;
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE ||
	    !*name || is_mapping_symbol(name))
		return -1;
	rank = bind == STB_GLOBAL ? sym_rank_global :
	       bind == STB_WEAK   ? sym_rank_weak :
				    sym_rank_local;
	if (type == STT_NOTYPE) {
		if (bind == STB_LOCAL)
			return -1; /* assembler labels inside functions */
		scn = elf_getscn(e, sym->st_shndx);
		if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
			return -1;
		rank += sym_rank_notype;
	} else if (type != STT_FUNC) {
		return -1;
	}
	if (!sym->st_size)
		rank += sym_rank_unsized;
	return rank;
}

/* End of the section holding @sym (+@bias), 0 if unknown. */
static uint64_t sym_section_end(Elf *e, const GElf_Sym *sym, uint64_t bias)
{
	Elf_Scn *scn = elf_getscn(e, sym->st_shndx);
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
		return 0;
	return sh.sh_addr + sh.sh_size + bias;
}

/* Add the functions of symbol table section @scn. Returns the count or
 * -etme_nomem. */
static int sym_elf_table(struct etm_symbols *s, Elf *e, Elf_Scn *scn,
			 const GElf_Shdr *sh, uint64_t bias)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t i, n;
	int added = 0;

	if (!d || !sh->sh_entsize)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		struct sym_fn f = { .module = s->nmod };
		const char *name;
		int rank, r;

		if (!gelf_getsym(d, (int)i, &sym))
			continue;
		name = elf_strptr(e, sh->sh_link, sym.st_name);
		if (name && is_mapping_symbol(name) && sym.st_shndx != SHN_UNDEF &&
		    sym.st_shndx < SHN_LORESERVE) {
			r = sym_map_push(s, sym.st_value + bias,
					 sym_section_end(e, &sym, bias), name[1]);
			if (r < 0)
				return r;
			continue;
		}
		if (!name || (rank = sym_elf_rank(e, &sym, name)) < 0)
			continue;
		f.thumb = sym.st_value & 1;
		f.start = (sym.st_value & ~(uint64_t)1) + bias;
		f.sized = sym.st_size != 0;
		f.end = sym_end(f.start, sym.st_size);
		f.limit = f.sized ? 0 : sym_section_end(e, &sym, bias);
		f.rank = (uint8_t)rank;
		r = sym_fn_push(s, &f, name);
		if (r < 0)
			return r;
		added++;
	}
	return added;
}

/* The .symtab, or .dynsym if there is none. */
static int sym_elf_symbols(struct etm_symbols *s, Elf *e, uint64_t bias)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dsh;

	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			return sym_elf_table(s, e, scn, &sh, bias);
		if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dsh = sh;
		}
	}
	return dyn ? sym_elf_table(s, e, dyn, &dsh, bias) : 0;
}

int etm_symbols_add_elf(struct etm_symbols *s, const char *path,
			uint64_t bias, char *errbuf, size_t errlen)
{
	Elf *e;
	int fd, r;

	if (!s || !path)
		return -etme_invalid;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "%s: %s", path, strerror(errno));
		return -etme_io;
	}
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "%s: not an ELF file", path);
		elf_end(e);
		close(fd);
		return -etme_parse;
	}
	r = sym_elf_symbols(s, e, bias);
	elf_end(e);
	if (r >= 0) {
		int d = sym_dwarf_load(s, fd, bias);

		if (d < 0)
			r = d;
	}
	close(fd);
	s->nmod++;
	sym_index(s);
	if (r < 0 && errbuf && errlen)
		snprintf(errbuf, errlen, "%s: %s", path, etm_errstr(r));
	return r;
}
