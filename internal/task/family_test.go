package task

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// endings is a real 1.18.33 capture (model/testdata/background): a root
// that launched 3 background tasks; the first child was aborted (no
// notice), the second completed, the third failed; the root answered both
// notices.
func endings(t *testing.T) (root wire.Session, msgs []wire.MessageWithParts, kids map[string][]wire.MessageWithParts) {
	t.Helper()
	dir := "../../model/testdata/background/endings-A-"
	read := func(name string, v any) {
		b, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	read("root-messages.json", &msgs)
	var sessions []wire.Session
	read("children.json", &sessions)
	kids = map[string][]wire.MessageWithParts{}
	for i, s := range sessions {
		var m []wire.MessageWithParts
		read("child-worker"+string(rune('1'+i))+"-messages.json", &m)
		kids[s.ID] = m
	}
	return wire.Session{ID: msgs[0].Info.SessionID, Title: "root"}, msgs, kids
}

func TestDeriveResultBackground(t *testing.T) {
	root, msgs, kids := endings(t)
	if got := BackgroundChildren(msgs); len(got) != 3 {
		t.Fatalf("BackgroundChildren: %v", got)
	}
	status := map[string]wire.SessionStatus{}
	reads := 0
	family := func() Family {
		f, err := ReadFamily(root.ID, msgs, func(id string) wire.SessionStatus { return status[id] },
			func(id string) ([]wire.MessageWithParts, error) { reads++; return kids[id], nil })
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	r := DeriveResultIn(root, wire.SessionStatus{}, msgs, family())
	if r.State != model.StatusComplete || !r.Settled || !strings.HasPrefix(r.Text, "noticed task ") || reads != 3 {
		t.Errorf("all ended: %+v (%d reads)", r, reads)
	}
	var got []string
	for _, tc := range r.Tools {
		got = append(got, tc.Tool+":"+tc.Status)
	}
	// The run is everything since the prompt: the notices are not prompts.
	// The aborted child's call is aborted, neither failed nor done.
	if strings.Join(got, " ") != "task:aborted task:completed task:error" {
		t.Errorf("tools %v, want each child's end", got)
	}

	// One child still runs: its messages are not read; the root waits.
	first := BackgroundChildren(msgs)[0]
	status[first] = wire.SessionStatus{Type: wire.StatusBusy}
	reads = 0
	r = DeriveResultIn(root, wire.SessionStatus{}, msgs, family())
	if r.State != model.StatusRunning || r.Reason != "background" || r.Run != wire.StatusIdle || reads != 2 {
		t.Errorf("a child running: %+v (%d reads)", r, reads)
	}
	if f := r.Format(); !strings.Contains(f, "status: running\n") || !strings.Contains(f, "waiting: 1 background task\n") ||
		!strings.Contains(f, "tool: running   task") {
		t.Errorf("Format:\n%s", f)
	}

	// Without its family the root cannot be told done: its children may run.
	if r := DeriveResult(root, wire.SessionStatus{}, msgs[:3]); r.State != model.StatusRunning {
		t.Errorf("no family, no notice: %s", r.State)
	}
}
