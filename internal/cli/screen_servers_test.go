package cli

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/ui/servers"
)

// watch connects a screen of several servers as octop --server … does,
// with args as its flags, and pumps it until cond holds of its screen.
func watch(t *testing.T, cond func(string) bool, args ...string) {
	t.Helper()
	s := &several{g: severalFlags(t, append(args, "--notify", "none")...)}
	var stderr bytes.Buffer
	w, code := s.connect(&stderr)
	if code != 0 {
		t.Fatalf("connect: exit %d, %s", code, stderr.String())
	}
	pump(t, servers.New(w.screens, true), w.stream, cond)
}

// TestAllProjectsPerServer: with --all-projects every server is read
// across its projects (its global stream and listing), each server's
// sessions of both projects under its own group; without it, each
// server shows its own project's only.
func TestAllProjectsPerServer(t *testing.T) {
	withConfig(t, "")
	var fakes [2]*opencodetest.Server
	for i, name := range []string{"a", "b"} {
		f := opencodetest.New(t, opencodetest.Options{Directory: "/work/alpha"})
		f.AddSession(wire.Session{ID: "ses_" + name + "1", Title: name + " in alpha", Directory: "/work/alpha"})
		f.AddSession(wire.Session{ID: "ses_" + name + "2", Title: name + " in beta", Directory: "/work/beta"})
		fakes[i] = f
	}
	a, b := fakes[0], fakes[1]
	aHost, bHost := strings.TrimPrefix(a.URL(), "http://"), strings.TrimPrefix(b.URL(), "http://")
	watch(t, func(sc string) bool {
		return inOrder(sc, "▾ 1 "+aHost, "a in", "a in", "▾ 2 "+bHost, "b in", "b in") &&
			strings.Contains(sc, "a in beta") && strings.Contains(sc, "b in beta") && strings.Contains(sc, "beta")
	}, "--server", a.URL(), "--server", b.URL(), "--all-projects")
	for _, f := range fakes {
		if len(f.RequestsTo("GET /global/event")) == 0 {
			t.Errorf("%s: no global stream asked for with --all-projects; calls %v", f.URL(), f.Calls())
		}
	}
	watch(t, func(sc string) bool {
		return inOrder(sc, "▾ 1 "+aHost, "a in alpha", "▾ 2 "+bHost, "b in alpha") && !strings.Contains(sc, "in beta")
	}, "--server", a.URL(), "--server", b.URL())
}

// TestSlowServerHoldsUpNoOther: b answers nothing at all (every request
// hangs until the test ends); a's group and sessions show regardless,
// while b's group still says it is connecting.
func TestSlowServerHoldsUpNoOther(t *testing.T) {
	a, b, bURL := twoServers(t)
	release := make(chan struct{})
	b.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) })
	aHost, bHost := strings.TrimPrefix(a.URL(), "http://"), strings.TrimPrefix(b.URL(), "http://")
	watch(t, func(sc string) bool {
		return inOrder(sc, "▾ 1 "+aHost+"  OpenCode 1.18.33  ● connected", "on a", "▾ 2 "+bHost+"  ○ connecting…") &&
			!strings.Contains(sc, "on b") && len(b.Requests()) > 0
	}, "--server", a.URL(), "--server", bURL)
}

// inOrder says each of parts is in s, after the one before it.
func inOrder(s string, parts ...string) bool {
	for _, p := range parts {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

// TestWrongPasswordHoldsUpNoOther: b refuses the login it is given (none);
// its group says down, a's shows its sessions, live.
func TestWrongPasswordHoldsUpNoOther(t *testing.T) {
	a, b, _ := twoServers(t)
	aHost, bHost := strings.TrimPrefix(a.URL(), "http://"), strings.TrimPrefix(b.URL(), "http://")
	watch(t, func(sc string) bool {
		return inOrder(sc, "▾ 1 "+aHost+"  OpenCode 1.18.33  ● connected", "on a", "▾ 2 "+bHost+"  ✗ down") &&
			strings.Contains(sc, "1 of 2 down") && !strings.Contains(sc, "on b")
	}, "--server", a.URL(), "--server", b.URL())
}
