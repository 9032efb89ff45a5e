package internal

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestEveryPackageIsMapped fails when a package of the module has no line
// in README.md's package map, the first thing a newcomer reads about where
// things go.
func TestEveryPackageIsMapped(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}", "../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	tokens := map[string]bool{}
	for _, tok := range strings.Fields(packageMap(t, string(readme))) {
		tokens[strings.TrimSuffix(tok, "/")] = true
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; the test would prove little", len(pkgs))
	}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, "github.com/octop-dev/octop"), "/")
		if rel == "" || rel == "internal" {
			continue
		}
		if !tokens[rel] {
			t.Errorf("package %s has no line in README.md's package map (## Development)", rel)
		}
	}
}

// packageMap is the first code block after README's "## Development".
func packageMap(t *testing.T, readme string) string {
	_, dev, ok := strings.Cut(readme, "\n## Development\n")
	if !ok {
		t.Fatal("README.md has no ## Development section")
	}
	_, block, ok := strings.Cut(dev, "```\n")
	if !ok {
		t.Fatal("README.md's Development section has no package map")
	}
	block, _, _ = strings.Cut(block, "```")
	return block
}
