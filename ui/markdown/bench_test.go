package markdown

import (
	"os"
	"testing"
)

// BenchmarkRender draws testdata/answer.md (every element) afresh each
// time, at two widths in turn so the last rendering is never reused.
// 2 cores, load about 9: 0.24-0.27 ms, 70 KB, 601 allocs a rendering;
// glamour (a7bcc51, a renderer built per width as the result room did)
// took 15.4-15.6 ms, 1.07 MB, 86,000 allocs.
func BenchmarkRender(b *testing.B) {
	in, err := os.ReadFile("testdata/answer.md")
	if err != nil {
		b.Fatal(err)
	}
	r := New(true, false)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Render(string(in), 80+i%2)
	}
}
