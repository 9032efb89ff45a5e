package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// repairFake is a fake with a parent whose task call started an aborted
// child, a running child, and a root of its own.
type repairFake struct {
	srv                               *opencodetest.Server
	parent, aborted, busy, root, bare string
}

func newRepairFake(t *testing.T) repairFake {
	t.Helper()
	srv := opencodetest.New(t, opencodetest.Options{})
	hostileEnv(t, srv.URL())
	f := repairFake{srv: srv, parent: "ses_repairparent", aborted: "ses_repairaborted", busy: "ses_repairbusy",
		root: "ses_repairroot", bare: "ses_repairbare"}
	srv.AddSession(wire.Session{ID: f.parent, Title: "refactor", Agent: "build"})
	srv.AddSession(wire.Session{ID: f.aborted, ParentID: f.parent, Title: "find callers (@explore subagent)", Agent: "explore"})
	srv.AddSession(wire.Session{ID: f.busy, ParentID: f.parent, Title: "lint (@general subagent)", Agent: "general"})
	srv.AddSession(wire.Session{ID: f.root, Title: "Octop leaf run"})
	srv.AddSession(wire.Session{ID: f.bare, Title: "never prompted"})
	srv.SetStatus(f.busy, wire.SessionStatus{Type: wire.StatusBusy})
	user := func(id, agent, text string) wire.MessageWithParts {
		return wire.MessageWithParts{Info: wire.Message{ID: id, Role: "user", Agent: agent},
			Parts: []wire.Part{{ID: id + "p", Type: wire.PartText, Text: text}}}
	}
	call := wire.Part{ID: "prt_call", Type: wire.PartTool, Tool: "task", State: &wire.ToolState{Status: wire.ToolError,
		Input:    json.RawMessage(`{"description":"find callers","prompt":"List every caller of client.New","subagent_type":"explore"}`),
		Metadata: json.RawMessage(`{"sessionId":"` + f.aborted + `"}`), Error: "Task cancelled"}}
	srv.SetMessages(f.parent, []wire.MessageWithParts{user("msg_1", "build", "refactor it"),
		{Info: wire.Message{ID: "msg_2", Role: "assistant", Agent: "build"}, Parts: []wire.Part{call}}})
	srv.SetMessages(f.aborted, []wire.MessageWithParts{user("msg_3", "explore", "List every caller of client.New"),
		{Info: wire.Message{ID: "msg_4", Role: "assistant", Agent: "explore", Error: &wire.ErrorInfo{Name: "MessageAbortedError"}}}})
	srv.SetMessages(f.busy, []wire.MessageWithParts{user("msg_5", "general", "lint it"),
		{Info: wire.Message{ID: "msg_6", Role: "assistant", Agent: "general"}}})
	srv.SetMessages(f.root, []wire.MessageWithParts{user("msg_7", "build", "LEAF steps=1"),
		{Info: wire.Message{ID: "msg_8", Role: "assistant", Agent: "build", Error: &wire.ErrorInfo{Name: "APIError"}}}})
	return f
}

// promptsTo decodes the prompts sent to session id.
func (f repairFake) promptsTo(t *testing.T, id string) []client.PromptRequest {
	t.Helper()
	var out []client.PromptRequest
	for _, r := range f.srv.RequestsTo("POST /session/" + id + "/prompt_async") {
		var p client.PromptRequest
		if err := r.Decode(&p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestSaySteersOrResumes: say sends a running session the message at once,
// to the agent it runs as with the tools it was launched without, and
// says queued; an idle one is resumed.
func TestSaySteersOrResumes(t *testing.T) {
	f := newRepairFake(t)
	code, out, errs := octopMain(t, "say", f.busy, "only", "the", "parser")
	if want := "task_id: " + f.busy + "\nagent: general\nstatus: queued\n"; code != 0 || out != want {
		t.Fatalf("say busy: exit %d, stdout %q, stderr %q; want 0 and %q", code, out, errs, want)
	}
	ps := f.promptsTo(t, f.busy)
	if len(ps) != 1 || ps[0].Agent != "general" || len(ps[0].Parts) != 1 || ps[0].Parts[0].Text != "only the parser" ||
		ps[0].Tools["question"] || ps[0].Tools["task"] || len(ps[0].Tools) == 0 {
		t.Errorf("say busy sent %+v", ps)
	}
	code, out, _ = octopMain(t, "say", f.aborted, "-")
	if want := "task_id: " + f.aborted + "\nagent: explore\nstatus: resumed\n"; code != 0 || out != want {
		t.Errorf("say idle: exit %d, stdout %q; want %q", code, out, want)
	}
	if ps := f.promptsTo(t, f.aborted); len(ps) != 1 || ps[0].Parts[0].Text != "a prompt from stdin" {
		t.Errorf("say - sent %+v", ps)
	}
	f.srv.ClearRequests()
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"say"}, codeUsage, "missing the session id"},
		{[]string{"say", f.busy}, codeUsage, "missing the message"},
		{[]string{"say", f.busy, "  "}, codeUsage, "empty"},
		{[]string{"say", "nope", "hi"}, codeUsage, "not a session id"},
		{[]string{"say", "ses_missing", "hi"}, codeNoSession, "no session"},
	} {
		code, _, errs := octopMain(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.says) || strings.Count(errs, "\n") != 1 {
			t.Errorf("octop %s: exit %d, stderr %q; want %d and one line with %q", strings.Join(c.args, " "), code, errs, c.code, c.says)
		}
	}
	if m := f.srv.Mutations(); len(m) != 0 {
		t.Errorf("bad input sent %v", m)
	}
}

// TestRetryChild: retry makes one new child of the same parent, titled
// with the link, prompted with the task call's prompt as its agent.
func TestRetryChild(t *testing.T) {
	f := newRepairFake(t)
	code, out, errs := octopMain(t, "retry", f.aborted)
	if code != 0 {
		t.Fatalf("retry: exit %d, stderr %q", code, errs)
	}
	s := f.newSession(t)
	want := fmt.Sprintf("task_id: %s\nagent: explore\ndescription: find callers\nretry_of: %s\nstatus: launched\n", s.ID, f.aborted)
	if out != want {
		t.Errorf("retry printed %q, want %q", out, want)
	}
	if s.ParentID != f.parent || s.Title != "find callers (retry of "+f.aborted+") (@explore subagent)" {
		t.Errorf("the retry is %+v", s)
	}
	if ps := f.promptsTo(t, s.ID); len(ps) != 1 || ps[0].Agent != "explore" || ps[0].Parts[0].Text != "List every caller of client.New" {
		t.Errorf("the retry was prompted %+v", ps)
	}
	// tree --json links it, from the title alone.
	code, out, errs = octopMain(t, "tree", "--json")
	var roots []*live.Node
	if code != 0 || json.Unmarshal([]byte(out), &roots) != nil {
		t.Fatalf("tree --json: exit %d, stderr %q", code, errs)
	}
	links := map[string]string{}
	for _, r := range roots {
		for _, n := range r.Children {
			links[n.ID] = n.RetryOf
		}
	}
	if links[s.ID] != f.aborted || links[f.aborted] != "" {
		t.Errorf("tree --json retryOf: %v, want %s → %s only", links, s.ID, f.aborted)
	}
}

// TestRetryRootJSONAndOverrides: a root's retry is a new root from its
// first prompt; --prompt and --agent replace the original's; --json
// prints one object.
func TestRetryRootJSONAndOverrides(t *testing.T) {
	f := newRepairFake(t)
	code, out, errs := octopMain(t, "retry", f.root, "--json", "--prompt", "SLOW words=2", "--agent", "plan")
	if code != 0 {
		t.Fatalf("retry: exit %d, stderr %q", code, errs)
	}
	s := f.newSession(t)
	var got launchedJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || strings.Count(out, "\n") != 1 {
		t.Fatalf("retry --json printed %q (%v)", out, err)
	}
	want := launchedJSON{TaskID: s.ID, Agent: "plan", Description: "Octop leaf run", RetryOf: f.root, Status: "launched"}
	if got != want {
		t.Errorf("retry --json = %+v, want %+v", got, want)
	}
	if s.ParentID != "" || s.Title != "Octop leaf run (retry of "+f.root+")" {
		t.Errorf("the retry is %+v", s)
	}
	if ps := f.promptsTo(t, s.ID); len(ps) != 1 || ps[0].Agent != "plan" || ps[0].Parts[0].Text != "SLOW words=2" {
		t.Errorf("the retry was prompted %+v", ps)
	}
}

// TestRetryRefuses: nothing is created for a running session, one with no
// prompt, bad input or an unknown agent.
func TestRetryRefuses(t *testing.T) {
	f := newRepairFake(t)
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"retry", f.busy}, codeFail, "still running"},
		{[]string{"retry", f.bare}, codeUsage, "no prompt to repeat"},
		{[]string{"retry", f.aborted, "--prompt", ""}, codeUsage, "prompt is empty"},
		{[]string{"retry", f.aborted, "--agent", "nobody"}, codeUsage, "unknown agent"},
		{[]string{"retry", f.aborted, "--agent", "build"}, codeUsage, "cannot run as a task"},
		{[]string{"retry"}, codeUsage, "missing task_id"},
		{[]string{"retry", "ses_missing"}, codeNoSession, "no session"},
	} {
		code, out, errs := octopMain(t, c.args...)
		if code != c.code || out != "" || !strings.Contains(errs, c.says) || strings.Count(errs, "\n") != 1 {
			t.Errorf("octop %s: exit %d, stdout %q, stderr %q; want %d and one line with %q",
				strings.Join(c.args, " "), code, out, errs, c.code, c.says)
		}
	}
	if m := f.srv.Mutations(); len(m) != 0 {
		t.Errorf("refused retries sent %v", m)
	}
}

// newSession is the one session the fake made (POST /session).
func (f repairFake) newSession(t *testing.T) wire.Session {
	t.Helper()
	reqs := f.srv.RequestsTo("POST /session")
	if len(reqs) != 1 {
		t.Fatalf("%d sessions created, want 1", len(reqs))
	}
	for _, s := range f.srv.Sessions() {
		switch s.ID {
		case f.parent, f.aborted, f.busy, f.root, f.bare:
		default:
			return s
		}
	}
	t.Fatal("the new session is not on the fake")
	return wire.Session{}
}
