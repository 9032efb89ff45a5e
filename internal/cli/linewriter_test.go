package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/sanitize"
)

// TestLineWriterKeepsCharacters: 200,000 lines of tree guides (three
// bytes a character) written through a lineWriter onto the sanitizing
// writer come out as they went in: no character is cut between two
// writes, where the sanitizer would show it as replacement characters.
func TestLineWriterKeepsCharacters(t *testing.T) {
	var out bytes.Buffer
	lw := newLineWriter(sanitize.NewWriter(&out))
	var want strings.Builder
	for i := range 200000 {
		line := strings.Repeat("│ ", i%7) + "├─ ses_é\n"
		want.WriteString(line)
		if _, err := lw.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	if err := lw.Flush(); err != nil {
		t.Fatal(err)
	}
	if out.String() != want.String() {
		t.Fatalf("%d bytes out, %d in; first difference at %d", out.Len(), want.Len(), firstDiff(out.String(), want.String()))
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
