/* cli/cmd_packets.c - `etmtrace packets`: one line per trace packet, as
 * readable text or JSON lines. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "session.h"
#include "listing/pktlist.h"

static const char packets_help[] =
	"usage: etmtrace packets <snapshot-dir | trace-file> [options]\n"
	"\n"
	"List the packets of each trace source: input offset, trace ID, raw bytes,\n"
	"packet type and decoded fields.\n"
	"\n"
	"  --id ID              only this trace ID, hex (repeatable; default: all)\n"
	"  --format text|jsonl  output format (default text)\n"
	"  --offsets dec|hex    text: input offsets in decimal (default) or hex\n"
	"  --image FILE@ADDR --elf FILE[@BIAS]  program image (for inference)\n"
	"  --verbose            say which sources are decoded from which buffer\n"
	"  --probe-wait MS      live input (tcp://HOST:PORT, a FIFO, `-`): wait for\n"
	"                       its head at most MS ms (see 'etmtrace decode --help')\n"
	"Configuration: a snapshot's, or for a trace file found from the bytes\n"
	"(see 'etmtrace decode --help'); options always win:\n"
	"  --protocol etmv3|ptm trace protocol\n"
	"  --input-format raw|coresight|tpiu|tpiu-nofsync\n"
	"  --etmcr V --etmccer V --etmidr V   configuration registers\n"
	"  --m-profile          the core is ARMv7-M\n"
	"  --allow-outside      follow snapshot file references that leave the\n"
	"                       snapshot directory (refused by default)\n"
	"Exit status: 0 ok; 1 malformed packets or no packets at all; 2 usage or\n"
	"input error. A packet cut by the end of the trace buffer (ERROR\n"
	"truncated, the last of its source) is not counted as malformed.\n";

int cmd_packets(int argc, char **argv)
{
	static struct wbuf w;
	struct opts o = { .cmd = "packets" };
	struct pktlist c = { .w = &w };
	struct session s;
	uint64_t s_bytes;
	int r;

	r = opt_parse(&o, argc, argv,
		      "id,format,protocol,input-format,etmcr,etmccer,etmidr,m-profile,chunk,"
		      "allow-outside,image,elf,verbose,offsets,probe-wait");
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
	c.hexoff = o.offsets == 2;
	r = session_open(&s, &o, etm_dec_packets, o.nimages || o.nelfs);
	if (r) {
		session_close(&s);
		return r;
	}
	wbuf_init(&w, STDOUT_FILENO);
	s.out = &w;
	r = session_run(&s, pktlist_item, &c);
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
