/* listing/out_itm.c - the listing lines and JSON members of the ITM/DWT
 * elements (etmk_itm_*, etmk_dwt_*; doc/itm.md): "-- itm ch0: \"text\"",
 * "-- dwt pc sample 0x08000218", "-- dwt exception enter IRQ 28", ... */
#include <stdio.h>

#include <etmtrace/packet.h>

#include "listing/out_fmt.h"

static const char *const itm_fn[4] = { "none", "enter", "exit", "return" };

/* The @n bytes of @v (little-endian: the order the program wrote them) as
 * a C string literal's inside: printable ASCII as is, the rest escaped. */
static void itm_quoted(struct wbuf *w, uint32_t v, unsigned n)
{
	unsigned i;

	for (i = 0; i < n && i < 4; i++) {
		unsigned c = (v >> (8 * i)) & 0xff;

		if (c == '"' || c == '\\')
			wbuf_printf(w, "\\%c", (char)c);
		else if (c == '\n')
			wbuf_str(w, "\\n");
		else if (c >= 0x20 && c < 0x7f)
			wbuf_char(w, (char)c);
		else
			wbuf_printf(w, "\\x%02x", c);
	}
}

/* The event counters that wrapped (D4.3.1). */
static void itm_counters(struct wbuf *w, uint32_t bits, int json)
{
	static const char *const names[6] = { "CPI", "Exc", "Sleep",
					      "LSU", "Fold", "Cyc" };
	unsigned i, k = 0;

	for (i = 0; i < 6; i++)
		if (bits & (1u << i))
			wbuf_printf(w, json ? "%s\"%s\"" : "%s%s",
				    k++ ? (json ? "," : " ") : "", names[i]);
}

static void text_cmp(struct wbuf *w, const struct etm_elem *el)
{
	wbuf_printf(w, "-- dwt comparator %u ", el->itm_chan);
	if (el->itm_flags & ETM_ITM_CMP_PC)
		wbuf_printf(w, "pc 0x%08llx", (unsigned long long)el->addr);
	else if (el->itm_flags & ETM_ITM_CMP_ADDR)
		wbuf_printf(w, "address 0x%0*llx%s", 2 * el->itm_size,
			    (unsigned long long)el->addr,
			    el->itm_size == 2 ? " (bits 15:0)" : "");
	else if (el->itm_flags & ETM_ITM_CMP_VALUE)
		wbuf_printf(w, "%s value 0x%0*x (%u bytes)",
			    el->itm_fn ? "write" : "read", 2 * el->itm_size,
			    el->itm_value, el->itm_size);
	else
		wbuf_str(w, "match");
}

int etm_out_text_itm(struct wbuf *w, const struct etm_elem *el)
{
	char exc[32];

	switch (el->kind) {
	case etmk_itm_sw:
		wbuf_printf(w, "-- itm ch%u: \"", el->itm_chan);
		itm_quoted(w, el->itm_value, el->itm_size);
		wbuf_char(w, '"');
		return 1;
	case etmk_itm_ts:
		if (el->itm_flags & ETM_ITM_GLOBAL)
			wbuf_printf(w, "-- itm global timestamp %llu",
				    (unsigned long long)el->timestamp);
		else
			wbuf_printf(w, "-- itm local timestamp +%llu%s",
				    (unsigned long long)el->timestamp,
				    el->itm_tc ? " (delayed)" : "");
		return 1;
	case etmk_itm_overflow:
		wbuf_str(w, "-- itm overflow: packets were lost here");
		return 1;
	case etmk_dwt_pc:
		if (el->itm_flags & ETM_ITM_SLEEPING)
			wbuf_str(w, "-- dwt pc sample: sleeping");
		else
			wbuf_printf(w, "-- dwt pc sample 0x%08llx",
				    (unsigned long long)el->addr);
		return 1;
	case etmk_dwt_exc:
		etm_itm_exc_name(el->exc_num, exc, sizeof(exc));
		wbuf_printf(w, "-- dwt exception %s %s", itm_fn[el->itm_fn & 3],
			    exc);
		return 1;
	case etmk_dwt_cmp:
		text_cmp(w, el);
		return 1;
	case etmk_dwt_counter:
		wbuf_str(w, "-- dwt counter wrapped:");
		wbuf_char(w, ' ');
		itm_counters(w, el->itm_value, 0);
		return 1;
	default:
		return 0;
	}
}

static void jsonl_cmp(struct wbuf *w, const struct etm_elem *el)
{
	wbuf_printf(w, ",\"comparator\":%u", el->itm_chan);
	if (el->itm_flags & ETM_ITM_CMP_PC)
		wbuf_printf(w, ",\"pc\":\"0x%08llx\"",
			    (unsigned long long)el->addr);
	else if (el->itm_flags & ETM_ITM_CMP_ADDR)
		wbuf_printf(w, ",\"address\":\"0x%0*llx\",\"size\":%u",
			    2 * el->itm_size, (unsigned long long)el->addr,
			    el->itm_size);
	else if (el->itm_flags & ETM_ITM_CMP_VALUE)
		wbuf_printf(w, ",\"value\":%u,\"size\":%u,\"write\":%s",
			    el->itm_value, el->itm_size,
			    el->itm_fn ? "true" : "false");
	else
		wbuf_str(w, ",\"match\":true");
}

void etm_out_jsonl_itm(struct wbuf *w, const struct etm_elem *el)
{
	char exc[32];

	switch (el->kind) {
	case etmk_itm_sw:
		wbuf_printf(w, ",\"channel\":%u,\"value\":%u,\"size\":%u",
			    el->itm_chan, el->itm_value, el->itm_size);
		break;
	case etmk_itm_ts:
		if (el->itm_flags & ETM_ITM_GLOBAL)
			wbuf_printf(w, ",\"global\":true,\"value\":%llu",
				    (unsigned long long)el->timestamp);
		else
			wbuf_printf(w, ",\"local\":true,\"value\":%llu,\"tc\":%u",
				    (unsigned long long)el->timestamp,
				    el->itm_tc);
		break;
	case etmk_dwt_pc:
		if (el->itm_flags & ETM_ITM_SLEEPING)
			wbuf_str(w, ",\"sleep\":true");
		else
			wbuf_printf(w, ",\"pc\":\"0x%08llx\"",
				    (unsigned long long)el->addr);
		break;
	case etmk_dwt_exc:
		etm_itm_exc_name(el->exc_num, exc, sizeof(exc));
		wbuf_printf(w, ",\"exc\":%u,\"name\":\"%s\",\"fn\":\"%s\"",
			    el->exc_num, exc, itm_fn[el->itm_fn & 3]);
		break;
	case etmk_dwt_cmp:
		jsonl_cmp(w, el);
		break;
	case etmk_dwt_counter:
		wbuf_printf(w, ",\"bits\":%u,\"wrapped\":[", el->itm_value);
		itm_counters(w, el->itm_value, 1);
		wbuf_char(w, ']');
		break;
	default:
		break;
	}
}
