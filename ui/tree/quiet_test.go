package tree

import (
	"testing"

	"github.com/octop-dev/octop/model"
)

func TestQuiet(t *testing.T) {
	s := &model.Session{LastActive: 100_000}
	for now, want := range map[int64]string{100_000: "", 110_000: "", 110_001: "quiet 10s ", 142_000: "quiet 42s "} {
		if got := quiet(s, now); got != want {
			t.Errorf("quiet at +%dms = %q, want %q", now-100_000, got, want)
		}
	}
	if got := quiet(&model.Session{}, 1e9); got != "" {
		t.Errorf("a session with no activity yet: %q", got)
	}
}
