//go:build !purego

#include "textflag.h"

// BROADCAST sets every byte of register Y to the byte c, through X.
#define BROADCAST(c, X, Y) MOVL $c, AX; MOVQ AX, X; VPBROADCASTB X, Y

// The vector version of solidBlocks (masks_amd64.go): its loop turns 64
// bytes, two registers of 32, into a word of bits with VPMOVMSKB, which
// takes the top bit of each byte of a comparison's result, the first
// byte's in the lowest bit.

// func solidBlocksAVX2(text *byte, solid, high []uint64) (beyond bool)
TEXT ·solidBlocksAVX2(SB), NOSPLIT, $0-57
	MOVQ	text+0(FP), SI
	MOVQ	solid_base+8(FP), DI
	MOVQ	solid_len+16(FP), CX
	MOVQ	high_base+32(FP), R8
	XORQ	R9, R9            // the bytes beyond ASCII seen so far, by place
	BROADCAST(0x20, X10, Y10) // ' ' in every byte of Y10
	BROADCAST(0x09, X11, Y11) // '\t' in every byte of Y11
	BROADCAST(0x04, X12, Y12) // 4 in every byte of Y12
	TESTQ	CX, CX
	JZ	solidDone

solidLoop:
	VMOVDQU	(SI), Y0
	VMOVDQU	32(SI), Y1
	// White space is ' ', and '\t' to '\r' (0x09 to 0x0d): the bytes x
	// for which x-9, wrapping, is at most 4, that is min(x-9, 4) = x-9.
	VPCMPEQB	Y10, Y0, Y2
	VPCMPEQB	Y10, Y1, Y3
	VPSUBB	Y11, Y0, Y4
	VPSUBB	Y11, Y1, Y5
	VPMINUB	Y12, Y4, Y6
	VPMINUB	Y12, Y5, Y7
	VPCMPEQB	Y6, Y4, Y4
	VPCMPEQB	Y7, Y5, Y5
	VPOR	Y2, Y4, Y4
	VPOR	Y3, Y5, Y5
	VPMOVMSKB	Y4, AX
	VPMOVMSKB	Y5, BX
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
