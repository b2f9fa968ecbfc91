/* tests/oracle/qlog.c - qemu-arm instruction log -> encoder events (see
 * qlog.h). */
#include <stdlib.h>
#include <string.h>

#include "qlog.h"

long qlog_read(FILE *f, struct qlog_insn **v)
{
	char line[512];
	size_t n = 0, cap = 0;
	struct qlog_insn *p = NULL, *np;
	unsigned long cs, pc;

	while (fgets(line, sizeof(line), f)) {
		const char *b = strchr(line, '[');

		if (strncmp(line, "Trace ", 6) || !b ||
		    sscanf(b, "[%lx/%lx/", &cs, &pc) != 2)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			np = realloc(p, cap * sizeof(*p));
			if (!np) {
				free(p);
				return -1;
			}
			p = np;
		}
		p[n].addr = (uint32_t)pc;
		p[n].thumb = (uint8_t)(cs >> 23 & 1);
		p[n].condexec = (uint8_t)(cs >> 24);
		n++;
	}
	*v = p;
	return (long)n;
}

/* Instruction size and conditional encoding (ARM DDI 0406C A5.1, A6.1,
 * A6.2.1, A8.8.18, A8.8.29); 0 if the bytes are not in @img. */
static unsigned insn_size(const struct etm_image *img, const struct qlog_insn *q,
			  int *cond, int *svc)
{
	uint8_t b[4];
	uint32_t hw1, hw2;

	*cond = *svc = 0;
	if (!q->thumb) {
		if (etm_image_read(img, etm_space_any, q->addr, b, 4) != 4)
			return 0;
		*cond = b[3] >> 4 < 0xE;
		*svc = (b[3] & 0x0F) == 0x0F && b[3] >> 4 != 0xF;
		return 4;
	}
	if (etm_image_read(img, etm_space_any, q->addr, b, 2) != 2)
		return 0;
	hw1 = (uint32_t)b[0] | (uint32_t)b[1] << 8;
	*cond = (q->condexec & 0xF) != 0 || /* IT block */
		((hw1 & 0xF000) == 0xD000 && (hw1 & 0x0E00) != 0x0E00) ||
		(hw1 & 0xF500) == 0xB100; /* CBZ/CBNZ */
	*svc = (hw1 & 0xFF00) == 0xDF00;
	if ((hw1 & 0xF800) < 0xE800)
		return 2;
	if (etm_image_read(img, etm_space_any, q->addr + 2, b, 2) != 2)
		return 0;
	hw2 = (uint32_t)b[0] | (uint32_t)b[1] << 8;
	if ((hw1 & 0xF800) == 0xF000 && (hw2 & 0xD000) == 0x8000 &&
	    (hw1 >> 6 & 0xE) != 0xE)
		*cond = 1; /* B<c>.W */
	return 4;
}

static int push(struct etm_ev **v, size_t *n, size_t *cap,
		const struct etm_ev *e)
{
	struct etm_ev *nv;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 65536;
		nv = realloc(*v, *cap * sizeof(**v));
		if (!nv)
			return -1;
		*v = nv;
	}
	(*v)[(*n)++] = *e;
	return 0;
}

long qlog_events(const struct qlog_insn *v, size_t n,
		 const struct etm_image *img, struct etm_ev **out)
{
	struct etm_ev *ev = NULL, e;
	size_t i, nev = 0, cap = 0;
	int on = 0, cond, svc, err = 0;

	for (i = 0; i < n && !err; i++) {
		unsigned size = insn_size(img, &v[i], &cond, &svc);
		const struct qlog_insn *nx = i + 1 < n ? &v[i + 1] : NULL;
		int taken = nx && (nx->addr != v[i].addr + size ||
				   nx->thumb != v[i].thumb);

		if (!size) { /* not our code: a gap */
			memset(&e, 0, sizeof(e));
			e.kind = etmev_trace_off;
			if (on)
				err = push(&ev, &nev, &cap, &e);
			on = 0;
			continue;
		}
		if (!on) {
			memset(&e, 0, sizeof(e));
			e.kind = etmev_trace_on;
			e.reason = 1; /* trace enabled */
			err |= push(&ev, &nev, &cap, &e);
			on = 1;
		}
		memset(&e, 0, sizeof(e));
		e.kind = etmev_insn;
		e.addr = v[i].addr;
		e.isa = v[i].thumb ? etmi_t32 : etmi_a32;
		e.exec = taken || !cond;
		if (taken) {
			e.target = nx->addr;
			e.target_isa = nx->thumb ? etmi_t32 : etmi_a32;
		}
		err |= push(&ev, &nev, &cap, &e);
		if (svc && e.exec && !taken) {
			/* the SVC exception (number 10, vector 0x08: etmv3.md
			 * and ptm.md exception tables); the kernel is not
			 * traced */
			memset(&e, 0, sizeof(e));
			e.kind = etmev_exception;
			e.addr = 0x08;
			e.isa = etmi_a32;
			e.exc_num = 10;
			err |= push(&ev, &nev, &cap, &e);
			memset(&e, 0, sizeof(e));
			e.kind = etmev_trace_off;
			err |= push(&ev, &nev, &cap, &e);
			on = 0;
		}
	}
	if (err) {
		free(ev);
		return -1;
	}
	*out = ev;
	return (long)nev;
}
