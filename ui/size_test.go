package ui

import (
	"testing"
	"unsafe"
)

// TestModelStaysSmall: the root is boxed into a tea.Model, a copy on the
// heap, several times per message (Update, the watchdog, the history
// reader); a large Model made every batch of a live stream allocate tens
// of kilobytes, and so the collector run several times as often.
func TestModelStaysSmall(t *testing.T) {
	if n := unsafe.Sizeof(Model{}); n > 4096 {
		t.Errorf("Model is %d bytes; keep what is large behind a pointer (as keys, help and filter are)", n)
	}
}
