package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/termtest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// hostileEnv points octop at url with no config file and no password.
func hostileEnv(t *testing.T, url string) {
	t.Setenv("OCTOP_CONFIG", "")
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("OPENCODE_SERVER_URL", url)
	t.Setenv("OPENCODE_SERVER_PASSWORD", "")
	t.Setenv("OPENCODE_SERVER_USERNAME", "")
}

// octopMain runs octop as main does, from its first argument on, with
// buffers for its output.
func octopMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = realMain(args, strings.NewReader("a prompt from stdin"), &out, &errb)
	return code, out.String(), errb.String()
}

// hostileCase is one command line over the hostile fake: what must show
// the payload, cleaned, and whether its stdout is JSON.
type hostileCase struct {
	args               []string
	shownOut, shownErr bool
	json               bool
}

// checkHostile runs c and fails on anything a terminal would act on in
// its output; JSON must stay valid and keep the payload, escaped.
func checkHostile(t *testing.T, c hostileCase) {
	t.Helper()
	code, out, errs := octopMain(t, c.args...)
	checkHostileOutput(t, c, code, out, errs)
}

// checkHostileOutput is checkHostile of what c printed.
func checkHostileOutput(t *testing.T, c hostileCase, code int, out, errs string) {
	t.Helper()
	name := strings.Join(c.args[:min(len(c.args), 3)], " ")
	for stream, text := range map[string]string{"stdout": out, "stderr": errs} {
		if bad := termtest.Output(text); bad != "" {
			t.Errorf("octop %s (exit %d): %s holds %s", name, code, stream, bad)
		}
	}
	if c.shownOut && !strings.Contains(out, termtest.Mark) && !c.json {
		t.Errorf("octop %s (exit %d): stdout does not show the payload, so nothing was checked:\n%s\nstderr: %s", name, code, out, errs)
	}
	if c.shownErr && !strings.Contains(errs, termtest.Mark) {
		t.Errorf("octop %s (exit %d): stderr does not show the payload, so nothing was checked: %s", name, code, errs)
	}
	if !c.json {
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !json.Valid([]byte(line)) && !json.Valid([]byte(out)) {
			t.Errorf("octop %s: not JSON: %s", name, line)
			return
		}
	}
	if !strings.Contains(out, `\u001b]0;pwned\u0007`) || !strings.Contains(out, `\u202e`) || !strings.Contains(out, `\u009b`) {
		t.Errorf("octop %s: the JSON does not carry the payload escaped:\n%.2000s", name, out)
	}
}

// TestHostileServerOnEveryCommand runs every subcommand over a server
// whose every string carries escape sequences, C1 and bidi controls,
// backspaces and bells, and fails on anything in their output (stdout
// and stderr, errors included) a terminal would act on.
func TestHostileServerOnEveryCommand(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{Hostile: true})
	sc := srv.AddShowcase()
	hostileEnv(t, srv.URL())
	cases := []hostileCase{
		{args: []string{"tree"}, shownOut: true, shownErr: true},
		{args: []string{"tree", "--json"}, json: true},
		{args: []string{"log", sc.Root}, shownOut: true},
		{args: []string{"log", sc.Failed}, shownOut: true},
		{args: []string{"log", sc.Done}, shownOut: true},
		{args: []string{"log", "--json", sc.Root}, json: true},
		{args: []string{"log", "--follow", sc.Done}, shownOut: true},
		{args: []string{"result", sc.Done}, shownOut: true},
		{args: []string{"result", sc.Failed}, shownOut: true},
		{args: []string{"result", sc.Retrying}, shownOut: true},
		{args: []string{"result", sc.Root}, shownOut: true},
		{args: []string{"result", "--wait", sc.Done}, shownOut: true},
		{args: []string{"launch", "--parent", sc.Root, "--agent", "reviewer", "--description", "d", "--prompt", "p"}, shownErr: true},
		{args: []string{"resume", sc.Done, "--prompt", "-"}, shownOut: true},
		{args: []string{"abort", sc.Worker}, shownOut: true},
		{args: []string{"abort", "--tree", sc.Root}, shownOut: true},
		{args: []string{"log", "ses_showmissing"}},
		{args: []string{"usage"}, shownOut: true},
		{args: []string{"usage", "--by", "agent", "--json"}, json: true},
		{args: []string{"usage", "--by", "root"}, shownOut: true},
		{args: []string{"export", sc.Root, "--otlp", "http://127.0.0.1:1"}},
	}
	for _, c := range cases {
		checkHostile(t, c)
	}
	// An error whose message is the server's body.
	srv.Fail("GET /session", 500, "the database is gone")
	checkHostile(t, hostileCase{args: []string{"tree"}, shownErr: true})
	srv.Handle("GET /session", nil)
}

// TestHostileServerOnWatch follows a hostile server with watch, plain and
// NDJSON, with a failing --exec hook that prints the payload: the events'
// lines, the hook's report and the errors come out cleaned.
func TestHostileServerOnWatch(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		t.Run(fmt.Sprintf("json=%v", asJSON), func(t *testing.T) {
			srv := opencodetest.New(t, opencodetest.Options{Hostile: true})
			sc := srv.AddShowcase()
			hostileEnv(t, srv.URL())
			hook := filepath.Join(t.TempDir(), "hook.sh")
			if err := os.WriteFile(hook, []byte("#!/bin/sh\nprintf '\\033]0;pwned\\007 %s\\n' \"$OCTOP_TITLE\"\nexit 3\n"), 0o700); err != nil {
				t.Fatal(err)
			}
			args := []string{"watch", "--root", sc.Root, "--until-done", "--exec", hook}
			if asJSON {
				args = append(args, "--json")
			}
			var out, errb syncBuffer
			done := make(chan int, 1)
			go func() {
				done <- realMainContext(context.Background(), args, strings.NewReader(""), &out, &errb)
			}()
			// watch reads its snapshot after connecting: the baseline,
			// which it says it has with "watching".
			testwait.Eventually(t, func() bool { return strings.Contains(errb.String(), "watching") }, 10*time.Second, "watch's baseline")
			func() {
				srv.SetStatus(sc.Root, wire.SessionStatus{Type: wire.StatusIdle})
				srv.Emit("message.updated", map[string]any{"info": wire.Message{ID: "msg_showroot_3", SessionID: sc.Root, Role: "assistant",
					Agent: "build", Finish: "stop", Error: &wire.ErrorInfo{Name: "UnknownError", Data: wire.ErrorInfoData{Message: "it broke"}},
					Time: wire.MessageTime{Created: 1795284030000, Completed: 1795284031000}}})
				srv.Emit("session.error", map[string]any{"sessionID": sc.Root, "error": wire.ErrorInfo{Name: "UnknownError", Data: wire.ErrorInfoData{Message: "it broke"}}})
				srv.Emit("session.status", map[string]any{"sessionID": sc.Root, "status": wire.SessionStatus{Type: wire.StatusIdle}})
				srv.Emit("session.idle", map[string]any{"sessionID": sc.Root})
			}()
			var code int
			select {
			case code = <-done:
			case <-time.After(testwait.Scale(30 * time.Second)):
				t.Fatal("watch --until-done did not end")
			}
			checkHostileOutput(t, hostileCase{args: args, shownOut: !asJSON, shownErr: true, json: asJSON}, code, out.String(), errb.String())
		})
	}
}

// TestHostileConfigFile: a config file is read as untrusted too; what
// octop config prints of it is cleaned.
func TestHostileConfigFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	cfg := "[[server]]\nname = \"evil\\u001b]0;pwned\\u0007\"\nurl = \"http://127.0.0.1:1\"\nusername = \"u\\u009b2J\\u202e\"\n" +
		"[notify]\nexec = \"echo \\u001b]0;pwned\\u0007\"\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OCTOP_CONFIG", path)
	t.Setenv("OPENCODE_SERVER_URL", "")
	checkHostile(t, hostileCase{args: []string{"config"}, shownOut: true})
}
