package live

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// fake is the shared fake server holding a root, ses_parent, whose
// sessions all answer one user and one assistant message of agent
// general. The real server is exercised in e2e.
type fake struct{ *opencodetest.Server }

func newFake(t *testing.T) (fake, *client.Client) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.SetAgents([]wire.Agent{{Name: "build", Mode: "primary"}, {Name: "general", Mode: "subagent"}, {Name: "hid", Mode: "subagent", Hidden: true}})
	f := fake{srv}
	f.add(wire.Session{ID: "ses_parent", Title: "root", Agent: "build"})
	c, err := client.New(client.Options{BaseURL: srv.URL(), Timeout: testwait.Scale(5 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	return f, c
}

// add stores a session with the two messages every test session has.
func (f fake) add(s wire.Session) {
	f.AddSession(s)
	f.SetMessages(s.ID, []wire.MessageWithParts{
		{Info: wire.Message{ID: "msg_1", SessionID: s.ID, Role: "user", Agent: "general"}},
		{Info: wire.Message{ID: "msg_2", SessionID: s.ID, Role: "assistant", Agent: "general"}},
	})
}

// created is the bodies of POST /session, oldest first.
func (f fake) created(t *testing.T) []client.CreateSessionRequest {
	var out []client.CreateSessionRequest
	for _, r := range f.RequestsTo("POST /session") {
		var req client.CreateSessionRequest
		if err := r.Decode(&req); err != nil {
			t.Fatal(err)
		}
		out = append(out, req)
	}
	return out
}

// prompts is the bodies of every prompt_async, oldest first.
func (f fake) prompts(t *testing.T) []client.PromptRequest {
	var out []client.PromptRequest
	for _, r := range f.Requests() {
		if r.Method == "POST" && strings.HasSuffix(r.Path, "/prompt_async") {
			var req client.PromptRequest
			if err := r.Decode(&req); err != nil {
				t.Fatal(err)
			}
			out = append(out, req)
		}
	}
	return out
}

func TestLaunchRefusesBadInputWithoutMutating(t *testing.T) {
	ok := task.LaunchRequest{Parent: "ses_parent", Agent: "general", Description: "d", Prompt: "p"}
	tests := []struct {
		name string
		edit func(*task.LaunchRequest)
		kind error
		msg  string
	}{
		{"empty prompt", func(r *task.LaunchRequest) { r.Prompt = " \n " }, task.ErrInvalid, "prompt is empty"},
		{"empty description", func(r *task.LaunchRequest) { r.Description = "" }, task.ErrInvalid, "description is empty"},
		{"no agent", func(r *task.LaunchRequest) { r.Agent = "" }, task.ErrInvalid, "no agent"},
		{"unknown agent", func(r *task.LaunchRequest) { r.Agent = "nope" }, task.ErrInvalid, `unknown agent "nope"; use one of: general`},
		{"primary agent", func(r *task.LaunchRequest) { r.Agent = "build" }, task.ErrInvalid, "mode primary"},
		{"hidden agent", func(r *task.LaunchRequest) { r.Agent = "hid" }, task.ErrInvalid, `agent "hid" is hidden`},
		{"malformed parent", func(r *task.LaunchRequest) { r.Parent = "bad id" }, task.ErrInvalid, "not a session id"},
		{"unknown parent", func(r *task.LaunchRequest) { r.Parent = "ses_gone" }, task.ErrNoSession, "no session ses_gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, c := newFake(t)
			req := ok
			tt.edit(&req)
			_, err := Launch(context.Background(), c, req)
			if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("err = %v, want %v containing %q", err, tt.kind, tt.msg)
			}
			if m := f.Mutations(); len(m) != 0 {
				t.Errorf("sent %v for bad input", m)
			}
		})
	}
}

func TestLaunchSendsTitleRulesAndTools(t *testing.T) {
	f, c := newFake(t)
	s, err := Launch(context.Background(), c, task.LaunchRequest{Parent: "ses_parent", Agent: "general", Description: "count\nfiles", Prompt: "LEAF"})
	if err != nil {
		t.Fatal(err)
	}
	if stored, ok := f.Session(s.ID); !ok || stored.ParentID != "ses_parent" {
		t.Errorf("launched %q, stored %+v", s.ID, stored)
	}
	created := f.created(t)
	if len(created) != 1 || created[0].Title != "count files (@general subagent)" || created[0].ParentID != "ses_parent" || len(created[0].Permission) != 4 {
		t.Errorf("created %+v", created)
	}
	p := f.prompts(t)[0]
	if p.Agent != "general" || p.Parts[0].Text != "LEAF" || len(p.Tools) != 4 || p.Tools["task"] || p.Tools["question"] {
		t.Errorf("prompt %+v", p)
	}
}

func TestLaunchDeletesTheSessionWhenThePromptFails(t *testing.T) {
	f, c := newFake(t)
	f.Fail("POST /session/{id}/prompt_async", 500, "boom")
	s, err := Launch(context.Background(), c, task.LaunchRequest{Parent: "ses_parent", Agent: "general", Description: "d", Prompt: "p"})
	if !errors.Is(err, task.ErrPromptFailed) || s.ID != "" {
		t.Fatalf("Launch = %+v, %v; want no session and task.ErrPromptFailed", s, err)
	}
	// The session the prompt went to: /session/{id}/prompt_async.
	var created string
	for _, r := range f.Requests() {
		if id, ok := strings.CutSuffix(strings.TrimPrefix(r.Path, "/session/"), "/prompt_async"); ok {
			created = id
		}
	}
	if !strings.Contains(err.Error(), created+" was deleted") {
		t.Errorf("error %q does not say %s was deleted", err, created)
	}
	if _, left := f.Session(created); left || len(f.RequestsTo("DELETE /session/"+created)) != 1 {
		t.Error("the dead session is still on the server")
	}
}

func TestResumeAndAbortRefuse(t *testing.T) {
	f, c := newFake(t)
	f.add(wire.Session{ID: "ses_child", ParentID: "ses_parent"})
	f.SetStatus("ses_child", wire.SessionStatus{Type: wire.StatusBusy})
	ctx := context.Background()
	if _, err := Resume(ctx, c, "ses_child", "more", ""); !errors.Is(err, task.ErrBusy) {
		t.Errorf("Resume busy: %v, want task.ErrBusy", err)
	}
	if _, err := Resume(ctx, c, "ses_parent", "", ""); !errors.Is(err, task.ErrInvalid) {
		t.Errorf("Resume empty prompt: %v, want task.ErrInvalid", err)
	}
	if _, err := Abort(ctx, c, "ses_parent"); !errors.Is(err, task.ErrNotRunning) {
		t.Errorf("Abort idle: %v, want task.ErrNotRunning", err)
	}
	if _, err := Abort(ctx, c, "ses_nothere"); !errors.Is(err, task.ErrNoSession) {
		t.Errorf("Abort unknown: %v, want task.ErrNoSession", err)
	}
	if _, err := AbortTree(ctx, c, "nonsense"); !errors.Is(err, task.ErrInvalid) {
		t.Errorf("AbortTree malformed: %v, want task.ErrInvalid", err)
	}
	if m := f.Mutations(); len(m) != 0 {
		t.Errorf("refused calls sent %v", m)
	}
	// The agent defaults to the session's own (its last message's).
	f.SetStatus("ses_child", wire.SessionStatus{Type: wire.StatusIdle})
	// A child resumes only as a subagent; a root may run a primary agent.
	if _, err := Resume(ctx, c, "ses_child", "more", "build"); !errors.Is(err, task.ErrInvalid) || !strings.Contains(err.Error(), "mode primary") {
		t.Errorf("Resume child as build: %v, want task.ErrInvalid mode primary", err)
	}
	if r, err := Resume(ctx, c, "ses_parent", "more", "build"); err != nil || r.Agent != "build" {
		t.Errorf("Resume root as build: %+v, %v", r, err)
	}
	r, err := Resume(ctx, c, "ses_child", "more", "")
	if err != nil || r.Agent != "general" || r.After != "msg_2" {
		t.Fatalf("Resume = %+v, %v; want agent general, after msg_2, its newest message", r, err)
	}
	prompts := f.prompts(t)
	if last := prompts[len(prompts)-1]; len(prompts) != 2 || last.Tools["task"] || len(last.Tools) != 4 {
		t.Errorf("resume of a child must keep the four tools off: %+v", prompts)
	}
}

// A new root (no parent) may run a primary agent, titled without the
// subagent badge, and may delegate; a subagent root keeps the task title.
func TestLaunchRootAgents(t *testing.T) {
	f, c := newFake(t)
	if _, err := Launch(context.Background(), c, task.LaunchRequest{Agent: "build", Description: "fix the build", Prompt: "go"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Launch(context.Background(), c, task.LaunchRequest{Agent: "general", Description: "look around", Prompt: "go"}); err != nil {
		t.Fatal(err)
	}
	created := f.created(t)
	if len(created) != 2 || created[0].Title != "fix the build" || created[0].ParentID != "" ||
		created[1].Title != "look around (@general subagent)" {
		t.Fatalf("created %+v", created)
	}
	// A root may delegate: only question is denied, in the rules and the
	// tools offered.
	for i, cr := range created {
		if len(cr.Permission) != 1 || cr.Permission[0].Permission != "question" || cr.Permission[0].Action != "deny" {
			t.Errorf("root %d rules %+v, want question denied only", i, cr.Permission)
		}
		if tools := f.prompts(t)[i].Tools; len(tools) != 1 || tools["question"] {
			t.Errorf("root %d tools %+v, want question off only", i, tools)
		}
	}
	if _, err := Launch(context.Background(), c, task.LaunchRequest{Agent: "hid", Description: "d", Prompt: "p"}); !errors.Is(err, task.ErrInvalid) {
		t.Fatalf("a hidden agent as root: %v, want task.ErrInvalid", err)
	}
}

func TestTaskTitleAndRules(t *testing.T) {
	if got := TaskTitle("count files", "explore"); got != "count files (@explore subagent)" {
		t.Errorf("TaskTitle = %q", got)
	}
	var got []string
	for _, r := range DenyRules() {
		if r.Pattern != "*" || r.Action != "deny" {
			t.Errorf("rule %+v: want pattern * and action deny", r)
		}
		got = append(got, r.Permission)
	}
	if strings.Join(got, ",") != "task,todowrite,todoread,question" {
		t.Errorf("denied %v", got)
	}
	// An agent whose own permissions name task keeps it, as under the
	// native task tool; whatever the action, the rule speaks of it.
	for _, action := range []string{"allow", "ask", "deny"} {
		delegating := wire.Agent{Name: "lead", Permission: []wire.PermissionRule{
			{Permission: "*", Pattern: "*", Action: "allow"}, {Permission: "task", Pattern: "*", Action: action}}}
		if got := strings.Join(TaskDeniedTools(delegating), ","); got != "todowrite,todoread,question" {
			t.Errorf("task %s: denied %v", action, got)
		}
	}
}
