package ui

import (
	"os/exec"
	"strings"
	"testing"
)

// forbiddenDeps are what no package under ui may reach, even indirectly:
// the network and the code that talks to the server (rooms return
// requests, the root hands them to a task.Server implemented outside ui),
// and the --exec hook's process runner.
var forbiddenDeps = []string{
	"net/http", "github.com/tmaxmax/go-sse", "github.com/octop-dev/octop/client",
	"github.com/octop-dev/octop/internal/task/live", "github.com/octop-dev/octop/internal/hook",
}

// TestRoomsReachNoNetwork fails when ui or any room under it reaches, even
// indirectly, code that talks to the server or runs processes, or imports
// os/exec itself (Bubble Tea imports it for tea.ExecProcess; no octop
// package under ui may).
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
			for _, bad := range forbiddenDeps {
				if dep == bad {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
		imports, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, pkg).Output()
		if err != nil {
			t.Fatalf("go list -f imports %s: %v", pkg, err)
		}
		for _, imp := range strings.Fields(string(imports)) {
			if imp == "os/exec" {
				t.Errorf("%s imports os/exec", pkg)
			}
		}
	}
}
