/* load/open_int.h - the capture object of etm_capture_open() and the
 * helpers its snapshot and trace-file halves share (load/open.c,
 * load/open_src.c). */
#ifndef ETM_LOAD_OPEN_INT_H
#define ETM_LOAD_OPEN_INT_H

#include <stdio.h>

#include <etmtrace/core.h>
#include <etmtrace/open.h>

#include "load/capread.h"
#include "common/strbuf.h"

struct etm_capture {
	char *path;
	struct etm_snapshot *snap; /* NULL: a trace file */
	struct etm_capture_source *src;
	size_t nsrc;
	struct etm_capture_buffer *buf;
	size_t nbuf;
	char (*why)[160]; /* buf[i].format_why storage */
	size_t nwhy;
	struct etm_image **imgs; /* owned */
	size_t nimgs;
	char **notes; /* NULL-terminated */
	size_t nnotes;
	/* the pull form (etm_capture_next*(), load/caprun_pull.c): buffer
	 * being read, its reader, decoder finished; with jobs > 1 the
	 * decode runs on a thread of its own (bg) */
	size_t cur;
	struct cap_reader rd;
	int rd_open;
	int finished;
	unsigned jobs;
	struct cap_bg *bg;
	char **strs; /* owned strings (cap_strdup()) */
	size_t nstrs;
	/* a perf.data file's AUX pieces get their decoder when read
	 * (etm_capture_load(), load/open_perf.c): lazy[i] marks buffer i,
	 * live is the one loaded + 1 (0: none) */
	uint8_t *lazy;
	size_t nlazy, live;
	enum etm_decoder_mode mode;
	/* a perf.data file's images by pid, the Context ID's process
	 * (load/open_perf_ctx.c; NULL: none) */
	struct cap_pctx *pctx;
	int stream; /* opened from a stream's head (etm_open_opts.head) */
};

/* Open state: the options (copied, full size) and the error buffer. */
struct cap_ctx {
	struct etm_open_opts o;
	struct etm_capture *cap;
	char *err;
	size_t errlen;
	/* what the --elf files' build attributes say (cap_core()) */
	struct etm_core_trace core;
	int core_read;
	/* the data bytes of a trace file's probed start, deformatted once,
	 * each with its trace ID (load/open_itm.c; freed by
	 * etm_capture_open()) */
	uint8_t *probe_data, *probe_id;
	size_t nprobe;
};

/* An error of the open: its message into the caller's buffer, @code returned. */
#define cap_err(c, code, ...) etm_err_msg((c)->err, (c)->errlen, code, __VA_ARGS__)
int cap_note(struct etm_capture *cap, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct etm_capture_source *cap_add_source(struct etm_capture *cap);
struct etm_capture_buffer *cap_add_buffer(struct etm_capture *cap);
struct etm_image *cap_new_image(struct etm_capture *cap);
int cap_user_images(struct cap_ctx *c, struct etm_image *img);
int cap_selected(const struct cap_ctx *c, unsigned id);
/* The frame realignment the options ask of decoder @dec (ETM_OPEN_REALIGN_*;
 * none: the decoder's default). */
void cap_realign(const struct cap_ctx *c, struct etm_decoder *dec);
int cap_override(const struct cap_ctx *c, struct etm_config *cfg);
int cap_wire(struct cap_ctx *c, struct etm_capture_source *s);
int cap_check_ids(struct cap_ctx *c);
/* Pieces of circular buffers (open_pieces.c). */
int cap_pieces(struct cap_ctx *c);
/* The image of a decoded snapshot source with the same memory as @s (a
 * source left out by the selection; load/open_left.c), else NULL. */
const struct etm_image *cap_left_image(const struct etm_capture *cap,
				       const struct etm_capture_source *s);

/* A copy of @s the capture owns (freed with it); NULL on no memory. */
const char *cap_strdup(struct etm_capture *cap, const char *s);

int cap_open_snapshot(struct cap_ctx *c);
/* perf.data files (load/open_perf.c): whether @path is one; open it. */
int cap_is_perf(const char *path);
int cap_open_perf(struct cap_ctx *c);
/* Whether the capture has a source to decode in a buffer made lazily. */
int cap_perf_nonempty(const struct etm_capture *cap);
/* Per-process images of a perf.data capture (load/open_perf_ctx.c): put
 * on the sources of decoder @dec that trace Context IDs; freed with the
 * capture. */
int cap_pctx_wire(struct etm_capture *cap, struct etm_decoder *dec,
		  const struct etm_capture_source *s);
void cap_pctx_free(struct etm_capture *cap);
/* Buffer @bi is the piece decoded now (etm_capture_load()). */
void cap_pctx_load(struct etm_capture *cap, size_t bi);
int cap_open_file(struct cap_ctx *c);

/* ETMv1 (load/open_e1.c): whether @p is ETMv1/ETMv2; a trace file of
 * samples as the capture's one buffer and source; snapshot source @s
 * (images loaded) decoded from its buffer's sample file. */
int cap_is_e1(enum etm_protocol p);
int cap_open_e1_file(struct cap_ctx *c);
int cap_wire_e1(struct cap_ctx *c, struct etm_capture_source *s);
/* The trace file's first @n bytes at @head look like ETMv1 pipestat
 * samples the file format does not announce (our text format, or an ETB
 * RAM image: byte 3 of every 32-bit word zero): a note that names
 * --protocol etmv1, unless the options gave a protocol or format. */
void cap_e1_hint(struct cap_ctx *c, const uint8_t *head, size_t n);

/* The core the --elf files describe (the first with build attributes;
 * load/infer.c), read once; protocols 0 when nothing is known. */
const struct etm_core_trace *cap_core(struct cap_ctx *c);
/* Whether the core the ELF describes has ETMv1 trace only (no --protocol
 * given): a trace file is then read as ETMv1 samples. */
int cap_core_e1_only(struct cap_ctx *c);
/* The bytes the probes of buffer @b look at (TPIU without FSYNC: from
 * where its frames start, as frames from byte 0). */
void cap_probe_view(const struct etm_capture_buffer *b,
		    enum etm_input_format *fmt, const uint8_t **head, size_t *n);

/* The data bytes of the @n bytes at @head of buffer @b with their trace
 * IDs (raw input: all of them, ID 0), deformatted once into
 * @c->probe_data and @c->probe_id (load/open_itm.c): the trace IDs of a
 * trace file and the ITM test read them. 0 or -etme_nomem. */
int cap_probe_data(struct cap_ctx *c, const struct etm_capture_buffer *b,
		   const uint8_t *head, size_t n);
/* Source @s of a trace file (trace ID set): if its bytes in the @n at
 * @head are ITM/DWT trace and the options give no protocol (or the
 * protocol itm), it is configured as ITM/DWT and, with @wire, added to
 * its buffer's decoder with a note (load/open_itm.c). Returns 1 if so,
 * 0, or an error. */
int cap_itm_source(struct cap_ctx *c, struct etm_capture_source *s,
		   const uint8_t *head, size_t n, int wire);
/* A snapshot's ITM device @s (trace ID and buffer set, selected): decoded
 * as ITM/DWT (load/open_itm.c). Returns 0 or an error. */
int cap_itm_snap(struct cap_ctx *c, struct etm_capture_source *s);

/* Configuration of trace ID @id in @n bytes of @fmt input, probed against
 * @img (load/infer.c): fields the options give are kept. */
int cap_infer(struct cap_ctx *c, enum etm_input_format fmt, unsigned id,
	      const struct etm_image *img, const uint8_t *buf, size_t n,
	      struct etm_config *cfg);

/* Stop the pull form's thread and close its reader (etm_capture_free()). */
void cap_pull_free(struct etm_capture *cap);

#endif
