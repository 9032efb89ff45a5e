package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADMERecipeChoosesAPort: the README's recipe starts the devserver
// on a port it names and points octop at that port, and says how to
// choose one: without -port the server takes a random one, which the
// next lines could not know.
func TestREADMERecipeChoosesAPort(t *testing.T) {
	raw, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	m := regexp.MustCompile(`go run ./internal/dev/devserver -port (\d+)`).FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("the README starts the devserver without -port: it takes a random port")
	}
	url := "--server http://127.0.0.1:" + m[1]
	for _, cmd := range []string{"go run ./cmd/octop " + url, "go run ./cmd/octop launch " + url} {
		if !strings.Contains(readme, cmd) {
			t.Errorf("the README's recipe lacks %q: octop must go to the port the devserver took", cmd)
		}
	}
	if !strings.Contains(readme, "`-port` picks the port") {
		t.Error("the README does not say how to choose the devserver's port")
	}
}
