package client

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestUnauthorizedWhateverItsHeadersHold: a 401 whose WWW-Authenticate
// holds escape sequences, a NUL and a DEL (net/http refuses such an
// answer whole) is a refused password, on a call and on the stream, and
// the answer after it on the same connection reads as usual.
func TestUnauthorizedWhateverItsHeadersHold(t *testing.T) {
	fake := opencodetest.New(t, opencodetest.Options{Password: "right", Hostile: true})
	c := mustNew(t, Options{BaseURL: fake.URL(), Password: "wrong"})
	_, err := c.Sessions(context.Background())
	if msg := oneLineErr(t, err); msg != "OpenCode at "+fake.URL()+" rejected the password from --password or OPENCODE_SERVER_PASSWORD" {
		t.Errorf("Sessions = %q, want the password refused", msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(10*time.Second))
	defer cancel()
	if err := c.Stream(ctx, func(any) {}); !IsUnauthorized(err) {
		t.Errorf("Stream = %v, want the password refused", err)
	}
	c = mustNew(t, Options{BaseURL: fake.URL(), Password: "right"})
	if _, err := c.Sessions(context.Background()); err != nil {
		t.Errorf("the right password: %v", err)
	}
}

// TestHeadCleaning: control characters in an answer's head become
// spaces, a CR before a LF stays, and the body after the blank line is
// left as it came, also when the pieces come in separate reads; a
// connection that carries TLS is never touched.
func TestHeadCleaning(t *testing.T) {
	answer := "HTTP/1.1 401 No\x1b\r\nWww-Authenticate: Basic \x00\x07\x7f\r\nX-A: \rb\r\n\r\nbody\x1b\x00\r\n\r\n"
	want := "HTTP/1.1 401 No \r\nWww-Authenticate: Basic    \r\nX-A:  b\r\n\r\nbody\x1b\x00\r\n\r\n"
	for _, cut := range []int{1, 3, 7, len(answer)} {
		client, server := net.Pipe()
		hc := &headerConn{Conn: client}
		go func() {
			buf := make([]byte, 64)
			_, _ = server.Read(buf) // the request
			for s := answer; s != ""; s = s[min(cut, len(s)):] {
				_, _ = server.Write([]byte(s[:min(cut, len(s))]))
			}
			server.Close()
		}()
		if _, err := hc.Write([]byte("GET / HTTP/1.1\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
		var got []byte
		buf := make([]byte, 64)
		for {
			n, err := hc.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				break
			}
		}
		if string(got) != want {
			t.Errorf("in reads of %d: got %q\nwant %q", cut, got, want)
		}
	}
	client, server := net.Pipe()
	hc := &headerConn{Conn: client}
	go func() {
		buf := make([]byte, 64)
		_, _ = server.Read(buf)
		_, _ = server.Write([]byte("\x16\x03\x03\x00\x07"))
		server.Close()
	}()
	_, _ = hc.Write([]byte{0x16, 0x03, 0x01})
	buf := make([]byte, 64)
	if n, _ := hc.Read(buf); string(buf[:n]) != "\x16\x03\x03\x00\x07" {
		t.Errorf("a TLS connection's bytes were changed: %q", buf[:n])
	}
}

// TestResponseToAHugeHead: an answer whose head is over net/http's limit
// is a bad answer named as such, not a server that cannot be reached.
func TestResponseToAHugeHead(t *testing.T) {
	fake := opencodetest.New(t, opencodetest.Options{})
	fake.HandleFunc("GET /session", func(w http.ResponseWriter, r *http.Request) {
		for i := range 2000 {
			w.Header().Set(fmt.Sprintf("X-Filler-%d", i), strings.Repeat("y", 8000))
		}
		w.WriteHeader(http.StatusUnauthorized)
	})
	c := mustNew(t, Options{BaseURL: fake.URL()})
	_, err := c.Sessions(context.Background())
	if ErrorKind(err) != KindBadResponse || !strings.Contains(oneLineErr(t, err), "header") {
		t.Errorf("Sessions = %v (%v), want a bad answer that names its header", err, ErrorKind(err))
	}
}
