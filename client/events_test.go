package client

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeReferenceCaptures decodes every event of the captures kept in
// testdata (copied from shared/reference): none may fail, and the known types must not come out
// as Unknown.
func TestDecodeReferenceCaptures(t *testing.T) {
	files, _ := filepath.Glob("testdata/events-*.sse")
	if len(files) == 0 {
		t.Fatal("no captures found")
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		n := 0
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "data: ") {
				continue
			}
			env, err := DecodeEvent([]byte(strings.TrimPrefix(line, "data: ")))
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(f), err)
				continue
			}
			if u, ok := env.Event.(Unknown); ok && knownType(u.Type) {
				t.Errorf("%s: known type %s decoded as Unknown", filepath.Base(f), u.Type)
			}
			n++
		}
		fh.Close()
		if n == 0 {
			t.Errorf("%s: no events", f)
		}
	}
}
