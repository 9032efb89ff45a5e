package cli

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
)

// run runs a subcommand in-process, as main does, with buffers for its
// output.
func run(t *testing.T, base client.Options, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	sub, ok := findSubcommand(args[0])
	if !ok {
		t.Fatalf("no subcommand %q", args[0])
	}
	var out, errb bytes.Buffer
	code = sub.run(context.Background(), cmdIO{strings.NewReader(stdin), &out, &errb}, base, args[1:])
	return code, out.String(), errb.String()
}

// deadServer is a loopback URL where nothing listens.
func deadServer(t *testing.T) client.Options {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return client.Options{BaseURL: "http://" + addr}
}

func TestSubcommandUsageErrors(t *testing.T) {
	base := deadServer(t) // usage errors must be caught before any call
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"launch", "--agent", "general", "--prompt", "x"}, "missing --description"},
		{[]string{"launch", "--parent", "ses_1", "--description", "d"}, "missing --agent, --prompt"},
		{[]string{"launch", "--bogus"}, "flag provided but not defined: --bogus"},
		{[]string{"resume", "--prompt", "x"}, "missing task_id"},
		{[]string{"resume", "ses_1"}, "missing --prompt"},
		{[]string{"resume", "ses_1", "--prompt", ""}, "the prompt is empty"},
		{[]string{"launch", "--agent", "general", "--description", "d", "--prompt", ""}, "the prompt is empty"},
		{[]string{"launch", "--agent", "general", "--description", " ", "--prompt", "x"}, "the description is empty"},
		{[]string{"resume", "ses_1", "ses_2", "--prompt", "x"}, "expected one task_id"},
		{[]string{"abort"}, "missing session id"},
		{[]string{"result"}, "missing task_id"},
		{[]string{"tree", "extra"}, "unexpected argument extra"},
		{[]string{"log"}, "missing session id"},
		{[]string{"log", "ses_1", "ses_2"}, "expected one session id"},
		{[]string{"log", "--follow=maybe", "ses_1"}, "invalid boolean value"},
		{[]string{"tree", "--server", "ftp://x"}, "invalid server URL"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, out, errs := run(t, base, "", tt.args...)
			if code != codeUsage {
				t.Errorf("exit %d, want %d", code, codeUsage)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.Contains(errs, tt.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("stderr %q, want one line containing %q", errs, tt.want)
			}
		})
	}
}

func TestSubcommandMalformedIDIsUsage(t *testing.T) {
	// The id check comes before any request, so a dead server does not
	// matter here.
	for _, args := range [][]string{{"abort", "not-an-id"}, {"result", "ses_bad id"}, {"resume", "x", "--prompt", "p"}} {
		code, _, errs := run(t, deadServer(t), "", args...)
		if code != codeUsage || !strings.Contains(errs, "is not a session id") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and 'is not a session id'", args, code, errs)
		}
	}
}

func TestSubcommandDeadServer(t *testing.T) {
	base := deadServer(t)
	for _, args := range [][]string{
		{"abort", "ses_abc"},
		{"result", "ses_abc"},
		{"tree"},
		{"launch", "--parent", "ses_abc", "--agent", "general", "--description", "d", "--prompt", "p"},
	} {
		code, _, errs := run(t, base, "", args...)
		if code != codeFail || !strings.Contains(errs, "cannot reach OpenCode at "+base.BaseURL) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want 1 and one 'cannot reach' line", args, code, errs)
		}
	}
}

func TestSubcommandHelp(t *testing.T) {
	for _, s := range subcommands {
		code, out, errs := run(t, client.Options{}, "", s.name, "--help")
		if code != codeOK || errs != "" {
			t.Errorf("%s --help: exit %d, stderr %q", s.name, code, errs)
		}
		for _, want := range []string{"Usage: octop " + s.name, "--server URL", "Exit codes:", "Examples:"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s --help lacks %q:\n%s", s.name, want, out)
			}
		}
	}
}

func TestRunSubcommandDispatch(t *testing.T) {
	var out, errb bytes.Buffer
	// Global flags before the name are kept; a TUI flag is not ours.
	code, handled := runSubcommand([]string{"--server", "http://127.0.0.1:1", "tree", "--help"}, nil, &out, &errb)
	if !handled || code != codeOK || !strings.Contains(out.String(), "Usage: octop tree") {
		t.Errorf("dispatch: handled=%v code=%d out=%q", handled, code, out.String())
	}
	for _, args := range [][]string{nil, {"--demo"}, {"--server", "http://x"}, {"--help"}, {"nosuch"}} {
		if _, handled := runSubcommand(args, nil, &out, &errb); handled {
			t.Errorf("%v: handled, want the TUI to run", args)
		}
	}
}

func TestPromptFromStdin(t *testing.T) {
	cmd := newCommand("launch", "", "", cmdIO{in: strings.NewReader("line 1\nline 2\n")})
	got, err := cmd.readPrompt("-")
	if err != nil || got != "line 1\nline 2\n" {
		t.Errorf("readPrompt(-) = %q, %v", got, err)
	}
}
