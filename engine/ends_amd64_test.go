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
	t.Run("sentinels", TestEndsAreNotSentinels)
}
