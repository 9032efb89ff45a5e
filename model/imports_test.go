package model

import (
	"os/exec"
	"strings"
	"testing"
)

// TestModelStaysPure fails when model reaches, even indirectly, code that
// does I/O over the network: it must stay a pure reducer over wire types.
func TestModelStaysPure(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch dep {
		case "net/http", "github.com/tmaxmax/go-sse", "github.com/octop-dev/octop/client",
			"charm.land/bubbletea/v2":
			t.Errorf("model depends on %s", dep)
		}
	}
}
