package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// replyRecorder is the shared fake server as 1.1.65, which answers true
// to a reply to any request id, so the tests need not add the asks of
// their scene to it; requests lists what reached it.
type replyRecorder struct{ *opencodetest.Server }

func newReplyRecorder(t testing.TB) (replyRecorder, *client.Client) {
	t.Helper()
	srv := opencodetest.New(t, opencodetest.Options{Version: opencodetest.V11})
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(5 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	return replyRecorder{srv}, c
}

// requests is every request as "METHOD /path body".
func (r replyRecorder) requests() []string {
	var out []string
	for _, req := range r.Requests() {
		out = append(out, strings.TrimSpace(req.String()+" "+strings.TrimSpace(string(req.Body))))
	}
	return out
}

func question(sess, id string) wire.Event {
	return wire.QuestionAsked{Request: wire.QuestionRequest{ID: id, SessionID: sess, Questions: []wire.QuestionInfo{{
		Header: "Database", Question: "Which database should the config loader use?",
		Options: []wire.QuestionOption{{Label: "sqlite", Description: "one file, no server"}, {Label: "postgres"}},
	}}}}
}

// inboxScene is troubled() (ses_c waits on permission per_1) plus a
// second root whose child ses_q asks question que_1. Roots are newest
// first, so the question's tree comes first.
func inboxScene() EventsMsg {
	evs := troubled()
	return append(evs, events(
		created("ses_r2", "", "pick a config store", 20), userMsg("ses_r2", 20), busy("ses_r2"),
		created("ses_q", "ses_r2", "choose the database (@explore subagent)", 21), userMsg("ses_q", 21), busy("ses_q"),
		question("ses_q", "que_1"),
		// The same ask as troubled's, now with what "always" would allow.
		wire.PermissionAsked{Request: wire.PermissionRequest{ID: "per_1", SessionID: "ses_c",
			Permission: "bash", Patterns: []string{"rm -rf build"}, Always: []string{"rm *"}}},
	)...)
}

func inboxModel(t *testing.T, c *client.Client, w, h int) Model {
	t.Helper()
	m := newTestModel(t, w, h, func(o *Options) { o.Server = live.New(c) })
	return send(t, m, inboxScene())
}

func TestInboxListsAndAnswersPermission(t *testing.T) {
	rec, c := newReplyRecorder(t)
	m := inboxModel(t, c, 120, 40)
	m, _ = do(t, m, keyMsgs("i")[0])
	d := dialogText(m)
	for _, want := range []string{
		"Inbox: 2 requests from 2 sessions waiting on you",
		"choose the database @explore  ses_q",
		"question Database: Which database should the config loader use?",
		"1 sqlite  one file, no server", "2 postgres",
		"clean build dir @general  ses_c",
		"permission bash: rm -rf build",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("inbox lacks %q:\n%s", want, d)
		}
	}
	if strings.Index(d, "ses_q") > strings.Index(d, "ses_c") {
		t.Errorf("not in tree order (newest root first):\n%s", d)
	}
	if !strings.Contains(d, "▸ choose the database") || !strings.Contains(d, "1-2 answer · t type answer · d dismiss") {
		t.Errorf("the first item is not selected with the question keys:\n%s", d)
	}
	if strings.Contains(d, "allows from now on") {
		t.Errorf("the scope of A shows for an unselected permission:\n%s", d)
	}

	// Down to the permission, allow it once.
	m, _ = do(t, m, keyMsgs("j")[0])
	d = dialogText(m)
	if !strings.Contains(d, "▸ clean build dir") || !strings.Contains(d, "a allow once · A allow always · d deny") {
		t.Fatalf("j did not select the permission:\n%s", d)
	}
	if !strings.Contains(d, "A allows from now on: rm *") {
		t.Errorf("the selected permission does not say what A allows:\n%s", d)
	}
	m, msgs := do(t, m, keyMsgs("a")[0])
	if got := rec.requests(); len(got) != 1 || got[0] != `POST /permission/per_1/reply {"reply":"once"}` {
		t.Fatalf("a sent %q", got)
	}
	if f := flashes(msgs); len(f) != 1 || f[0] != "allowed bash for clean build dir" {
		t.Errorf("notices %q", f)
	}
	// Still listed until the server says it was answered; a second press
	// sends nothing.
	d = dialogText(m)
	if !strings.Contains(d, "permission bash: rm -rf build") || !strings.Contains(d, "allowed bash for clean build dir; waiting for the server") {
		t.Errorf("the answered permission left before its event:\n%s", d)
	}
	m, _ = do(t, m, keyMsgs("a")[0])
	if got := rec.requests(); len(got) != 1 {
		t.Errorf("a second a sent again: %q", got)
	}
	m = send(t, m, events(wire.PermissionReplied{SessionID: "ses_c", RequestID: "per_1", Reply: "once"}))
	d = dialogText(m)
	if strings.Contains(d, "per_1") || strings.Contains(d, "rm -rf build") || !strings.Contains(d, "Inbox: 1 request from 1 session") {
		t.Errorf("after permission.replied:\n%s", d)
	}
	// The cursor falls back to the item that is left.
	if !strings.Contains(d, "▸ choose the database") {
		t.Errorf("cursor lost after the item left:\n%s", d)
	}
}

func TestInboxAnswersQuestion(t *testing.T) {
	rec, c := newReplyRecorder(t)
	m := inboxModel(t, c, 120, 40)
	m, _ = do(t, m, keyMsgs("i")[0])
	m, _ = do(t, m, keyMsgs("7")[0]) // no such option
	if got := rec.requests(); len(got) != 0 {
		t.Fatalf("7 of 2 options sent %q", got)
	}
	m, msgs := do(t, m, keyMsgs("2")[0])
	if got := rec.requests(); len(got) != 1 || got[0] != `POST /question/que_1/reply {"answers":[["postgres"]]}` {
		t.Fatalf("2 sent %q", got)
	}
	if f := flashes(msgs); len(f) != 1 || f[0] != `answered "postgres" for choose the database` {
		t.Errorf("notices %q", f)
	}
	m = send(t, m, events(wire.QuestionReplied{SessionID: "ses_q", RequestID: "que_1"}))
	if d := dialogText(m); strings.Contains(d, "Database") {
		t.Errorf("after question.replied:\n%s", d)
	}
}

func TestInboxDenyDismissAndEsc(t *testing.T) {
	rec, c := newReplyRecorder(t)
	m := inboxModel(t, c, 120, 40)
	m, _ = do(t, m, keyMsgs("i")[0])
	m, _ = do(t, m, keyMsgs("j")[0])
	m, _ = do(t, m, keyMsgs("d")[0])
	m, _ = do(t, m, keyMsgs("k")[0])
	m, msgs := do(t, m, keyMsgs("d")[0])
	want := []string{`POST /permission/per_1/reply {"reply":"reject"}`, `POST /question/que_1/reject`}
	if got := rec.requests(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("d, d sent %q, want %q", got, want)
	}
	if f := flashes(msgs); len(f) != 1 || f[0] != "dismissed the question of choose the database" {
		t.Errorf("notices %q", f)
	}
	m, _ = do(t, m, escKey)
	if m.dialog != nil {
		t.Error("esc left the inbox open")
	}
	// Opened and closed again with nothing pressed: nothing sent.
	m, _ = do(t, m, keyMsgs("i")[0])
	m, _ = do(t, m, keyMsgs("j")[0])
	m, _ = do(t, m, escKey)
	if got := rec.requests(); len(got) != 2 {
		t.Errorf("esc sent %q", got[2:])
	}
}

func TestInboxAllowAlwaysAndError(t *testing.T) {
	rec, c := newReplyRecorder(t)
	rec.Fail("POST /permission/{id}/reply", 404, "request not found")
	m := inboxModel(t, c, 120, 40)
	m, _ = do(t, m, keyMsgs("i")[0])
	m, _ = do(t, m, keyMsgs("G")[0]) // not a key here: nothing happens
	m, _ = do(t, m, keyMsgs("j")[0])
	m, msgs := do(t, m, keyMsgs("A")[0])
	if got := rec.requests(); len(got) != 1 || got[0] != `POST /permission/per_1/reply {"reply":"always"}` {
		t.Fatalf("A sent %q", got)
	}
	var errFlash *FlashMsg
	for _, msg := range msgs {
		if f, ok := msg.(FlashMsg); ok {
			errFlash = &f
		}
	}
	if errFlash == nil || !errFlash.Error || !strings.HasPrefix(errFlash.Text, "could not allow always bash for clean build dir: ") ||
		strings.Contains(errFlash.Text, "\n") {
		t.Fatalf("error notice %+v", errFlash)
	}
	if d := dialogText(m); !strings.Contains(d, "✗ ") || strings.Contains(d, "waiting for the server") {
		t.Errorf("the failure is not on the item:\n%s", d)
	}
	// A failed answer may be tried again.
	rec.Handle("POST /permission/{id}/reply", nil)
	_, msgs = do(t, m, keyMsgs("a")[0])
	if got := rec.requests(); len(got) != 2 || got[1] != `POST /permission/per_1/reply {"reply":"once"}` {
		t.Errorf("retry sent %q", got)
	}
	if f := flashes(msgs); len(f) != 1 || f[0] != "allowed bash for clean build dir" {
		t.Errorf("notices %q", f)
	}
}

func TestInboxEnterSelectsSession(t *testing.T) {
	_, c := newReplyRecorder(t)
	m := inboxModel(t, c, 120, 40)
	m, _ = do(t, m, keyMsgs("i")[0])
	m, _ = do(t, m, keyMsgs("j")[0])
	m, msgs := do(t, m, enterKey)
	if m.dialog != nil || m.Selected() != "ses_c" {
		t.Errorf("enter: dialog open %v, selected %q; want closed on ses_c", m.dialog != nil, m.Selected())
	}
	if len(msgs) != 1 {
		t.Errorf("enter sent %v", msgs)
	}
}

func TestInboxEmptyAndLive(t *testing.T) {
	rec, c := newReplyRecorder(t)
	m := newTestModel(t, 120, 40, func(o *Options) { o.Server = live.New(c) })
	m = send(t, m, fanOut())
	m, _ = do(t, m, keyMsgs("i")[0])
	if d := dialogText(m); !strings.Contains(d, "nobody is waiting on you") {
		t.Errorf("empty inbox:\n%s", d)
	}
	m, _ = do(t, m, keyMsgs("a")[0])
	// A request that arrives while the inbox is open shows at once.
	m = send(t, m, events(permission("ses_root", "per_9")))
	if d := dialogText(m); !strings.Contains(d, "permission bash: rm -rf build") {
		t.Errorf("the new request did not show:\n%s", d)
	}
	if got := rec.requests(); len(got) != 0 {
		t.Errorf("sent %q", got)
	}
}

func TestInboxSeveralQuestions(t *testing.T) {
	rec, c := newReplyRecorder(t)
	m := newTestModel(t, 120, 40, func(o *Options) { o.Server = live.New(c) })
	m = send(t, m, events(created("ses_root", "", "plan", 0), busy("ses_root"),
		wire.QuestionAsked{Request: wire.QuestionRequest{ID: "que_2", SessionID: "ses_root", Questions: []wire.QuestionInfo{
			{Header: "Lang", Question: "Which language?", Options: []wire.QuestionOption{{Label: "go"}, {Label: "rust"}}},
			{Header: "CI", Question: "Which CI?", Options: []wire.QuestionOption{{Label: "github"}, {Label: "gitlab"}}},
		}}}))
	m, _ = do(t, m, keyMsgs("i")[0])
	m, _ = do(t, m, keyMsgs("2")[0])
	if got := rec.requests(); len(got) != 0 {
		t.Fatalf("sent after the first of two answers: %q", got)
	}
	if d := dialogText(m); !strings.Contains(d, "→ rust") || !strings.Contains(d, "1 github") {
		t.Errorf("after the first answer:\n%s", d)
	}
	_, _ = do(t, m, keyMsgs("1")[0])
	if got := rec.requests(); len(got) != 1 || got[0] != `POST /question/que_2/reply {"answers":[["rust"],["github"]]}` {
		t.Errorf("sent %q", got)
	}
}

// TestInboxTreeOrder: items come as the tree draws their sessions (roots
// newest first, children in creation order, a parent before its
// children), not in id order.
func TestInboxTreeOrder(t *testing.T) {
	_, c := newReplyRecorder(t)
	m := newTestModel(t, 120, 60, func(o *Options) { o.Server = live.New(c) })
	m = send(t, m, events(
		created("ses_old", "", "old root", 0), created("ses_new", "", "new root", 10),
		created("ses_z", "ses_old", "first child", 1), created("ses_a", "ses_old", "second child", 2),
		created("ses_b", "ses_z", "grandchild", 3),
		permission("ses_a", "per_1"), permission("ses_b", "per_2"), permission("ses_old", "per_3"),
		permission("ses_z", "per_4"), permission("ses_new", "per_5"),
	))
	m, _ = do(t, m, keyMsgs("i")[0])
	d := dialogText(m)
	want := []string{"new root", "old root", "first child", "grandchild", "second child"}
	last := -1
	for _, w := range want {
		at := strings.Index(d, w+"  ses_")
		if at < 0 || at < last {
			t.Fatalf("%q out of order, want %q:\n%s", w, want, d)
		}
		last = at
	}
}

// TestInboxScrollsAndLeavesTheFooter: with more requests than fit at
// 80×24 the selected one stays in view, and the box never covers the
// bottom line, where each answer's notice shows.
func TestInboxScrollsAndLeavesTheFooter(t *testing.T) {
	_, c := newReplyRecorder(t)
	for _, size := range [][2]int{{80, 24}, {50, 16}, {30, 10}} {
		m := inboxModel(t, c, size[0], size[1])
		for i := range 12 {
			m = send(t, m, events(permission("ses_b", fmt.Sprintf("per_x%02d", i))))
		}
		m, _ = do(t, m, keyMsgs("i")[0])
		for range 13 {
			m, _ = do(t, m, keyMsgs("j")[0])
		}
		m, _ = do(t, m, keyMsgs("a")[0])
		out := screen(m)
		checkScreenShape(t, out, size[0], size[1])
		lines := strings.Split(out, "\n")
		if !strings.Contains(out, "▸ clean build") {
			t.Errorf("%v: the selected last item is out of view:\n%s", size, out)
		}
		if last := lines[len(lines)-1]; !strings.HasPrefix(last, "allowed bash for") {
			t.Errorf("%v: the notice line is covered: %q\n%s", size, last, out)
		}
	}
}

// TestInboxKeysDoNoIOInUpdate: answering returns at once; the call is in
// the Cmd.
func TestInboxKeysDoNoIOInUpdate(t *testing.T) {
	rec, c := newReplyRecorder(t)
	m := inboxModel(t, c, 120, 40)
	m, _ = do(t, m, keyMsgs("i")[0])
	for _, k := range []string{"1", "j", "a"} {
		nm, cmd := m.Update(keyMsgs(k)[0])
		m = nm.(Model)
		if got := rec.requests(); len(got) != 0 {
			t.Fatalf("key %s called the server from Update: %q", k, got)
		}
		if k != "j" && cmd == nil {
			t.Errorf("key %s returned no command", k)
		}
	}
}

// TestInboxGolden pins the inbox over the screen at 80×24.
func TestInboxGolden(t *testing.T) {
	_, c := newReplyRecorder(t)
	m := inboxModel(t, c, 80, 24)
	m, _ = do(t, m, keyMsgs("i")[0])
	out := screen(m)
	checkScreenShape(t, out, 80, 24)
	golden.RequireEqual(t, out)
}
