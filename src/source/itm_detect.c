/* source/itm_detect.c - is a trace source's byte stream ITM/DWT trace
 * (ARMv7-M ARM appendix D4, "ITM and DWT packet protocol") rather than
 * ETM/PTM? Its sync (five 0x00 and 0x80) is that of ETMv3 and PTM (an
 * A-sync), so the packet grammar tells: every ITM header byte is one of a
 * few forms, and the hardware sources' discriminators and payload sizes go
 * together; ETM and PTM streams read as ITM hit reserved forms often. A
 * heuristic (doc/itm.md): the capture loader consults it for trace files
 * only, and not when the options give the protocol. */
#include <stdio.h>
#include <string.h>

#include <etmtrace/detect.h>

/* Reserved: 0x80, 0x90, 0xA0, 0xB0 (0b10xx0000), 0bxxxx0100 other than
 * the global timestamps 0x94 and 0xB4, hardware discriminators 3-7 and
 * 24-31, an event counter or exception packet of another size, a
 * continued payload longer than its packet allows, zeros not ending in a
 * sync. */

/* A hardware source packet of discriminator @disc and @size bytes:
 * 0 event counter (1), 1 exception trace (2), 2 PC sample (1: sleeping,
 * or 4), 8-23 data trace (PC value 4, address 2, value 1/2/4). */
static int itm_hw_ok(unsigned disc, unsigned size)
{
	switch (disc) {
	case 0: return size == 1;
	case 1: return size == 2;
	case 2: return size == 1 || size == 4;
	default: return disc >= 8 && disc <= 23;
	}
}

/* A payload continued by bit 7, at most @max bytes from @i: the index
 * after it, or 0 if it runs longer (n if it runs to the end). */
static size_t itm_cont(const uint8_t *b, size_t n, size_t i, size_t max)
{
	size_t k;

	for (k = 0; k < max; k++, i++)
		if (i >= n || !(b[i] & 0x80))
			return i < n ? i + 1 : n;
	return 0;
}

/* One packet at @b[i]: the index after it; *@bad set if it is malformed
 * (then one byte on), *@kind 1 for a source packet, 2 sync, 3 timestamp,
 * 0 other. */
static size_t itm_packet(const uint8_t *b, size_t n, size_t i, int *bad,
			 int *kind)
{
	uint8_t h = b[i];
	size_t z, e;

	*bad = 0;
	*kind = 0;
	if (h & 3) { /* instrumentation or hardware source */
		unsigned size = (h & 3) == 3 ? 4 : h & 3;

		*bad = (h & 4) && !itm_hw_ok(h >> 3, size);
		*kind = 1;
		return *bad ? i + 1 : i + 1 + size;
	}
	if (!h) { /* >= 47 zero bits and a one */
		for (z = i; z < n && !b[z]; z++)
			;
		*kind = 2;
		*bad = z < n && (z - i < 5 || b[z] != 0x80);
		return *bad ? z : z < n ? z + 1 :
					  n;
	}
	if ((h & 0x0b) == 0x08) /* extension: 0bCxxx1S00 */
		e = h & 0x80 ? itm_cont(b, n, i + 1, 4) : i + 1;
	else if (h == 0x94 || h == 0xb4) /* global timestamps */
		e = itm_cont(b, n, i + 1, h == 0x94 ? 4 : 6);
	else if ((h & 0x0f) == 0 && (h & 0xc0) == 0xc0) /* local, format 1 */
		e = itm_cont(b, n, i + 1, 4);
	else if ((h & 0x8f) == 0) /* local, format 2 (1-6); 0x70 overflow */
		e = i + 1;
	else
		e = 0;
	*kind = h != 0x70 && ((h & 0x0f) == 0 || (h & 0x0f) == 4) ? 3 : 0;
	*bad = !e;
	return e ? e : i + 1;
}

int etm_detect_itm(const uint8_t *buf, size_t n, char *why, size_t whylen)
{
	size_t i = 0, pkts = 0, bad = 0, src = 0, syncs = 0, ts = 0;
	int b, kind, itm;

	if (why && whylen)
		why[0] = 0;
	while (buf && i < n) {
		i = itm_packet(buf, n, i, &b, &kind);
		bad += (size_t)b;
		pkts += !b;
		src += !b && kind == 1;
		syncs += !b && kind == 2;
		ts += !b && kind == 3;
	}
	/* ETM/PTM streams read as ITM: a malformed packet every 3-10 */
	itm = pkts >= 8 && bad * 32 <= pkts && src * 2 >= pkts;
	if (why)
		snprintf(why, whylen, "%s: %zu packets by its grammar (%zu "
				      "source, %zu sync, %zu timestamp), %zu "
				      "malformed",
			 itm ? "ITM/DWT" : "not ITM/DWT", pkts, src, syncs, ts,
			 bad);
	return itm;
}
