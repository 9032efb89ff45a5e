package config

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `[[server]]
name = "work"
url = "http://127.0.0.1:4096"
username = "me"
password_env = "OCTOP_TEST_PW"

[[server]]
name = "box"
url = "http://box:4096"
password_command = "echo s3cret | tr a-z A-Z"

[watchdog]
loop = 7
stall = "2m"
budget_tokens = 200000
budget_cost = "2.50"
abort_on = ["loop", "budget"]

[notify]
notify = "bell"
exec = "true"

[history]
lazy_after = 2000
window = "3d"
rate = 10
`

func TestParse(t *testing.T) {
	f, err := Parse([]byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Servers) != 2 || f.Servers[0].Username != "me" {
		t.Fatalf("servers = %+v", f.Servers)
	}
	d := f.FlagDefaults()
	want := map[string]string{"loop": "7", "stall": "2m", "budget-tokens": "200000", "budget-cost": "2.50",
		"abort-on": "loop,budget", "notify": "bell", "exec": "true", "lazy-after": "2000", "history-window": "3d",
		"history-rate": "10"}
	for k, v := range want {
		if d[k] != v {
			t.Errorf("%s = %q, want %q", k, d[k], v)
		}
	}
	if _, ok := d["errors"]; ok {
		t.Error("errors is not in the file, so it must not override the flag's default")
	}
}

func TestPasswords(t *testing.T) {
	f, _ := Parse([]byte(sample))
	t.Setenv("OCTOP_TEST_PW", "from-env")
	work, _ := f.Server("work")
	box, _ := f.Server("box")
	if p, err := work.Password(context.Background()); err != nil || p != "from-env" {
		t.Errorf("env password = %q, %v", p, err)
	}
	if p, err := box.Password(context.Background()); err != nil || p != "S3CRET" {
		t.Errorf("command password = %q, %v", p, err)
	}
	for _, s := range []Server{work, box} {
		if src := s.PasswordSource(); strings.Contains(src, "S3CRET") || strings.Contains(src, "from-env") || !strings.HasPrefix(src, "****") {
			t.Errorf("PasswordSource = %q", src)
		}
	}
	bad := Server{Name: "x", PasswordCommand: "exit 3"}
	if _, err := bad.Password(context.Background()); err == nil || !strings.Contains(err.Error(), "password_command") {
		t.Errorf("failing command: %v", err)
	}
}

func TestMalformed(t *testing.T) {
	for name, tc := range map[string]struct{ text, want string }{
		"syntax":       {"[watchdog]\nloop = 5\nstall = 3m\n", "line 3:"},
		"wrong type":   {"[watchdog]\n\nloop = \"five\"\n", "line 3"},
		"clear pw":     {"[[server]]\nurl = \"http://h\"\npassword = \"hunter2\"\n", "line 3: a password is not kept"},
		"unknown key":  {"[watchdog]\nlop = 5\n", `line 2: unknown setting "watchdog.lop"`},
		"bad duration": {"[notify]\nexec_timeout = \"soon\"\n", "line 2: notify.exec_timeout"},
		"no url":       {"[[server]]\nname = \"a\"\n", "has no url"},
		"bad window":   {"[history]\nwindow = \"a week\"\n", "line 2: history.window"},
		"lazy < 0":     {"[history]\nlazy_after = -5\n", "line 2: history.lazy_after = -5 must not be negative"},
		"rate < 0":     {"[history]\nrate = -1\n", "line 2: history.rate = -1 must not be negative"},
		"both pw":      {"[[server]]\nurl = \"http://h\"\npassword_env = \"A\"\npassword_command = \"b\"\n", "not both"},
		"duplicate":    {"[[server]]\nname = \"a\"\nurl = \"http://h\"\n[[server]]\nname = \"a\"\nurl = \"http://g\"\n", "two servers"},
	} {
		_, err := Parse([]byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line containing %q", name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error repeats the password", name)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OCTOP_CONFIG", "")
	t.Setenv("XDG_CONFIG_HOME", dir)
	if f, err := Load(); err != nil || f.Path != "" {
		t.Fatalf("no file: %+v, %v", f, err)
	}
	p := filepath.Join(dir, "octop", "config.toml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(sample), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load()
	if err != nil || f.Path != p || len(f.Servers) != 2 {
		t.Fatalf("Load = %+v, %v", f, err)
	}
	if err := os.WriteFile(p, []byte("[watchdog\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(); err == nil || !strings.HasPrefix(err.Error(), p+": line ") {
		t.Errorf("malformed: %v", err)
	}
	t.Setenv("OCTOP_CONFIG", filepath.Join(dir, "missing.toml"))
	if _, err := Load(); err == nil {
		t.Error("a missing OCTOP_CONFIG file was not reported")
	}
}

// TestWindow: a window is a Go duration or a number of days, and is
// written back in days when it is whole days.
func TestWindow(t *testing.T) {
	for in, want := range map[string]string{"7d": "7d", "36h": "36h0m0s", "1.5d": "36h0m0s", "48h": "2d", "0d": "0s"} {
		d, err := ParseWindow(in)
		if err != nil || FormatWindow(d) != want {
			t.Errorf("%s: %v (%v), want %s", in, FormatWindow(d), err, want)
		}
	}
	for _, bad := range []string{"", "week", "-1d", "-3h", "7 days"} {
		if _, err := ParseWindow(bad); err == nil {
			t.Errorf("%q read as a window", bad)
		}
	}
}
