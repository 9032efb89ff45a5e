package live

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestTreeWaitsForHowARunEnded: 1.1.65 goes idle before it writes the
// reply's MessageAbortedError. `octop tree` reading in that gap finds a
// run stopped without a word on how; it prints it once its grace is over
// and it is read again, as aborted, never interrupted. So does result.
func TestTreeWaitsForHowARunEnded(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	const id = "ses_cut"
	at := time.Now().UnixMilli() - 1_000 // it ran a moment ago
	srv.AddSession(wire.Session{ID: id, Title: "runaway 1", Time: wire.SessionTime{Created: at, Updated: at}})
	reply := func(err *wire.ErrorInfo, done int64) []wire.MessageWithParts {
		call := "running"
		if err != nil {
			call = "error"
		}
		return []wire.MessageWithParts{
			{Info: wire.Message{ID: "msg_1", SessionID: id, Role: "user", Time: wire.MessageTime{Created: at}}},
			{Info: wire.Message{ID: "msg_2", SessionID: id, Role: "assistant", Error: err, Time: wire.MessageTime{Created: at + 1, Completed: done}},
				Parts: []wire.Part{{ID: "prt_1", SessionID: id, MessageID: "msg_2", Type: wire.PartTool, Tool: "bash",
					State: &wire.ToolState{Status: call, Error: map[bool]string{true: "Tool execution aborted"}[err != nil],
						Time: wire.ToolTime{Start: at + 2}}}}},
		}
	}
	srv.SetMessages(id, reply(nil, 0))
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	said := func() {
		// The server says how it ended once octop has read the gap.
		testwait.Check(t, func() error {
			for _, call := range srv.Calls() {
				if strings.HasSuffix(call, "/"+id+"/message") {
					return nil
				}
			}
			return fmt.Errorf("no history read yet")
		}, 10*time.Second, "the first read")
		srv.SetMessages(id, reply(&wire.ErrorInfo{Name: "MessageAbortedError"}, at+3))
	}
	ctx := context.Background()
	go said()
	roots, _, err := Tree(ctx, c)
	if err != nil || len(roots) != 1 {
		t.Fatalf("tree: %v, %d roots", err, len(roots))
	}
	if n := roots[0]; n.Status != model.StatusError || n.Reason != model.ReasonAborted || n.Tools.Aborted != 1 {
		t.Errorf("tree: %s (%s), tools %+v; want error (aborted), its call aborted", n.Status, n.Reason, n.Tools)
	}

	srv.SetMessages(id, reply(nil, 0))
	srv.ClearRequests()
	go said()
	r, err := Result(ctx, c, id)
	if err != nil || r.State != model.StatusError || r.Reason != model.ReasonAborted {
		t.Errorf("result: %v, %s (%s); want error (aborted)", err, r.State, r.Reason)
	}
}
