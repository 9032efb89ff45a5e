package ui

import (
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// m tells the selected session: a running one gets the message at once,
// to its own agent, and the notice says it is queued; an idle one's form
// says it starts a new run.
func TestSteerKey(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_run", "ses_root", "runner (@general subagent)", 2),
		busy("ses_run"), created("ses_done", "ses_root", "done (@general subagent)", 3))
	f.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusBusy})
	f.setMessages(t, "ses_run", `[{"info":{"role":"user","agent":"general"},"parts":[]},{"info":{"role":"assistant","agent":"general","time":{"created":1}},"parts":[]}]`)

	m = send(t, m, SelectMsg{ID: "ses_done"})
	m, _ = do(t, m, keyMsgs("m")[0])
	if !strings.Contains(dialogText(m), "not running: this starts a new run") {
		t.Fatalf("m on an idle session:\n%s", dialogText(m))
	}
	m, _ = do(t, m, escKey)

	m = send(t, m, SelectMsg{ID: "ses_run"})
	m, _ = do(t, m, keyMsgs("m")[0])
	if !strings.Contains(dialogText(m), "Tell runner") || !strings.Contains(dialogText(m), "running: the model sees this at its next step") {
		t.Fatalf("m on a running session:\n%s", dialogText(m))
	}
	m = typeText(t, m, "only the parser")
	m, msgs := do(t, m, ctrlS)
	p := f.prompts()["ses_run"]
	if len(p) != 1 || p[0].Agent != "general" || p[0].Parts[0].Text != "only the parser" || p[0].Tools["question"] {
		t.Errorf("m sent %+v; want the message to the session's own agent, its tools kept", p)
	}
	if fl := flashes(msgs); m.dialog != nil || len(fl) != 1 || !strings.Contains(fl[0], "queued, the model sees it at its next step") {
		t.Errorf("after ctrl+s: dialog %v, notices %q", m.dialog != nil, fl)
	}
}

// a on a running session says to stop it first, sending nothing; on a
// failed child it opens the launch form filled from the parent's task
// call and launches the retry beside it, linked by its title.
func TestRetryKey(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_bad", "ses_root", "find callers (@explore subagent)", 2),
		created("ses_run", "ses_root", "runner (@general subagent)", 3), busy("ses_run"))
	f.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusBusy})
	f.setMessages(t, "ses_root", `[{"info":{"id":"msg_1","role":"assistant","agent":"build"},"parts":[{"id":"prt_1","type":"tool","tool":"task",
		"state":{"status":"error","error":"Task cancelled","input":{"description":"find callers","prompt":"List the callers","subagent_type":"explore"},
		"metadata":{"sessionId":"ses_bad"}}}]}]`)

	m = send(t, m, SelectMsg{ID: "ses_run"})
	m, msgs := do(t, m, keyMsgs("a")[0])
	if fl := flashes(msgs); m.dialog != nil || len(fl) != 1 || !strings.Contains(fl[0], "still running") {
		t.Fatalf("a on a running session: dialog %v, notices %q", m.dialog != nil, fl)
	}

	m = send(t, m, SelectMsg{ID: "ses_bad"})
	m, _ = do(t, m, keyMsgs("a")[0])
	sc := dialogText(m)
	for _, want := range []string{"Retry find callers", "retries ses_bad · beside it, under ses_root", "› find callers", "List the callers"} {
		if !strings.Contains(sc, want) {
			t.Fatalf("the retry form lacks %q:\n%s", want, sc)
		}
	}
	m, msgs = do(t, m, ctrlS)
	made := f.created()
	if len(made) != 1 || made[0].ParentID != "ses_root" || made[0].Title != "find callers"+model.RetryMark("ses_bad")+" (@explore subagent)" {
		t.Fatalf("a created %+v", made)
	}
	if fl := flashes(msgs); len(fl) != 1 || !strings.Contains(fl[0], "(retry of ses_bad)") {
		t.Errorf("notices %q", fl)
	}
}
