package otlp

import (
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Tree is one root's fan-out as the export reads it: every session of the
// subtree, parent before child, with its messages.
type Tree struct {
	Root     string
	Sessions []Session
}

// Session is one session of a Tree.
type Session struct {
	ID, ParentID, Title, Agent string
	// TaskPartID is the parent's task call that started the session, ""
	// when the server never said which (its span then hangs off the
	// parent's run going on).
	TaskPartID string
	// Created is the server's creation time (Unix ms).
	Created int64
	// State is how the session stands (model.StateOf).
	State model.SessionState
	// Runs are when the session ran (model.State.Runs): an invoke_agent
	// span each.
	Runs []model.Run
	// Calls are its tool calls as the model times them, by part id.
	Calls map[string]Call
	Msgs  []wire.MessageWithParts
}

// Call is what the model says of a tool call: when it ran
// (model.State.CallTimes: End 0 while it runs), what it did (its title,
// else its input), and, for a task call, the child it started.
type Call struct {
	Start, End int64
	Title      string
	ChildID    string
}

// TreeOf reads root's subtree from the model, with the messages in msgs.
// A root the model does not know gives an empty Tree.
func TreeOf(st *model.State, msgs map[string][]wire.MessageWithParts, root string) Tree {
	t := Tree{Root: root}
	for _, id := range st.SubtreeIDs(root) {
		ss := st.Session(id)
		parent := ss.ParentID
		if id == root {
			parent = "" // the trace starts here, whatever is above
		}
		s := Session{ID: id, ParentID: parent, Title: ss.Title, Agent: ss.Agent, TaskPartID: ss.TaskPartID,
			Created: ss.Created, State: model.StateOf(ss), Runs: st.Runs(id), Msgs: msgs[id]}
		if len(ss.Tools) > 0 {
			s.Calls = make(map[string]Call, len(ss.Tools))
		}
		for _, c := range ss.Tools {
			start, end, _ := st.CallTimes(id, c.PartID)
			title := c.Title
			if title == "" {
				title = c.Input
			}
			s.Calls[c.PartID] = Call{Start: start, End: end, Title: title, ChildID: c.ChildID}
		}
		t.Sessions = append(t.Sessions, s)
	}
	return t
}
