package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/inflight"
)

// oldRun is the REST history of a finished session that ended as end:
// complete, failed, aborted, interrupted or denied.
func oldRun(id, end string, at int64) []wire.MessageWithParts {
	user := wire.MessageWithParts{Info: wire.Message{ID: "msg_1", SessionID: id, Role: "user", Agent: "general",
		Time: wire.MessageTime{Created: at}}}
	reply := wire.MessageWithParts{Info: wire.Message{ID: "msg_2", SessionID: id, Role: "assistant", Agent: "general",
		Cost: 0.01, Tokens: wire.Tokens{Input: 1000, Output: 200}, Finish: "stop",
		Time: wire.MessageTime{Created: at + 100, Completed: at + 9000}}}
	call := wire.Part{ID: "prt_1", SessionID: id, MessageID: "msg_2", Type: wire.PartTool, Tool: "bash", CallID: "call_1",
		State: &wire.ToolState{Status: wire.ToolCompleted, Title: "go test", Input: json.RawMessage(`{"command":"go test"}`),
			Output: "ok", Time: wire.ToolTime{Start: at + 200, End: at + 300}}}
	switch end {
	case "failed":
		reply.Info.Error = &wire.ErrorInfo{Name: "APIError", Data: wire.ErrorInfoData{Message: "bad request"}}
	case "aborted":
		reply.Info.Error = &wire.ErrorInfo{Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "Aborted"}}
	case "interrupted":
		reply.Info.Time.Completed, reply.Info.Finish = 0, ""
	case "denied":
		reply.Info.Finish = "tool-calls"
		call.State = &wire.ToolState{Status: wire.ToolError, Input: json.RawMessage(`{"command":"rm -rf /"}`),
			Error: "The user rejected permission to use this specific tool call.", Time: wire.ToolTime{Start: at + 200, End: at + 300}}
	}
	reply.Parts = []wire.Part{call}
	return []wire.MessageWithParts{user, reply}
}

// drain runs cmd and every Cmd the replies return, feeding each reply to
// the screen, until none is left. Only reads are expected (no ticks).
func drain(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			nm, next := m.Update(msg)
			m = nm.(Model)
			queue = append(queue, next)
		}
	}
	return m
}

// screenRow is the screen line that shows title.
func screenRow(t *testing.T, scr, title string) string {
	t.Helper()
	for _, l := range strings.Split(scr, "\n")[2:] { // below the header
		if strings.Contains(l, title+" ") {
			return l
		}
	}
	t.Fatalf("no row for %q in\n%s", title, scr)
	return ""
}

// A start over 30 old sessions: the first tree says "…" for each until its
// history is read, in the background; then every row has its real mark,
// tools and time, the header counts them all (aborted is not failed), and
// `octop tree --json` says the same of each.
func TestHistoryLoadsEveryOldSession(t *testing.T) {
	ends := []string{"complete", "failed", "aborted", "interrupted", "denied"}
	marks := map[string]string{"complete": format.MarkDone, "failed": format.MarkFailed, "aborted": format.MarkAborted,
		"interrupted": format.MarkInterrupted, "denied": format.MarkDenied}
	reasons := map[string]string{"complete": "", "failed": "APIError", "aborted": "aborted",
		"interrupted": "interrupted", "denied": "denied"}
	srv := opencodetest.New(t, opencodetest.Options{})
	const n = 30
	for i := range n {
		id := fmt.Sprintf("ses_%03d", i)
		at := int64(1_000_000 + i*10_000)
		srv.AddSession(wire.Session{ID: id, Title: fmt.Sprintf("old job %02d", i), Time: wire.SessionTime{Created: at, Updated: at + 9000}})
		srv.SetMessages(id, oldRun(id, ends[i%len(ends)], at))
	}
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	m := New(Options{Server: live.New(c), ServerURL: srv.URL(), Clock: fixedClock, NoColor: true})
	m = send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40})
	nm, loads := m.Update(inflight.Snapshot(m.opts.Server, m.in.Tag())())
	m = nm.(Model)
	first := screen(m)
	if got := screenRow(t, first, "old job 29"); !strings.Contains(got, format.MarkNotLoaded+" old job") || strings.Contains(got, "0s") {
		t.Errorf("before its history is read a row must say %q, not a fake time:\n%s", format.MarkNotLoaded, got)
	}
	if !strings.Contains(first, "all 30 (30 loading):") {
		t.Errorf("the header does not say what its counts cover while loading:\n%s", first)
	}

	m = drain(t, m, loads)
	scr := screen(m)
	tree, _, err := live.Tree(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*live.Node{}
	for _, nd := range tree {
		byID[nd.ID] = nd
	}
	for i := range n {
		id, end := fmt.Sprintf("ses_%03d", i), ends[i%len(ends)]
		row := screenRow(t, scr, fmt.Sprintf("old job %02d", i))
		// A reply that never finished ran for as long as its last call.
		took := map[bool]string{true: "0s", false: "9s"}[end == "interrupted"]
		if !strings.Contains(row, marks[end]+" old job") || !strings.Contains(row, "1 tool") || !strings.Contains(row, took+"│") {
			t.Errorf("%s (%s): row %q lacks mark %s, 1 tool, %s", id, end, row, marks[end], took)
		}
		st := m.State().StateOf(id)
		if st.Reason != reasons[end] {
			t.Errorf("%s: TUI reason %q, want %q", id, st.Reason, reasons[end])
		}
		nd := byID[id]
		if nd == nil || nd.Reason != st.Reason || nd.Status != st.Kind.Status() {
			t.Errorf("%s: tree --json %+v disagrees with the TUI (%s, %q)", id, nd, st.Kind.Status(), st.Reason)
			continue
		}
		if s := m.State().Session(id); s.Tokens != 1200 || nd.Tokens.Input != 1000 || nd.Tokens.Output != 200 {
			t.Errorf("%s: %.0f tokens on screen, %+v in tree --json, want 1000 in and 200 out", id, s.Tokens, nd.Tokens)
		}
	}
	// 6 each: failed, interrupted and denied are failures; aborted is not.
	if !strings.Contains(scr, "all 30: 0 running  0 waiting  18 failed") {
		t.Errorf("header counts wrong:\n%s", strings.Join(strings.Split(scr, "\n")[:2], "\n"))
	}
	reads := 0
	for _, r := range srv.Requests() {
		if r.Method == "GET" && strings.HasSuffix(r.Path, "/message") {
			reads++
		}
	}
	if reads < 2*n { // the screen's reads, then tree --json's
		t.Errorf("%d message reads for %d sessions, twice", reads, n)
	}
}

// TestReconnectReplaysNoOldNews: with finished sessions on the server
// (one of them looped) and nothing running, neither the start, nor the
// histories read after it, nor a reconnect (the server restarted)
// announce anything: no notice, no hook. A new run after that is news,
// once.
func TestReconnectReplaysNoOldNews(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	for i, end := range []string{"complete", "failed", "aborted", "interrupted", "denied"} {
		id := fmt.Sprintf("ses_%03d", i)
		at := int64(1_000_000 + i*10_000)
		srv.AddSession(wire.Session{ID: id, Title: "old " + end, Time: wire.SessionTime{Created: at, Updated: at + 9000}})
		msgs := oldRun(id, end, at)
		for k := 2; k <= 6; k++ { // the same call again and again: a loop
			p := msgs[1].Parts[0]
			p.ID, p.CallID = fmt.Sprintf("prt_%d", k), fmt.Sprintf("call_%d", k)
			msgs[1].Parts = append(msgs[1].Parts, p)
		}
		srv.SetMessages(id, msgs)
	}
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var hooked []string
	cfg := watchdog.Config{Loop: 3}
	m := New(Options{Server: live.New(c), ServerURL: srv.URL(), Clock: fixedClock, NoColor: true, Watchdog: &cfg,
		OnEvent: func(e watchdog.Event) { mu.Lock(); hooked = append(hooked, e.Name+" "+e.ID); mu.Unlock() }})
	m = send(t, m, tea.WindowSizeMsg{Width: 160, Height: 40})
	connect := func(m Model) Model {
		m = drain(t, m, func() tea.Msg { return wire.ConnState{State: wire.Connected} })
		return drain(t, m, func() tea.Msg { return wire.ResyncNeeded{} })
	}
	m = connect(m)
	if !m.State().HasHistory("ses_000") {
		t.Fatalf("the histories were not read:\n%s", screen(m))
	}
	m = send(t, m, wire.ConnState{State: wire.Disconnected, Err: fmt.Errorf("server restarted")})
	m = connect(m)
	mu.Lock()
	if len(hooked) != 0 || strings.Contains(screen(m), "🔔") {
		t.Errorf("old news after the reconnect: hooks %v\n%s", hooked, screen(m))
	}
	mu.Unlock()
	// The loops are marked on their rows, as history: not announced, and
	// not counted in the header, which counts the runaways running now.
	sc := screen(m)
	for _, end := range []string{"complete", "failed", "aborted", "interrupted", "denied"} {
		if !strings.Contains(rowOf(sc, "old "+end), "⚠ loop") {
			t.Errorf("the loop of old %s is not marked on its row:\n%s", end, sc)
		}
	}
	if strings.Contains(headerOf(sc), "runaway") {
		t.Errorf("the header counts loops that have ended:\n%s", sc)
	}
	// A new run of an old root, seen by the stream, ends: news, once.
	id := "ses_000"
	drain(t, m, func() tea.Msg {
		return events(wire.MessageUpdated{Info: wire.Message{ID: "msg_9", SessionID: id, Role: "user", Time: wire.MessageTime{Created: 2_000_000}}},
			busy(id), wire.MessageUpdated{Info: wire.Message{ID: "msg_9a", SessionID: id, Role: "assistant", Finish: "stop",
				Time: wire.MessageTime{Created: 2_000_100, Completed: 2_000_200}}}, idle(id))
	})
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(hooked, ",") != "session.done "+id {
		t.Errorf("the hook ran for %v, want the new run's end only", hooked)
	}
}
