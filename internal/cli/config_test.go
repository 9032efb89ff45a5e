package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/config"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
)

// withConfig points octop at a config file holding text.
func withConfig(t *testing.T, text string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OCTOP_CONFIG", p)
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // no OpenCode service.json but a test's own
	for _, k := range []string{"OPENCODE_SERVER_URL", "OPENCODE_SERVER_PASSWORD", "OPENCODE_SERVER_USERNAME"} {
		t.Setenv(k, "")
	}
}

const testConfig = `[[server]]
name = "work"
url = "http://127.0.0.1:4097"
username = "me"
password_env = "OCTOP_TEST_WORK_PW"

[[server]]
name = "box"
url = "http://box:4096"
password_command = "echo from-cmd | tr a-z A-Z"

[watchdog]
loop = 7
abort_on = ["loop"]

[history]
window = "3d"
rate = 10
`

func TestConfigCommandMasksAndOverrides(t *testing.T) {
	withConfig(t, testConfig)
	t.Setenv("OCTOP_TEST_WORK_PW", "env-secret")
	var out, errb stringsBuilder
	if code := realMain([]string{"config", "--loop", "9", "--lazy-after", "800"}, nil, &out, &errb); code != 0 {
		t.Fatalf("octop config exited %d: %s", code, errb.String())
	}
	got := out.String()
	for _, want := range []string{`http://127.0.0.1:4097 (config file, server "work")`, "me (config file", "******** (from $OCTOP_TEST_WORK_PW, set)", "loop           9", "abort-on       loop",
		"lazy-after     800", "history-window 3d", "history-rate   10"} {
		if !strings.Contains(got, want) {
			t.Errorf("octop config lacks %q:\n%s", want, got)
		}
	}
	for _, secret := range []string{"env-secret", "FROM-CMD"} {
		if strings.Contains(got, secret) {
			t.Errorf("octop config printed a password %q", secret)
		}
	}
}

func TestConfigServerByName(t *testing.T) {
	withConfig(t, testConfig)
	f := connFlags{server: "box"}
	f.cfg = mustLoad(t)
	o, err := f.resolve(client.OptionsFromEnv())
	if err != nil {
		t.Fatal(err)
	}
	if o.BaseURL != "http://box:4096" || o.Password != "FROM-CMD" {
		t.Errorf("--server box gave %s with password %q", o.BaseURL, o.Password)
	}
	// A flag wins over the file; the environment over the file too.
	t.Setenv("OPENCODE_SERVER_USERNAME", "envuser")
	f = connFlags{password: "flagpw", cfg: f.cfg}
	o, err = f.resolve(client.OptionsFromEnv())
	if err != nil {
		t.Fatal(err)
	}
	if o.BaseURL != "http://127.0.0.1:4097" || o.Password != "flagpw" || o.Username != "envuser" {
		t.Errorf("got %s user %q password %q", o.BaseURL, o.Username, o.Password)
	}
}

func TestMalformedConfigIsOneLine(t *testing.T) {
	withConfig(t, "[watchdog]\nloop = 5\nstall = 3m\n")
	for _, args := range [][]string{{"config"}, {"tree"}, {"--demo"}} {
		var out, errb stringsBuilder
		if code := realMain(args, nil, &out, &errb); code != 2 {
			t.Errorf("octop %v exited %d, want 2", args, code)
		}
		if errb.lines() != 1 || !strings.Contains(errb.String(), "line 3") {
			t.Errorf("octop %v: stderr %q, want one line naming line 3", args, errb.String())
		}
	}
}

func mustLoad(t *testing.T) config.File {
	t.Helper()
	c, err := config.Load()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The screen takes the watchdog's flags, and the config file's
// [watchdog] and [notify] as their defaults; a bad value stops it before
// it connects, in one line.
func TestScreenWatchdogFlags(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		args         []string
		want         string
	}{
		{"bad --loop", "", []string{"--loop", "1"}, "octop: --loop must be 2 or more, not 1\n"},
		{"bad --abort-on", "", []string{"--abort-on", "loops"}, "octop: --abort-on:"},
		{"bad --notify", "", []string{"--notify", "loud"}, `octop: --notify takes none, bell, osc or all, not "loud"` + "\n"},
		{"the file's loop", "[watchdog]\nloop = 1\n", nil, "octop: --loop must be 2 or more, not 1\n"},
		{"several servers", "", []string{"--server", "http://127.0.0.1:1,http://127.0.0.1:2", "--stall", "0s"}, "octop: --stall must be at least 1s, not 0s\n"},
		{"the file's notify", "[notify]\nnotify = \"loud\"\n", nil, "octop: "},
		{"bad --lazy-after", "", []string{"--lazy-after", "-1"}, "octop: --lazy-after must not be negative, not -1"},
		{"bad --history-window", "", []string{"--history-window", "soon"}, `octop: invalid value "soon" for flag --history-window`},
		{"bad --history-rate", "", []string{"--history-rate", "-5"}, "octop: --history-rate must not be negative, not -5"},
		{"the file's rate", "[history]\nrate = -2\n", nil, "octop: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withConfig(t, tc.config)
			t.Setenv("OPENCODE_SERVER_URL", "http://127.0.0.1:1") // never reached
			var out, errb stringsBuilder
			if code := realMain(tc.args, nil, &out, &errb); code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, errb.String())
			}
			if got := errb.String(); !strings.HasPrefix(got, tc.want) || strings.Count(got, "\n") != 1 {
				t.Errorf("stderr %q, want one line starting %q", got, tc.want)
			}
		})
	}
}

// TestPasswordHintsNameTheirSource: a config server whose password_env
// is unset, and a wrong password in a URL, each get a hint naming the
// server and where the password was looked for, never
// OPENCODE_SERVER_PASSWORD, which had nothing to do with it.
func TestPasswordHintsNameTheirSource(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{Password: "right"})
	withConfig(t, "[[server]]\nname = \"work\"\nurl = \""+srv.URL()+"\"\npassword_env = \"MY_PW\"\n")
	t.Setenv("MY_PW", "")
	code, _, errs := run(t, client.Options{BaseURL: client.DefaultURL}, "", "tree", "--server", "work")
	want := "OpenCode at " + srv.URL() + ` (server "work") wants a password; none came from $MY_PW (password_env of server "work" in `
	if code != codeFail || !strings.Contains(errs, want) || strings.Contains(errs, "OPENCODE_SERVER_PASSWORD") {
		t.Errorf("password_env unset: exit %d, stderr %q\nwant it to say %q", code, errs, want)
	}
	host := strings.TrimPrefix(srv.URL(), "http://")
	code, _, errs = run(t, client.Options{BaseURL: client.DefaultURL}, "", "tree", "--server", "http://opencode:wrong@"+host)
	want = "OpenCode at " + srv.URL() + " rejected the password from the URL (opencode:…@" + host + ")"
	if code != codeFail || !strings.Contains(errs, want) || strings.Contains(errs, "wrong") {
		t.Errorf("a wrong password in the URL: exit %d, stderr %q\nwant it to say %q", code, errs, want)
	}
}

// TestConfigCommandURLLogin: a server URL's own user:pass, which client.New
// signs in with over every other setting, is what octop config reports
// (the password masked), never the default user and "(none)".
func TestConfigCommandURLLogin(t *testing.T) {
	withConfig(t, "[[server]]\nname = \"work\"\nurl = \"http://me:file-secret@127.0.0.1:4097\"\n")
	t.Setenv("OPENCODE_SERVER_PASSWORD", "env-secret")
	for _, c := range []struct {
		args  []string
		wants []string
	}{
		{[]string{"config", "--server", "http://ann:url-secret@127.0.0.1:1"},
			[]string{"server         http://ann:xxxxx@127.0.0.1:1 (--server)", "username       ann (the server URL)",
				"password       ******** (from the server URL)"}},
		{[]string{"config", "--server", "work"},
			[]string{"username       me (the server URL)", "password       ******** (from the server URL)",
				"work       http://me:xxxxx@127.0.0.1:4097  password ******** (in its URL)"}},
	} {
		var out, errb stringsBuilder
		if code := realMain(c.args, nil, &out, &errb); code != 0 {
			t.Fatalf("octop %v exited %d: %s", c.args, code, errb.String())
		}
		got := out.String()
		for _, want := range c.wants {
			if !strings.Contains(got, want) {
				t.Errorf("octop %v lacks %q:\n%s", c.args, want, got)
			}
		}
		if strings.Contains(got, "secret") {
			t.Errorf("octop %v printed a password:\n%s", c.args, got)
		}
	}
}

// TestConfigSaysWhereEachSettingComesFrom: every setting `octop config`
// prints is marked (default), (config file) or (--FLAG), and notify gives
// both defaults, the screen's and octop watch's (issue 28: it printed
// `notify none` without saying the screen's default is all).
func TestConfigSaysWhereEachSettingComesFrom(t *testing.T) {
	withConfig(t, testConfig)
	lines := func(args ...string) string {
		var out, errb stringsBuilder
		if code := realMain(append([]string{"config"}, args...), nil, &out, &errb); code != 0 {
			t.Fatalf("octop config %v exited %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	for _, c := range []struct {
		args  []string
		wants []string
	}{
		{nil, []string{"loop           7 (config file)", "stall          3m0s (default)", "abort-on       loop (config file)",
			"budget-cost    - (default)", "screen         all (default)", "octop watch    none (default)",
			"exec-timeout   10s (default)", "lazy-after     5000 (default)", "history-window 3d (config file)"}},
		{[]string{"--loop", "9", "--notify", "bell", "--stall", "1m"}, []string{"loop           9 (--loop)", "stall          1m0s (--stall)",
			"screen         bell (--notify)", "octop watch    bell (--notify)"}},
	} {
		got := lines(c.args...)
		for _, want := range c.wants {
			if !strings.Contains(got, want+"\n") {
				t.Errorf("octop config %v lacks %q:\n%s", c.args, want, got)
			}
		}
	}
	withConfig(t, testConfig+"\n[notify]\nnotify = \"osc\"\n")
	got := lines()
	for _, want := range []string{"screen         osc (config file)", "octop watch    osc (config file)"} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("octop config with notify in the file lacks %q:\n%s", want, got)
		}
	}
}
