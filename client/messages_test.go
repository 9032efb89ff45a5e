package client

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// TestMessagesReusesNoAnswer: answers read into reused buffers, four at
// a time, each decode into its own session's messages and nothing
// else's.
func TestMessagesReusesNoAnswer(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	var ids []string
	for i := range 200 {
		id := fmt.Sprintf("ses_%03d", i)
		srv.AddSession(wire.Session{ID: id})
		srv.SetMessages(id, []wire.MessageWithParts{{Info: wire.Message{ID: "msg_" + id, SessionID: id, Role: "user",
			Agent: strings.Repeat("x", i)}}})
		ids = append(ids, id)
	}
	c := mustNew(t, Options{BaseURL: srv.URL()})
	var mu sync.Mutex
	got := map[string]wire.Message{}
	var g errgroup.Group
	g.SetLimit(4)
	for _, id := range ids {
		g.Go(func() error {
			msgs, err := MessagesOf[wire.MessageWithParts](context.Background(), c, id)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			got[id] = msgs[0].Info
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		if m := got[id]; m.ID != "msg_"+id || len(m.Agent) != i {
			t.Errorf("%s: got %s with a %d-byte agent", id, m.ID, len(m.Agent))
		}
	}
}

// TestTransportKeepsIdleConnections: the transport keeps IdleConnsPerHost
// idle connections to a server, not net/http's 2.
func TestTransportKeepsIdleConnections(t *testing.T) {
	if n := newTransport().MaxIdleConnsPerHost; n != IdleConnsPerHost {
		t.Fatalf("%d idle connections kept per server, want %d", n, IdleConnsPerHost)
	}
}
