package e2e

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// slowPostDelay is how long the slow proxy holds every POST: far longer
// than keysAnswer, so a key that waited on the request could not pass.
// Both scale with OCTOP_TEST_SLOW (keysAnswer through testwait).
const slowPostDelay = 20 * time.Second

// keysAnswer bounds how long esc and ctrl+c may take while a request is in
// flight. Well under slowPostDelay; generous for a busy machine.
const keysAnswer = 5 * time.Second

// postHoldProxy forwards everything to a server but holds each POST for
// slowPostDelay before forwarding it. A POST whose client gives up first
// never reaches the server: cancelled counts those, forwarded the others.
type postHoldProxy struct {
	srv       *httptest.Server
	held      atomic.Int32 // POSTs being held right now
	cancelled atomic.Int32
	forwarded atomic.Int32
}

func newPostHoldProxy(t *testing.T, target string) *postHoldProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1 // the event stream flows as it comes
	p := &postHoldProxy{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			// Read the body first: the server notices the client going
			// away (and cancels r.Context) only once the body is read.
			body, err := io.ReadAll(r.Body)
			if err != nil {
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			p.held.Add(1)
			timer := time.NewTimer(testwait.Scale(slowPostDelay))
			select {
			case <-timer.C:
				p.held.Add(-1)
			case <-r.Context().Done():
				timer.Stop()
				p.held.Add(-1)
				p.cancelled.Add(1)
				return
			}
			p.forwarded.Add(1)
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		p.srv.CloseClientConnections()
		p.srv.Close()
	})
	return p
}

// waitHeld waits until n POSTs are held (the request is in flight).
func (p *postHoldProxy) waitHeld(t *testing.T, n int32, what string) {
	t.Helper()
	testwait.Eventually(t, func() bool { return p.held.Load() == n }, tuiWait, "%s", what)
}

// gone reports whether octop has exited: its pane is dead (tuiStart keeps
// it), or its tmux session is gone.
func (tm *tuiTerm) gone() bool {
	out, err := tm.run("display-message", "-p", "-t", "octop", "#{pane_dead}")
	return err != nil || strings.HasPrefix(out, "1")
}

// TestTUIKeysAnswerWhileServerIsSlow: with every POST held 20 s by a
// proxy, esc closes a dialog whose request is in flight at once and
// cancels the request (the session is not aborted, nothing is launched),
// octop keeps answering keys, and ctrl+c quits at once mid-request.
func TestTUIKeysAnswerWhileServerIsSlow(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	actForVersions(t, func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		root := actStartRoot(t, ctx, c, "slow keys root", "RUNAWAY sleep=0.3")
		actWaitRun(t, ctx, c, root.ID, wire.StatusBusy)
		p := newPostHoldProxy(t, s.URL)

		tm := tuiStart(t, 120, 36, "--server", p.srv.URL)
		// As a user would: x once the detail pane says the root runs,
		// the screen's first read and the terminal's answers done.
		tm.waitFor("the root in the tree, selected and running", func(sc string) bool {
			return strings.Contains(sc, "● connected") && strings.Contains(actHeader(sc), "slow keys root") &&
				strings.Contains(sc, "running ·")
		})

		// x, y: the abort is held by the proxy; esc closes the dialog
		// at once and the request is cancelled before it reaches the server.
		tm.actSend("x")
		tm.waitFor("the abort confirmation", func(sc string) bool { return strings.Contains(sc, "Abort slow keys root") })
		tm.actSend("y")
		tm.waitFor("the abort in flight", func(sc string) bool { return strings.Contains(sc, "aborting…") })
		p.waitHeld(t, 1, "the abort request held by the proxy")
		tm.actSend("Escape")
		start := time.Now()
		testwait.Eventually(t, func() bool { return !strings.Contains(tm.screen(), "Abort slow keys root") },
			keysAnswer, "esc to close the abort dialog while its request is in flight")
		t.Logf("esc closed the abort dialog in %v", time.Since(start).Round(time.Millisecond))
		testwait.Eventually(t, func() bool { return p.cancelled.Load() == 1 && p.held.Load() == 0 },
			keysAnswer, "the abort request to be cancelled")
		if n := p.forwarded.Load(); n != 0 {
			t.Fatalf("%d POSTs reached the server; the cancelled abort must not", n)
		}
		if st, err := actStatusType(ctx, c, root.ID); err != nil || st != wire.StatusBusy {
			t.Fatalf("the root is %q (%v) after esc cancelled its abort; want busy", st, err)
		}

		// octop still answers: the help opens and esc closes it.
		tm.actSend("?")
		tm.waitFor("the full help", func(sc string) bool { return strings.Contains(sc, "abort subtree") })
		tm.actSend("Escape")
		tm.waitFor("esc to close the help", func(sc string) bool { return !strings.Contains(sc, "abort subtree") })

		// n: a launch under the root, held by the proxy; ctrl+c quits at
		// once.
		tm.actSend("n")
		tm.waitFor("the launch form with its agents", func(sc string) bool {
			return strings.Contains(sc, "Launch a task under slow keys root") && strings.Contains(sc, "General-purpose agent")
		})
		tm.actSend("Enter")
		tm.actType("never launched")
		tm.actSend("Enter")
		tm.actType("LEAF steps=1")
		tm.actSend("C-s")
		p.waitHeld(t, 1, "the launch request held by the proxy")
		tm.actSend("C-c")
		start = time.Now()
		testwait.Eventually(t, tm.gone, keysAnswer, "ctrl+c to quit octop while the launch is in flight")
		t.Logf("ctrl+c quit in %v", time.Since(start).Round(time.Millisecond))
		testwait.Eventually(t, func() bool { return p.cancelled.Load() == 2 && p.held.Load() == 0 },
			keysAnswer, "the launch request to be cancelled")
		if n := p.forwarded.Load(); n != 0 {
			t.Fatalf("%d POSTs reached the server; the cancelled launch must not", n)
		}
		kids, err := actChildren(ctx, c, root.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, ses := range kids {
			if strings.Contains(ses.Title, "never launched") {
				t.Fatalf("the cancelled launch made session %s %q", ses.ID, ses.Title)
			}
		}
	})
}
