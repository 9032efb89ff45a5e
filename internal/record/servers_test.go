package record

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

// TestTwoServersInOneFile: two taps on one Writer, writing at once from
// their own goroutines, make one recording whose entries split back by
// server, each in its order, and none lost or mixed.
func TestTwoServersInOneFile(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, "v9.9.9", 0)
	if err != nil {
		t.Fatal(err)
	}
	urls := []string{"http://a:4096", "http://user:pw@b:4097"}
	const n = 200
	var wg sync.WaitGroup
	for _, u := range urls {
		tap := w.Tap(u)
		wg.Go(func() {
			for i := range n {
				tap.Raw(fmt.Sprintf(`{"type":"session.idle","properties":{"sessionID":"ses_%d"}}`, i))
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	got := rec.Servers()
	if len(got) != 2 || got[0] == got[1] || bytes.Contains(buf.Bytes(), []byte("pw@")) {
		t.Fatalf("servers %v (no password wanted)", got)
	}
	for _, s := range got {
		part := rec.Of(s)
		if len(part.Entries) != n || part.Header.Format != Format {
			t.Fatalf("%s: %d entries, header %q; want %d", s, len(part.Entries), part.Header.Format, n)
		}
		for i, e := range part.Entries {
			if e.Server != s || !bytes.Contains(e.Data, fmt.Appendf(nil, `"ses_%d"`, i)) {
				t.Fatalf("%s entry %d: %s from %s", s, i, e.Data, e.Server)
			}
		}
	}
}
