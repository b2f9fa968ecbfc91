/* cli/perfscript.c - `decode --format perf-script`: the taken branches of
 * the trace as `perf script --itrace=b -F comm,pid,tid,cpu,ip,addr,flags`
 * prints the branch samples it makes from cs_etm trace (comm, pid/tid and
 * [cpu] for a perf.data file only), so scripts written for perf's output
 * read ours. One line per taken branch: from the last instruction of a
 * range to the first of the next; "tr strt" from 0 where trace starts (each
 * buffer, each resynchronisation), "tr end" to 0 where it stops inside a
 * buffer (with the kind of the last instruction if it is a branch taken
 * or not, or an exception: "tr end  call"); an exception makes the instruction before it a branch to the
 * vector ("hw int" for IRQ, FIQ, asynchronous abort, reset and debug halt;
 * "syscall" for SVC; "int" for the other synchronous ones). A branch is a
 * "call" with link, "return" when it looks like one (BX lr, POP {pc}),
 * "iret" for an exception return, "jcc" if conditional and direct, else
 * "jmp"; an exception return to just after an SVC is a "sysret" (doc/
 * perfdata.md: the rules and how perf differs). */
#include <stdio.h>
#include <string.h>

#include "perfscript.h"

struct ps_id {
	int have;          /* a range before, in this stretch of trace */
	int taken;         /* its last instruction branched */
	int iret;          /* with an exception return */
	int exc;           /* an exception followed it */
	const char *flags; /* and how */
	uint64_t last;     /* its address */
};

struct ps {
	struct session *s;
	size_t buf;
	char who[64]; /* a perf.data piece: "comm pid/tid [cpu] " */
	struct ps_id id[128];
};

static const struct etm_image *ps_image(const struct ps *p, unsigned id)
{
	size_t i;

	for (i = 0; i < etm_capture_nsources(p->s->cap); i++) {
		const struct etm_capture_source *c = etm_capture_source(p->s->cap, i);

		if (c->id == id && c->buffer == p->buf && !c->skip)
			return c->img;
	}
	return NULL;
}

static void ps_line(const struct ps *p, const char *flags, uint64_t ip,
		    uint64_t addr)
{
	printf("%s  %-21s  %16llx => %16llx\n", p->who, flags,
	       (unsigned long long)ip, (unsigned long long)addr);
}

/* How the last instruction of range @e branches, or NULL if it is no
 * branch (whether it branched or not: etm_elem.last_exec). */
static const char *ps_branch(const struct ps *p, const struct etm_elem *e)
{
	const struct etm_image *img = ps_image(p, e->id);
	struct etm_insn in;
	uint8_t b[4];
	size_t n;

	if (e->last_cls != etmc_br_direct && e->last_cls != etmc_br_indirect)
		return NULL;
	n = img ? etm_image_read(img, etm_space_any, e->last_addr, b, sizeof(b)) : 0;
	if (etm_insn_decode(&in, e->isa, e->last_addr, b, n) < 0)
		return e->last_link ? "call" : "jmp";
	return in.exc_return                       ? "iret" :
	       in.link                             ? "call" :
	       in.is_return                        ? "return" :
	       in.cls == etmc_br_direct && in.cond ? "jcc" :
						     "jmp";
}

/* Whether the instruction before @e's first is an SVC: an exception
 * return to there ends a system call ("sysret", as perf calls it). */
static int ps_after_svc(const struct ps *p, const struct etm_elem *e)
{
	const struct etm_image *img = ps_image(p, e->id);
	uint8_t b[4];

	if (!img)
		return 0;
	if (e->isa == etmi_t32) /* SVC T1: 0xDFxx */
		return e->start >= 2 &&
		       etm_image_read(img, etm_space_any, e->start - 2, b, 2) == 2 &&
		       b[1] == 0xdf;
	return e->start >= 4 && /* SVC A1: cond 1111 imm24, cond != 1111 */
	       etm_image_read(img, etm_space_any, e->start - 4, b, 4) == 4 &&
	       (b[3] & 0x0f) == 0x0f && (b[3] & 0xf0) != 0xf0;
}

/* ETMv3/PTM exception numbers (ETM architecture, the I-sync and branch
 * packets' encoding) as perf names them. */
static const char *ps_exception(unsigned num)
{
	switch (num) {
	case 1:  /* debug halt */
	case 4:  /* asynchronous data abort */
	case 8:  /* reset */
	case 14: /* IRQ */
	case 15: /* FIQ */
		return "hw int";
	case 10: return "syscall";
	}
	return "int";
}

static int ps_item(void *ctx, const struct etm_item *it)
{
	struct ps *p = ctx;
	const struct etm_elem *e = &it->elem;
	struct ps_id *d;

	if (it->kind != etm_item_elem)
		return 0;
	d = &p->id[e->id & 0x7f];
	switch (e->kind) {
	case etmk_range:
		if (!d->have)
			ps_line(p, "tr strt", 0, e->start);
		else if (d->taken)
			ps_line(p, d->iret && ps_after_svc(p, e) ? "sysret" : d->flags,
				d->last, e->start);
		d->have = 1;
		d->last = e->last_addr;
		d->flags = ps_branch(p, e);
		d->taken = d->flags && e->last_exec;
		d->iret = d->flags && !strcmp(d->flags, "iret");
		d->exc = 0;
		break;
	case etmk_exception:
		if (d->have) {
			d->taken = 1;
			d->iret = 0;
			d->exc = 1;
			d->flags = ps_exception(e->exc_num);
			if (e->exc_cancel && e->has_ret) /* from the instruction */
				d->last = e->ret_addr;   /* that took it */
		}
		break;
	case etmk_trace_on:
	case etmk_nosync:
	case etmk_error:
	case etmk_nomem:
		if (d->have && d->flags && strcmp(d->flags, "jmp")) {
			/* perf: "tr end  return"; a jmp is no more than "tr end" */
			char f[32];

			snprintf(f, sizeof(f), "tr end  %s", d->flags);
			ps_line(p, f, d->last, 0);
		} else if (d->have) {
			ps_line(p, "tr end", d->last, 0);
		}
		d->have = 0;
		break;
	default: break;
	}
	return 0;
}

/* perf's -F comm,pid,tid,cpu columns for a perf.data piece (one with a
 * length), none for other input. */
static void ps_who(struct ps *p, const struct etm_capture_buffer *b)
{
	p->who[0] = 0;
	if (b && b->length)
		snprintf(p->who, sizeof(p->who), "%16s %5d/%-5d [%03d] ",
			 b->perf_comm ? b->perf_comm : "unknown", b->perf_pid,
			 b->perf_tid, b->perf_cpu);
}

int perfscript_run(struct session *s)
{
	static struct ps p;
	size_t b;
	int r = 0;

	memset(&p, 0, sizeof(p));
	p.s = s;
	for (b = 0; b < session_nbuffers(s) && !r; b++) {
		if (session_select(s, b) < 0)
			continue;
		memset(p.id, 0, sizeof(p.id)); /* each buffer starts afresh */
		p.buf = b;
		ps_who(&p, etm_capture_buffer(s->cap, b));
		r = session_run_buffer(s, ps_item, &p);
	}
	fflush(stdout);
	return r;
}
