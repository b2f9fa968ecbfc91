/* tests/oracle/progs/rt.h - freestanding runtime for the QEMU oracle
 * programs (no libc: Debian's cross compiler ships none): entry point,
 * write and exit system calls. */
#ifndef ORACLE_RT_H
#define ORACLE_RT_H

int main(void);

static inline long sys3(long n, long a, long b, long c)
{
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	register long r7 __asm__("r7") = n;

	__asm__ volatile("svc #0"
			 : "+r"(r0)
			 : "r"(r1), "r"(r2), "r"(r7)
			 : "memory");
	return r0;
}

/* Print @v in hex and a newline (one write system call). */
static inline void put_hex(unsigned v)
{
	char b[9];
	int i;

	for (i = 7; i >= 0; i--, v >>= 4)
		b[i] = "0123456789abcdef"[v & 15];
	b[8] = '\n';
	sys3(4, 1, (long)b, 9);
}

__attribute__((naked, noreturn, used)) void _start(void)
{
	__asm__ volatile("bl main\n\tmov r7, #1\n\tsvc #0\n");
}

#endif
