package ui

import (
	"testing"

	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/colourtest"
	"github.com/octop-dev/octop/internal/wire"
)

// noColourScenes are every overlay and room, in the states worth seeing:
// loaded, typed into, a field focused, an error shown.
var noColourScenes = []struct {
	name string
	keys []string
}{
	{"tree and detail", nil},
	{"detail focused", []string{"tab"}},
	{"filter typed", []string{"/", "lint"}},
	{"help", []string{"?"}},
	{"launch", []string{"n"}},
	{"launch description typed", []string{"n", "enter", "words"}},
	{"launch prompt", []string{"n", "tab", "tab", "do it"}},
	{"launch root", []string{"N"}},
	{"launch refused", []string{"n", "ctrl+s"}},
	{"resume", []string{"G", "r", "again"}},
	{"resume agent field", []string{"G", "r", "tab"}},
	{"resume agent typed", []string{"G", "r", "tab", "gen"}},
	{"wait for busy", []string{"r"}},
	{"resume by id", []string{"R", "ses_c4"}},
	{"resume by id not found", []string{"R", "ses_nope", "enter"}},
	{"abort", []string{"x"}},
	{"abort subtree", []string{"X"}},
	{"result", []string{"G", "o"}},
	{"transcript", []string{"G", "t"}},
	{"files changed", []string{"G", "d"}},
	{"timeline", []string{"T"}},
	{"spend", []string{"$"}},
	{"inbox", []string{"i"}},
	{"inbox answer typed", []string{"i", "t", "mysql"}},
	{"inbox second item", []string{"i", "j"}},
}

// TestNoColourEscapesAnywhere: under NO_COLOR no frame of any room, in
// any of its states, carries a colour escape.
func TestNoColourEscapesAnywhere(t *testing.T) {
	for _, sc := range noColourScenes {
		t.Run(sc.name, func(t *testing.T) {
			f, c := newFakeOpenCode(t)
			var evs []wire.Event
			for _, env := range append(fanOut(), inboxScene()...) {
				evs = append(evs, env.Event)
			}
			m := actionModel(t, f, c, evs...)
			f.setMessages(t, "ses_c4", `[{"info":{"id":"msg_1","sessionID":"ses_c4","role":"user","time":{"created":1}},"parts":[{"id":"prt_1","sessionID":"ses_c4","messageID":"msg_1","type":"text","text":"count TODO comments"}]},
				{"info":{"id":"msg_2","sessionID":"ses_c4","role":"assistant","time":{"created":2,"completed":3},"finish":"stop"},"parts":[{"id":"prt_2","sessionID":"ses_c4","messageID":"msg_2","type":"text","text":"Found **14** TODO comments:\n- parser.go: 9\n\n`+"```go\\nx := 1\\n```"+`"}]}]`)
			if !m.opts.NoColor {
				t.Fatal("the test model is not NO_COLOR")
			}
			for _, k := range sc.keys {
				for _, msg := range keyMsgs(k) {
					m, _ = do(t, m, msg)
				}
			}
			out := m.View().Content
			if e := colourtest.Escape(out); e != "" {
				t.Fatalf("a colour escape %s under NO_COLOR after %q:\n%s", e, sc.keys, out)
			}
			if len(sc.keys) > 0 && screen(m) == screen(actionModel(t, f, c, evs...)) {
				t.Fatalf("%q changed nothing on the screen: the scene shows nothing new", sc.keys)
			}
		})
	}
}

// TestColourScenesHaveColour keeps TestNoColourEscapesAnywhere honest: the
// same screens with colour do carry colour escapes.
func TestColourScenesHaveColour(t *testing.T) {
	_, c := newFakeOpenCode(t)
	m := newTestModel(t, 120, 40, func(o *Options) { o.Server = live.New(c); o.NoColor = false })
	m = send(t, m, fanOut())
	m, _ = do(t, m, keyMsgs("n")[0])
	if colourtest.Escape(m.View().Content) == "" {
		t.Fatal("the launch form with colour has no colour escape: the check cannot see colour")
	}
}
