@ tests/fuzz/fuzz-image.s - source of fuzz-image.h, the fixed program image of
@ the flow fuzz targets: llvm-mc, then ld.lld placing .vec at 0x0, .arm at
@ 0x8000 and .thumb at 0x9000; bytes taken with llvm-objcopy -O binary.
	.syntax unified
	.arch armv7-a
	.arch_extension virt
	.arch_extension sec
	.section .vec, "ax"
	.arm
vec:	b	vec_rst
	b	vec_und
	b	vec_svc
	b	vec_abt
	b	vec_abt
	b	vec_hyp
	b	vec_irq
	b	vec_irq
vec_rst: b	main
vec_und: movs	pc, lr
vec_svc: push	{r0, lr}
	 ldm	sp!, {r0, pc}^
vec_abt: subs	pc, lr, #4
vec_hyp: eret
vec_irq: sub	lr, lr, #4
	 srsdb	sp!, #0x12
	 rfeia	sp!

	.section .arm, "ax"
	.arm
main:	mov	r0, #0
loop:	add	r0, r0, #1
	cmp	r0, #10
	blne	func_a
	bl	func_a
	blx	func_t
	adr	r1, back
	isb
	dmb
	dsb
	svc	#0
	smc	#0
	hvc	#0
	bkpt	#0
	udf	#0
	bx	r1
back:	beq	loop
	ldr	pc, [r1, #4]
	add	pc, pc, r0, lsl #2
	mov	pc, lr
	blx	r3
	b	loop
func_a:	push	{r4, lr}
	addeq	r2, r2, #1
	ldmiane	sp!, {r4, pc}
	pop	{r4, pc}
self:	b	self
selfc:	bne	selfc
	.word	0xe7f000f0
	.word	0xf57ff01f

	.section .thumb, "ax"
	.thumb
	.thumb_func
func_t:	push	{r4, lr}
	cbz	r0, 1f
	adds	r0, #1
1:	it	eq
	moveq	r1, #1
	bl	func_t2
	blx	func_a
	tbb	[pc, r0]
	.byte	2, 3
	nop
	cmp	r0, #3
	bne.w	func_t
	beq	func_t
	isb
	dmb
	svc	#1
	pop	{r4, pc}
	.thumb_func
func_t2: ldr.w	pc, [sp], #4
	bx	lr
	subs	pc, lr, #0
	mov	pc, lr
	add	pc, r1
selft:	b	selft
	b.w	selft
	udf	#1
	.hword	0xf000
