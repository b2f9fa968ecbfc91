/* bench/bench_ocsd.c - the OpenCSD peer, driven through its installed C API
 * (Debian libopencsd-dev): same input, same chunking, counting callbacks. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#ifdef BENCH_HAVE_OPENCSD
#include <opencsd/c_api/opencsd_c_api.h>

struct ocsd_count {
	uint64_t packets, insns, elems, errors;
};

static ocsd_datapath_resp_t count_elem(const void *ctx, ocsd_trc_index_t idx,
				       uint8_t id,
				       const ocsd_generic_trace_elem *el)
{
	struct ocsd_count *c = (struct ocsd_count *)ctx;

	(void)idx;
	(void)id;
	c->elems++;
	if (el->elem_type == OCSD_GEN_TRC_ELEM_INSTR_RANGE)
		c->insns += el->num_instr_range;
	else if (el->elem_type == OCSD_GEN_TRC_ELEM_NO_SYNC)
		c->errors++;
	return OCSD_RESP_CONT;
}

static ocsd_datapath_resp_t count_pkt(const void *ctx, ocsd_datapath_op_t op,
				      ocsd_trc_index_t idx, const void *pkt)
{
	struct ocsd_count *c = (struct ocsd_count *)ctx;

	(void)idx;
	(void)pkt;
	if (op == OCSD_OP_DATA)
		c->packets++;
	return OCSD_RESP_CONT;
}

static int ocsd_setup(const struct bench_case *c, dcd_tree_handle_t t,
		      struct ocsd_count *cnt, char *msg, size_t n)
{
	int flags = c->full ? OCSD_CREATE_FLG_FULL_DECODER :
			      OCSD_CREATE_FLG_PACKET_PROC;
	const char *name;
	ocsd_etmv3_cfg e3;
	ocsd_ptm_cfg ptm;
	const void *cfg;
	unsigned char id;
	int i;

	if (c->cfg.protocol == etm_proto_ptm) {
		memset(&ptm, 0, sizeof(ptm));
		ptm.reg_idr = c->cfg.etmidr;
		ptm.reg_ctrl = c->cfg.etmcr;
		ptm.reg_ccer = c->cfg.etmccer;
		ptm.reg_trc_id = c->cfg.traceid;
		ptm.arch_ver = ARCH_V7;
		ptm.core_prof = profile_CortexA;
		name = OCSD_BUILTIN_DCD_PTM;
		cfg = &ptm;
	} else {
		memset(&e3, 0, sizeof(e3));
		e3.reg_idr = c->cfg.etmidr;
		e3.reg_ctrl = c->cfg.etmcr;
		e3.reg_ccer = c->cfg.etmccer;
		e3.reg_trc_id = c->cfg.traceid;
		e3.arch_ver = ARCH_V7;
		e3.core_prof = profile_CortexA;
		name = OCSD_BUILTIN_DCD_ETMV3;
		cfg = &e3;
	}
	if (ocsd_dt_create_decoder(t, name, flags, cfg, &id) != OCSD_OK) {
		snprintf(msg, n, "cannot create the %s decoder", name);
		return -1;
	}
	if (!c->full)
		return ocsd_dt_attach_packet_callback(t, id,
						      OCSD_C_API_CB_PKT_SINK, (void *)count_pkt, cnt) ==
				       OCSD_OK ?
			       0 :
			       -1;
	for (i = 0; i < c->nmem; i++) {
		ocsd_file_mem_region_t r = {
			.file_offset = c->mem[i].offset,
			.start_address = c->mem[i].addr,
			.region_size = c->mem[i].length,
		};
		if (ocsd_dt_add_binfile_region_mem_acc(t, &r, 1,
						       OCSD_MEM_SPACE_ANY, c->mem[i].path) != OCSD_OK) {
			snprintf(msg, n, "%s: cannot map", c->mem[i].path);
			return -1;
		}
	}
	return ocsd_dt_set_gen_elem_outfn(t, count_elem, cnt) == OCSD_OK ? 0 : -1;
}

/* Push one block, honouring WAIT (never returned by counting callbacks). */
static int ocsd_push(dcd_tree_handle_t t, uint64_t idx, const uint8_t *b,
		     uint32_t n)
{
	uint32_t done = 0, used;
	ocsd_datapath_resp_t r;

	while (done < n) {
		used = 0;
		r = ocsd_dt_process_data(t, OCSD_OP_DATA, idx + done, n - done,
					 b + done, &used);
		if (OCSD_DATA_RESP_IS_FATAL(r))
			return -1;
		done += used;
		if (!used && OCSD_DATA_RESP_IS_WAIT(r))
			ocsd_dt_process_data(t, OCSD_OP_FLUSH, 0, 0, NULL, NULL);
	}
	return 0;
}

int bench_ocsd_run(const struct bench_case *c, struct bench_result *r)
{
	struct ocsd_count cnt = { 0 };
	struct timespec t0, t1;
	dcd_tree_handle_t t;
	uint8_t *buf;
	int fd, fail = 0;

	ocsd_def_errlog_init(OCSD_ERR_SEV_NONE, 0);
	t = ocsd_create_dcd_tree(c->fmt == etm_fmt_raw ? OCSD_TRC_SRC_SINGLE :
							 OCSD_TRC_SRC_FRAME_FORMATTED,
				 c->fmt == etm_fmt_raw ? 0 :
							 OCSD_DFRMTR_FRAME_MEM_ALIGN);
	buf = malloc(BENCH_CHUNK);
	fd = open(c->trace, O_RDONLY);
	if (!t || !buf || fd < 0 ||
	    ocsd_setup(c, t, &cnt, r->msg, sizeof(r->msg)) < 0) {
		if (!r->msg[0])
			snprintf(r->msg, sizeof(r->msg), "OpenCSD set-up failed");
		fail = 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!fail) {
		size_t want = BENCH_CHUNK;
		ssize_t n;

		if (c->limit && c->limit - r->bytes < want)
			want = (size_t)(c->limit - r->bytes);
		n = want ? read(fd, buf, want) : 0;
		if (n <= 0)
			break;
		if (ocsd_push(t, r->bytes, buf, (uint32_t)n) < 0) {
			snprintf(r->msg, sizeof(r->msg), "OpenCSD: fatal data error");
			fail = 1;
		}
		r->bytes += (uint64_t)n;
	}
	if (!fail)
		ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->secs = (double)(t1.tv_sec - t0.tv_sec) +
		  (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	r->packets = cnt.packets;
	r->insns = cnt.insns;
	r->elems = cnt.elems;
	r->errors = cnt.errors;
	r->ok = !fail;
	if (fd >= 0)
		close(fd);
	free(buf);
	if (t)
		ocsd_destroy_dcd_tree(t);
	return fail ? -1 : 0;
}

int bench_ocsd_available(char *ver, unsigned n)
{
	snprintf(ver, n, "%s", ocsd_get_version_str());
	return 1;
}

#else

int bench_ocsd_run(const struct bench_case *c, struct bench_result *r)
{
	(void)c;
	snprintf(r->msg, sizeof(r->msg), "OpenCSD not installed (libopencsd-dev)");
	return -1;
}

int bench_ocsd_available(char *ver, unsigned n)
{
	snprintf(ver, n, "not installed");
	return 0;
}

#endif
