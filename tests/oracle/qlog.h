/* tests/oracle/qlog.h - QEMU's record of an execution as an execution for
 * our encoder: the instruction log of qemu-arm (user mode) read into
 * (address, Thumb state) pairs, then into encoder events (etm_ev). The
 * decisions are QEMU's (which instruction ran next, in which state); the
 * only facts taken from the instruction bytes are its size and whether its
 * encoding is conditional, so a classifier error of ours is not hidden. */
#ifndef ETM_TESTS_ORACLE_QLOG_H
#define ETM_TESTS_ORACLE_QLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <etmtrace/encode.h>
#include <etmtrace/image.h>

/* One executed instruction. */
struct qlog_insn {
	uint32_t addr;
	uint8_t thumb;
	uint8_t condexec; /* QEMU's IT state (0: not in an IT block) */
};

/* Read the "Trace" lines of `qemu-arm -singlestep -d exec,nochain` (QEMU
 * 7.2; -one-insn-per-tb from 8.1) from @f: one line per executed
 * instruction, "Trace CPU: HOSTPTR [CS_BASE/PC/FLAGS/CFLAGS] SYMBOL". For
 * Arm, CS_BASE holds QEMU's TB flags2: bit 23 is the Thumb state
 * (TBFLAG_AM32 THUMB), bits 31:24 the IT state (CONDEXEC). Other lines are
 * ignored. Returns the count (*@v malloc'd), or -1 (no memory). */
long qlog_read(FILE *f, struct qlog_insn **v);

/* Events for @v[0..n) over @img (the program's code): trace on, one
 * instruction event per executed instruction; after each system call (an
 * SVC that executed) the SVC exception (number 10, vector 0x08) and a
 * trace gap until the instruction the kernel returned to, as the kernel is
 * not traced. Code outside @img is a gap too. An
 * instruction is taken (exec 1, target = next) when the next one is not at
 * the following address in the same state; one that falls through counts
 * as failed (exec 0) if its encoding is conditional (A32 cond < AL, T32
 * B<c>, CBZ/CBNZ, or inside an IT block), else as passed.
 * Returns the number of events (*@ev malloc'd), or -1 (no memory). */
long qlog_events(const struct qlog_insn *v, size_t n,
		 const struct etm_image *img, struct etm_ev **ev);

#endif
