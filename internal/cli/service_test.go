package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// withService writes OpenCode 2.0's service.json, naming url and password,
// under a temp XDG_STATE_HOME.
func withService(t *testing.T, url, password string) string {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	p := filepath.Join(state, "opencode", "service.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	text := `{"id":"svc_test","version":"2.0.0","url":"` + url + `","pid":` + strconv.Itoa(os.Getpid()) +
		`,"password":"` + password + `"}`
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// When no flag, no OPENCODE_SERVER_URL and no config file names a server,
// OpenCode 2.0's service.json does, with its password; anything naming a
// server wins over it, and its password goes nowhere else.
func TestServiceFileNamesTheServer(t *testing.T) {
	withConfig(t, "")
	fake := opencodetest.New(t, opencodetest.Options{Password: "svc-secret"})
	fake.AddSession(wire.Session{ID: "ses_svc", Title: "from the service"})
	path := withService(t, fake.URL(), "svc-secret")

	var out, errb stringsBuilder
	if code := realMain([]string{"tree", "--json"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), `"ses_svc"`) {
		t.Fatalf("octop tree with only service.json: exit %d, out %q, stderr %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := realMain([]string{"config"}, nil, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), fake.URL()+" (OpenCode's "+path+")") ||
		!strings.Contains(out.String(), "******** (from "+path+")") || strings.Contains(out.String(), "svc-secret") {
		t.Errorf("octop config:\n%s", out.String())
	}

	// A server named elsewhere wins, and gets no password of the file.
	other := opencodetest.New(t, opencodetest.Options{})
	t.Setenv("OPENCODE_SERVER_URL", other.URL())
	out.Reset()
	if code := realMain([]string{"tree", "--json"}, nil, &out, &errb); code != 0 || strings.Contains(out.String(), "ses_svc") {
		t.Errorf("with OPENCODE_SERVER_URL: exit %d, out %q", code, out.String())
	}
	for _, r := range other.Requests() {
		if _, pw, ok := r.BasicAuth(); ok && pw != "" {
			t.Errorf("%s sent a password to a server that is not the service's", r)
		}
	}
	t.Setenv("OPENCODE_SERVER_URL", "")
	withConfig(t, "[[server]]\nname = \"cfg\"\nurl = \""+other.URL()+"\"\n")
	withService(t, fake.URL(), "svc-secret")
	out.Reset()
	if code := realMain([]string{"tree", "--json"}, nil, &out, &errb); code != 0 || strings.Contains(out.String(), "ses_svc") {
		t.Errorf("with a config file server: exit %d, out %q", code, out.String())
	}
}

// A service.json that is there but wrong says so in one line.
func TestBadServiceFile(t *testing.T) {
	withConfig(t, "")
	path := withService(t, "ftp://nowhere", "")
	var out, errb stringsBuilder
	if code := realMain([]string{"tree"}, nil, &out, &errb); code == 0 || errb.lines() != 1 || !strings.Contains(errb.String(), path) {
		t.Errorf("exit %d, stderr %q: want one line naming %s", code, errb.String(), path)
	}
}
