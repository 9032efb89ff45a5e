package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// slowStart stands between octop and a real server and makes the server
// slow to start a prompt's run, the way a loaded server is: a
// prompt_async is stored at once as its user message (POST …/message
// with noReply), and its run is started (prompt_async again, with that
// message's id) only after octop has read the session's messages polls
// times in between, idle, the new user message there and no reply. All
// else passes through.
type slowStart struct {
	t      *testing.T
	target *url.URL
	srv    *httptest.Server
	proxy  *httputil.ReverseProxy
	polls  int
	starts sync.WaitGroup // the held runs being started, which report to t

	mu    sync.Mutex
	held  map[string][]byte // session id → the prompt's body, with its message id, not started yet
	seen  map[string]int    // reads of a held session's messages
	waits int               // reads during a hold, all sessions
}

var promptPath = regexp.MustCompile(`^/session/([^/]+)/(prompt_async|message)$`)

func newSlowStart(t *testing.T, target string, polls int) *slowStart {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &slowStart{t: t, target: u, proxy: httputil.NewSingleHostReverseProxy(u), polls: polls,
		held: map[string][]byte{}, seen: map[string]int{}}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(func() {
		p.srv.Close()   // no request left to start another run
		p.starts.Wait() // nor a start left to report to t after the test
	})
	return p
}

func (p *slowStart) serve(w http.ResponseWriter, r *http.Request) {
	m := promptPath.FindStringSubmatch(r.URL.Path)
	switch {
	case m != nil && r.Method == http.MethodPost && m[2] == "prompt_async":
		p.hold(w, r, m[1])
		return
	case m != nil && r.Method == http.MethodGet && m[2] == "message":
		p.mu.Lock()
		if body, ok := p.held[m[1]]; ok {
			p.seen[m[1]]++
			p.waits++
			if p.seen[m[1]] >= p.polls {
				delete(p.held, m[1])
				p.starts.Go(func() { p.start(m[1], r.URL.RawQuery, body) })
			}
		}
		p.mu.Unlock()
	}
	p.proxy.ServeHTTP(w, r)
}

// hold stores the prompt as its user message, with no run, and answers
// as prompt_async does.
func (p *slowStart) hold(w http.ResponseWriter, r *http.Request, id string) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	body["noReply"] = true
	var stored struct {
		Info struct{ ID string } `json:"info"`
	}
	if err := p.post("/session/"+id+"/message", r.URL.RawQuery, body, &stored); err != nil || stored.Info.ID == "" {
		http.Error(w, fmt.Sprintf("store the prompt: %v", err), http.StatusBadGateway)
		return
	}
	delete(body, "noReply")
	body["messageID"] = stored.Info.ID
	again, _ := json.Marshal(body)
	p.mu.Lock()
	p.held[id] = again
	p.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// start starts the held prompt's run: the same prompt, its message id the
// one already stored.
func (p *slowStart) start(id, query string, body []byte) {
	var v map[string]any
	_ = json.Unmarshal(body, &v)
	if err := p.post("/session/"+id+"/prompt_async", query, v, nil); err != nil {
		p.t.Errorf("start the held run of %s: %v", id, err)
	}
}

func (p *slowStart) post(path, query string, body any, out any) error {
	raw, _ := json.Marshal(body)
	u := *p.target
	u.Path, u.RawQuery = path, query
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// reads is how many times octop read a held session's messages.
func (p *slowStart) reads() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.waits
}

// TestWaitForTheRunItsPromptStarted: on a session aborted earlier,
// `resume --wait` waits for the run its own prompt started, however
// slowly the server starts it, never returning the aborted one; so does
// `launch --wait` for a new task.
func TestWaitForTheRunItsPromptStarted(t *testing.T) {
	parallel(t)
	actForVersions(t, func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		root := actStartRoot(t, ctx, c, "aborted, then resumed", "RUNAWAY sleep=0.3")
		actWaitProgress(t, ctx, c, root.ID)
		if _, err := live.AbortTree(ctx, c, root.ID); err != nil {
			t.Fatal(err)
		}
		actWaitRun(t, ctx, c, root.ID, "idle")
		if code, out, _ := actOctop(t, s.URL, "", "result", root.ID); code != 4 || !strings.Contains(out, "reason: aborted") {
			t.Fatalf("the root is not aborted: exit %d\n%s", code, out)
		}

		slow := newSlowStart(t, s.URL, 4)
		start := time.Now()
		code, out, errs := actOctop(t, slow.srv.URL, "", "resume", root.ID, "--prompt", "LEAF steps=1 sleep=0.1", "--wait", "--timeout", "60s")
		if code != 0 || !strings.Contains(out, "status: complete") || !strings.Contains(out, "leaf finished after 1 steps") {
			t.Errorf("resume --wait, the run slow to start: exit %d after %s\n%s%s", code, time.Since(start).Round(time.Millisecond), out, errs)
		}
		if n := slow.reads(); n < 4 {
			t.Errorf("octop read the messages %d times while the run had not started, want at least 4: the test proved nothing", n)
		}

		before := slow.reads()
		code, out, errs = actOctop(t, slow.srv.URL, "", "launch", "--parent", root.ID, "--agent", "general",
			"--description", "slow to start", "--prompt", "LEAF steps=1 sleep=0.1", "--wait", "--timeout", "60s")
		if code != 0 || !strings.Contains(out, "status: complete") || !strings.Contains(out, "leaf finished after 1 steps") {
			t.Errorf("launch --wait, the run slow to start: exit %d\n%s%s", code, out, errs)
		}
		if slow.reads()-before < 4 {
			t.Errorf("launch --wait read the messages %d times while the run had not started, want at least 4", slow.reads()-before)
		}
	})
}
