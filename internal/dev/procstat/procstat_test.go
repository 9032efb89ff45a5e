package procstat

import (
	"os"
	"path/filepath"
	"testing"
)

// TestField reads a field with and without its unit, and 0 for a field
// or a file that is not there.
func TestField(t *testing.T) {
	p := filepath.Join(t.TempDir(), "status")
	if err := os.WriteFile(p, []byte("Name:\toctop\nVmHWM:\t   21340 kB\nvoluntary_ctxt_switches:\t17\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, name string
		want       int64
	}{{p, "VmHWM", 21340}, {p, "voluntary_ctxt_switches", 17}, {p, "VmRSS", 0}, {p + ".gone", "VmHWM", 0}} {
		if got := Field(c.path, c.name); got != c.want {
			t.Errorf("Field(%s, %s) = %d, want %d", filepath.Base(c.path), c.name, got, c.want)
		}
	}
	if Of(os.Getpid(), "VmHWM") <= 0 {
		t.Error("Of(this process, VmHWM) is not above 0")
	}
}
