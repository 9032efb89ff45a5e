package inbox

import (
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/room"
	"github.com/octop-dev/octop/ui/styles"
)

const screenW, screenH = 100, 30

// waiting is a tree where one child asks a permission and another a
// question.
func waiting() *model.State {
	st := model.New()
	for _, s := range []wire.Session{
		{ID: "ses_root", Title: "migrate the database", Time: wire.SessionTime{Created: 1, Updated: 1}},
		{ID: "ses_c", ParentID: "ses_root", Title: "clean build dir (@general subagent)", Time: wire.SessionTime{Created: 2, Updated: 2}},
		{ID: "ses_q", ParentID: "ses_root", Title: "choose the database (@explore subagent)", Time: wire.SessionTime{Created: 3, Updated: 3}},
	} {
		st.Apply(wire.SessionCreated{Info: s})
		st.Apply(wire.SessionStatusChanged{SessionID: s.ID, Status: wire.SessionStatus{Type: wire.StatusBusy}})
	}
	st.Apply(wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: "ses_c",
		Permission: "bash", Patterns: []string{"rm -rf build"}, Always: []string{"rm *"}}})
	st.Apply(wire.QuestionAsked{Request: wire.QuestionRequest{ID: "que_1", SessionID: "ses_q", Questions: []wire.QuestionInfo{{
		Header: "Database", Question: "Which database should the config loader use?",
		Options: []wire.QuestionOption{{Label: "sqlite", Description: "one file, no server"}, {Label: "postgres"}},
	}}}})
	return st
}

func keys(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

// TestInboxRoomGolden pins the inbox, in colour and in NO_COLOR: its
// list, an answer being typed, an answer refused, and empty; the NO_COLOR
// one has no colour escape.
func TestInboxRoomGolden(t *testing.T) {
	scenes := []struct {
		name  string
		state func() *model.State
		msgs  []tea.Msg
	}{
		{"list", waiting, nil},
		{"question-selected", waiting, keys("j")},
		{"typing", waiting, append(keys("jt"), keys("mysql")...)},
		{"refused", waiting, append(keys("a"), task.AnswerReply{RequestID: "per_1", Err: errors.New("demo: read-only")})},
		{"empty", model.New, nil},
	}
	for _, noColor := range []bool{false, true} {
		st := styles.New(true, noColor)
		for _, sc := range scenes {
			t.Run(map[bool]string{false: "color", true: "nocolor"}[noColor]+"/"+sc.name, func(t *testing.T) {
				var d room.Dialog = New(st, sc.state(), screenW)
				for _, msg := range sc.msgs {
					if d, _ = d.Update(msg); d == nil {
						t.Fatalf("%v closed the inbox", msg)
					}
				}
				out := d.View(screenW, screenH)
				if e := colourtest.Escape(out); noColor && e != "" {
					t.Fatalf("a colour escape %s under NO_COLOR:\n%s", e, out)
				}
				if e := colourtest.Escape(out); !noColor && e == "" {
					t.Fatalf("no colour at all in colour:\n%s", out)
				}
				golden.RequireEqual(t, []byte(out))
			})
		}
	}
}
