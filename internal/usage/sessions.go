package usage

import (
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// FromState lists every session of the subtrees rooted at roots, parent
// before child, with its messages from msgs and its end from the model;
// Root is the subtree's root (so a subtree read on its own is its own
// root, as on the screen's $).
func FromState(st *model.State, roots []string, msgs map[string][]wire.MessageWithParts) []Session {
	var out []Session
	for _, root := range roots {
		r := st.Session(root)
		if r == nil {
			continue
		}
		for _, id := range st.SubtreeIDs(root) {
			ss := st.Session(id)
			out = append(out, Session{ID: id, Root: root, RootTitle: r.Title, Agent: ss.Agent,
				End: model.StateOf(ss).Kind.End(), Msgs: msgs[id]})
		}
	}
	return out
}
