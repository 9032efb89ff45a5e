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
	// parent's session span).
	TaskPartID string
	// Created is the server's creation time (Unix ms).
	Created int64
	// State is how the session stands (model.StateOf).
	State model.SessionState
	Msgs  []wire.MessageWithParts
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
		t.Sessions = append(t.Sessions, Session{ID: id, ParentID: parent, Title: ss.Title, Agent: ss.Agent,
			TaskPartID: ss.TaskPartID, Created: ss.Created, State: model.StateOf(ss), Msgs: msgs[id]})
	}
	return t
}
