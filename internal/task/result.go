package task

import (
	"fmt"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Result is a session's outcome as an async task's caller sees it.
type Result struct {
	TaskID string
	Title  string
	Agent  string
	// State is model.StatusRunning, StatusComplete or StatusError.
	State string
	// Run is the server's run state while running: busy or retry.
	Run string
	// Retry says why and when a retrying session tries again.
	Retry *wire.SessionStatus
	// Text is the last assistant text: the answer once complete, the text so
	// far while running.
	Text string
	// Error is what the last run ended with (e.g. MessageAbortedError).
	Error *wire.ErrorInfo
	// Reason says why an error state is one: aborted, interrupted, denied,
	// or the error's name (model.StateOf's Reason). Empty otherwise.
	Reason string
	// Detail is the same in one line for a person.
	Detail string
	// Tools are the tool calls of the current (or last) run, in order.
	Tools []ToolCall
	// Messages is how many messages the session has.
	Messages int

	// Settled is false when the messages could still be mid-run: the last
	// reply stopped to call tools, or (read with no clock) never
	// finished. Wait trusts such a result only after it holds for a few
	// polls.
	Settled bool
	// Kind is the session's state (model.StateOf).
	Kind model.Kind
	// Stops are the read's sights of runs stopped without a word on how
	// (model.State.Stops), for the next read's Clock; StopUntil, when
	// not 0, is when the last of their graces ends (Unix ms): until then
	// such a run reads running, reason stopping, and a reader that must
	// print how it ended reads again then.
	Stops     map[string]int64
	StopUntil int64
}

// Clock is what a reader tells the derivation of the time: now (Unix ms;
// 0 keeps no grace) and its earlier read's Stops, so a run that stopped
// without a word on how gets its grace (model.Grace) from the first read.
type Clock struct {
	Now   int64
	Stops map[string]int64
}

// ToolCall is one tool call of a run, as a result shows it.
type ToolCall struct {
	Tool   string
	Status string // pending, running, completed, error, aborted, interrupted (model.CallStatus)
	Title  string
	Error  string
}

// DeriveResult turns what the server says about one session (its status,
// absent when idle, and its messages oldest first) into a Result.
//
// A session whose last message is a user prompt with no reply yet counts as
// running even before the server marks it busy: prompt_async answers before
// the run starts, and a caller that polls right after launching must not
// read that gap as "complete, no answer".
//
// A session that launched background tasks needs their Family to be told
// apart from a finished one: see DeriveResultIn.
func DeriveResult(s wire.Session, st wire.SessionStatus, msgs []wire.MessageWithParts) Result {
	return DeriveResultIn(s, st, msgs, Family{})
}

// DeriveResultIn is DeriveResult for a session that may have launched
// background tasks, with what the server says of them (ReadFamily): the
// session is running, reason "background", while it waits on them. The
// run is everything after the last prompt (an end notice is not one), and
// its task calls show what their children did.
func DeriveResultIn(s wire.Session, st wire.SessionStatus, msgs []wire.MessageWithParts, fam Family) Result {
	return DeriveResultAt(s, st, msgs, fam, Clock{})
}

// DeriveResultAt is DeriveResultIn read at clk: a run that stopped
// without a word on how, within its grace, is running (reason stopping),
// and one past it is settled.
func DeriveResultAt(s wire.Session, st wire.SessionStatus, msgs []wire.MessageWithParts, fam Family, clk Clock) Result {
	r := Result{TaskID: s.ID, Title: s.Title, Agent: s.Agent, Messages: len(msgs)}
	msgs = withIDs(msgs)
	m := modelOf(s, st, msgs, fam, clk)
	r.Stops = m.Stops()
	_, r.StopUntil = m.Stopping()
	ss := m.Session(s.ID)
	lastUser := lastPrompt(msgs)
	var last *wire.MessageWithParts // the last assistant message of the run
	for i := lastUser + 1; i < len(msgs); i++ {
		msg := &msgs[i]
		if msg.Info.Role != "assistant" {
			continue
		}
		last = msg
		if msg.Info.Agent != "" {
			r.Agent = msg.Info.Agent
		}
		for _, p := range msg.Parts {
			switch p.Type {
			case wire.PartText:
				if t := strings.TrimSpace(p.Text); t != "" {
					r.Text = p.Text
				}
			case wire.PartTool:
				r.Tools = append(r.Tools, toolOf(ss, &p))
			}
		}
	}
	if lastUser >= 0 && msgs[lastUser].Info.Agent != "" {
		r.Agent = msgs[lastUser].Info.Agent // the agent the newest prompt asked for
	}
	state := m.StateOf(s.ID)
	r.Kind, r.Reason, r.Detail = state.Kind, state.Reason, state.Detail
	switch state.Kind {
	case model.KindRunning, model.KindWaiting, model.KindRetrying, model.KindBackground:
		r.State, r.Run = model.StatusRunning, wire.StatusBusy
		switch {
		case st.Type == wire.StatusBusy || st.Type == wire.StatusRetry:
			r.Run = st.Type
		case state.Kind == model.KindBackground, state.Reason == model.ReasonStopping:
			r.Run = wire.StatusIdle // the server's word: it waits, or stopped
		}
		if st.Type == wire.StatusRetry {
			retry := st
			r.Retry = &retry
		}
	case model.KindComplete, model.KindIdle:
		r.State = model.StatusComplete
		r.Settled = (last == nil || last.Info.Finish != "tool-calls") && !interruptedBelow(m, fam)
	default:
		r.State, r.Error = model.StatusError, errorOf(last, state)
		// With no clock, an interrupted reply may only have been read a
		// moment before it finished: Wait trusts it after a few polls
		// only. With one, the model's grace has waited already.
		r.Settled = clk.Now != 0 || state.Kind != model.KindInterrupted && !interruptedBelow(m, fam)
	}
	return r
}

// lastPrompt is the index of the last user message that is not a
// background task's end notice, or -1.
func lastPrompt(msgs []wire.MessageWithParts) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Info.Role == "user" && !isNotice(&msgs[i]) {
			return i
		}
	}
	return -1
}

func isNotice(m *wire.MessageWithParts) bool {
	for j := range m.Parts {
		if model.IsNotice(&m.Parts[j]) {
			return true
		}
	}
	return false
}

// toolOf is a call as the result shows it: its outcome is the model's
// (Session.CallStatus: a call an abort cut is aborted, a background task
// call follows its child).
func toolOf(ss *model.Session, p *wire.Part) ToolCall {
	tc := ToolCall{Tool: p.Tool, Status: model.CallStatus(p.State, model.KindRunning).String()}
	if p.State != nil {
		tc.Title, tc.Error = p.State.Title, p.State.Error
	}
	if ss != nil {
		if i, ok := ss.FindTool(p.ID); ok {
			tc.Status = ss.CallStatus(i).String()
		}
	}
	return tc
}

// interruptedBelow says whether a background child looks interrupted: its
// messages may have been read a moment before its run ended (the status
// was read first), so a result that rests on it is trusted only after a
// few polls agree.
func interruptedBelow(m *model.State, fam Family) bool {
	for _, c := range fam.Sessions {
		if m.StateOf(c.ID).Kind == model.KindInterrupted {
			return true
		}
	}
	return false
}

// modelOf folds one session read over REST, with its family, into the
// model: the same derivation the screen and `octop tree` use.
func modelOf(s wire.Session, st wire.SessionStatus, msgs []wire.MessageWithParts, fam Family, clk Clock) *model.State {
	m := model.New()
	m.SetNow(clk.Now)
	status := map[string]wire.SessionStatus{}
	if st.Type != "" && st.Type != wire.StatusIdle {
		status[s.ID] = st
	}
	for id, cst := range fam.Status {
		status[id] = cst
	}
	history := map[string][]wire.MessageWithParts{s.ID: msgs}
	for id, cm := range fam.Messages {
		history[id] = withIDs(cm)
	}
	sessions := append([]wire.Session{s}, fam.Sessions...)
	m.ApplySnapshot(model.Snapshot{Sessions: sessions, Status: status, Messages: history, Stops: clk.Stops})
	return m
}

// withIDs gives messages and parts that lack an id (a server always sends
// them; a hand-made list may not) one in their order, since the model
// orders and tells them apart by id.
func withIDs(msgs []wire.MessageWithParts) []wire.MessageWithParts {
	out := make([]wire.MessageWithParts, len(msgs))
	for i, m := range msgs {
		if m.Info.ID == "" {
			m.Info.ID = fmt.Sprintf("msg_%08d", i)
		}
		parts := make([]wire.Part, len(m.Parts))
		for j, p := range m.Parts {
			if p.ID == "" {
				p.ID = fmt.Sprintf("prt_%08d_%04d", i, j)
			}
			p.MessageID = m.Info.ID
			parts[j] = p
		}
		m.Parts = parts
		out[i] = m
	}
	return out
}

// errorOf is the message's error, else one named after the state's reason.
func errorOf(m *wire.MessageWithParts, state model.SessionState) *wire.ErrorInfo {
	if m != nil && m.Info.Error != nil {
		return m.Info.Error
	}
	return &wire.ErrorInfo{Name: reasonName(state.Reason), Data: wire.ErrorInfoData{Message: state.Detail}}
}

// reasonName turns a reason word into an error name: interrupted reads
// "Interrupted", denied "Denied".
func reasonName(reason string) string {
	if reason == "" {
		return "Error"
	}
	return strings.ToUpper(reason[:1]) + reason[1:]
}

// Format renders a result the way `octop result` prints it: a status line,
// the task_id, then the answer inside <task_result> tags, the error's name
// and message, or the run's tool calls so far.
func (r Result) Format() string {
	var b strings.Builder
	fmt.Fprintf(&b, "status: %s\n", r.State)
	fmt.Fprintf(&b, "task_id: %s\n", r.TaskID)
	switch r.State {
	case model.StatusComplete:
		fmt.Fprintf(&b, "\n<task_result>\n%s\n</task_result>\n", strings.TrimRight(r.Text, "\n"))
	case model.StatusError:
		fmt.Fprintf(&b, "reason: %s\n", oneLine(r.Reason))
		fmt.Fprintf(&b, "error: %s\n", r.ErrorLine())
	case model.StatusRunning:
		switch r.Reason {
		case model.ReasonBackground:
			fmt.Fprintf(&b, "waiting: %s\n", strings.TrimPrefix(r.Detail, "waiting on "))
		case model.ReasonStopping:
			b.WriteString("reason: stopping\n")
		}
		if r.Retry != nil {
			fmt.Fprintf(&b, "retry: attempt %d: %s\n", r.Retry.Attempt, oneLine(r.Retry.Message))
		}
		for _, t := range r.Tools {
			line := fmt.Sprintf("tool: %-9s %s", oneLine(t.Status), oneLine(t.Tool))
			if t.Title != "" {
				line += "  " + oneLine(t.Title)
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// ErrorLine is the error as one line: "Name: message".
func (r Result) ErrorLine() string {
	if r.Error == nil {
		return ""
	}
	if r.Error.Data.Message == "" {
		return oneLine(r.Error.Name)
	}
	return oneLine(r.Error.Name) + ": " + oneLine(r.Error.Data.Message)
}

// oneLine folds whitespace runs, newlines included, into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
