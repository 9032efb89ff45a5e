package cli

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// complete asks octop for the completions of the last of args, as the
// shell's script does (cobra's hidden __complete command), and returns
// them and the directive line.
func complete(t *testing.T, base client.Options, args ...string) (comps []string, directive string) {
	t.Helper()
	code, out, errs := run(t, base, "", append([]string{"__complete"}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %q: exit %d, stderr %q", args, code, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// sessionsServer is a fake holding two sessions, ses_new active after
// ses_old, whose title carries an escape sequence, a tab and a newline.
func sessionsServer(t *testing.T) *opencodetest.Server {
	withConfig(t, "")
	s := opencodetest.New(t, opencodetest.Options{})
	s.AddSession(wire.Session{ID: "ses_old", Title: "older task", Time: wire.SessionTime{Created: 1, Updated: 10}})
	s.AddSession(wire.Session{ID: "ses_new", Title: "new\x1b[31m red\ttabbed\nline", Time: wire.SessionTime{Created: 2, Updated: 20}})
	return s
}

// TestCompleteSessionIDs: the ID of resume, abort, result and log, and
// launch --parent and watch --root, complete to the server's session ids,
// the most recently active first, each with its title made safe.
func TestCompleteSessionIDs(t *testing.T) {
	s := sessionsServer(t)
	// The escape is shown, not obeyed (the one sanitizer, format.OneLine).
	want := []string{"ses_new\tnew␛[31m red tabbed line", "ses_old\tolder task"}
	for _, args := range [][]string{
		{"resume", ""}, {"abort", "--tree", ""}, {"result", ""}, {"log", "--json", ""},
		{"launch", "--parent", ""}, {"watch", "--root", ""},
	} {
		got, directive := complete(t, client.Options{BaseURL: s.URL()}, args...)
		if strings.Join(got, "|") != strings.Join(want, "|") || directive != ":36" {
			t.Errorf("%q: %q %s, want %q :36 (no files, in this order)", args, got, directive, want)
		}
	}
	got, _ := complete(t, client.Options{BaseURL: s.URL()}, "result", "ses_o")
	if len(got) != 1 || !strings.HasPrefix(got[0], "ses_old\t") {
		t.Errorf("result ses_o: %q, want ses_old only", got)
	}
	got, directive := complete(t, client.Options{BaseURL: s.URL()}, "result", "ses_old", "")
	if len(got) != 0 || directive != ":4" {
		t.Errorf("a second id: %q %s, want nothing", got, directive)
	}
	// The server is the one the command line names, before or after the
	// command's name.
	dead := deadServer(t)
	for _, args := range [][]string{{"--server", s.URL(), "abort", ""}, {"abort", "--server", s.URL(), ""}} {
		if got, _ := complete(t, dead, args...); len(got) != 2 {
			t.Errorf("%q: %q, want the two sessions of --server", args, got)
		}
	}
}

// TestCompleteSessionIDsQuietFailure: a server that is down, or that
// answers nothing, gives no completions, and the shell is not kept
// waiting past completionWait.
func TestCompleteSessionIDsQuietFailure(t *testing.T) {
	withConfig(t, "")
	if got, directive := complete(t, deadServer(t), "result", ""); len(got) != 0 || directive != ":36" {
		t.Errorf("dead server: %q %s, want nothing", got, directive)
	}
	slow := opencodetest.New(t, opencodetest.Options{})
	release := make(chan struct{})
	slow.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) })
	done := make(chan []string, 1)
	go func() {
		var out, errb strings.Builder
		a := &app{stdio: cmdIO{strings.NewReader(""), &out, &errb}, base: client.Options{BaseURL: slow.URL()}}
		a.execute([]string{"__complete", "log", ""})
		done <- strings.Split(strings.TrimSpace(out.String()), "\n")
	}()
	select {
	case got := <-done:
		if len(got) != 1 || got[0] != ":36" {
			t.Errorf("silent server: %q, want no completions", got)
		}
	case <-time.After(completionWait + 20*time.Second):
		t.Fatal("completion still waits on a silent server")
	}
}

// TestCompleteServerNames: --server completes to the config file's
// server names, also after a comma, never with a password.
func TestCompleteServerNames(t *testing.T) {
	withConfig(t, `[[server]]
name = "work"
url = "http://me:hunter2@127.0.0.1:4097"

[[server]]
name = "box"
url = "http://box:4096"
`)
	got, directive := complete(t, client.Options{}, "tree", "--server", "")
	if strings.Join(got, "|") != "work\thttp://me:xxxxx@127.0.0.1:4097|box\thttp://box:4096" || directive != ":4" {
		t.Errorf("--server: %q %s", got, directive)
	}
	if got, _ = complete(t, client.Options{}, "--server", "work,b"); len(got) != 1 || !strings.HasPrefix(got[0], "work,box\t") {
		t.Errorf("--server work,b: %q, want work,box", got)
	}
	if got, _ = complete(t, client.Options{}, "watch", "--notify", ""); strings.Join(got, "|") != "none|bell|osc|all" {
		t.Errorf("--notify: %q", got)
	}
	if got, _ = complete(t, client.Options{}, "--abort-on", "loop,st"); strings.Join(got, "|") != "loop,stall" {
		t.Errorf("--abort-on loop,st: %q", got)
	}
}

// TestCompletionScripts: `octop completion SHELL` writes each shell's
// script, which asks octop's __complete.
func TestCompletionScripts(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errs := run(t, client.Options{}, "", "completion", sh)
		if code != 0 || errs != "" || !strings.Contains(out, "__complete") || !strings.Contains(out, "octop") {
			t.Errorf("completion %s: exit %d, stderr %q, %d bytes without __complete", sh, code, errs, len(out))
		}
	}
}

// TestManPage: `octop man` is a roff page with every command and flag.
func TestManPage(t *testing.T) {
	code, out, errs := run(t, client.Options{}, "", "man")
	if code != 0 || errs != "" {
		t.Fatalf("man: exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{".TH OCTOP 1", ".SH NAME", ".SH OPTIONS", ".SH EXIT STATUS", ".SH ENVIRONMENT",
		`\fBlaunch\fP`, `\fBcompletion\fP`, `\fB--server\fP`, `\fB--until-done\fP`, "OPENCODE_SERVER_PASSWORD",
		"6 nothing undone or redone"} { // every exit status, as the help gives them
		if !strings.Contains(out, want) {
			t.Errorf("the man page lacks %q", want)
		}
	}
}

// TestCompleteOffersWhatAppliesFirst: abort and say offer the running
// sessions first, result, resume and retry the finished ones, each group
// the most recently active first (issue 28: `octop abort` Tab offered all
// 38 sessions though 36 had finished). A running one says so. The
// running session is active between the finished ones, so each order
// differs from newest first.
func TestCompleteOffersWhatAppliesFirst(t *testing.T) {
	s := sessionsServer(t)
	s.AddSession(wire.Session{ID: "ses_run", Title: "still going", Time: wire.SessionTime{Created: 3, Updated: 15}})
	s.SetStatus("ses_run", wire.SessionStatus{Type: wire.StatusBusy})
	running := "ses_run\trunning · still going"
	finished := []string{"ses_new\tnew␛[31m red tabbed line", "ses_old\tolder task"}
	for cmd, want := range map[string][]string{
		"abort":  append([]string{running}, finished...),
		"say":    append([]string{running}, finished...),
		"result": append(finished[:2:2], running),
		"resume": append(finished[:2:2], running),
		"retry":  append(finished[:2:2], running),
		"log":    {finished[0], running, finished[1]}, // newest first, as before
	} {
		got, directive := complete(t, client.Options{BaseURL: s.URL()}, cmd, "")
		if strings.Join(got, "|") != strings.Join(want, "|") || directive != ":36" {
			t.Errorf("%s: %q %s, want %q :36", cmd, got, directive, want)
		}
	}
}
