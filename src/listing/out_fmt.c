/* listing/out_fmt.c - decoded elements as text (see out_fmt.h): canonical
 * instruction lines, listing lines of events, JSON lines. Formats only:
 * no counters, no state from element to element. */
#include <string.h>

#include <etmtrace/error.h>
#include <etmtrace/insn.h>
#include <etmtrace/packet.h>

#include "listing/out_fmt.h"

long etm_out_canon_range(struct wbuf *w, const struct etm_elem *el,
			 const struct etm_image *img)
{
	struct etm_walk wk;
	struct etm_insn in;
	char isa = el->isa == etmi_a32 ? 'A' : 'T';
	uint32_t i = 0;

	if (etm_walk_init(&wk, img, el) < 0)
		return -1;
	while (etm_walk_next(&wk, &in) == 0) {
		char *p;

		i++;
		wbuf_hex8(w, (uint32_t)in.addr);
		p = wbuf_reserve(w, 4);
		p[0] = ' ';
		p[1] = isa;
		if (i == el->ninsn && !el->last_exec) {
			p[2] = ' ';
			p[3] = 'N';
			wbuf_commit(w, 4);
		} else {
			wbuf_commit(w, 2);
		}
		wbuf_char(w, '\n');
	}
	return (long)i;
}

static int out_m_profile(const struct etm_config *cfg)
{
	return cfg ? etm_cfg_m_profile(cfg) : 0;
}

/* The I-sync reason of a trace-on element (the reason field of the I-sync
 * packet: ../shared/docs/etmv3.md §4, ../shared/docs/ptm.md §4). */
static const char *out_isync_name(unsigned r)
{
	static const char *const n[] = { "periodic", "trace enabled",
					 "overflow", "debug exit" };

	return r < 4 ? n[r] : "?";
}

static const char *out_on_name(unsigned r)
{
	static const char *const n[] = { "start", "enable", "overflow",
					 "debug_exit", "resync" };

	return r < 5 ? n[r] : "?";
}

static void text_exception(struct wbuf *w, const struct etm_elem *el,
			   const struct etm_config *cfg)
{
	const char *name = etm_exc_name(el->exc_num, out_m_profile(cfg));

	wbuf_printf(w, "-- exception %s (%u)%s", name, el->exc_num,
		    el->exc_cancel ? " cancels last instruction" : "");
	if (!strcmp(name, "DebugHalt")) /* no vector: the core halts */
		wbuf_str(w, ": core halted in debug state");
	else
		wbuf_printf(w, " -> 0x%08llx", (unsigned long long)el->addr);
	if (el->has_ret)
		wbuf_printf(w, ", return 0x%08llx", (unsigned long long)el->ret_addr);
}

static void text_trace_on(struct wbuf *w, const struct etm_elem *el)
{
	static const char *const reasons[] = { "start", "trace enabled",
					       "overflow (data lost)", "debug exit", "resync" };

	if (el->reason == etm_on_resync) { /* after a loss of sync */
		wbuf_printf(w, "-- resynchronised at 0x%08llx (I-sync: "
			       "%s): the listing resumes here",
			    (unsigned long long)el->addr,
			    out_isync_name(el->isync_reason));
		return;
	}
	wbuf_printf(w, "-- trace on (%s, I-sync: %s) at 0x%08llx",
		    el->reason < 5 ? reasons[el->reason] : "?",
		    out_isync_name(el->isync_reason),
		    (unsigned long long)el->addr);
}

static void text_nosync(struct wbuf *w, const struct etm_elem *el)
{
	wbuf_str(w, "-- not synchronised");
	if (el->err)
		wbuf_printf(w, ": %s", etm_errstr(el->err));
	else
		wbuf_str(w, ": trace lost here, the listing resumes at "
			    "the next address the trace gives");
}

/* The security state only where the core has the Security Extensions
 * (@cfg NULL: a source not ours, shown as it is). */
static int show_security(const struct etm_config *cfg)
{
	return !cfg || etm_cfg_security_ext(cfg);
}

int etm_out_text_shown(const struct etm_elem *el, const struct etm_config *cfg)
{
	return el->kind != etmk_context || show_security(cfg) ||
	       el->has_ctxid || el->has_vmid;
}

static void text_context(struct wbuf *w, const struct etm_elem *el,
			 const struct etm_config *cfg)
{
	wbuf_str(w, "-- context");
	if (show_security(cfg))
		wbuf_printf(w, " %s%s", el->ns ? "NS" : "S", el->hyp ? " Hyp" : "");
	if (el->has_ctxid)
		wbuf_printf(w, " ctxid=0x%08x", el->ctxid);
	if (el->has_vmid)
		wbuf_printf(w, " vmid=%u", el->vmid);
}

void etm_out_text_piece_gap(struct wbuf *w, const struct etm_elem *el)
{
	if (el->reason == etm_gap_joins)
		wbuf_printf(w, "-- gap: none, the runs join: the halt's return "
			       "address 0x%08llx is where the next run resumes",
			    (unsigned long long)el->ret_addr);
	else
		wbuf_printf(w, "-- gap: %s",
			    etm_piece_gap_name((enum etm_piece_gap)el->reason));
}

/* A circular buffer's piece begins (etmtrace/pieces.h; the gap before it
 * is a line of its own, etm_out_text_piece_gap()). */
static void text_piece(struct wbuf *w, const struct etm_elem *el)
{
	wbuf_printf(w, "-- piece %u of %u: %s, bytes %llu..%llu", el->piece + 1u,
		    el->ninsn, etm_piece_role_name((enum etm_piece_role)el->exc_num),
		    (unsigned long long)el->start, (unsigned long long)el->end);
	if (!el->last_atom)
		wbuf_str(w, "; order unknown");
	else if (!el->last_exec)
		wbuf_printf(w, " (file order; %u of %u in time)",
			    el->last_size + 1u, el->ninsn);
}

static char data_rw(const struct etm_elem *el)
{
	if (!(el->dflags & ETM_DATA_DIR))
		return '?';
	return el->dflags & ETM_DATA_WRITE ? 'W' : 'R';
}

/* "   R [0x20001000] = 0x12345678 (4 bytes) ldr at 0x00008004": one data
 * transfer, listed after the range that holds its instruction. */
static void text_data(struct wbuf *w, const struct etm_elem *el)
{
	unsigned f = el->dflags;

	if (f & ETM_DATA_SUPPRESSED) {
		wbuf_str(w, "   -- data trace suppressed");
	} else {
		wbuf_printf(w, "   %c ", data_rw(el));
		if (f & ETM_DATA_ADDR)
			wbuf_printf(w, "[0x%08llx]", (unsigned long long)el->daddr);
		else
			wbuf_str(w, "[?]");
		if (f & ETM_DATA_FAILED)
			wbuf_str(w, " store failed");
		else if (f & ETM_DATA_VALUE)
			wbuf_printf(w, " = 0x%0*x", el->dsize ? 2 * el->dsize : 8,
				    el->dvalue);
		else
			wbuf_str(w, " = (value not traced)");
		if (el->dsize)
			wbuf_printf(w, " (%u byte%s)", el->dsize, el->dsize > 1 ? "s" : "");
	}
	if (el->dtag)
		wbuf_printf(w, " out of order, tag %u", el->dtag);
	if (f & ETM_DATA_STACKING)
		wbuf_str(w, " exception stacking");
	if (f & ETM_DATA_INSN)
		wbuf_printf(w, " by 0x%08llx", (unsigned long long)el->addr);
	if (el->dindex)
		wbuf_printf(w, " #%u", el->dindex);
}

void etm_out_data_line(struct wbuf *w, const struct etm_elem *el)
{
	unsigned f = el->dflags;

	if (f & ETM_DATA_INSN)
		wbuf_printf(w, "%08llx", (unsigned long long)el->addr);
	else
		wbuf_char(w, '-');
	wbuf_printf(w, " %c ", data_rw(el));
	if (f & ETM_DATA_ADDR)
		wbuf_printf(w, "%08llx", (unsigned long long)el->daddr);
	else
		wbuf_char(w, '-');
	if (f & ETM_DATA_VALUE)
		wbuf_printf(w, " %x", el->dvalue);
	else
		wbuf_str(w, " -");
	wbuf_printf(w, " %u", el->dsize);
	if (f & ETM_DATA_SUPPRESSED)
		wbuf_str(w, " suppressed");
	if (f & ETM_DATA_FAILED)
		wbuf_str(w, " failed");
	if (f & ETM_DATA_STACKING)
		wbuf_str(w, " stacking");
	wbuf_char(w, '\n');
}

int etm_out_text_event(struct wbuf *w, const struct etm_elem *el,
		       const struct etm_config *cfg)
{
	switch (el->kind) {
	case etmk_exception:
		text_exception(w, el, cfg);
		return 1;
	case etmk_exc_return:
		wbuf_str(w, "-- exception return");
		return 1;
	case etmk_trace_on:
		text_trace_on(w, el);
		return 1;
	case etmk_nosync:
		text_nosync(w, el);
		return 1;
	case etmk_context:
		text_context(w, el, cfg);
		return 1;
	case etmk_timestamp:
		wbuf_printf(w, "-- timestamp %llu", (unsigned long long)el->timestamp);
		return 1;
	case etmk_cycle_count:
		wbuf_printf(w, "-- cycle count %u", el->cycles);
		return 1;
	case etmk_event:
		wbuf_str(w, "-- trigger");
		return 1;
	case etmk_nomem:
		wbuf_printf(w, "-- memory not accessible at 0x%08llx (%s): no "
			       "image there, resuming at the next address",
			    (unsigned long long)el->addr, el->isa == etmi_unknown ? "instruction set unknown" : etm_isa_name(el->isa));
		return 1;
	case etmk_error:
		wbuf_printf(w, "-- error at offset %llu: %s",
			    (unsigned long long)el->offset, etm_errstr(el->err));
		return 1;
	case etmk_buffer_end:
		wbuf_printf(w, "-- note: the trace ends at offset %llu in a packet "
			       "(or frame) cut by the end of the trace buffer",
			    (unsigned long long)el->offset);
		return 1;
	case etmk_piece:
		text_piece(w, el);
		return 1;
	case etmk_window:
		wbuf_printf(w, "-- window: %u instructions left out", el->ninsn);
		return 1;
	ETM_CASE_ITM_KINDS:
		return etm_out_text_itm(w, el);
	case etmk_data:
		text_data(w, el);
		return 1;
	case etmk_range:
	case etmk_invalid:
	case etmk_num_kinds:
		break;
	}
	return 0;
}

void etm_out_text_run(struct wbuf *w, const struct etm_elem *el,
		      unsigned long long n, unsigned long long last_off)
{
	if (el->kind == etmk_error)
		wbuf_printf(w, "-- error at offsets %llu-%llu: %s (%llu times)",
			    (unsigned long long)el->offset, last_off,
			    etm_errstr(el->err), n);
	else
		wbuf_printf(w, "-- not synchronised: %s (%llu times, offsets "
			       "%llu-%llu)",
			    el->err ? etm_errstr(el->err) :
				      "trace lost",
			    n, (unsigned long long)el->offset,
			    last_off);
}

static void jsonl_range(struct wbuf *w, const struct etm_elem *el)
{
	wbuf_printf(w, ",\"start\":\"0x%08llx\",\"end\":\"0x%08llx\",\"isa\":\"%s\","
		       "\"n\":%u,\"last\":\"0x%08llx\",\"last_class\":\"%s\"",
		    (unsigned long long)el->start, (unsigned long long)el->end,
		    etm_isa_name(el->isa), el->ninsn,
		    (unsigned long long)el->last_addr,
		    etm_insn_class_name(el->last_cls));
	if (el->last_atom)
		wbuf_printf(w, ",\"atom\":\"%c\"", el->last_exec ? 'E' : 'N');
	if (el->has_cycles)
		wbuf_printf(w, ",\"cycles\":%u", el->cycles);
}

static void jsonl_exception(struct wbuf *w, const struct etm_elem *el,
			    const struct etm_config *cfg)
{
	wbuf_printf(w, ",\"exception\":%u,\"name\":\"%s\",\"addr\":\"0x%08llx\"",
		    el->exc_num, etm_exc_name(el->exc_num, out_m_profile(cfg)),
		    (unsigned long long)el->addr);
	if (el->has_ret)
		wbuf_printf(w, ",\"return\":\"0x%08llx\"",
			    (unsigned long long)el->ret_addr);
	if (el->exc_cancel)
		wbuf_str(w, ",\"cancel\":true");
}

static void jsonl_context(struct wbuf *w, const struct etm_elem *el,
			  const struct etm_config *cfg)
{
	if (show_security(cfg))
		wbuf_printf(w, ",\"ns\":%u,\"hyp\":%u", el->ns, el->hyp);
	if (el->has_ctxid)
		wbuf_printf(w, ",\"ctxid\":\"0x%08x\"", el->ctxid);
	if (el->has_vmid)
		wbuf_printf(w, ",\"vmid\":%u", el->vmid);
}

static void jsonl_piece(struct wbuf *w, const struct etm_elem *el)
{
	wbuf_printf(w, ",\"piece\":%u,\"of\":%u,\"what\":\"%s\",\"start\":%llu,"
		       "\"end\":%llu,\"gap\":\"%s\",\"time\":%u,\"order\":\"%s\"",
		    el->piece + 1u, el->ninsn,
		    etm_piece_role_name((enum etm_piece_role)el->exc_num),
		    (unsigned long long)el->start, (unsigned long long)el->end,
		    etm_piece_gap_name((enum etm_piece_gap)el->reason),
		    el->last_size + 1u,
		    !el->last_atom ? "unknown" : el->last_exec ? "time" :
								 "file");
	if (el->has_ret)
		wbuf_printf(w, ",\"join\":\"0x%08llx\"", (unsigned long long)el->ret_addr);
}

static void jsonl_data(struct wbuf *w, const struct etm_elem *el)
{
	unsigned f = el->dflags;

	wbuf_printf(w, ",\"rw\":\"%c\"", data_rw(el));
	if (f & ETM_DATA_INSN)
		wbuf_printf(w, ",\"insn\":\"0x%08llx\",\"isa\":\"%s\"",
			    (unsigned long long)el->addr, etm_isa_name(el->isa));
	if (f & ETM_DATA_ADDR)
		wbuf_printf(w, ",\"daddr\":\"0x%08llx\"", (unsigned long long)el->daddr);
	if (f & ETM_DATA_VALUE)
		wbuf_printf(w, ",\"value\":\"0x%08x\"", el->dvalue);
	wbuf_printf(w, ",\"size\":%u,\"index\":%u", el->dsize, el->dindex);
	if (el->dtag)
		wbuf_printf(w, ",\"tag\":%u", el->dtag);
	if (f & ETM_DATA_SUPPRESSED)
		wbuf_str(w, ",\"suppressed\":true");
	if (f & ETM_DATA_FAILED)
		wbuf_str(w, ",\"failed\":true");
	if (f & ETM_DATA_STACKING)
		wbuf_str(w, ",\"stacking\":true");
}

void etm_out_jsonl_open(struct wbuf *w, const struct etm_elem *el,
			const struct etm_config *cfg)
{
	wbuf_printf(w, "{\"offset\":%llu,\"id\":\"0x%02x\",\"kind\":\"%s\"",
		    (unsigned long long)el->offset, el->id, etm_elem_kind_name(el->kind));
	switch (el->kind) {
	case etmk_range:
		jsonl_range(w, el);
		break;
	case etmk_exception:
		jsonl_exception(w, el, cfg);
		break;
	case etmk_trace_on:
		wbuf_printf(w, ",\"reason\":%u,\"reason_name\":\"%s\",\"isync\":\"%s\"",
			    el->reason, out_on_name(el->reason),
			    out_isync_name(el->isync_reason));
		wbuf_printf(w, ",\"addr\":\"0x%08llx\"",
			    (unsigned long long)el->addr);
		break;
	case etmk_context:
		jsonl_context(w, el, cfg);
		break;
	case etmk_timestamp:
		wbuf_printf(w, ",\"timestamp\":%llu", (unsigned long long)el->timestamp);
		break;
	case etmk_cycle_count:
		wbuf_printf(w, ",\"cycles\":%u", el->cycles);
		break;
	case etmk_nomem:
		wbuf_printf(w, ",\"addr\":\"0x%08llx\"", (unsigned long long)el->addr);
		break;
	case etmk_error:
		wbuf_printf(w, ",\"error\":\"%s\"", etm_errname(el->err));
		break;
	case etmk_nosync:
	case etmk_buffer_end:
		if (el->err)
			wbuf_printf(w, ",\"reason\":\"%s\"", etm_errname(el->err));
		break;
	case etmk_piece:
		jsonl_piece(w, el);
		break;
	case etmk_window:
		wbuf_printf(w, ",\"left_out\":%u", el->ninsn);
		break;
	ETM_CASE_ITM_KINDS:
		etm_out_jsonl_itm(w, el);
		break;
	case etmk_data:
		jsonl_data(w, el);
		break;
	case etmk_exc_return:
	case etmk_event:
	case etmk_invalid:
	case etmk_num_kinds:
		break;
	}
}
