package opencodetest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/octop-dev/octop/internal/wire"
)

// ReadAll is the bare REST read benchmarks compare octop against: the
// session list, the statuses, and every session's messages, parallel at a
// time, decoded into the wire types and nothing more. It returns how many
// messages it read.
func (s *Server) ReadAll(ctx context.Context, parallel int) (int, error) {
	var sessions []wire.Session
	// As octop asks: without a limit 1.18 lists only the 100 newest.
	if err := s.getJSON(ctx, "/session?limit=2147483647", &sessions); err != nil {
		return 0, err
	}
	var status map[string]wire.SessionStatus
	if err := s.getJSON(ctx, "/session/status", &status); err != nil {
		return 0, err
	}
	var mu sync.Mutex
	read := 0
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(parallel)
	for _, ses := range sessions {
		g.Go(func() error {
			var msgs []wire.MessageWithParts
			err := s.getJSON(gctx, "/session/"+ses.ID+"/message", &msgs)
			mu.Lock()
			read += len(msgs)
			mu.Unlock()
			return err
		})
	}
	err := g.Wait()
	return read, err
}

func (s *Server) getJSON(ctx context.Context, path string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL()+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// AddFinished adds n finished sessions, ses_000000 on (a root per ten,
// nine children each), each a prompt and two replies with three bash calls
// and a text: the history benchmarks' load.
func (s *Server) AddFinished(n int) {
	for i := range n {
		id := fmt.Sprintf("ses_%06d", i)
		parent := ""
		if i%10 != 0 {
			parent = fmt.Sprintf("ses_%06d", i-i%10)
		}
		at := int64(1_000_000 + i*1000)
		s.AddSession(wire.Session{ID: id, ParentID: parent, Title: "job " + id,
			Time: wire.SessionTime{Created: at, Updated: at + 900}})
		s.SetMessages(id, finishedMessages(id, at))
	}
}

func finishedMessages(id string, at int64) []wire.MessageWithParts {
	msgs := []wire.MessageWithParts{{Info: wire.Message{ID: "msg_1", SessionID: id, Role: "user", Agent: "general",
		Time: wire.MessageTime{Created: at}}}}
	for m := 2; m <= 3; m++ {
		mid := fmt.Sprintf("msg_%d", m)
		reply := wire.MessageWithParts{Info: wire.Message{ID: mid, SessionID: id, Role: "assistant", Agent: "general",
			Cost: 0.001, Tokens: wire.Tokens{Input: 1200, Output: 300}, Finish: "tool-calls",
			Time: wire.MessageTime{Created: at + int64(m*100), Completed: at + int64(m*100+90)}}}
		for k := range 3 {
			reply.Parts = append(reply.Parts, wire.Part{ID: fmt.Sprintf("prt_%d_%d", m, k), SessionID: id, MessageID: mid,
				Type: wire.PartTool, Tool: "bash", CallID: "call", State: &wire.ToolState{Status: wire.ToolCompleted,
					Title: "go test ./...", Input: json.RawMessage(`{"command":"go test ./..."}`), Output: "ok  \tpkg\t0.1s\n",
					Time: wire.ToolTime{Start: at + 10, End: at + 20}}})
		}
		reply.Parts = append(reply.Parts, wire.Part{ID: fmt.Sprintf("prt_%d_t", m), SessionID: id, MessageID: mid,
			Type: wire.PartText, Text: "done with step", Time: &wire.PartTime{Start: at + 30, End: at + 40}})
		msgs = append(msgs, reply)
	}
	msgs[len(msgs)-1].Info.Finish = "stop"
	return msgs
}
