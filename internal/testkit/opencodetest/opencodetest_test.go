package opencodetest_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// TestVersionsAnswerUnknownSessions: what each version was seen to answer
// for a session it does not have (checked with curl against both).
func TestVersionsAnswerUnknownSessions(t *testing.T) {
	const X = "/session/ses_0000000000000000000000000X"
	want := map[string]map[string]int{
		opencodetest.V118: {"GET " + X: 404, "GET " + X + "/children": 404, "GET " + X + "/message": 404,
			"POST " + X + "/prompt_async": 404, "POST " + X + "/abort": 200, "DELETE " + X: 404,
			"POST /session/bad/abort": 500, "GET /experimental/session": 200, "POST /permission/per_x/reply": 404,
			"POST /question/que_x/reply": 404, "POST /question/que_x/reject": 404},
		opencodetest.V11: {"GET " + X: 404, "GET " + X + "/children": 200, "GET " + X + "/message": 200,
			"POST " + X + "/prompt_async": 204, "POST " + X + "/abort": 200, "DELETE " + X: 200,
			"POST /session/bad/abort": 200, "GET /experimental/session": 500, "POST /permission/per_x/reply": 200,
			"POST /question/que_x/reply": 200, "POST /question/que_x/reject": 200},
	}
	for v, calls := range want {
		srv := opencodetest.New(t, opencodetest.Options{Version: v})
		for call, code := range calls {
			method, path, _ := strings.Cut(call, " ")
			req, _ := http.NewRequest(method, srv.URL()+path, strings.NewReader(`{"parts":[],"reply":"once","answers":[]}`))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != code {
				t.Errorf("%s %s: HTTP %d, want %d", v, call, resp.StatusCode, code)
			}
		}
	}
}

// TestClientAgainstTheFake drives the real client through a launch, an
// abort and a reply, and checks the stream carries their events.
func TestClientAgainstTheFake(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{Password: "pw"})
	c, err := client.New(client.Options{BaseURL: srv.URL(), Password: "pw", Stream: client.StreamOptions{MinBackoff: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var types []string
	go func() {
		_ = c.Stream(ctx, func(m any) {
			if e, ok := m.(wire.Envelope); ok {
				mu.Lock()
				types = append(types, e.Event.EventType())
				mu.Unlock()
			}
		})
	}()
	testwait.Eventually(t, func() bool { return srv.Streams() == 1 }, 10*time.Second, "the stream")

	root := srv.AddSession(wire.Session{ID: "ses_root", Title: "root"})
	kid, err := c.CreateSession(ctx, client.CreateSessionRequest{ParentID: root.ID, Title: "kid"})
	if err != nil || kid.ParentID != root.ID {
		t.Fatalf("CreateSession = %+v, %v", kid, err)
	}
	if err := c.PromptAsync(ctx, kid.ID, client.PromptRequest{Parts: []client.TextPartInput{{Text: "go"}}}); err != nil {
		t.Fatal(err)
	}
	srv.SetStatus(kid.ID, wire.SessionStatus{Type: wire.StatusBusy})
	if err := c.Abort(ctx, kid.ID); err != nil {
		t.Fatal(err)
	}
	srv.AddPermission(wire.PermissionRequest{ID: "per_1", SessionID: kid.ID, Permission: "bash"})
	if err := c.ReplyPermission(ctx, "per_1", client.ReplyOnce, ""); err != nil {
		t.Fatal(err)
	}
	if st, _ := c.Status(ctx); len(st) != 0 {
		t.Errorf("status after the abort: %v", st)
	}
	want := "server.connected session.created session.status session.error session.idle permission.replied"
	testwait.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(types, " ") == want
	}, 10*time.Second, "the events %s", want)
	if got := srv.Mutations(); strings.Join(got, " ") != "POST /session POST /session/"+kid.ID+"/prompt_async POST /session/"+kid.ID+"/abort POST /permission/per_1/reply" {
		t.Errorf("mutations %v", got)
	}
	if _, err := c.Session(ctx, "ses_gone"); !client.IsNotFound(err) {
		t.Errorf("unknown session: %v", err)
	}
}

// TestOverrideAndRestart: Fail puts an error in front of one route, and
// the server comes back on the same address after Stop.
func TestOverrideAndRestart(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	c, _ := client.New(client.Options{BaseURL: srv.URL()})
	ctx := context.Background()
	srv.Fail("GET /agent", 500, "boom")
	if _, err := c.Agents(ctx); err == nil || !strings.Contains(err.Error(), "UnknownError: boom") {
		t.Errorf("overridden route: %v", err)
	}
	srv.Handle("GET /agent", nil)
	if a, err := c.Agents(ctx); err != nil || len(a) == 0 {
		t.Errorf("after the override is gone: %v, %v", a, err)
	}
	srv.Stop()
	if _, err := c.Health(ctx); !client.IsUnreachable(err) {
		t.Errorf("stopped server: %v", err)
	}
	srv.Start()
	if h, err := c.Health(ctx); err != nil || h.Version != opencodetest.V118 {
		t.Errorf("restarted server: %+v, %v", h, err)
	}
}
