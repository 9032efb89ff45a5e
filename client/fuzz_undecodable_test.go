package client

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// FuzzSalvage: whatever a list or a map of records holds, decoding it
// record by record keeps every record but those reported, and of those
// only the sessions whose id was read, marked; each report is one line.
func FuzzSalvage(f *testing.F) {
	f.Add([]byte(`[{"id":"ses_a","title":1},{"id":"ses_b"},"x",{"id":2},{"time":{"created":"x"}}]`))
	f.Add([]byte(`{"ses_a":{"type":1},"ses_b":{"type":"busy"},"ses_c":[]}`))
	f.Add([]byte(`[{"info":{"id":"msg_1","cost":"x"},"parts":[{"type":1}]},{"info":{"id":"msg_2"}}]`))
	c, err := New(Options{BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var told []wire.Undecodable
		c.undecodable = func(u wire.Undecodable) { told = append(told, u) }
		var sessions []wire.Session
		var raws []json.RawMessage
		if err := decode(data, &sessions); err != nil && recordError(err) && json.Unmarshal(data, &raws) == nil &&
			c.salvage("GET /session", whatSession, data, &sessions) {
			marked := 0
			for _, s := range sessions {
				if s.Undecodable != "" {
					marked++
					if s.ID == "" {
						t.Errorf("a session kept without an id: %+v", s)
					}
				}
			}
			if len(sessions)+len(told)-marked != len(raws) {
				t.Errorf("%d records: %d kept (%d marked), %d reported", len(raws), len(sessions), marked, len(told))
			}
		}
		told = nil
		var status map[string]wire.SessionStatus
		var entries map[string]json.RawMessage
		if err := decode(data, &status); err != nil && recordError(err) && json.Unmarshal(data, &entries) == nil &&
			c.salvage("GET /session/status", whatStatus, data, &status) && len(status)+len(told) != len(entries) {
			t.Errorf("%d entries: %d kept, %d reported", len(entries), len(status), len(told))
		}
		for _, u := range told {
			if strings.ContainsAny(u.Error(), "\n\r") {
				t.Errorf("a report of more than one line: %q", u.Error())
			}
		}
	})
}

// readConn is a net.Conn that reads r, n bytes at a time, and takes what
// is written.
type readConn struct {
	net.Conn
	r io.Reader
	n int
}

func (c *readConn) Read(p []byte) (int, error)  { return c.r.Read(p[:min(len(p), c.n)]) }
func (c *readConn) Write(p []byte) (int, error) { return len(p), nil }

// cleaned is what headerConn gives of raw, the answer to one request,
// read n bytes at a time into a buffer of 4 KiB, as net/http's.
func cleaned(raw []byte, n int) []byte {
	hc := &headerConn{Conn: &readConn{r: bytes.NewReader(raw), n: n}}
	_, _ = hc.Write([]byte("GET /session HTTP/1.1\r\n\r\n"))
	var out []byte
	buf := make([]byte, 4096)
	for {
		k, err := hc.Read(buf)
		out = append(out, buf[:k]...)
		if err != nil {
			return out
		}
	}
}

// FuzzHeadCleaning: whatever an answer holds and however its bytes come,
// headerConn gives as many bytes as came, the same whatever the reads;
// the head, up to its blank line, holds no control character but tabs
// and the CR of a line end; what follows is as it came.
func FuzzHeadCleaning(f *testing.F) {
	f.Add([]byte("HTTP/1.1 401 Unauthorized\r\nWww-Authenticate: Basic realm=\"\x1b]0;x\x07\"\r\n\r\n\x1b[2J"), uint8(3))
	f.Add([]byte("HTTP/1.1 200 OK\nA: \rb\r\r\n\n{}"), uint8(1))
	f.Fuzz(func(t *testing.T, raw []byte, cut uint8) {
		whole := cleaned(raw, len(raw)+1)
		pieces := cleaned(raw, int(cut)%17+1)
		if !bytes.Equal(whole, pieces) || len(whole) != len(raw) {
			t.Fatalf("read whole %q\nin reads of %d %q\nfrom %q", whole, int(cut)%17+1, pieces, raw)
		}
		end := len(whole)
		for i := 1; i < len(whole); i++ {
			if whole[i] == '\n' && (whole[i-1] == '\n' || whole[i-1] == '\r' && i > 1 && whole[i-2] == '\n') {
				end = i + 1
				break
			}
		}
		if len(whole) > 0 && whole[0] == '\n' || len(whole) > 1 && whole[0] == '\r' && whole[1] == '\n' {
			end = 0 // an empty head: a blank line at once
		}
		if !bytes.Equal(whole[end:], raw[end:]) {
			t.Errorf("the body changed: %q, from %q", whole[end:], raw[end:])
		}
		for i, x := range whole[:end] {
			lineEnd := x == '\n' || x == '\r' && i+1 < len(whole) && whole[i+1] == '\n'
			if x < ' ' && x != '\t' && !lineEnd || x == 0x7f {
				t.Errorf("the head holds %q at %d: %q", x, i, whole[:end])
			}
		}
	})
}
