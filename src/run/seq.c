/* run/seq.c - decode of a whole input on the calling thread (one job, or
 * an input that cannot be cut): items to a callback or through the run
 * ops, in the same pieces as a parallel decode would emit. */
#include <stdlib.h>
#include <string.h>

#include <etmtrace/decoder.h>
#include <etmtrace/error.h>

#include "common/pagebuf.h"
#include "decoder/clone.h"
#include "run/runner.h"

int etm_run_seq(struct prun *r, etm_item_fn fn, void *ctx)
{
	struct etm_decoder *d = etm_decoder_clone_whole(r->tmpl);
	uint8_t *buf = etm_skewed_alloc(PAR_READ);
	void *cs = r->ops ? r->ops->open(r->octx) : NULL, *p;
	const struct etm_elem *els;
	struct etm_item it;
	uint64_t pos = 0;
	size_t bytes = 0;
	int err = -etme_nomem, fin = 0;

	if (!d || !buf || (r->ops && !cs))
		goto out;
	for (;;) {
		size_t n = r->size - pos > PAR_READ ? PAR_READ :
						      (size_t)(r->size - pos);

		if (n && r->rd(r->rctx, pos, buf, n) != n) {
			err = -etme_io;
			goto out;
		}
		pos += n;
		if (n)
			etm_decoder_push(d, buf, n);
		else if (!fin++)
			etm_decoder_finish(d);
		for (;;) {
			if (r->batch) {
				err = etm_decoder_next_elems(d, &els, PAR_BATCH);
				if (err < 0)
					break;
				err = r->ops->elems(cs, els, (size_t)err);
			} else {
				err = etm_decoder_next(d, &it, sizeof(it));
				if (err < 0)
					break;
				err = cs ? r->ops->item(cs, &it) :
					   fn(ctx, &it);
			}
			if (err > 0) {
				p = NULL;
				err = r->ops->cut(cs, &p, &bytes);
				if (!err && p)
					err = r->ops->emit(r->octx, p);
			}
			if (err < 0)
				goto out;
		}
		if (err != -etme_again && err != -etme_eos)
			goto out;
		if (err == -etme_eos || (fin && err == -etme_again)) {
			err = 0;
			break;
		}
	}
	if (cs) {
		p = NULL;
		err = r->ops->cut(cs, &p, &bytes);
		if (!err && p)
			err = r->ops->emit(r->octx, p);
	}
out:
	if (d)
		etm_decoder_set_packet_count(r->tmpl_w, etm_decoder_packet_count(d));
	if (cs) {
		if (err < 0) {
			p = NULL;
			if (r->ops->cut(cs, &p, &bytes) == 0 && p)
				r->ops->drop(r->octx, p);
		}
		r->ops->close(cs);
	}
	etm_skewed_free(buf);
	etm_decoder_free(d);
	return err;
}
