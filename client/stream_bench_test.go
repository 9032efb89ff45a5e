package client

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	sse "github.com/tmaxmax/go-sse"
)

// chunkReader hands out at most n bytes per Read, as a socket does.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// readAll runs a stream through the same parse-and-decode path Stream uses.
func readAll(b *testing.B, data []byte, chunk int) int {
	n := 0
	for ev, err := range sse.Read(fillingReader{&chunkReader{bytes.NewReader(data), chunk}}, &sse.ReadConfig{MaxEventSize: DefaultMaxEventSize}) {
		if err != nil {
			b.Fatal(err)
		}
		if _, err := wire.DecodeEvent([]byte(ev.Data)); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return n
}

// BenchmarkStreamCapture parses and decodes a recorded 3-way fan-out.
func BenchmarkStreamCapture(b *testing.B) {
	data, err := os.ReadFile("../internal/wire/testdata/events-1.18.33-fanout.sse")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	var n int
	for b.Loop() {
		n = readAll(b, data, 32<<10)
	}
	b.ReportMetric(float64(n), "events/op")
}

// BenchmarkStreamLargeEvent parses and decodes one tool output of 5 and
// 32 MB arriving in 64 KiB reads.
func BenchmarkStreamLargeEvent(b *testing.B) {
	for _, mb := range []int{5, 32} {
		out := strings.Repeat("x", mb<<20)
		data := []byte(fmt.Sprintf("data: {\"type\":\"message.part.updated\",\"properties\":{\"part\":{\"id\":\"prt_1\",\"sessionID\":\"ses_a\",\"messageID\":\"msg_1\",\"type\":\"tool\",\"state\":{\"status\":\"completed\",\"output\":%q}}}}\n\n", out))
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if readAll(b, data, 64<<10) != 1 {
					b.Fatal("want one event")
				}
			}
		})
	}
}
