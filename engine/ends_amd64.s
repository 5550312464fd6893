//go:build !purego

#include "textflag.h"

// BITS sets dst to the 64 bits of the map at R10 from bit a on, as
// bitsFrom does: two words shifted and joined (the next word shifted
// left by one and then by 63 less a's place in its word, so that a place
// of 0 shifts it out), with t1 and t2 to work in.
#define BITS(a, dst, t1, t2) \
	MOVQ	a, t1; \
	SHRQ	$6, t1; \
	MOVQ	(R10)(t1*8), dst; \
	MOVQ	8(R10)(t1*8), t2; \
	SHRXQ	a, dst, dst; \
	SHLQ	$1, t2; \
	MOVQ	a, t1; \
	NOTQ	t1; \
	SHLXQ	t1, t2, t2; \
	ORQ	t2, dst

// PACK sets first to the ends of a line whose loose view's first and last
// bytes are at offsets first and last of the text at R9 and whose length
// is n, as packEnds does.
#define PACK(first, last, n) \
	MOVBLZX	(R9)(first*1), first; \
	MOVBLZX	(R9)(last*1), last; \
	SHLL	$24, first; \
	SHLL	$16, last; \
	ORL	last, first; \
	ORL	n, first

// func asciiEndsBMI(ends []uint32, starts, stops []int, from int, text *byte, solid *uint64)
//
// asciiEnds for lines of any length with the bit instructions of BMI1,
// BMI2 and POPCNT (see ends_amd64.go): a line of up to 56 bytes takes its
// bits from eight bytes of the map read at its first bit's byte, one of
// up to 64 from two words (see BITS), and a longer one in a loop over its
// words. The lines are counted by CX from -n up to 0, the arrays read
// from their ends.
TEXT ·asciiEndsBMI(SB), NOSPLIT, $8-96
	MOVQ	starts_len+32(FP), CX
	TESTQ	CX, CX
	JZ	done
	MOVQ	ends_base+0(FP), DI
	MOVQ	starts_base+24(FP), SI
	MOVQ	stops_base+48(FP), DX
	LEAQ	(DI)(CX*4), DI
	LEAQ	(SI)(CX*8), SI
	LEAQ	(DX)(CX*8), DX
	NEGQ	CX
	MOVQ	from+72(FP), R8
	MOVQ	text+80(FP), R9
	MOVQ	solid+88(FP), R10

line:
	MOVQ	(SI)(CX*8), AX // a, the line's first byte, from the map's first
	SUBQ	R8, AX
	MOVQ	(DX)(CX*8), BX // b, the byte after its last
	SUBQ	R8, BX
	MOVQ	BX, R11
	SUBQ	AX, R11 // its length
	CMPQ	R11, $56
	JA	wide
	MOVQ	AX, R12
	SHRQ	$3, R12
	MOVQ	(R10)(R12*1), R13
	MOVQ	AX, R12
	ANDQ	$7, R12
	SHRXQ	R12, R13, R13 // the bits from a on, 57 at least

short:
	BZHIQ	R11, R13, R13 // the bits of the line's bytes only
	TESTQ	R13, R13
	JZ	blank
	TZCNTQ	R13, R12
	BSRQ	R13, R14
	POPCNTQ	R13, R13
	ADDQ	AX, R12
	ADDQ	AX, R14
	PACK(R12, R14, R13)
	MOVL	R12, (DI)(CX*4)

next:
	INCQ	CX
	JNZ	line

done:
	RET

wide:
	CMPQ	R11, $64
	JA	long
	BITS(AX, R13, R12, R14)
	JMP	short

blank:
	MOVL	$0x80000002, (DI)(CX*4) // endsBlank
	JMP	next

unknown:
	MOVL	$0x80000001, (DI)(CX*4) // endsUnknown
	JMP	next

	// A line of more than 64 bytes, 64 at a time from a, the last word
	// cut to what is left: R12 holds its first solid byte (-1 while
	// there is none), R14 its last, and 0(SP) their count.
long:
	MOVQ	$-1, R12
	XORQ	R14, R14
	MOVQ	$0, 0(SP)

word:
	BITS(AX, R13, R15, R11)
	MOVQ	BX, R11
	SUBQ	AX, R11 // what is left of the line, at most 64 (BZHI reads a byte)
	MOVQ	$64, R15
	CMPQ	R11, R15
	CMOVQGT	R15, R11
	BZHIQ	R11, R13, R13
	TESTQ	R13, R13
	JZ	nextWord
	POPCNTQ	R13, R15
	ADDQ	R15, 0(SP)
	BSRQ	R13, R14
	ADDQ	AX, R14
	TESTQ	R12, R12
	JNS	nextWord
	TZCNTQ	R13, R12
	ADDQ	AX, R12

nextWord:
	ADDQ	$64, AX
	CMPQ	AX, BX
	JLT	word
	TESTQ	R12, R12
	JS	blank
	MOVQ	0(SP), R13
	CMPQ	R13, $0xffff
	JAE	unknown
	PACK(R12, R14, R13)
	MOVL	R12, (DI)(CX*4)
	JMP	next
