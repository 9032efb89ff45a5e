package live

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

func readCapture(t *testing.T, name string) []wire.MessageWithParts {
	t.Helper()
	b, err := os.ReadFile("../../../model/testdata/background/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var m []wire.MessageWithParts
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Wait on a root that launched background tasks returns only once every
// child has ended and the root has answered the notices: while a child
// runs the root is idle, yet still running.
func TestWaitForBackgroundTasks(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	msgs := readCapture(t, "endings-A-root-messages.json")
	root := srv.AddSession(wire.Session{ID: msgs[0].Info.SessionID, Title: "root"})
	var kids []wire.Session
	b, _ := os.ReadFile("../../../model/testdata/background/endings-A-children.json")
	if err := json.Unmarshal(b, &kids); err != nil {
		t.Fatal(err)
	}
	for i, k := range kids {
		srv.AddSession(k)
		srv.SetMessages(k.ID, readCapture(t, "endings-A-child-worker"+string(rune('1'+i))+"-messages.json"))
	}
	// Before the notices: the root said "fanout started" and went idle;
	// the second child still runs.
	srv.SetMessages(root.ID, msgs[:3])
	srv.SetStatus(kids[1].ID, wire.SessionStatus{Type: wire.StatusBusy})
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(5 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
	defer cancel()
	if r, err := Result(ctx, c, root.ID); err != nil || r.State != model.StatusRunning || r.Reason != "background" {
		t.Fatalf("result while a child runs: %+v, %v", r, err)
	}

	done := make(chan task.Result, 1)
	go func() {
		r, _ := WaitAfter(ctx, c, root.ID, WaitOptions{Poll: 5 * time.Millisecond})
		done <- r
	}()
	polled := func(n int) {
		srv.ClearRequests()
		testwait.Eventually(t, func() bool { return len(srv.RequestsTo("GET /session/status")) >= n }, 10*time.Second,
			"Wait to poll %d more times", n)
	}
	polled(5)
	// The child ended, and its notice reached the root, unanswered yet.
	srv.SetStatus(kids[1].ID, wire.SessionStatus{Type: wire.StatusIdle})
	srv.SetMessages(root.ID, msgs[:4])
	polled(5)
	select {
	case r := <-done:
		t.Fatalf("Wait returned %+v before the root answered the notice", r)
	default:
	}
	srv.SetMessages(root.ID, msgs)
	select {
	case r := <-done:
		if r.State != model.StatusComplete || r.Text == "" {
			t.Errorf("Wait gave %+v", r)
		}
	case <-ctx.Done():
		t.Fatal("Wait never returned once the root was done")
	}
}
