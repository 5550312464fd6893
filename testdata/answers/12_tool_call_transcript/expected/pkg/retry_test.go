package pkg

import "testing"

func TestRetryGivesUp(t *testing.T) {
	calls := 0
	_ = Retry(2, func() error { calls++; return errFail })
	if calls != 2 {
		t.Errorf("%d calls, want 2", calls)
	}
}
