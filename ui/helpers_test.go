package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/drive"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/inflight"
)

// t0 is the scenarios' start; the screen's clock is fixed at now, so every
// elapsed time in a golden file is stable.
const t0 int64 = 1_800_000_000_000

var now = time.UnixMilli(t0 + 95_000)

func fixedClock() time.Time { return now }

// newTestModel is the screen at a size, connected to a server of a known
// version, with no colour, a fixed clock, and its timers on a test clock
// (internal/testkit/drive) that only a driver's Advance moves (see do, driver).
func newTestModel(t testing.TB, w, h int, opts ...func(*Options)) Model {
	t.Helper()
	o := Options{ServerURL: "http://127.0.0.1:4096", Clock: fixedClock, NoColor: true, Timer: drive.NewClock(t, now)}
	for _, f := range opts {
		f(&o)
	}
	m := New(o)
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	m = send(t, m, wire.ConnState{State: wire.Connected, Attempt: 1})
	m = send(t, m, inflight.HealthReply{Tag: m.healthTag, Health: wire.Health{Healthy: true, Version: "1.18.33"}})
	return m
}

// send runs one message through Update and keeps the new model. Commands
// are dropped: tests that need them run them explicitly.
func send(t testing.TB, m Model, msg tea.Msg) Model {
	t.Helper()
	nm, _ := m.Update(msg)
	return nm.(Model)
}

// press types keys: named ones ("enter", "esc", "tab", "up", "down",
// "left", "right", "ctrl+c") or a string of single characters.
func press(t testing.TB, m Model, keys ...string) Model {
	t.Helper()
	for _, k := range keys {
		for _, msg := range keyMsgs(k) {
			m = send(t, m, msg)
		}
	}
	return m
}

func keyMsgs(k string) []tea.KeyPressMsg {
	named := map[string]tea.KeyPressMsg{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "tab": {Code: tea.KeyTab},
		"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "left": {Code: tea.KeyLeft},
		"right": {Code: tea.KeyRight}, "ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
	}
	if msg, ok := named[k]; ok {
		return []tea.KeyPressMsg{msg}
	}
	var out []tea.KeyPressMsg
	for _, r := range k {
		msg := tea.KeyPressMsg{Code: r, Text: string(r)}
		if r >= 'A' && r <= 'Z' {
			msg.Code, msg.Mod = r+('a'-'A'), tea.ModShift
		}
		out = append(out, msg)
	}
	return out
}

// screen is the rendered screen without any escape codes.
func screen(m Model) string { return ansi.Strip(m.View().Content) }

// events wraps events as one stream batch.
func events(evs ...wire.Event) EventsMsg {
	out := make(EventsMsg, len(evs))
	for i, e := range evs {
		out[i] = wire.Envelope{Event: e}
	}
	return out
}

// Event builders: short, so a scenario reads as a story. Times are
// seconds after t0.

func ms(sec float64) int64 { return t0 + int64(sec*1000) }

func created(id, parent, title string, sec float64) wire.Event {
	return wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent, Title: title,
		Version: "1.18.33", Time: wire.SessionTime{Created: ms(sec), Updated: ms(sec)}}}
}

func busy(id string) wire.Event {
	return wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: wire.StatusBusy}}
}

func idle(id string) wire.Event {
	return wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{Type: wire.StatusIdle}}
}

func retrying(id string, attempt int, msg string, nextSec float64) wire.Event {
	return wire.SessionStatusChanged{SessionID: id, Status: wire.SessionStatus{
		Type: wire.StatusRetry, Attempt: attempt, Message: msg, Next: ms(nextSec)}}
}

func aborted(id string) wire.Event {
	return wire.SessionError{SessionID: id, Error: &wire.ErrorInfo{Name: "MessageAbortedError",
		Data: wire.ErrorInfoData{Message: "Aborted"}}}
}

func userMsg(sess string, sec float64) wire.Event {
	return wire.MessageUpdated{Info: wire.Message{ID: "msg_0_" + sess, SessionID: sess, Role: "user",
		Time: wire.MessageTime{Created: ms(sec)}}}
}

func asstMsg(sess string, tokens, cost float64, sec float64) wire.Event {
	return wire.MessageUpdated{Info: wire.Message{ID: "msg_a_" + sess, SessionID: sess, Role: "assistant",
		Agent: "build", Cost: cost, Tokens: wire.Tokens{Input: tokens}, Time: wire.MessageTime{Created: ms(sec)}}}
}

// finished is the session's assistant message, completed.
func finished(sess string, tokens, cost float64, sec float64) wire.Event {
	m := asstMsg(sess, tokens, cost, sec).(wire.MessageUpdated)
	m.Info.Finish, m.Info.Time.Completed = "stop", ms(sec)
	return m
}

// toolCall is a tool part of the session's assistant message. end < 0
// means it has not ended.
func toolCall(sess, part, name, status, title, input string, start, end float64) wire.Event {
	ts := &wire.ToolState{Status: status, Title: title, Input: json.RawMessage(input),
		Time: wire.ToolTime{Start: ms(start)}}
	if end >= 0 {
		ts.Time.End = ms(end)
	}
	if status == wire.ToolError {
		ts.Error = "exit status 1: no such file"
	}
	return wire.PartUpdated{Time: ms(start), Part: wire.Part{ID: part, SessionID: sess,
		MessageID: "msg_a_" + sess, Type: wire.PartTool, Tool: name, CallID: "call_" + part, State: ts}}
}

func taskCall(parent, part, child, title, status string, start float64) wire.Event {
	ts := &wire.ToolState{Status: status, Title: title,
		Input:    json.RawMessage(fmt.Sprintf(`{"description":%q,"subagent_type":"general"}`, title)),
		Metadata: json.RawMessage(fmt.Sprintf(`{"sessionId":%q}`, child)),
		Time:     wire.ToolTime{Start: ms(start)}}
	return wire.PartUpdated{Time: ms(start), Part: wire.Part{ID: part, SessionID: parent,
		MessageID: "msg_a_" + parent, Type: wire.PartTool, Tool: "task", CallID: "call_" + part, State: ts}}
}

func reply(sess, txt string, sec float64) wire.Event {
	return wire.PartUpdated{Time: ms(sec), Part: wire.Part{ID: "prt_txt_" + sess, SessionID: sess,
		MessageID: "msg_a_" + sess, Type: wire.PartText, Text: txt,
		Time: &wire.PartTime{Start: ms(sec), End: ms(sec)}}}
}

func permission(sess, id string) wire.Event {
	return wire.PermissionAsked{Request: wire.PermissionRequest{ID: id, SessionID: sess,
		Permission: "bash", Patterns: []string{"rm -rf build"}}}
}

// Scenarios for the goldens and the key tests.

// fanOut is a root that delegated four lint/test jobs; three children are
// mid-way through bash calls and one has finished.
func fanOut() EventsMsg {
	evs := []wire.Event{
		created("ses_root", "", "refactor the parser", 0),
		userMsg("ses_root", 0), busy("ses_root"), asstMsg("ses_root", 1200, 0.0123, 1),
		toolCall("ses_root", "prt_r1", "read", wire.ToolCompleted, "internal/parser/parse.go", `{"filePath":"internal/parser/parse.go"}`, 2, 2.4),
	}
	kids := []struct{ id, title string }{
		{"ses_c1", "lint the parser package (@general subagent)"},
		{"ses_c2", "run the unit tests (@general subagent)"},
		{"ses_c3", "check the docs build (@explore subagent)"},
		{"ses_c4", "count TODO comments (@explore subagent)"},
	}
	for i, k := range kids {
		s := 10 + float64(i)
		evs = append(evs,
			taskCall("ses_root", fmt.Sprintf("prt_t%d", i), k.id, strings.Split(k.title, " (@")[0], wire.ToolRunning, s),
			created(k.id, "ses_root", k.title, s),
			userMsg(k.id, s), busy(k.id), asstMsg(k.id, 300*float64(i+1), 0.001*float64(i+1), s+1),
			toolCall(k.id, k.id+"_1", "glob", wire.ToolCompleted, "**/*.go", `{"pattern":"**/*.go"}`, s+2, s+2.2),
		)
	}
	evs = append(evs,
		toolCall("ses_c1", "ses_c1_2", "bash", wire.ToolRunning, "golangci-lint run ./parser/...", `{"command":"golangci-lint run ./parser/..."}`, 60, -1),
		toolCall("ses_c2", "ses_c2_2", "bash", wire.ToolRunning, "go test ./...", `{"command":"go test ./..."}`, 70, -1),
		toolCall("ses_c3", "ses_c3_2", "bash", wire.ToolRunning, "mkdocs build --strict", `{"command":"mkdocs build --strict"}`, 80, -1),
		toolCall("ses_c4", "ses_c4_2", "grep", wire.ToolCompleted, "TODO", `{"pattern":"TODO"}`, 20, 21),
		reply("ses_c4", "Found 14 TODO comments:\n- parser.go: 9\n- lexer.go: 5", 22),
		finished("ses_c4", 1200, 0.004, 22), idle("ses_c4"),
	)
	return events(evs...)
}

// nested is a root delegating to two mid-level agents that each delegate
// to two leaves.
func nested() EventsMsg {
	evs := []wire.Event{
		created("ses_root", "", "deep root", 0), userMsg("ses_root", 0), busy("ses_root"), asstMsg("ses_root", 500, 0.002, 1),
	}
	for i := range 2 {
		mid := fmt.Sprintf("ses_m%d", i)
		s := 5 + float64(i)
		evs = append(evs,
			taskCall("ses_root", "prt_tm"+mid, mid, fmt.Sprintf("deep mid %d", i), wire.ToolRunning, s),
			created(mid, "ses_root", fmt.Sprintf("deep mid %d (@deep subagent)", i), s),
			userMsg(mid, s), busy(mid), asstMsg(mid, 200, 0.001, s+1))
		for j := range 2 {
			leaf := fmt.Sprintf("ses_m%dl%d", i, j)
			ls := 20 + float64(i*2+j)
			evs = append(evs,
				taskCall(mid, "prt_tl"+leaf, leaf, fmt.Sprintf("leaf %d", j), wire.ToolRunning, ls),
				created(leaf, mid, fmt.Sprintf("leaf %d (@explore subagent)", j), ls),
				userMsg(leaf, ls), busy(leaf), asstMsg(leaf, 100, 0.0005, ls+1),
				toolCall(leaf, leaf+"_b", "bash", wire.ToolRunning, "sleep 1; echo step1", `{"command":"sleep 1; echo step1"}`, 85, -1))
		}
	}
	return events(evs...)
}

// troubled has one of each kind of trouble: an aborted child, a failed
// tool call, a provider retry and a child waiting on a permission.
func troubled() EventsMsg {
	return events(
		created("ses_root", "", "migrate the database", 0), userMsg("ses_root", 0), busy("ses_root"), asstMsg("ses_root", 900, 0.004, 1),
		created("ses_a", "ses_root", "rewrite the schema (@general subagent)", 5), userMsg("ses_a", 5), busy("ses_a"), asstMsg("ses_a", 100, 0, 6),
		toolCall("ses_a", "ses_a_1", "bash", wire.ToolError, "psql -f schema.sql", `{"command":"psql -f schema.sql"}`, 10, 12),
		aborted("ses_a"), idle("ses_a"),
		created("ses_b", "ses_root", "backfill rows (@general subagent)", 6), userMsg("ses_b", 6), busy("ses_b"),
		retrying("ses_b", 3, "Rate limited: too many requests", 98),
		created("ses_c", "ses_root", "clean build dir (@general subagent)", 7), userMsg("ses_c", 7), busy("ses_c"), asstMsg("ses_c", 50, 0, 8),
		toolCall("ses_c", "ses_c_1", "bash", wire.ToolRunning, "", `{"command":"rm -rf build"}`, 30, -1),
		permission("ses_c", "per_1"),
	)
}

// errRefused is what a dead server looks like to the stream.
var errRefused error = &client.Error{Kind: client.KindUnreachable, URL: "http://127.0.0.1:4096",
	Err: errors.New("connect: connection refused")}
