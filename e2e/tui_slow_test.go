package e2e

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// keyAnswer is how soon the screen must answer a key while the server
// sits on a request: about a second, well under any request's timeout.
const keyAnswer = 1500 * time.Millisecond

// slowProxy stands between octop and a real server and holds every
// GET /agent for a minute (or until octop gives up on it), passing the rest
// through, the event stream included. held receives each held request's
// path as it arrives, dropped its path once the client cancels it.
type slowProxy struct {
	*httptest.Server
	held, dropped chan string
}

func newSlowProxy(t *testing.T, target string) *slowProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.FlushInterval = -1 // the SSE stream must not be buffered
	p := &slowProxy{held: make(chan string, 8), dropped: make(chan string, 8)}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/agent" {
			p.held <- r.URL.Path
			select {
			case <-r.Context().Done():
				p.dropped <- r.URL.Path
				return
			case <-time.After(testwait.Scale(time.Minute)):
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *slowProxy) await(t *testing.T, ch chan string, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(testwait.Scale(tuiWait)):
		t.Fatalf("the proxy never saw %s", what)
	}
}

// TestTUIKeysAnswerASlowServer: while the server sits on a dialog's
// request, esc closes the dialog at once and cancels the request, and
// ctrl+c quits at once.
func TestTUIKeysAnswerASlowServer(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	s := harness.Start(t, harness.Config{Version: harness.V118})
	proxy := newSlowProxy(t, s.URL)
	tm := tuiStart(t, 120, 40, "--server", proxy.URL)
	tm.waitFor("octop to connect through the proxy", func(sc string) bool { return strings.Contains(sc, "● connected") })

	const form = "Launch a task as a new root session"
	tm.actSend("N")
	tm.waitFor("the launch form loading its agents", func(sc string) bool {
		return strings.Contains(sc, form) && strings.Contains(sc, "loading agents")
	})
	proxy.await(t, proxy.held, "the agents request")
	tm.actSend("Escape")
	testwait.Eventually(t, func() bool { return !strings.Contains(tm.screen(), form) }, keyAnswer,
		"esc to close the form while its request is held")
	proxy.await(t, proxy.dropped, "octop cancel the agents request")

	tm.actSend("N")
	tm.waitFor("the launch form again", func(sc string) bool { return strings.Contains(sc, "loading agents") })
	proxy.await(t, proxy.held, "the second agents request")
	tm.actSend("C-c")
	testwait.Eventually(t, tm.gone, keyAnswer,
		"ctrl+c to quit octop while a request is held")
}
