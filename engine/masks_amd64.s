//go:build !purego

#include "textflag.h"

// The vector version of solidBlocks (masks_amd64.go): its loop turns 64
// bytes, two registers of 32, into a word of bits with VPMOVMSKB, which
// takes the top bit of each byte of a comparison's result, the first
// byte's in the lowest bit.

// spaceTable holds, for each value of a byte's low four bits, the byte
// of white space with those bits, or 0xff where there is none, in each
// half of a register: VPSHUFB looks each byte's low bits up in it (and
// gives 0 for a byte beyond ASCII), and a byte is white space when what
// it looks up is itself.
DATA spaceTable<>+0(SB)/8, $0xffffffffffffff20
DATA spaceTable<>+8(SB)/8, $0xffff0d0c0b0a09ff
DATA spaceTable<>+16(SB)/8, $0xffffffffffffff20
DATA spaceTable<>+24(SB)/8, $0xffff0d0c0b0a09ff
GLOBL spaceTable<>(SB), RODATA|NOPTR, $32

// func solidBlocksAVX2(text *byte, solid, high []uint64) (beyond bool)
TEXT ·solidBlocksAVX2(SB), NOSPLIT, $0-57
	MOVQ	text+0(FP), SI
	MOVQ	solid_base+8(FP), DI
	MOVQ	solid_len+16(FP), CX
	MOVQ	high_base+32(FP), R8
	XORQ	R9, R9 // the bytes beyond ASCII seen so far, by place
	VMOVDQU	spaceTable<>(SB), Y10
	TESTQ	CX, CX
	JZ	solidDone

solidLoop:
	VMOVDQU	(SI), Y0
	VMOVDQU	32(SI), Y1
	VPSHUFB	Y0, Y10, Y2
	VPSHUFB	Y1, Y10, Y3
	VPCMPEQB	Y0, Y2, Y2
	VPCMPEQB	Y1, Y3, Y3
	VPMOVMSKB	Y2, AX
	VPMOVMSKB	Y3, BX
	SHLQ	$32, BX
	ORQ	BX, AX
	NOTQ	AX
	MOVQ	AX, (DI)
	// A byte beyond ASCII has its top bit set.
	VPMOVMSKB	Y0, DX
	VPMOVMSKB	Y1, BX
	SHLQ	$32, BX
	ORQ	BX, DX
	MOVQ	DX, (R8)
	ORQ	DX, R9
	ADDQ	$64, SI
	ADDQ	$8, DI
	ADDQ	$8, R8
	DECQ	CX
	JNZ	solidLoop

solidDone:
	VZEROUPPER
	TESTQ	R9, R9
	SETNE	beyond+56(FP)
	RET
