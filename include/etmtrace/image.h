/* etmtrace/image.h - program image: the memory regions the flow decoder reads
 * opcodes from (buffers, files, caller callback), per memory space. */
#ifndef ETM_ETMTRACE_IMAGE_H
#define ETM_ETMTRACE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Memory spaces. A region in etm_space_any serves both security states;
 * a region in a specific space is preferred over an "any" region. */
enum etm_space {
	etm_space_any = 0,
	etm_space_secure,
	etm_space_nonsecure,
};

/** Caller-supplied memory reader: copy up to @n bytes at @addr in @space to
 * @buf; return the number of bytes copied (0 = not accessible). */
typedef size_t (*etm_image_read_fn)(void *ctx, enum etm_space space,
				    uint64_t addr, uint8_t *buf, size_t n);

struct etm_image;

/** Allocate an empty image. NULL on no memory. */
struct etm_image *etm_image_alloc(void);
/** Free the image and the bytes it owns; NULL is a no-op. */
void etm_image_free(struct etm_image *img);

/** Add a region at @addr holding @n bytes copied from @buf. Later regions
 * win where regions overlap. Returns 0, -etme_nomem, -etme_invalid. */
int etm_image_add_buffer(struct etm_image *img, enum etm_space space,
			 uint64_t addr, const uint8_t *buf, size_t n);
/** Addresses are 32-bit: every region lies below this. */
#define ETM_IMAGE_TOP 0x100000000ull

/** One region for etm_image_add_buffers(): @n bytes at @addr copied from @p. */
struct etm_piece {
	uint64_t addr;
	size_t n;
	const uint8_t *p;
};

/** Add @n regions at once, as if by etm_image_add_buffer() in array order
 * (later ones win where they overlap), each named @name (may be NULL), in
 * O((n + segments) log n) rather than O(n * segments); loaders with many
 * pieces (ELF segments) use it. On error nothing is added.
 * Returns 0.
 * Returns -etme_nomem if out of memory.
 * Returns -etme_invalid if a piece is NULL or empty, or ends past
 * ETM_IMAGE_TOP, or @space is not a space. */
int etm_image_add_buffers(struct etm_image *img, enum etm_space space,
			  const struct etm_piece *v, size_t n,
			  const char *name);
/** Add @length bytes of file @path starting at @file_offset, placed at @addr
 * (@length 0 = to end of file). The file is read (or mapped) now.
 * Returns 0, -etme_io (missing/short file), -etme_nomem, -etme_invalid. */
int etm_image_add_file(struct etm_image *img, enum etm_space space,
		       uint64_t addr, const char *path, uint64_t file_offset,
		       uint64_t length);
/** Set a callback consulted for addresses no region covers. */
int etm_image_set_reader(struct etm_image *img, etm_image_read_fn fn,
			 void *ctx);

/** Read up to @n bytes at @addr in @space. Returns the number of contiguous
 * bytes read (0 if @addr is not mapped). */
size_t etm_image_read(const struct etm_image *img, enum etm_space space,
		      uint64_t addr, uint8_t *buf, size_t n);

/** Zero-copy lookup: point *@p at the image bytes at @addr and return how
 * many bytes are available there (0 if unmapped or served by callback). */
size_t etm_image_peek(const struct etm_image *img, enum etm_space space,
		      uint64_t addr, const uint8_t **p);

/** Number of regions, and region @i's description, for listings. */
size_t etm_image_count(const struct etm_image *img);
int etm_image_region(const struct etm_image *img, size_t i,
		     enum etm_space *space, uint64_t *addr, uint64_t *size,
		     const char **name);
/** Attach a display name (e.g. the source file) to the last added region. */
int etm_image_name_last(struct etm_image *img, const char *name);

/** Load the executable (PF_X) PT_LOAD segments of ELF file @path, each at
 * its p_vaddr + @bias. Implemented with libelf in the load layer.
 * Returns the number of segments added, -etme_io, -etme_parse (not an ELF
 * or not 32/64-bit ARM-loadable), -etme_nomem. With @errbuf non-NULL a
 * one-line reason is written there. */
int etm_image_add_elf(struct etm_image *img, const char *path, uint64_t bias,
		      char *errbuf, size_t errlen);

/** Whether file @path is an ELF file (starts with the ELF magic): 0 or 1
 * (0 also if it cannot be read). */
int etm_image_is_elf(const char *path);

#ifdef __cplusplus
}
#endif
#endif
