package client_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// TestAnswerOverTheLimit: an answer larger than MaxBodySize is not read
// whole: the call fails with one line that names the limit.
func TestAnswerOverTheLimit(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	for i := range 20 {
		srv.AddSession(wire.Session{Title: strings.Repeat("x", 100) + string(rune('a'+i))})
	}
	c, err := client.New(client.Options{BaseURL: srv.URL(), MaxBodySize: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Sessions(context.Background())
	if err == nil || client.ErrorKind(err) != client.KindBadResponse ||
		err.Error() != "GET /session: the answer is larger than 1 KiB, the most octop reads of one answer" {
		t.Fatalf("Sessions = %v (%v), want the limit named", err, client.ErrorKind(err))
	}
	// Within the limit, the same answer reads.
	c, _ = client.New(client.Options{BaseURL: srv.URL()})
	if ss, err := c.Sessions(context.Background()); err != nil || len(ss) != 20 {
		t.Fatalf("Sessions = %d, %v", len(ss), err)
	}
}

// TestHugeErrorBody: of an error answer only the start is read, for its
// message.
func TestHugeErrorBody(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.HandleFunc("GET /session", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(500)
		chunk := []byte(strings.Repeat("e", 1<<20))
		for range 64 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	c, _ := client.New(client.Options{BaseURL: srv.URL()})
	_, err := c.Sessions(context.Background())
	if err == nil || client.ErrorKind(err) != client.KindServer || len(err.Error()) > 200 || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Sessions = %v, want one short line", err)
	}
}
