/* bench/bench_itm.c - a synthetic ITM/DWT stream for the benchmark: what a
 * Cortex-M program traced over SWO gives - printf text on stimulus port 0
 * (mostly 4-byte writes), local timestamps, periodic PC samples, exception
 * entry/exit/return, a data watchpoint's value now and then, a sync every
 * 4 KiB - written with the library's ITM encoder (etmtrace/encode.h). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <etmtrace/encode.h>

#include "bench.h"

/* The events of one "tick" of the program into @out (room for 512
 * bytes); returns the bytes. */
static size_t itm_tick(struct etm_itm_enc *e, uint64_t t, uint8_t *out)
{
	struct etm_elem el;
	char text[64];
	size_t n = 0, i, len;
	int r;

	len = (size_t)snprintf(text, sizeof(text), "tick %llu: state ok\n",
			       (unsigned long long)t);
	memset(&el, 0, sizeof(el));
	for (i = 0; i < len; i += el.itm_size) {
		el.kind = etmk_itm_sw;
		el.itm_size = len - i >= 4 ? 4 : 1;
		el.itm_value = 0;
		memcpy(&el.itm_value, text + i, el.itm_size);
		r = etm_itm_enc_put(e, &el, out + n, ETM_ITM_ENC_MAX);
		n += r > 0 ? (size_t)r : 0;
	}
	memset(&el, 0, sizeof(el));
	el.kind = etmk_itm_ts;
	el.timestamp = 100 + t % 900;
	r = etm_itm_enc_put(e, &el, out + n, ETM_ITM_ENC_MAX);
	n += r > 0 ? (size_t)r : 0;
	memset(&el, 0, sizeof(el));
	el.kind = etmk_dwt_pc;
	el.addr = 0x08000200 + (t * 52) % 0x4000;
	r = etm_itm_enc_put(e, &el, out + n, ETM_ITM_ENC_MAX);
	n += r > 0 ? (size_t)r : 0;
	memset(&el, 0, sizeof(el));
	el.kind = etmk_dwt_exc;
	el.exc_num = 15 + (uint16_t)(t % 3 == 0) * 29;
	for (el.itm_fn = 1; el.itm_fn <= 3; el.itm_fn++) {
		r = etm_itm_enc_put(e, &el, out + n, ETM_ITM_ENC_MAX);
		n += r > 0 ? (size_t)r : 0;
	}
	if (t % 8 == 0) {
		memset(&el, 0, sizeof(el));
		el.kind = etmk_dwt_cmp;
		el.itm_flags = ETM_ITM_CMP_VALUE;
		el.itm_fn = 1;
		el.itm_size = 4;
		el.itm_value = (uint32_t)t;
		r = etm_itm_enc_put(e, &el, out + n, ETM_ITM_ENC_MAX);
		n += r > 0 ? (size_t)r : 0;
	}
	return n;
}

int bench_itm_synth(struct bench_case *c, uint64_t bytes, const char *path)
{
	static uint8_t buf[(1 << 20) + 4096];
	struct etm_itm_enc *e;
	struct stat st;
	uint64_t written = 0, t = 0, last_sync = 0;
	size_t n = 0;
	FILE *f;
	int ok = 1;

	memset(c, 0, sizeof(*c));
	c->trace = path;
	c->fmt = etm_fmt_raw;
	etm_config_init(&c->cfg);
	c->cfg.protocol = etm_proto_itm;
	c->cfg.traceid = 1;
	if (stat(path, &st) == 0 && (uint64_t)st.st_size >= bytes)
		return 0;
	e = etm_itm_enc_alloc();
	f = fopen(path, "wb");
	if (!e || !f) {
		fprintf(stderr, "etm_bench: cannot write %s\n", path);
		etm_itm_enc_free(e);
		if (f)
			fclose(f);
		return -1;
	}
	while (ok && written < bytes) {
		if (written + n - last_sync >= 4096 || !t) {
			n += (size_t)etm_itm_enc_sync(e, buf + n, 6);
			last_sync = written + n;
		}
		n += itm_tick(e, t++, buf + n);
		if (n >= (1 << 20)) {
			ok = fwrite(buf, 1, n, f) == n;
			written += n;
			n = 0;
		}
	}
	ok = ok && fclose(f) == 0;
	etm_itm_enc_free(e);
	return ok ? 0 : -1;
}
