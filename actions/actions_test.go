package actions

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/wire"
)

// fakeServer is a minimal OpenCode stand-in that records every request, so
// tests can check what was (not) sent. The real server is exercised in e2e.
type fakeServer struct {
	mu         sync.Mutex
	calls      []string
	sessions   map[string]wire.Session
	status     map[string]wire.SessionStatus
	promptCode int // status for prompt_async; 0 means 204
	created    []client.CreateSessionRequest
	prompts    []client.PromptRequest
}

func newFake(t *testing.T) (*fakeServer, *client.Client) {
	f := &fakeServer{
		sessions: map[string]wire.Session{"ses_parent": {ID: "ses_parent", Title: "root", Agent: "build"}},
		status:   map[string]wire.SessionStatus{},
	}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := client.New(client.Options{BaseURL: srv.URL, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return f, c
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	w.Header().Set("Content-Type", "application/json")
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	switch {
	case r.Method == "GET" && r.URL.Path == "/agent":
		json.NewEncoder(w).Encode([]wire.Agent{{Name: "build", Mode: "primary"}, {Name: "general", Mode: "subagent"}, {Name: "hid", Mode: "subagent", Hidden: true}})
	case r.Method == "GET" && r.URL.Path == "/session/status":
		json.NewEncoder(w).Encode(f.status)
	case r.Method == "POST" && r.URL.Path == "/session":
		var req client.CreateSessionRequest
		json.NewDecoder(r.Body).Decode(&req)
		f.created = append(f.created, req)
		s := wire.Session{ID: "ses_new", ParentID: req.ParentID, Title: req.Title}
		f.sessions[s.ID] = s
		json.NewEncoder(w).Encode(s)
	case len(parts) >= 2 && parts[0] == "session":
		s, ok := f.sessions[parts[1]]
		if !ok {
			w.WriteHeader(404)
			w.Write([]byte(`{"name":"NotFoundError","data":{"message":"Session not found"}}`))
			return
		}
		switch {
		case r.Method == "GET" && len(parts) == 2:
			json.NewEncoder(w).Encode(s)
		case r.Method == "GET" && parts[2] == "message":
			w.Write([]byte(`[{"info":{"role":"user","agent":"general"},"parts":[]},{"info":{"role":"assistant","agent":"general"},"parts":[]}]`))
		case r.Method == "POST" && parts[2] == "prompt_async":
			var req client.PromptRequest
			json.NewDecoder(r.Body).Decode(&req)
			f.prompts = append(f.prompts, req)
			if f.promptCode != 0 {
				w.WriteHeader(f.promptCode)
				w.Write([]byte(`{"name":"UnknownError","data":{"message":"boom"}}`))
				return
			}
			w.WriteHeader(204)
		case r.Method == "POST" && parts[2] == "abort":
			w.Write([]byte("true"))
		case r.Method == "DELETE":
			delete(f.sessions, s.ID)
			w.Write([]byte("true"))
		}
	default:
		w.WriteHeader(404)
	}
}

// mutations are the calls that change the server.
func (f *fakeServer) mutations() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.calls {
		if !strings.HasPrefix(c, "GET ") {
			out = append(out, c)
		}
	}
	return out
}

func TestLaunchRefusesBadInputWithoutMutating(t *testing.T) {
	ok := LaunchRequest{ParentID: "ses_parent", Agent: "general", Description: "d", Prompt: "p"}
	tests := []struct {
		name string
		edit func(*LaunchRequest)
		kind error
		msg  string
	}{
		{"empty prompt", func(r *LaunchRequest) { r.Prompt = " \n " }, ErrInvalid, "prompt is empty"},
		{"empty description", func(r *LaunchRequest) { r.Description = "" }, ErrInvalid, "description is empty"},
		{"no agent", func(r *LaunchRequest) { r.Agent = "" }, ErrInvalid, "no agent"},
		{"unknown agent", func(r *LaunchRequest) { r.Agent = "nope" }, ErrInvalid, `unknown agent "nope"; use one of: general`},
		{"primary agent", func(r *LaunchRequest) { r.Agent = "build" }, ErrInvalid, "mode primary"},
		{"hidden agent", func(r *LaunchRequest) { r.Agent = "hid" }, ErrInvalid, `agent "hid" is hidden`},
		{"malformed parent", func(r *LaunchRequest) { r.ParentID = "bad id" }, ErrInvalid, "not a session id"},
		{"unknown parent", func(r *LaunchRequest) { r.ParentID = "ses_gone" }, ErrNoSession, "no session ses_gone"},
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
			if m := f.mutations(); len(m) != 0 {
				t.Errorf("sent %v for bad input", m)
			}
		})
	}
}

func TestLaunchSendsTitleRulesAndTools(t *testing.T) {
	f, c := newFake(t)
	s, err := Launch(context.Background(), c, LaunchRequest{ParentID: "ses_parent", Agent: "general", Description: "count\nfiles", Prompt: "LEAF"})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "ses_new" {
		t.Errorf("id %q", s.ID)
	}
	if len(f.created) != 1 || f.created[0].Title != "count files (@general subagent)" || f.created[0].ParentID != "ses_parent" || len(f.created[0].Permission) != 4 {
		t.Errorf("created %+v", f.created)
	}
	p := f.prompts[0]
	if p.Agent != "general" || p.Parts[0].Text != "LEAF" || len(p.Tools) != 4 || p.Tools["task"] || p.Tools["question"] {
		t.Errorf("prompt %+v", p)
	}
}

func TestLaunchDeletesTheSessionWhenThePromptFails(t *testing.T) {
	f, c := newFake(t)
	f.promptCode = 500
	s, err := Launch(context.Background(), c, LaunchRequest{ParentID: "ses_parent", Agent: "general", Description: "d", Prompt: "p"})
	if !errors.Is(err, ErrPromptFailed) || s.ID != "" {
		t.Fatalf("Launch = %+v, %v; want no session and ErrPromptFailed", s, err)
	}
	if !strings.Contains(err.Error(), "ses_new was deleted") {
		t.Errorf("error %q does not say the session was deleted", err)
	}
	if _, left := f.sessions["ses_new"]; left {
		t.Error("the dead session is still on the server")
	}
}

func TestResumeAndAbortRefuse(t *testing.T) {
	f, c := newFake(t)
	f.sessions["ses_child"] = wire.Session{ID: "ses_child", ParentID: "ses_parent"}
	f.status["ses_child"] = wire.SessionStatus{Type: wire.StatusBusy}
	ctx := context.Background()
	if _, err := Resume(ctx, c, "ses_child", "more", ""); !errors.Is(err, ErrBusy) {
		t.Errorf("Resume busy: %v, want ErrBusy", err)
	}
	if _, err := Resume(ctx, c, "ses_parent", "", ""); !errors.Is(err, ErrInvalid) {
		t.Errorf("Resume empty prompt: %v, want ErrInvalid", err)
	}
	if _, err := Abort(ctx, c, "ses_parent"); !errors.Is(err, ErrNotRunning) {
		t.Errorf("Abort idle: %v, want ErrNotRunning", err)
	}
	if _, err := Abort(ctx, c, "ses_nothere"); !errors.Is(err, ErrNoSession) {
		t.Errorf("Abort unknown: %v, want ErrNoSession", err)
	}
	if _, err := AbortTree(ctx, c, "nonsense"); !errors.Is(err, ErrInvalid) {
		t.Errorf("AbortTree malformed: %v, want ErrInvalid", err)
	}
	if m := f.mutations(); len(m) != 0 {
		t.Errorf("refused calls sent %v", m)
	}
	// The agent defaults to the session's own (its last message's).
	delete(f.status, "ses_child")
	// A child resumes only as a subagent; a root may run a primary agent.
	if _, err := Resume(ctx, c, "ses_child", "more", "build"); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "mode primary") {
		t.Errorf("Resume child as build: %v, want ErrInvalid mode primary", err)
	}
	if r, err := Resume(ctx, c, "ses_parent", "more", "build"); err != nil || r.Agent != "build" {
		t.Errorf("Resume root as build: %+v, %v", r, err)
	}
	f.prompts = nil
	r, err := Resume(ctx, c, "ses_child", "more", "")
	if err != nil || r.Agent != "general" || r.Before != 2 {
		t.Fatalf("Resume = %+v, %v; want agent general, before 2", r, err)
	}
	if len(f.prompts) != 1 || f.prompts[0].Tools["task"] || len(f.prompts[0].Tools) != 4 {
		t.Errorf("resume of a child must keep the four tools off: %+v", f.prompts)
	}
}

// A new root (no parent) may run a primary agent, titled without the
// subagent badge, and may delegate; a subagent root keeps the task title.
func TestLaunchRootAgents(t *testing.T) {
	f, c := newFake(t)
	if _, err := Launch(context.Background(), c, LaunchRequest{Agent: "build", Description: "fix the build", Prompt: "go"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Launch(context.Background(), c, LaunchRequest{Agent: "general", Description: "look around", Prompt: "go"}); err != nil {
		t.Fatal(err)
	}
	if len(f.created) != 2 || f.created[0].Title != "fix the build" || f.created[0].ParentID != "" ||
		f.created[1].Title != "look around (@general subagent)" {
		t.Fatalf("created %+v", f.created)
	}
	// A root may delegate: only question is denied, in the rules and the
	// tools offered.
	for i, cr := range f.created {
		if len(cr.Permission) != 1 || cr.Permission[0].Permission != "question" || cr.Permission[0].Action != "deny" {
			t.Errorf("root %d rules %+v, want question denied only", i, cr.Permission)
		}
		if tools := f.prompts[i].Tools; len(tools) != 1 || tools["question"] {
			t.Errorf("root %d tools %+v, want question off only", i, tools)
		}
	}
	if _, err := Launch(context.Background(), c, LaunchRequest{Agent: "hid", Description: "d", Prompt: "p"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a hidden agent as root: %v, want ErrInvalid", err)
	}
}
