package ui

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRoomsReachNoNetwork fails when ui or any room under it reaches, even
// indirectly, code that talks to the server: views return intents and the
// root calls Ops, implemented outside ui (package ops).
func TestRoomsReachNoNetwork(t *testing.T) {
	pkgs, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if n := len(strings.Fields(string(pkgs))); n < 6 {
		t.Fatalf("go list ./... found %d packages under ui; the test would prove nothing", n)
	}
	for _, pkg := range strings.Fields(string(pkgs)) {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			switch dep {
			case "net/http", "github.com/tmaxmax/go-sse", "github.com/octop-dev/octop/client",
				"github.com/octop-dev/octop/actions", "github.com/octop-dev/octop/ops":
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}
