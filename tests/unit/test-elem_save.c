/* tests/unit/test-elem_save.c - etm_elem_save() (src/flow/flow.c) writes
 * an element's fields as the state comparison of parallel decode defines
 * them: each field in turn at its width (8, 4 or 1 bytes, host order), the
 * ITM fields only for ITM/DWT kinds and the data fields only for data
 * transfers. The expected bytes are built here field by field from that
 * list, for elements whose every byte differs, of every kind; two
 * elements that differ in one saved field save differently, and fields
 * not saved (the piece) do not change the bytes. */
#include <stdint.h>
#include <string.h>

#include <etmtrace/flow.h>

#include "common/sbuf.h"
#include "etest.h"
#include "flow/flow_pull.h"

static struct etm_sbuf want, got;

static void expected(struct etm_sbuf *s, const struct etm_elem *el)
{
	etm_sbuf_u64(s, el->offset);
	etm_sbuf_u8(s, el->kind);
	etm_sbuf_u8(s, el->id);
	etm_sbuf_u64(s, el->start);
	etm_sbuf_u64(s, el->end);
	etm_sbuf_u8(s, el->isa);
	etm_sbuf_u32(s, el->ninsn);
	etm_sbuf_u64(s, el->last_addr);
	etm_sbuf_u8(s, el->last_size);
	etm_sbuf_u8(s, el->last_cls);
	etm_sbuf_u8(s, el->last_link);
	etm_sbuf_u8(s, el->last_exec);
	etm_sbuf_u8(s, el->last_atom);
	etm_sbuf_u8(s, el->has_cycles);
	etm_sbuf_u32(s, el->cycles);
	etm_sbuf_u32(s, el->exc_num);
	etm_sbuf_u8(s, el->exc_cancel);
	etm_sbuf_u64(s, el->ret_addr);
	etm_sbuf_u8(s, el->has_ret);
	etm_sbuf_u64(s, el->addr);
	etm_sbuf_u8(s, el->reason);
	etm_sbuf_u8(s, el->isync_reason);
	etm_sbuf_u8(s, el->has_ctxid);
	etm_sbuf_u8(s, el->has_vmid);
	etm_sbuf_u32(s, el->ctxid);
	etm_sbuf_u8(s, el->vmid);
	etm_sbuf_u8(s, el->ns);
	etm_sbuf_u8(s, el->hyp);
	etm_sbuf_u64(s, el->timestamp);
	etm_sbuf_u32(s, (uint32_t)el->err);
	if (el->kind >= etmk_itm_sw && el->kind <= etmk_dwt_counter) {
		etm_sbuf_u32(s, el->itm_value);
		etm_sbuf_u32(s, el->itm_chan);
		etm_sbuf_u8(s, el->itm_size);
		etm_sbuf_u8(s, el->itm_fn);
		etm_sbuf_u8(s, el->itm_flags);
		etm_sbuf_u8(s, el->itm_tc);
	}
	if (el->kind == etmk_data) {
		etm_sbuf_u32(s, el->dvalue);
		/* the four one-byte fields as one word, dsize lowest */
		etm_sbuf_u32(s, (uint32_t)el->dsize |
					(uint32_t)el->dflags << 8 |
					(uint32_t)el->dtag << 16 |
					(uint32_t)el->dindex << 24);
	}
}

static void filled(struct etm_elem *el, unsigned kind, unsigned seed)
{
	uint8_t *b = (uint8_t *)el;
	size_t i;

	for (i = 0; i < sizeof(*el); i++)
		b[i] = (uint8_t)(seed + 13 * i);
	el->kind = (enum etm_elem_kind)kind;
}

static int saves_equal(const struct etm_elem *el)
{
	etm_sbuf_reset(&want);
	etm_sbuf_reset(&got);
	expected(&want, el);
	etm_elem_save(&got, el);
	return etm_sbuf_eq(&want, &got);
}

/* Every kind (ITM/DWT and data transfers add fields), several fillings. */
static void same_bytes_as_field_by_field(void)
{
	struct etm_elem el;
	unsigned k, seed;

	for (k = 0; k <= etmk_dwt_counter + 2; k++)
		for (seed = 0; seed < 8; seed++) {
			filled(&el, k, seed * 31);
			ET_CHECK(saves_equal(&el));
		}
}

/* Saved fields change the bytes; the piece (not state) does not. */
static void one_field_apart(void)
{
	struct etm_elem a, b;
	uint8_t ra[256];
	size_t la;

	filled(&a, etmk_range, 7);
	b = a;
	etm_sbuf_reset(&got);
	etm_elem_save(&got, &a);
	la = got.len;
	memcpy(ra, got.b, la);
	b.piece++;
	etm_sbuf_reset(&got);
	etm_elem_save(&got, &b);
	ET_CHECK(got.len == la && !memcmp(ra, got.b, la));
	b = a;
	b.last_atom ^= 1;
	etm_sbuf_reset(&got);
	etm_elem_save(&got, &b);
	ET_CHECK(got.len == la && memcmp(ra, got.b, la));
	b = a;
	b.timestamp ^= 1ull << 63;
	etm_sbuf_reset(&got);
	etm_elem_save(&got, &b);
	ET_CHECK(got.len == la && memcmp(ra, got.b, la));
}

int main(void)
{
	ETEST(same_bytes_as_field_by_field);
	ETEST(one_field_apart);
	return etest_end();
}
