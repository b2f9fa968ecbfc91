/* cli/cmd_itm.c - `etmtrace itm`: the text the program wrote to its ITM
 * stimulus ports, as orbcat shows it: the bytes of a channel assembled
 * into lines. Reads the packets only (no image, no instruction flow). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "itm_check.h"
#include "session.h"

static const char itm_help[] =
	"usage: etmtrace itm <snapshot-dir | trace-file> [options]\n"
	"\n"
	"Print the text the program wrote to its ITM stimulus ports (printf over\n"
	"SWO): the bytes of each write, in the order written. With --channel the\n"
	"channel's bytes as they are; without it every channel, its bytes\n"
	"assembled into lines, each line prefixed 'chN: '.\n"
	"\n"
	"  --channel N          only stimulus port N (0-255)\n"
	"  --check              instead: check the ITM/DWT events against the\n"
	"                       instruction flow of the same stream (needs the\n"
	"                       program image): every PC sample an instruction\n"
	"                       executed near that point, every DWT exception\n"
	"                       entry an ETM exception near it, and back; a\n"
	"                       statistic and a warning per disagreement\n"
	"  --image FILE@ADDR --elf FILE[@BIAS]  program image (for --check)\n"
	"  --id ID              only this trace ID, hex (repeatable)\n"
	"  --protocol itm       decode every source as ITM/DWT (default: an\n"
	"                       ITM/DWT source is recognised by its bytes)\n"
	"  --input-format raw|coresight|tpiu|tpiu-nofsync\n"
	"  --verbose            say which sources are decoded from which buffer\n"
	"Exit status: 0 ok; 1 no ITM/DWT source, malformed ITM packets, or (with\n"
	"--check) the sources disagree; 2 usage or input error.\n";

/* Longest line kept per channel before it is written out in pieces. */
#define ITM_LINE_MAX 4096

struct itm_cat {
	int channel; /* -1: all */
	char *line[256];
	size_t len[256];
	unsigned long long writes, overflows, errors, itm_pkts;
	uint8_t used[256];
};

static void cat_flush(struct itm_cat *c, unsigned ch)
{
	printf("ch%u: %.*s\n", ch, (int)c->len[ch], c->line[ch]);
	c->len[ch] = 0;
}

static int cat_byte(struct itm_cat *c, unsigned ch, uint8_t b)
{
	if (c->channel >= 0) {
		putchar(b);
		return 0;
	}
	if (!c->line[ch] && !(c->line[ch] = malloc(ITM_LINE_MAX)))
		return -1;
	if (b == '\n') {
		cat_flush(c, ch);
		return 0;
	}
	c->line[ch][c->len[ch]++] = (char)b;
	if (c->len[ch] == ITM_LINE_MAX)
		cat_flush(c, ch);
	return 0;
}

static int cat_item(void *ctx, const struct etm_item *it)
{
	struct itm_cat *c = ctx;
	const struct etm_packet *p = &it->pkt;
	unsigned i;

	if (it->kind != etm_item_packet || it->proto != etm_proto_itm)
		return 0;
	c->itm_pkts++;
	if (p->type == etmp_itm_overflow)
		c->overflows++;
	if (p->type == etmp_error && p->err != etme_truncated)
		c->errors++;
	if (p->type != etmp_itm_sw ||
	    (c->channel >= 0 && p->itm_port != (unsigned)c->channel))
		return 0;
	c->writes++;
	c->used[p->itm_port & 0xff] = 1;
	for (i = 0; i < p->dvalue_size && i < 4; i++)
		if (cat_byte(c, p->itm_port & 0xff,
			     (uint8_t)(p->dvalue >> (8 * i))) < 0)
			return -1;
	return 0;
}

static int check_item(void *ctx, const struct etm_item *it)
{
	if (it->kind == etm_item_elem)
		itm_check_elem(ctx, &it->elem);
	return 0;
}

/* itm --check: the elements of every source, in stream order. */
static int itm_check_run(struct opts *o)
{
	static struct itm_check c;
	struct session s;
	int r, i;

	itm_check_init(&c);
	r = session_open(&s, o, etm_dec_elements, 1);
	for (i = 0; !r && i < s.nsrc; i++)
		c.img[s.src[i].id & 0x7f] = s.src[i].img;
	if (!r)
		r = session_run(&s, check_item, &c);
	session_close(&s);
	if (r)
		return r;
	return itm_check_end(&c);
}

static int itm_sources(const struct session *s)
{
	int i, n = 0;

	for (i = 0; i < s->nsrc; i++)
		n += s->src[i].cfg.protocol == etm_proto_itm;
	return n;
}

int cmd_itm(int argc, char **argv)
{
	struct opts o = { .cmd = "itm", .itm_channel = -1 };
	struct itm_cat c;
	struct session s;
	unsigned ch;
	int r, nitm;

	r = opt_parse(&o, argc, argv,
		      "id,protocol,input-format,chunk,allow-outside,verbose,"
		      "channel,check,image,elf");
	if (r) {
		if (r > 0)
			fputs(itm_help, stdout);
		return r > 0 ? 0 : 2;
	}
	if (o.itm_check)
		return itm_check_run(&o);
	memset(&c, 0, sizeof(c));
	c.channel = o.itm_channel;
	r = session_open(&s, &o, etm_dec_packets, 0);
	if (r) {
		session_close(&s);
		return r;
	}
	nitm = itm_sources(&s);
	r = nitm ? session_run(&s, cat_item, &c) : 0;
	session_close(&s);
	for (ch = 0; ch < 256; ch++) {
		if (c.len[ch])
			cat_flush(&c, ch);
		free(c.line[ch]);
	}
	fflush(stdout);
	if (r)
		return r;
	if (!nitm) {
		fprintf(stderr, "etmtrace itm: no ITM/DWT trace source (give "
				"--protocol itm if the bytes are ITM)\n");
		return 1;
	}
	fprintf(stderr, "etmtrace itm: %llu stimulus writes, %llu overflows, "
			"%llu malformed packets\n",
		c.writes, c.overflows, c.errors);
	return c.errors ? 1 : 0;
}
