package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// twoServers are a 1.18 server holding ses_a (busy) and a 1.1 server,
// with a password, holding ses_b (busy).
func twoServers(t *testing.T) (a, b *opencodetest.Server, bURL string) {
	t.Helper()
	withConfig(t, "")
	a = opencodetest.New(t, opencodetest.Options{})
	b = opencodetest.New(t, opencodetest.Options{Version: opencodetest.V11, Password: "s3cret"})
	a.AddSession(wire.Session{ID: "ses_a", Title: "on a"})
	a.SetStatus("ses_a", wire.SessionStatus{Type: wire.StatusBusy})
	b.AddSession(wire.Session{ID: "ses_b", Title: "on b"})
	b.SetStatus("ses_b", wire.SessionStatus{Type: wire.StatusBusy})
	return a, b, strings.Replace(b.URL(), "http://", "http://opencode:s3cret@", 1)
}

func TestTreeSeveralServers(t *testing.T) {
	a, _, bURL := twoServers(t)
	code, out, errs := run(t, client.Options{}, "", "tree", "--json", "--server", a.URL(), "--server", bURL)
	if code != codeOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var roots []struct{ Server, ID string }
	if err := json.Unmarshal([]byte(out), &roots); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range roots {
		got[r.ID] = r.Server
	}
	bPlain := strings.Replace(bURL, "opencode:s3cret@", "", 1)
	if len(roots) != 2 || got["ses_a"] != a.URL() || got["ses_b"] != bPlain {
		t.Errorf("roots by server %v, want ses_a on %s and ses_b on %s", got, a.URL(), bPlain)
	}
	if strings.Contains(out, "s3cret") {
		t.Error("tree --json printed a password")
	}
}

// TestTreeOneServerDown: the other server's tree still prints, the dead
// one is one line on stderr and the exit code says so.
func TestTreeOneServerDown(t *testing.T) {
	a, _, _ := twoServers(t)
	dead := deadServer(t).BaseURL
	t.Setenv("OPENCODE_SERVER_URL", a.URL()+","+dead)
	code, out, errs := run(t, client.Options{}, "", "tree")
	if code != codeFail || !strings.Contains(out, "server "+a.URL()) || !strings.Contains(out, "ses_a") {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 1 and server a's tree", code, out)
	}
	if strings.Count(errs, "\n") != 1 || !strings.Contains(errs, dead) {
		t.Errorf("stderr %q, want one line naming %s", errs, dead)
	}
}

// TestActionsGoToTheOwner: abort and result find the server that holds
// the id, and nothing is sent to the other.
func TestActionsGoToTheOwner(t *testing.T) {
	a, b, bURL := twoServers(t)
	servers := a.URL() + "," + bURL
	code, out, errs := run(t, client.Options{}, "", "abort", "ses_b", "--server", servers)
	if code != codeOK || !strings.Contains(out, "aborted: ses_b") {
		t.Fatalf("abort: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if m := a.Mutations(); len(m) != 0 {
		t.Errorf("server a got %v; the abort was server b's", m)
	}
	if m := b.Mutations(); len(m) != 1 || !strings.Contains(m[0], "ses_b/abort") {
		t.Errorf("server b got %v, want one abort of ses_b", m)
	}
	if st, _ := a.Session("ses_a"); st.ID == "" {
		t.Fatal("ses_a vanished")
	}
	code, out, _ = run(t, client.Options{}, "", "result", "ses_a", "--server", servers)
	if code != codeOK || !strings.Contains(out, "status: running") {
		t.Errorf("result ses_a: exit %d, %q; want it still running on a", code, out)
	}
	code, _, errs = run(t, client.Options{}, "", "result", "ses_nowhere", "--server", servers)
	if code != codeNoSession || !strings.Contains(errs, "any of the 2 servers") {
		t.Errorf("unknown id: exit %d, %q; want 3", code, errs)
	}
}

// TestOwnerWithAServerDown: a dead server does not hide the session on
// the live one; a wrong password is said without the password.
func TestOwnerWithAServerDown(t *testing.T) {
	a, b, _ := twoServers(t)
	wrong := strings.Replace(b.URL(), "http://", "http://opencode:wrongpw@", 1)
	servers := deadServer(t).BaseURL + "," + wrong + "," + a.URL()
	code, out, errs := run(t, client.Options{}, "", "result", "ses_a", "--server", servers)
	if code != codeOK || !strings.Contains(out, "ses_a") {
		t.Errorf("result ses_a: exit %d, %q, %q", code, out, errs)
	}
	code, _, errs = run(t, client.Options{}, "", "result", "ses_b", "--server", servers)
	if code != codeFail || strings.Contains(errs, "wrongpw") || strings.Count(errs, "\n") != 1 {
		t.Errorf("ses_b behind a wrong password: exit %d, stderr %q; want 1, one line, no password", code, errs)
	}
}

func TestOneServerCommandsRefuseSeveral(t *testing.T) {
	a, _, bURL := twoServers(t)
	code, _, errs := run(t, client.Options{}, "", "launch", "--agent", "general", "--description", "d", "--prompt", "p",
		"--server", a.URL()+","+bURL)
	if code != codeUsage || !strings.Contains(errs, "one server") || strings.Contains(errs, "s3cret") {
		t.Errorf("launch without --parent on two servers: exit %d, %q", code, errs)
	}
}
