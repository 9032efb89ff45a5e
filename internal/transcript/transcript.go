package transcript

import (
	"encoding/json"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Kind says what an Entry is.
type Kind string

// The kinds of entries, in the words `octop log --json` uses.
const (
	KindPrompt    Kind = "prompt"    // a user message's text
	KindText      Kind = "text"      // assistant text (markdown)
	KindReasoning Kind = "reasoning" // the model's reasoning
	KindTool      Kind = "tool"      // a tool call; a task call has ChildID
	KindError     Kind = "error"     // the error a message ended with
	// KindBackground is a background task's end notice (OpenCode 1.18): the
	// server, not the person, tells the parent its child ended. ChildID,
	// Status (completed or error), Title (the task's description) and Text
	// (the child's answer or error) describe it.
	KindBackground Kind = "background"
)

// Entry is one thing said or done in a session.
type Entry struct {
	Kind      Kind   `json:"kind"`
	SessionID string `json:"sessionID"`
	MessageID string `json:"messageID"`
	PartID    string `json:"partID,omitempty"`
	Agent     string `json:"agent,omitempty"`
	// Text is the prompt, text or reasoning; for KindError the message.
	Text string `json:"text,omitempty"`
	// Tool, Status (model.CallStatus: pending, running, completed, error,
	// aborted, interrupted), Input (a one-line digest: the command, file
	// path, pattern…), Title and Output describe a tool call. A running
	// call's Output is what it printed so far.
	Tool   string `json:"tool,omitempty"`
	Status string `json:"status,omitempty"`
	Input  string `json:"input,omitempty"`
	Title  string `json:"title,omitempty"`
	Output string `json:"output,omitempty"`
	// Error is a failed call's error, or a KindError's name
	// (e.g. MessageAbortedError).
	Error string `json:"error,omitempty"`
	// ChildID is the session a task call started, once the server names
	// it, or the one a background notice is about.
	ChildID string `json:"childID,omitempty"`
	// Background marks a task call that launched its child in the
	// background: it completed at once, and the child runs on.
	Background bool `json:"background,omitempty"`
	// Start and End are Unix ms, where the server gave them.
	Start int64 `json:"start,omitempty"`
	End   int64 `json:"end,omitempty"`
	// Queued marks a prompt sent while the model was in the middle of a
	// step (octop say): it is in the conversation already, and the model
	// sees it at its next step. Only while the session runs: Stopped
	// clears it.
	Queued bool `json:"queued,omitempty"`

	// done: the entry will not change any more (its part or message ended).
	done bool
	// call is a tool call's outcome while its session runs (Status's).
	call model.ToolStatus
}

// Build lists the entries of a session's messages (oldest first, as
// GET /session/{id}/message gives them), in order. Parts that say nothing
// to a reader (step markers, snapshots, patches) are left out.
func Build(msgs []wire.MessageWithParts) []Entry {
	var out []Entry
	for i := range msgs {
		out = appendMessage(out, &msgs[i])
	}
	return markQueued(out, msgs)
}

// markQueued marks the prompts the model has yet to see although its run
// goes on: the user messages after the last reply that came while that
// reply was still being made (it had not ended, or ended after they came).
// The server keeps them in id order, after that reply, and the model gets
// them with its next step, which replies to them. A reply that ended in an
// error (an abort) ended the run: what came during it waits for the next
// prompt, and is not marked. A queued prompt is not settled: `log
// --follow` prints it once the model has seen it, where the model saw it.
func markQueued(out []Entry, msgs []wire.MessageWithParts) []Entry {
	j := len(msgs) - 1
	for j >= 0 && msgs[j].Info.Role != "assistant" {
		j--
	}
	if j < 0 || j == len(msgs)-1 || msgs[j].Info.Error != nil {
		return out
	}
	reply := &msgs[j].Info
	for k := len(out) - 1; k >= 0 && out[k].MessageID > reply.ID; k-- {
		e := &out[k]
		if e.Kind != KindPrompt {
			continue
		}
		for i := j + 1; i < len(msgs); i++ {
			if m := &msgs[i].Info; m.ID == e.MessageID && (reply.Time.Completed == 0 || m.Time.Created < reply.Time.Completed) {
				e.Queued, e.done = true, false
			}
		}
	}
	return out
}

// Stopped is entries as a session that no longer runs shows them: nothing
// is queued any more (what the model never saw waits for the next
// prompt), and a call left open was cut (model.ToolStatus.Stopped):
// aborted when an abort ended the run (aborted), else interrupted.
// entries is left as it is; a copy comes back when something changed.
func Stopped(entries []Entry, aborted bool) []Entry {
	for i := range entries {
		if e := &entries[i]; e.Queued || e.Kind == KindTool && e.call.Stopped(aborted) != e.call {
			out := append([]Entry(nil), entries...)
			for k := i; k < len(out); k++ {
				e := &out[k]
				e.Queued = false
				if e.Kind == KindTool {
					e.call = e.call.Stopped(aborted)
					e.Status = e.call.String()
				}
			}
			return out
		}
	}
	return entries
}

func appendMessage(out []Entry, m *wire.MessageWithParts) []Entry {
	info := &m.Info
	ended := info.Time.Completed != 0 || info.Error != nil || info.Role == "user"
	base := Entry{SessionID: info.SessionID, MessageID: info.ID, Agent: info.Agent}
	for i := range m.Parts {
		p := &m.Parts[i]
		e := base
		e.PartID = p.ID
		switch {
		case model.IsNotice(p):
			e = noticeEntry(e, p)
		case p.Type == wire.PartText, p.Type == wire.PartReasoning:
			if strings.TrimSpace(p.Text) == "" {
				continue
			}
			e.Kind, e.Text = textKind(info.Role, p.Type), p.Text
			if p.Time != nil {
				e.Start, e.End = p.Time.Start, p.Time.End
			}
			e.done = ended || e.End != 0
		case p.Type == wire.PartTool:
			e = toolEntry(e, p)
		default:
			continue
		}
		out = append(out, e)
	}
	if info.Error != nil {
		out = append(out, Entry{Kind: KindError, SessionID: info.SessionID, MessageID: info.ID,
			Agent: info.Agent, Text: info.Error.Data.Message, Error: info.Error.Name,
			End: info.Time.Completed, done: true})
	}
	return out
}

func textKind(role, partType string) Kind {
	switch {
	case role == "user":
		return KindPrompt
	case partType == wire.PartReasoning:
		return KindReasoning
	}
	return KindText
}

func toolEntry(e Entry, p *wire.Part) Entry {
	st := p.State
	e.Kind, e.Tool, e.call = KindTool, p.Tool, model.CallStatus(st, model.KindRunning)
	e.Status = e.call.String()
	if st == nil {
		return e
	}
	e.Input = model.InputDigest(st.Input)
	e.Title, e.Output, e.Error = st.Title, st.Output, st.Error
	e.Start, e.End = st.Time.Start, st.Time.End
	if e.Output == "" && !ended(st.Status) {
		e.Output = liveOutput(st.Metadata)
	}
	if p.Tool == "task" {
		e.ChildID = model.TaskChild(st)
		e.Background = model.BackgroundChild(p) != ""
	}
	e.done = ended(st.Status)
	return e
}

// noticeEntry is a background task's end notice: which child, how it
// ended, and what it said.
func noticeEntry(e Entry, p *wire.Part) Entry {
	n, _ := model.ParseNotice(p.Text)
	e.Kind, e.ChildID, e.Title, e.Text = KindBackground, n.ChildID, n.Description(), n.Body
	e.Status = wire.ToolCompleted
	if n.Failed() {
		e.Status = wire.ToolError
	}
	if p.Time != nil {
		e.Start, e.End = p.Time.Start, p.Time.End
	}
	e.done = true
	return e
}

func ended(status string) bool {
	return status == wire.ToolCompleted || status == wire.ToolError
}

// liveOutput is what a running call printed so far (bash streams it into
// metadata.output).
func liveOutput(md json.RawMessage) string {
	if len(md) <= 2 || !strings.Contains(string(md), `"output"`) {
		return ""
	}
	var v struct {
		Output string `json:"output"`
	}
	if json.Unmarshal(md, &v) != nil {
		return ""
	}
	return v.Output
}

// Settled says whether e will not change any more. Once its session is
// idle every entry is: a call the server never closed stays as it is.
func (e Entry) Settled(idle bool) bool { return idle || e.done }
