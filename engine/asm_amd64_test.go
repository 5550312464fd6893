//go:build !purego

package engine

import "testing"

// TestEndsInGo runs the tests of the ends with asciiEndsBMI turned off, so
// that the Go version is held to the same as the one this processor uses.
func TestEndsInGo(t *testing.T) {
	if !useBMI {
		t.Skip("this processor lacks BMI1, BMI2 or POPCNT: the other tests run the Go version")
	}
	useBMI = false
	defer func() { useBMI = true }()
	t.Run("all", TestEndsAll)
	t.Run("every byte", TestEndsEveryByte)
	t.Run("every length and place", TestEndsEveryLengthAndPlace)
	t.Run("sentinels", TestEndsAreNotSentinels)
}

// TestSplitInGo runs the tests of splitting a text into lines with the
// vector instructions turned off, so that the Go version of feedLines is
// held to the same as feedLinesAVX2.
func TestSplitInGo(t *testing.T) {
	if !useAVX2 || !useBMI {
		t.Skip("this processor lacks AVX2: the other tests run the Go version")
	}
	useAVX2 = false
	defer func() { useAVX2 = true }()
	t.Run("split", TestSplitAt)
	t.Run("lines", TestNewDocumentLines)
}
