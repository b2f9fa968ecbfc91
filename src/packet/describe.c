/* packet/describe.c - packet type names, readable one-line descriptions and
 * JSON member lists for both protocols, and the exception name tables. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include <etmtrace/error.h>
#include <etmtrace/packet.h>

#include "common/strbuf.h"

/* Caller-buffer writer that keeps counting past the end (snprintf style,
 * common/strbuf.h). */
struct out {
	struct etm_strbuf s;
	int json; /* JSON members: drop the leading comma of the first */
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->json && o->s.len == 0 && fmt[0] == ',')
		fmt++;
	va_start(ap, fmt);
	etm_strbuf_vput(&o->s, fmt, ap);
	va_end(ap);
}

static int done(struct out *o)
{
	etm_strbuf_end(&o->s);
	return (int)o->s.len;
}

const char *etm_pkt_type_name(enum etm_pkt_type t, enum etm_protocol proto)
{
	static const char *const names[etmp_num_types] = {
		[etmp_invalid] = "INVALID",
		[etmp_notsync] = "NOTSYNC",
		[etmp_error] = "ERROR",
		[etmp_async] = "A_SYNC",
		[etmp_isync] = "I_SYNC",
		[etmp_atom] = "P_HEADER",
		[etmp_branch] = "BRANCH_ADDRESS",
		[etmp_waypoint] = "WAYPOINT_UPDATE",
		[etmp_trigger] = "TRIGGER",
		[etmp_ctxid] = "CONTEXT_ID",
		[etmp_vmid] = "VMID",
		[etmp_timestamp] = "TIMESTAMP",
		[etmp_cycle_count] = "CYCLE_COUNT",
		[etmp_exc_return] = "EXCEPTION_RETURN",
		[etmp_exc_entry] = "EXCEPTION_ENTRY",
		[etmp_ignore] = "IGNORE",
		[etmp_data] = "NORMAL_DATA",
		[etmp_ooo_data] = "OOO_DATA",
		[etmp_ooo_place] = "OOO_PLACEHOLDER",
		[etmp_val_not_traced] = "VALUE_NOT_TRACED",
		[etmp_data_suppressed] = "DATA_SUPPRESSED",
		[etmp_store_failed] = "STORE_FAILED",
		[etmp_itm_overflow] = "OVERFLOW",
		[etmp_itm_lts] = "LOCAL_TS",
		[etmp_itm_gts1] = "GLOBAL_TS1",
		[etmp_itm_gts2] = "GLOBAL_TS2",
		[etmp_itm_ext] = "EXTENSION",
		[etmp_itm_sw] = "SW_SOURCE",
		[etmp_itm_evcnt] = "DWT_EVENT_COUNTER",
		[etmp_itm_exc] = "DWT_EXCEPTION",
		[etmp_itm_pc] = "DWT_PC_SAMPLE",
		[etmp_itm_dpc] = "DWT_DATA_PC",
		[etmp_itm_daddr] = "DWT_DATA_ADDRESS",
		[etmp_itm_dval] = "DWT_DATA_VALUE",
		[etmp_itm_dmatch] = "DWT_DATA_MATCH",
	};

	if ((unsigned)t >= etmp_num_types)
		return "INVALID";
	if (t == etmp_atom && proto == etm_proto_ptm)
		return "ATOM";
	if (t == etmp_async && proto == etm_proto_itm)
		return "SYNC";
	return names[t];
}

const char *etm_exc_name(unsigned num, int m_profile)
{
	/* ARMv7-A/R, IHI 0014Q Table 7-12 / IHI 0035B Table 4.4 */
	static const char *const ar[16] = {
		"none", "DebugHalt", "SMC", "Hyp", "AsyncDataAbort",
		"ThumbEECheck", "reserved", "reserved", "Reset", "Undef",
		"SVC", "PrefetchAbort", "DataAbort", "Generic", "IRQ", "FIQ"
	};
	/* ARMv7-M traced values, Cortex-M3 TRM Table 14-8 */
	static const char *const m[24] = {
		"none",
		"IRQ1",
		"IRQ2",
		"IRQ3",
		"IRQ4",
		"IRQ5",
		"IRQ6",
		"IRQ7",
		"IRQ0",
		"UsageFault",
		"NMI",
		"SVC",
		"DebugMonitor",
		"MemManage",
		"PendSV",
		"SysTick",
		"reserved",
		"Reset",
		"reserved",
		"HardFault",
		"reserved",
		"BusFault",
		"reserved",
		"reserved",
	};

	if (m_profile) {
		if (num < 24)
			return m[num];
		return num < 512 ? "IRQ" : "reserved";
	}
	return num < 16 ? ar[num] : "reserved";
}

static const char *const reason_name[4] = {
	"periodic", "trace_on", "overflow", "debug_exit"
};

/* Exception name for a packet: the A/R table unless the number only fits
 * the M-profile one (the packet does not know the profile). */
static const char *pkt_exc_name(const struct etm_packet *p)
{
	return etm_exc_name(p->exc_num, p->exc_num > 15);
}

/* Atoms as letters: "EEN"; with @w also the W atoms ("WEWEWN"). */
static void put_atoms(struct out *o, const struct etm_packet *p, int w,
		      int spaced)
{
	unsigned i, k;

	for (i = 0; i < p->atom_count && i < ETM_PKT_MAX_ATOMS; i++) {
		if (spaced && i)
			put(o, " ");
		for (k = 0; w && k < p->atom_w[i]; k++)
			put(o, "W");
		put(o, "%c", (p->atom_bits >> i) & 1 ? 'N' : 'E');
	}
	for (k = 0; w && k < p->w_tail; k++)
		put(o, "%sW", spaced && (k == 0 && p->atom_count) ? " " : "");
}

static int has_w(const struct etm_packet *p)
{
	unsigned i;

	for (i = 0; i < p->atom_count && i < ETM_PKT_MAX_ATOMS; i++)
		if (p->atom_w[i])
			return 1;
	return p->w_tail != 0;
}

static unsigned w_total(const struct etm_packet *p)
{
	unsigned i, t = p->w_tail;

	for (i = 0; i < p->atom_count && i < ETM_PKT_MAX_ATOMS; i++)
		t += p->atom_w[i];
	return t;
}

static void desc_state(struct out *o, const struct etm_packet *p)
{
	if (!p->has_state)
		return;
	put(o, p->ns ? " NS" : " S");
	if (p->hyp)
		put(o, " Hyp");
}

static void desc_branch(struct out *o, const struct etm_packet *p)
{
	put(o, "Addr=0x%08" PRIx64, p->addr);
	if (p->isa_changed)
		put(o, " %s", etm_isa_name(p->isa));
	if (p->has_exc) {
		put(o, " exc=%s(%u)", pkt_exc_name(p), p->exc_num);
		desc_state(o, p);
		if (p->cancel)
			put(o, " cancel");
		if (p->resume)
			put(o, " resume=%u", p->resume);
	}
}

static void desc_isync(struct out *o, const struct etm_packet *p)
{
	put(o, "Addr=0x%08" PRIx64 " %s %s", p->addr, etm_isa_name(p->isa),
	    reason_name[p->reason & 3]);
	if (p->lsip)
		put(o, " LSiP next=0x%08" PRIx64 " %s", p->lsip_next,
		    etm_isa_name(p->lsip_isa));
	desc_state(o, p);
	if (p->has_ctxid)
		put(o, " ctxid=0x%" PRIx32, p->ctxid);
}

static void desc_data(struct out *o, const struct etm_packet *p)
{
	const char *sep = "";

	if (p->dtag) {
		put(o, "tag=%u", p->dtag);
		sep = " ";
	}
	if (p->has_daddr) {
		put(o, "%saddr=0x%08" PRIx64, sep, p->daddr);
		sep = " ";
	}
	if (p->has_dvalue)
		put(o, "%sval=0x%0*" PRIx32, sep, 2 * p->dvalue_size,
		    p->dvalue);
}

/* One field of an ITM/DWT packet: "key=value" (text) or ","key":value"
 * (JSON; @q quotes the value). */
static void itm_kv(struct out *o, int q, const char *key, const char *fmt,
		   ...) __attribute__((format(printf, 4, 5)));

static void itm_kv(struct out *o, int q, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (o->json)
		put(o, ",\"%s\":%s", key, q ? "\"" : "");
	else
		put(o, "%s%s=", o->s.len ? " " : "", key);
	va_start(ap, fmt);
	etm_strbuf_vput(&o->s, fmt, ap);
	va_end(ap);
	if (o->json && q)
		put(o, "\"");
}

static const char *const itm_fn_name[4] = { "none", "enter", "exit",
					    "return" };

/* The fields of an ITM/DWT packet (ARMv7-M ARM appendix D4); nothing for
 * the other types. */
static void itm_fields(struct out *o, const struct etm_packet *p)
{
	char exc[32];

	switch (p->type) {
	case etmp_itm_lts:
		itm_kv(o, 0, "ts", "%" PRIu64, p->timestamp);
		itm_kv(o, 0, "tc", "%u", p->reason);
		break;
	case etmp_itm_gts1:
	case etmp_itm_gts2:
		itm_kv(o, 1, "ts", "0x%" PRIx64, p->timestamp);
		itm_kv(o, 0, "ts_bits", "%u", p->ts_bits);
		if (p->itm_flags & ETM_ITM_WRAP)
			itm_kv(o, 0, "wrap", "1");
		if (p->itm_flags & ETM_ITM_CLKCH)
			itm_kv(o, 0, "clkch", "1");
		break;
	case etmp_itm_ext:
		itm_kv(o, 0, "ex", "%" PRIu32, p->dvalue);
		itm_kv(o, 0, "sh", "%u", p->itm_flags & ETM_ITM_SH);
		break;
	case etmp_itm_sw:
		itm_kv(o, 0, "port", "%u", p->itm_port);
		itm_kv(o, 1, "value", "0x%0*" PRIx32, 2 * p->dvalue_size,
		       p->dvalue);
		itm_kv(o, 0, "size", "%u", p->dvalue_size);
		break;
	case etmp_itm_evcnt:
		itm_kv(o, 1, "counters", "0x%02" PRIx32, p->dvalue);
		break;
	case etmp_itm_exc:
		etm_itm_exc_name(p->exc_num, exc, sizeof(exc));
		itm_kv(o, 1, "exc", "%s", exc);
		itm_kv(o, 0, "exc_num", "%u", p->exc_num);
		itm_kv(o, 1, "fn", "%s", itm_fn_name[p->itm_fn & 3]);
		break;
	case etmp_itm_pc:
		if (p->itm_flags & ETM_ITM_SLEEP)
			itm_kv(o, 0, "sleep", "1");
		else
			itm_kv(o, 1, "pc", "0x%08" PRIx64, p->addr);
		break;
	case etmp_itm_dpc:
		itm_kv(o, 0, "cmp", "%u", p->itm_cmp);
		itm_kv(o, 1, "pc", "0x%08" PRIx64, p->addr);
		break;
	case etmp_itm_daddr:
		itm_kv(o, 0, "cmp", "%u", p->itm_cmp);
		itm_kv(o, 1, "address", "0x%0*" PRIx64, 2 * p->dvalue_size,
		       p->daddr);
		break;
	case etmp_itm_dval:
		itm_kv(o, 0, "cmp", "%u", p->itm_cmp);
		itm_kv(o, 1, "value", "0x%0*" PRIx32, 2 * p->dvalue_size,
		       p->dvalue);
		itm_kv(o, 0, "size", "%u", p->dvalue_size);
		itm_kv(o, 0, "write", "%u", p->itm_fn);
		break;
	case etmp_itm_dmatch:
		itm_kv(o, 0, "cmp", "%u", p->itm_cmp);
		break;
	default:
		break;
	}
}

int etm_itm_exc_name(unsigned num, char *buf, size_t n)
{
	/* ARMv7-M ARM Table B1-4 (ARMv8-M: 7 SecureFault) */
	static const char *const names[16] = {
		"Thread", "Reset", "NMI", "HardFault",
		"MemManage", "BusFault", "UsageFault", "SecureFault",
		"reserved", "reserved", "reserved", "SVCall",
		"DebugMonitor", "reserved", "PendSV", "SysTick"
	};

	if (num < 16)
		return snprintf(buf, n, "%s", names[num]);
	return snprintf(buf, n, "IRQ %u", num - 16);
}

int etm_pkt_describe(const struct etm_packet *pkt, enum etm_protocol proto,
		     char *buf, size_t n)
{
	struct out o = { { buf, buf ? n : 0, 0 }, 0 };

	if (!pkt)
		return done(&o);
	switch (pkt->type) {
	case etmp_notsync:
		put(&o, "%" PRIu32 " bytes", pkt->size);
		break;
	case etmp_error:
		put(&o, "error=%s", etm_errname(pkt->err));
		break;
	case etmp_isync:
		desc_isync(&o, pkt);
		break;
	case etmp_atom:
		put_atoms(&o, pkt, proto != etm_proto_ptm, 1);
		break;
	case etmp_branch:
	case etmp_waypoint:
		desc_branch(&o, pkt);
		break;
	case etmp_ctxid:
		put(&o, "ctxid=0x%" PRIx32, pkt->ctxid);
		break;
	case etmp_vmid:
		put(&o, "vmid=0x%02x", pkt->vmid);
		break;
	case etmp_timestamp:
		put(&o, "ts=0x%" PRIx64 " (%" PRIu64 ")%s", pkt->timestamp,
		    pkt->timestamp, pkt->ts_freq_change ? " freq_change" : "");
		break;
	case etmp_data:
	case etmp_ooo_data:
	case etmp_ooo_place:
	case etmp_val_not_traced:
		desc_data(&o, pkt);
		break;
	default:
		itm_fields(&o, pkt);
		break;
	}
	if (pkt->has_cc)
		put(&o, "%scc=%" PRIu32, o.s.len ? " " : "", pkt->cycle_count);
	return done(&o);
}

static void json_state(struct out *o, const struct etm_packet *p)
{
	if (p->has_state)
		put(o, ",\"ns\":%u,\"hyp\":%u", p->ns, p->hyp);
	if (p->has_ctxid)
		put(o, ",\"ctxid\":\"0x%" PRIx32 "\"", p->ctxid);
}

static void json_addr(struct out *o, const struct etm_packet *p)
{
	put(o, ",\"addr\":\"0x%08" PRIx64 "\",\"isa\":\"%s\"", p->addr,
	    etm_isa_name(p->isa));
	if (p->type != etmp_isync)
		put(o, ",\"addr_bits\":%u", p->addr_bits);
	if (p->type == etmp_isync) {
		put(o, ",\"reason\":\"%s\"", reason_name[p->reason & 3]);
		if (p->lsip)
			put(o, ",\"lsip_next\":\"0x%08" PRIx64 "\","
			       "\"lsip_isa\":\"%s\"",
			    p->lsip_next,
			    etm_isa_name(p->lsip_isa));
	}
	if (p->has_exc) {
		put(o, ",\"exc\":\"%s\",\"exc_num\":%u", pkt_exc_name(p),
		    p->exc_num);
		if (p->cancel)
			put(o, ",\"cancel\":1");
		if (p->resume)
			put(o, ",\"resume\":%u", p->resume);
	}
	json_state(o, p);
}

static void json_atoms(struct out *o, const struct etm_packet *p,
		       enum etm_protocol proto)
{
	put(o, ",\"atoms\":\"");
	put_atoms(o, p, 0, 0);
	put(o, "\"");
	if (proto != etm_proto_ptm && has_w(p)) {
		put(o, ",\"watoms\":\"");
		put_atoms(o, p, 1, 0);
		put(o, "\",\"w\":%u", w_total(p));
	}
}

static void json_data(struct out *o, const struct etm_packet *p)
{
	if (p->dtag)
		put(o, ",\"tag\":%u", p->dtag);
	if (p->has_daddr)
		put(o, ",\"daddr\":\"0x%08" PRIx64 "\"", p->daddr);
	if (p->has_dvalue)
		put(o, ",\"dvalue\":\"0x%0*" PRIx32 "\",\"dsize\":%u",
		    2 * p->dvalue_size, p->dvalue, p->dvalue_size);
}

static void json_body(struct out *o, const struct etm_packet *p,
		      enum etm_protocol proto)
{
	switch (p->type) {
	case etmp_notsync:
		put(o, ",\"size\":%" PRIu32, p->size);
		break;
	case etmp_error:
		put(o, ",\"err\":\"%s\",\"size\":%" PRIu32,
		    etm_errname(p->err), p->size);
		break;
	case etmp_async:
		put(o, ",\"size\":%" PRIu32, p->size);
		break;
	case etmp_isync:
	case etmp_branch:
	case etmp_waypoint:
		json_addr(o, p);
		break;
	case etmp_atom:
		json_atoms(o, p, proto);
		break;
	case etmp_ctxid:
		json_state(o, p);
		break;
	case etmp_vmid:
		put(o, ",\"vmid\":%u", p->vmid);
		break;
	case etmp_timestamp:
		put(o, ",\"ts\":%" PRIu64 ",\"ts_bits\":%u", p->timestamp,
		    p->ts_bits);
		if (p->ts_freq_change)
			put(o, ",\"freq_change\":1");
		break;
	case etmp_data:
	case etmp_ooo_data:
	case etmp_ooo_place:
	case etmp_val_not_traced:
		json_data(o, p);
		break;
	default:
		itm_fields(o, p);
		break;
	}
}

int etm_pkt_json_fields(const struct etm_packet *pkt, enum etm_protocol proto,
			char *buf, size_t n)
{
	struct out o = { { buf, buf ? n : 0, 0 }, 1 };

	if (!pkt)
		return done(&o);
	json_body(&o, pkt, proto);
	if (pkt->has_cc)
		put(&o, ",\"cycles\":%" PRIu32, pkt->cycle_count);
	return done(&o);
}
