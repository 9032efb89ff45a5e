package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// fakeOpenCode is the shared fake server with the agents the action
// dialogs offer, plus readers of what the dialogs sent. The real server is
// exercised in e2e.
type fakeOpenCode struct{ *opencodetest.Server }

func newFakeOpenCode(t *testing.T) (fakeOpenCode, *client.Client) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.SetAgents([]wire.Agent{{Name: "build", Mode: "primary"}, {Name: "explore", Mode: "subagent", Description: "Fast agent"},
		{Name: "general", Mode: "subagent", Description: "General-purpose agent"}, {Name: "title", Mode: "primary", Hidden: true}})
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(5 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	return fakeOpenCode{srv}, c
}

// created is the bodies of POST /session, oldest first.
func (f fakeOpenCode) created() []client.CreateSessionRequest {
	var out []client.CreateSessionRequest
	for _, r := range f.RequestsTo("POST /session") {
		var req client.CreateSessionRequest
		_ = r.Decode(&req)
		out = append(out, req)
	}
	return out
}

// prompts is the bodies of prompt_async by session id.
func (f fakeOpenCode) prompts() map[string][]client.PromptRequest {
	out := map[string][]client.PromptRequest{}
	for _, r := range f.Requests() {
		if id, ok := strings.CutSuffix(strings.TrimPrefix(r.Path, "/session/"), "/prompt_async"); ok && r.Method == "POST" {
			var req client.PromptRequest
			_ = r.Decode(&req)
			out[id] = append(out[id], req)
		}
	}
	return out
}

// setMessages sets a session's messages from the server's JSON.
func (f fakeOpenCode) setMessages(t *testing.T, id, raw string) {
	var msgs []wire.MessageWithParts
	if err := json.Unmarshal([]byte(raw), &msgs); err != nil {
		t.Fatal(err)
	}
	f.SetMessages(id, msgs)
}

// actionModel is the screen wired to the fake server, showing the tree
// described by evs.
func actionModel(t *testing.T, f fakeOpenCode, c *client.Client, evs ...wire.Event) Model {
	t.Helper()
	m := newTestModel(t, 120, 40, func(o *Options) { o.Server = live.New(c) })
	m = send(t, m, events(evs...))
	for _, e := range evs {
		if sc, ok := e.(wire.SessionCreated); ok {
			f.AddSession(wire.Session{ID: sc.Info.ID, ParentID: sc.Info.ParentID, Title: sc.Info.Title})
		}
	}
	return m
}

func TestLaunchFormLaunchesAndSelects(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "the root", 1))
	m, _ = do(t, m, keyMsgs("n")[0])
	if m.dialog == nil {
		t.Fatal("n opened no dialog")
	}
	sc := dialogText(m)
	for _, want := range []string{"Launch a task under the root", "general", "General-purpose agent", "explore", "Description", "Prompt"} {
		if !strings.Contains(sc, want) {
			t.Errorf("launch form lacks %q:\n%s", want, sc)
		}
	}
	if strings.Contains(sc, "build") || strings.Contains(sc, "title") {
		t.Errorf("the picker offers a primary or hidden agent:\n%s", sc)
	}
	m, _ = do(t, m, enterKey) // the agent (general, preselected) → description
	m = typeText(t, m, "count files")
	m, _ = do(t, m, enterKey) // → prompt
	m = typeText(t, m, "LEAF steps=1")
	m, _ = do(t, m, enterKey) // a new line in the prompt
	m, _ = do(t, m, tea.PasteMsg{Content: "pasted line\nand another"})
	m, msgs := do(t, m, ctrlS)

	if m.dialog != nil {
		t.Fatalf("the form stayed open after a launch:\n%s", screen(m))
	}
	if len(f.created()) != 1 || f.created()[0].ParentID != "ses_root" || f.created()[0].Title != "count files (@general subagent)" {
		t.Fatalf("created %+v", f.created())
	}
	p := f.prompts()["ses_fake0001"]
	if len(p) != 1 || p[0].Agent != "general" || p[0].Parts[0].Text != "LEAF steps=1\npasted line\nand another" {
		t.Errorf("prompt %+v", p)
	}
	if fl := flashes(msgs); len(fl) != 1 || !strings.Contains(fl[0], "launched task_id ses_fake0001") {
		t.Errorf("notices %q, want the new task_id", fl)
	}
	// The child shows up through the stream; then it is selected.
	m = send(t, m, events(created("ses_fake0001", "ses_root", "count files (@general subagent)", 2)))
	if m.Selected() != "ses_fake0001" {
		t.Errorf("selected %q after the launch, want ses_fake0001", m.Selected())
	}
}

func TestLaunchFormChecksAndCancels(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "the root", 1))
	m, _ = do(t, m, keyMsgs("n")[0])
	m, _ = do(t, m, ctrlS)
	if m.dialog == nil || !strings.Contains(screen(m), "the description is empty") {
		t.Fatalf("submitting an empty form:\n%s", screen(m))
	}
	m = typeText(t, m, "d")
	m, _ = do(t, m, ctrlS)
	if !strings.Contains(screen(m), "the prompt is empty") {
		t.Fatalf("submitting without a prompt:\n%s", screen(m))
	}
	m, _ = do(t, m, escKey)
	if m.dialog != nil {
		t.Error("esc left the form open")
	}
	if mu := f.Mutations(); len(mu) != 0 {
		t.Errorf("a cancelled form sent %v", mu)
	}
}

func TestNewRootLaunch(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c)
	m, _ = do(t, m, keyMsgs("N")[0])
	if !strings.Contains(screen(m), "Launch a task as a new root session") {
		t.Fatalf("N:\n%s", screen(m))
	}
	m, _ = do(t, m, enterKey)
	m = typeText(t, m, "root task")
	m, _ = do(t, m, enterKey)
	m = typeText(t, m, "go")
	_, _ = do(t, m, ctrlS)
	if len(f.created()) != 1 || f.created()[0].ParentID != "" {
		t.Errorf("N created %+v, want one root", f.created())
	}
}

func TestAbortKeys(t *testing.T) {
	f, c := newFakeOpenCode(t)
	evs := []wire.Event{
		created("ses_root", "", "root", 1), created("ses_mid", "ses_root", "mid", 2),
		created("ses_leaf", "ses_mid", "leaf", 3), created("ses_done", "ses_root", "done", 4),
		created("ses_other", "", "other root", 5),
		busy("ses_root"), busy("ses_mid"), busy("ses_leaf"), busy("ses_other"),
	}
	m := actionModel(t, f, c, evs...)
	for _, id := range []string{"ses_root", "ses_mid", "ses_leaf", "ses_other"} {
		f.SetStatus(id, wire.SessionStatus{Type: wire.StatusBusy})
	}

	// x on an idle session: nothing to abort, no dialog, nothing sent.
	m = send(t, m, SelectMsg{ID: "ses_done"})
	m, msgs := do(t, m, keyMsgs("x")[0])
	if m.dialog != nil || len(flashes(msgs)) != 1 || !strings.Contains(flashes(msgs)[0], "nothing to abort") {
		t.Errorf("x on an idle session: dialog %v, notices %q", m.dialog != nil, flashes(msgs))
	}

	// X on the root names exactly the three running sessions of its
	// subtree, deepest first; n keeps them running.
	m = send(t, m, SelectMsg{ID: "ses_root"})
	m, _ = do(t, m, keyMsgs("X")[0])
	sc := dialogText(m)
	for _, want := range []string{"Abort 3 running sessions", "1. leaf", "2. mid", "3. root"} {
		if !strings.Contains(sc, want) {
			t.Errorf("X confirmation lacks %q:\n%s", want, sc)
		}
	}
	if strings.Contains(sc, "other root") || strings.Contains(sc, "ses_done") {
		t.Errorf("X confirmation names a session outside the running subtree:\n%s", sc)
	}
	m, _ = do(t, m, keyMsgs("n")[0])
	if m.dialog != nil || len(f.Mutations()) != 0 {
		t.Fatalf("n: dialog open %v, sent %v", m.dialog != nil, f.Mutations())
	}
	m, _ = do(t, m, keyMsgs("X")[0])
	m, msgs = do(t, m, keyMsgs("y")[0])
	want := []string{"POST /session/ses_leaf/abort", "POST /session/ses_mid/abort", "POST /session/ses_root/abort"}
	if got := f.Mutations(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("X aborted %v, want %v", got, want)
	}
	if fl := flashes(msgs); len(fl) != 1 || !strings.Contains(fl[0], "aborted 3 sessions") {
		t.Errorf("notices %q", fl)
	}

	// x on a leaf asks first, then aborts only it.
	f.ClearRequests()
	m = send(t, m, SelectMsg{ID: "ses_other"})
	m, _ = do(t, m, keyMsgs("x")[0])
	if !strings.Contains(screen(m), "Abort other root") {
		t.Fatalf("x confirmation:\n%s", screen(m))
	}
	m, _ = do(t, m, enterKey)
	if got := f.Mutations(); len(got) != 1 || got[0] != "POST /session/ses_other/abort" {
		t.Errorf("x sent %v", got)
	}
}

func TestResumeKeys(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_kid", "ses_root", "kid (@general subagent)", 2),
		created("ses_run", "ses_root", "runner", 3), busy("ses_run"))
	f.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusBusy})
	f.setMessages(t, "ses_kid", `[{"info":{"role":"user","agent":"explore"},"parts":[]},{"info":{"role":"assistant","agent":"explore","finish":"stop","time":{"created":1,"completed":2}},"parts":[{"type":"text","text":"first answer"}]}]`)

	// r on a busy session offers to wait; esc backs out, nothing sent.
	m = send(t, m, SelectMsg{ID: "ses_run"})
	m, _ = do(t, m, keyMsgs("r")[0])
	if !strings.Contains(screen(m), "still running") || !strings.Contains(screen(m), "wait for it") {
		t.Fatalf("r on a busy session:\n%s", screen(m))
	}
	m, _ = do(t, m, escKey)

	// R with an unknown id says so and sends nothing.
	m, _ = do(t, m, keyMsgs("R")[0])
	m = typeText(t, m, "ses_nothere")
	m, _ = do(t, m, enterKey)
	if !strings.Contains(screen(m), "no session ses_nothere on this server") {
		t.Fatalf("R with an unknown id:\n%s", screen(m))
	}
	// Then a pasted known id: selected, and the prompt form opens.
	for range len("ses_nothere") {
		m, _ = do(t, m, tea.KeyPressMsg{Code: tea.KeyBackspace})
	}
	m, _ = do(t, m, tea.PasteMsg{Content: "  ses_kid \n"})
	m, _ = do(t, m, enterKey)
	if m.Selected() != "ses_kid" || !strings.Contains(screen(m), "Resume kid") {
		t.Fatalf("R ses_kid: selected %q\n%s", m.Selected(), screen(m))
	}
	m = typeText(t, m, "more please")
	m, msgs := do(t, m, ctrlS)
	p := f.prompts()["ses_kid"]
	if len(p) != 1 || p[0].Agent != "explore" || p[0].Parts[0].Text != "more please" || p[0].Tools["task"] {
		t.Errorf("resume sent %+v; want the session's own agent and the four tools off", p)
	}
	if m.dialog != nil || len(flashes(msgs)) != 1 || !strings.Contains(flashes(msgs)[0], "resumed task_id ses_kid") {
		t.Errorf("after resume: dialog %v, notices %q", m.dialog != nil, flashes(msgs))
	}
	if got := f.Mutations(); len(got) != 1 {
		t.Errorf("sent %v, want the one prompt", got)
	}
}

func TestResultViewAndCopy(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_kid", "ses_root", "kid", 2))
	f.setMessages(t, "ses_kid", `[{"info":{"role":"user","agent":"general"},"parts":[]},{"info":{"role":"assistant","agent":"general","finish":"stop","time":{"created":1,"completed":2}},"parts":[{"type":"text","text":"the final answer"}]}]`)
	m = send(t, m, SelectMsg{ID: "ses_kid"})
	m, _ = do(t, m, keyMsgs("o")[0])
	sc := screen(m)
	for _, want := range []string{"Result of kid", "status: complete", "task_id: ses_kid", "the final answer"} {
		if !strings.Contains(sc, want) {
			t.Errorf("result view lacks %q:\n%s", want, sc)
		}
	}
	m, _ = do(t, m, escKey)
	if m.dialog != nil {
		t.Error("esc left the result view open")
	}
	nm, cmd := m.Update(keyMsgs("y")[0])
	m = nm.(Model)
	if cmd == nil {
		t.Fatal("y returned no command")
	}
	batch, _ := cmd().(tea.BatchMsg)
	var clip, note bool
	for _, c := range batch {
		switch msg := c().(type) {
		case FlashMsg:
			note = strings.Contains(msg.Text, "ses_kid")
		default:
			clip = strings.Contains(fmt.Sprintf("%v", msg), "ses_kid")
		}
	}
	if !clip || !note {
		t.Errorf("y: clipboard %v, notice %v", clip, note)
	}
	if len(f.Mutations()) != 0 {
		t.Errorf("o and y sent %v", f.Mutations())
	}
}

// TestActionKeysDoNoIOInUpdate: every action key returns at once; the
// server is only called from the commands it returns.
func TestActionKeysDoNoIOInUpdate(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_kid", "ses_root", "kid", 2), busy("ses_kid"))
	m = send(t, m, SelectMsg{ID: "ses_kid"})
	for _, k := range []string{"n", "N", "r", "R", "m", "a", "x", "X", "o", "y"} {
		nm, _ := m.Update(keyMsgs(k)[0])
		if got := len(f.Calls()); got != 0 {
			t.Fatalf("key %s called the server from Update: %v", k, f.Calls())
		}
		// Close whatever opened, without running its commands.
		if d := nm.(Model).dialog; d != nil {
			d.Update(escKey)
		}
	}
}

func TestResultViewStates(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_gone", "ses_root", "gone", 2),
		created("ses_run", "ses_root", "runner", 3), created("ses_bad", "ses_root", "bad", 4))
	f.RemoveSession("ses_gone")
	f.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusBusy})
	f.setMessages(t, "ses_run", `[{"info":{"role":"user"},"parts":[]},{"info":{"role":"assistant","agent":"general"},"parts":[{"type":"tool","tool":"bash","state":{"status":"running","title":"sleep 5"}}]}]`)
	f.setMessages(t, "ses_bad", `[{"info":{"role":"user"},"parts":[]},{"info":{"role":"assistant","error":{"name":"MessageAbortedError","data":{"message":"Aborted"}}},"parts":[]}]`)
	for id, wants := range map[string][]string{
		"ses_gone": {"status: not found", "no session ses_gone on this server"},
		"ses_run":  {"status: running", "● bash  sleep 5"},
		"ses_bad":  {"status: error", "MessageAbortedError: Aborted"},
	} {
		m = send(t, m, SelectMsg{ID: id})
		m, _ = do(t, m, keyMsgs("o")[0])
		sc := dialogText(m)
		for _, w := range wants {
			if !strings.Contains(sc, w) {
				t.Errorf("%s: result view lacks %q:\n%s", id, w, sc)
			}
		}
		m, _ = do(t, m, escKey)
	}
}

// r lets the agent be changed: tab reaches the agent picker, which
// offers the session's own agent first and then the agents the server runs
// for it (subagents for a child; primary ones too, marked, for a root).
func TestResumeWithAnotherAgent(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c, created("ses_root", "", "root", 1), created("ses_kid", "ses_root", "kid (@general subagent)", 2))
	f.setMessages(t, "ses_kid", `[{"info":{"role":"user","agent":"explore"},"parts":[]},{"info":{"role":"assistant","agent":"explore","finish":"stop","time":{"created":1,"completed":2}},"parts":[{"type":"text","text":"first answer"}]}]`)
	m = send(t, m, SelectMsg{ID: "ses_kid"})
	m, _ = do(t, m, keyMsgs("r")[0])
	m = typeText(t, m, "go on")
	m = press(t, m, "tab")
	sc := dialogText(m)
	for _, want := range []string{"the session's own agent", "explore", "general"} {
		if !strings.Contains(sc, want) {
			t.Errorf("the child's agent picker lacks %q:\n%s", want, sc)
		}
	}
	if strings.Contains(sc, "build") || strings.Contains(sc, "title") {
		t.Errorf("the child's picker offers a primary or hidden agent:\n%s", sc)
	}
	m = press(t, m, "down", "down") // own, explore, general
	m, _ = do(t, m, enterKey)
	if p := f.prompts()["ses_kid"]; len(p) != 1 || p[0].Agent != "general" || p[0].Parts[0].Text != "go on" {
		t.Fatalf("resume sent %+v; want agent general with the prompt", p)
	}

	// A root may run a primary agent: the picker offers it, marked.
	m = send(t, m, SelectMsg{ID: "ses_root"})
	m, _ = do(t, m, keyMsgs("r")[0])
	m = press(t, m, "tab")
	if sc := dialogText(m); !strings.Contains(sc, "build (primary)") || strings.Contains(sc, "title") {
		t.Errorf("the root's agent picker does not offer build (primary), or offers a hidden agent:\n%s", sc)
	}
}

// N launches a root, which may run a primary agent: its picker lists them,
// marked.
func TestNewRootPickerOffersPrimaryAgents(t *testing.T) {
	f, c := newFakeOpenCode(t)
	m := actionModel(t, f, c)
	m, _ = do(t, m, keyMsgs("N")[0])
	sc := dialogText(m)
	for _, want := range []string{"build (primary)", "explore", "general"} {
		if !strings.Contains(sc, want) {
			t.Errorf("N's picker lacks %q:\n%s", want, sc)
		}
	}
	if strings.Contains(sc, "title") {
		t.Errorf("N's picker offers a hidden agent:\n%s", sc)
	}
	m = press(t, m, "up", "up") // general is preselected: up to build
	m, _ = do(t, m, enterKey)
	m = typeText(t, m, "plan it")
	m, _ = do(t, m, enterKey)
	m = typeText(t, m, "go")
	_, _ = do(t, m, ctrlS)
	var agents []string
	for _, ps := range f.prompts() {
		for _, p := range ps {
			agents = append(agents, p.Agent)
		}
	}
	if len(f.created()) != 1 || len(agents) != 1 || agents[0] != "build" {
		t.Fatalf("N created %+v and prompted %q; want one root prompted to build", f.created(), agents)
	}
}
