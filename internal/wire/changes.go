package wire

import (
	"bytes"
	"encoding/json"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Todo is one item of a session's todo list (GET /session/{id}/todo,
// todo.updated).
type Todo struct {
	ID       string `json:"id,omitempty"` // 1.1.x only
	Content  string `json:"content"`
	Status   string `json:"status"`   // pending, in_progress, completed, cancelled
	Priority string `json:"priority"` // high, medium, low
}

// Todo states a Todo's Status can have.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoCompleted  = "completed"
	TodoCancelled  = "cancelled"
)

// FileDiff is what one user message's run changed in one file
// (GET /session/{id}/diff?messageID=…, or Message.Summary.Diffs). 1.1.x
// sends the whole file Before and After; 1.18.x sends a unified Patch.
type FileDiff struct {
	File      string  `json:"file"`
	Before    string  `json:"before,omitempty"`
	After     string  `json:"after,omitempty"`
	Patch     string  `json:"patch,omitempty"`
	Additions float64 `json:"additions"`
	Deletions float64 `json:"deletions"`
	Status    string  `json:"status,omitempty"` // added, deleted, modified
}

// Unified is the file's patch: the server's, or one made from the file
// before and after. The name goes into the made patch's header on one
// line: a line break in it would start a line the patch does not hold.
func (d FileDiff) Unified() string {
	p := d.Patch
	if p == "" && (d.Before != "" || d.After != "") {
		name := strings.NewReplacer("\r", " ", "\n", " ").Replace(d.File)
		p = udiff.Unified("a/"+name, "b/"+name, d.Before, d.After)
	}
	if p != "" && !strings.HasSuffix(p, "\n") {
		p += "\n"
	}
	return p
}

// MessageSummary is a user message's summary: the files its run changed.
// An assistant message's summary is a boolean on the wire; it decodes to
// an empty MessageSummary.
type MessageSummary struct {
	Title string     `json:"title,omitempty"`
	Body  string     `json:"body,omitempty"`
	Diffs []FileDiff `json:"diffs,omitempty"`
}

// UnmarshalJSON accepts the user message's object and the assistant
// message's boolean.
func (m *MessageSummary) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		*m = MessageSummary{}
		return nil
	}
	type plain MessageSummary
	return json.Unmarshal(b, (*plain)(m))
}

// TodoUpdated is todo.updated: a session's whole todo list, as it is now.
type TodoUpdated struct {
	SessionID string
	Todos     []Todo
}

func (TodoUpdated) EventType() string { return "todo.updated" }
