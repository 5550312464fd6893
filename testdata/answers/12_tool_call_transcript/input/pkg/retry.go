package pkg

import "time"

// Retry calls f until it succeeds or attempts run out.
func Retry(attempts int, f func() error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
