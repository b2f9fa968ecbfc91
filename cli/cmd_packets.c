/* cli/cmd_packets.c - `etmtrace packets`: one line per trace packet, as
 * readable text or JSON lines. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "session.h"
#include "wbuf.h"

static const char packets_help[] =
	"usage: etmtrace packets <snapshot-dir | trace-file> [options]\n"
	"\n"
	"List the packets of each trace source: input offset, trace ID, raw bytes,\n"
	"packet type and decoded fields.\n"
	"\n"
	"  --id ID              only this trace ID, hex (repeatable; default: all)\n"
	"  --format text|jsonl  output format (default text)\n"
	"  --image FILE@ADDR --elf FILE[@BIAS]  program image (for inference)\n"
	"  --verbose            say which sources are decoded from which buffer\n"
	"Configuration: a snapshot's, or for a trace file found from the bytes\n"
	"(see 'etmtrace decode --help'); options always win:\n"
	"  --protocol etmv3|ptm trace protocol\n"
	"  --input-format raw|coresight|tpiu|tpiu-nofsync\n"
	"  --etmcr V --etmccer V --etmidr V   configuration registers\n"
	"  --m-profile          the core is ARMv7-M\n"
	"  --allow-outside      follow snapshot file references that leave the\n"
	"                       snapshot directory (refused by default)\n"
	"Exit status: 0 ok; 1 malformed packets or no packets at all; 2 usage or\n"
	"input error.\n";

struct pk_ctx {
	struct wbuf *w;
	int jsonl;
	unsigned long errors;
	unsigned long packets;
	uint8_t full[128]; /* a full address was seen, by trace ID */
};

/* A compressed address before the first full one (I-sync or a 32-bit
 * branch address) of its source: its high bits are not known. */
static int addr_unknown(struct pk_ctx *c, const struct etm_packet *p)
{
	if (p->type == etmp_isync ||
	    ((p->type == etmp_branch || p->type == etmp_waypoint) &&
	     p->addr_bits >= 32))
		c->full[p->id & 0x7f] = 1;
	return (p->type == etmp_branch || p->type == etmp_waypoint) &&
	       !c->full[p->id & 0x7f];
}

static void put_hex_bytes(struct wbuf *w, const struct etm_packet *p, int spaced)
{
	static const char hx[] = "0123456789abcdef";
	char *q = wbuf_reserve(w, 3 * ETM_PKT_MAX_RAW + 8);
	size_t n = 0;
	unsigned i;

	for (i = 0; i < p->raw_len; i++) {
		if (spaced && i)
			q[n++] = ' ';
		q[n++] = hx[p->raw[i] >> 4];
		q[n++] = hx[p->raw[i] & 15];
	}
	if (p->size > p->raw_len && spaced) {
		memcpy(q + n, " ...", 4);
		n += 4;
	}
	wbuf_commit(w, n);
}

static int pk_item(void *vctx, const struct etm_item *it)
{
	struct pk_ctx *c = vctx;
	char fields[1024];
	const struct etm_packet *p = &it->pkt;
	int unknown;

	if (it->is_elem) {
		/* deformatter errors arrive as error elements */
		c->errors++;
		if (c->jsonl)
			wbuf_printf(c->w, "{\"offset\":%llu,\"type\":\"FRAME_ERROR\",\"error\":\"%s\"}\n",
				    (unsigned long long)it->elem.offset,
				    etm_errname(it->elem.err));
		else
			wbuf_printf(c->w, "%10llu  --  frame error: %s\n",
				    (unsigned long long)it->elem.offset,
				    etm_errstr(it->elem.err));
		return 0;
	}
	if (p->type == etmp_error)
		c->errors++;
	else if (p->type != etmp_notsync)
		c->packets++;
	unknown = addr_unknown(c, p);
	if (c->jsonl) {
		etm_pkt_json_fields(p, it->proto, fields, sizeof(fields));
		if (unknown)
			strncat(fields, ",\"addr_known\":false",
				sizeof(fields) - strlen(fields) - 1);
		wbuf_printf(c->w, "{\"offset\":%llu,\"id\":\"0x%02x\",\"bytes\":\"",
			    (unsigned long long)p->offset, p->id);
		put_hex_bytes(c->w, p, 0);
		wbuf_printf(c->w, "\",\"type\":\"%s\"%s%s}\n",
			    etm_pkt_type_name(p->type, it->proto),
			    fields[0] ? "," : "", fields);
		return 0;
	}
	etm_pkt_describe(p, it->proto, fields, sizeof(fields));
	if (unknown)
		snprintf(fields + strlen(fields), sizeof(fields) - strlen(fields),
			 " (low %u address bits only: no full address yet)",
			 p->addr_bits);
	wbuf_printf(c->w, "%10llu  0x%02x  ", (unsigned long long)p->offset, p->id);
	{
		size_t before = c->w->len;
		size_t used;

		put_hex_bytes(c->w, p, 1);
		used = c->w->len >= before ? c->w->len - before : 0;
		while (used++ < 36)
			wbuf_char(c->w, ' ');
	}
	wbuf_printf(c->w, " %-18s %s\n", etm_pkt_type_name(p->type, it->proto),
		    fields);
	return 0;
}

int cmd_packets(int argc, char **argv)
{
	static struct wbuf w;
	struct opts o = { .cmd = "packets" };
	struct pk_ctx c = { .w = &w };
	struct session s;
	uint64_t s_bytes;
	int r;

	r = opt_parse(&o, argc, argv,
		      "id,format,protocol,input-format,etmcr,etmccer,etmidr,m-profile,chunk,"
		      "allow-outside,image,elf,verbose");
	if (r) {
		if (r > 0)
			fputs(packets_help, stdout);
		return r > 0 ? 0 : 2;
	}
	if (o.format && !strcmp(o.format, "canon")) {
		fprintf(stderr, "etmtrace packets: --format must be text or jsonl\n");
		return 2;
	}
	c.jsonl = o.format && !strcmp(o.format, "jsonl");
	r = session_open(&s, &o, etm_dec_packets, o.nimages || o.nelfs);
	if (r) {
		session_close(&s);
		return r;
	}
	wbuf_init(&w, STDOUT_FILENO);
	r = session_run(&s, pk_item, &c);
	wbuf_flush(&w);
	s_bytes = s.input_bytes;
	session_close(&s);
	if (r)
		return r;
	if (!c.packets)
		fprintf(stderr, "etmtrace: no packets (no synchronisation) in %llu "
				"bytes of trace%s\n",
			(unsigned long long)s_bytes, s_bytes ? "" : " (empty)");
	else if (c.errors)
		fprintf(stderr, "etmtrace: %lu malformed packets or frames\n",
			c.errors);
	return c.errors || !c.packets ? 1 : 0;
}
