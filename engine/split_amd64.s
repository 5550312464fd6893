//go:build !purego

#include "textflag.h"

// BROADCAST sets every byte of register Y to the byte c, through X.
#define BROADCAST(c, X, Y) MOVL $c, AX; MOVQ AX, X; VPBROADCASTB X, Y

// func feedLinesAVX2(text *byte, blocks, base, at int, starts, ends []int) (n, next int, cr bool, done int)
//
// feedLines for the blocks of 64 bytes from text (see split_amd64.go):
// each block's line feeds, two registers of 32 bytes compared at once,
// are the bits of a word, and each set bit a line, with no branch but
// the one that leaves a word's last bit. It stops before a block with
// more line feeds than there is room for lines.
TEXT ·feedLinesAVX2(SB), NOSPLIT, $0-112
	MOVQ	text+0(FP), SI
	MOVQ	blocks+8(FP), CX
	MOVQ	base+16(FP), R8
	MOVQ	at+24(FP), R9
	MOVQ	starts_base+32(FP), DI
	MOVQ	ends_base+56(FP), DX
	MOVQ	ends_len+64(FP), R10 // room left
	XORQ	R11, R11             // lines written
	MOVQ	CX, R12
	BROADCAST(0x0a, X10, Y10) // '\n' in every byte of Y10
	BROADCAST(0x0d, X11, Y11) // '\r' in every byte of Y11
	VPXOR	Y9, Y9, Y9        // the '\r' seen so far, by place

block:
	TESTQ	CX, CX
	JZ	out
	VMOVDQU	(SI), Y0
	VMOVDQU	32(SI), Y1
	VPCMPEQB	Y11, Y0, Y2
	VPCMPEQB	Y11, Y1, Y3
	VPOR	Y2, Y9, Y9
	VPOR	Y3, Y9, Y9
	VPCMPEQB	Y10, Y0, Y0
	VPCMPEQB	Y10, Y1, Y1
	VPMOVMSKB	Y0, AX
	VPMOVMSKB	Y1, BX
	SHLQ	$32, BX
	ORQ	BX, AX // the block's line feeds
	POPCNTQ	AX, BX
	CMPQ	BX, R10
	JA	out // no room for its lines
	SUBQ	BX, R10
	ADDQ	BX, R11
	TESTQ	AX, AX
	JZ	next

feed:
	TZCNTQ	AX, BX
	ADDQ	R8, BX // the line feed's offset
	MOVQ	R9, (DI)
	MOVQ	BX, (DX)
	LEAQ	1(BX), R9 // the next line starts after it
	ADDQ	$8, DI
	ADDQ	$8, DX
	BLSRQ	AX, AX
	JNZ	feed

next:
	ADDQ	$64, SI
	ADDQ	$64, R8
	DECQ	CX
	JMP	block

out:
	MOVQ	R11, n+80(FP)
	MOVQ	R9, next+88(FP)
	VPTEST	Y9, Y9
	SETNE	cr+96(FP)
	SUBQ	CX, R12
	MOVQ	R12, done+104(FP)
	VZEROUPPER
	RET
