/* cli/cmd_packets.c - `etmtrace packets`: one line per trace packet, as
 * readable text or JSON lines. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <etmtrace/listing.h>

#include "cmds.h"
#include "session.h"

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

/* The packet listing's text to standard output, whole (retrying partial
 * writes). */
static int packets_write(void *ctx, const char *p, size_t n)
{
	ssize_t r;

	(void)ctx;
	while (n) {
		r = write(STDOUT_FILENO, p, n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int packets_item(void *ctx, const struct etm_item *it)
{
	return etm_packet_listing_item(ctx, it);
}

static void packets_flush(void *ctx)
{
	etm_packet_listing_flush(ctx);
}

int cmd_packets(int argc, char **argv)
{
	struct etm_packet_listing_opts lo = { .size = sizeof(lo),
					      .write = packets_write };
	struct etm_packet_listing *pl = NULL;
	struct opts o = { .cmd = "packets" };
	struct session s;
	uint64_t s_bytes, packets = 0, errors = 0;
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
	lo.format = o.format && !strcmp(o.format, "jsonl") ? etm_listing_jsonl :
							     etm_listing_text;
	lo.offsets = o.offsets;
	r = session_open(&s, &o, etm_dec_packets, o.nimages || o.nelfs);
	if (r) {
		session_close(&s);
		return r;
	}
	if (etm_packet_listing_alloc(&pl, &lo) < 0) {
		fprintf(stderr, "etmtrace: out of memory\n");
		session_close(&s);
		return 2;
	}
	s.flush = packets_flush;
	s.flush_ctx = pl;
	r = session_run(&s, packets_item, pl);
	etm_packet_listing_flush(pl);
	etm_packet_listing_counts(pl, &packets, &errors);
	etm_packet_listing_free(pl);
	s_bytes = s.input_bytes;
	session_close(&s);
	if (r)
		return r;
	if (!packets)
		fprintf(stderr, "etmtrace: no packets (no synchronisation) in %llu "
				"bytes of trace%s\n",
			(unsigned long long)s_bytes, s_bytes ? "" : " (empty)");
	else if (errors)
		fprintf(stderr, "etmtrace: %llu malformed packets or frames\n",
			(unsigned long long)errors);
	return errors || !packets ? 1 : 0;
}
