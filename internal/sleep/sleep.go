package sleep

import (
	"context"
	"time"
)

// For waits d, or until ctx ends; it returns ctx.Err() when ctx ended
// first (or had ended), else nil.
func For(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil || d <= 0 {
		return err
	}
	if a := get(); a != nil {
		if a.wait(ctx, d) {
			put(a)
			return ctx.Err()
		}
		a.close()
	}
	return timer(ctx, d)
}

// timer is For with a Go timer.
func timer(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
