package cli

import (
	"bytes"
	"net"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/octop-dev/octop/client"
)

// run runs octop in-process, as main does, with base as the
// environment's connection and buffers for its output.
func run(t *testing.T, base client.Options, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	a := &app{stdio: cmdIO{strings.NewReader(stdin), &out, &errb}, base: base}
	code = a.execute(args)
	return code, out.String(), errb.String()
}

// subcommandNames are the names of the script entry points.
func subcommandNames() []string {
	var names []string
	for _, c := range (&app{}).subcommands() {
		names = append(names, c.Name())
	}
	return names
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
		{[]string{"result", "--wait", "--timeout", "-1s", "ses_1"}, `invalid value "-1s" for flag --timeout: must not be negative (0: no limit)`},
		{[]string{"log", "--follow", "--timeout", "-5m", "ses_1"}, "--timeout: must not be negative"},
		{[]string{"resume", "ses_1", "--prompt", "p", "--wait", "--timeout=-1h"}, "--timeout: must not be negative"},
		{[]string{"launch", "--agent", "a", "--description", "d", "--prompt", "p", "--wait", "--timeout", "-1s"}, "--timeout: must not be negative"},
		{[]string{"config", "--notify", "loud"}, `--notify takes none, bell, osc or all, not "loud"`},
		{[]string{"result", "--timeout", "10", "ses_1"}, `invalid value "10" for flag --timeout: parse error`},
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
	for _, name := range subcommandNames() {
		code, out, errs := run(t, client.Options{}, "", name, "--help")
		if code != codeOK || errs != "" {
			t.Errorf("%s --help: exit %d, stderr %q", name, code, errs)
		}
		for _, want := range []string{"USAGE", "octop " + name, "--server", "--password", "Exit codes:", "EXAMPLES"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s --help lacks %q:\n%s", name, want, out)
			}
		}
	}
}

// TestConnectionFlagsEitherSide: the connection flags may come before or
// after the command's name, and are that command's.
func TestConnectionFlagsEitherSide(t *testing.T) {
	dead := deadServer(t).BaseURL
	for _, args := range [][]string{
		{"--server", dead, "tree"},
		{"tree", "--server", dead},
		{"--server=" + dead, "tree", "--json"},
	} {
		code, _, errs := run(t, client.Options{BaseURL: "http://127.0.0.1:1"}, "", args...)
		if code != codeFail || !strings.Contains(errs, "cannot reach OpenCode at "+dead) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and the --server given", args, code, errs)
		}
	}
	code, out, _ := run(t, client.Options{}, "", "--server", "http://127.0.0.1:1", "tree", "--help")
	if code != codeOK || !strings.Contains(out, "octop tree") {
		t.Errorf("--server URL tree --help: exit %d, %q", code, out)
	}
}

// TestUsageIsOneLine: what cobra refuses before a command runs is one
// line on stderr, in octop's words, with the help to read, and exit 2.
func TestUsageIsOneLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"nosuch"}, "octop: unknown command \"nosuch\"; run `octop --help` for the list"},
		{[]string{"tre"}, "octop: unknown command \"tre\" (did you mean tree?); run `octop --help` for the list"},
		{[]string{"resme", "ses_1"}, "octop: unknown command \"resme\" (did you mean resume?); run"},
		{[]string{"wach", "--json"}, "octop: unknown command \"wach\" (did you mean watch?); run"},
		{[]string{"--bogus"}, "octop: flag provided but not defined: --bogus; run `octop --help` for the flags"},
		{[]string{"--loop", "x"}, `octop: invalid value "x" for flag --loop: parse error; run`},
		{[]string{"--stall", "soon"}, `octop: invalid value "soon" for flag --stall: parse error; run`},
		{[]string{"--demo=maybe"}, `octop: invalid boolean value "maybe" for --demo: parse error; run`},
		{[]string{"tree", "--json", "--server"}, "octop tree: flag needs an argument: --server (see octop tree --help)"},
		{[]string{"tree", "--all-projects"}, "octop tree: flag provided but not defined: --all-projects (see octop tree --help)"},
		{[]string{"result", "-x", "ses_1"}, "octop result: flag provided but not defined: -x (see octop result --help)"},
		{[]string{"man", "extra"}, "octop: "},
	} {
		code, out, errs := run(t, deadServer(t), "", tc.args...)
		if code != codeUsage || out != "" {
			t.Errorf("%v: exit %d, stdout %q; want 2 and nothing", tc.args, code, out)
		}
		if !strings.HasPrefix(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: stderr %q, want one line starting %q", tc.args, errs, tc.want)
		}
	}
}

// TestSingleDashFlags: -name and -name=value, as Go's flag package took
// them, still work; a flag's value that looks like a flag is left alone.
func TestSingleDashFlags(t *testing.T) {
	dead := deadServer(t).BaseURL
	code, _, errs := run(t, client.Options{BaseURL: "http://127.0.0.1:1"}, "", "-server", dead, "tree", "-json")
	if code != codeFail || !strings.Contains(errs, "cannot reach OpenCode at "+dead) {
		t.Errorf("-server URL tree -json: exit %d, stderr %q", code, errs)
	}
	code, out, _ := run(t, client.Options{}, "", "abort", "-help")
	if code != codeOK || !strings.Contains(out, "octop abort") {
		t.Errorf("abort -help: exit %d, %q", code, out)
	}
	got := dashed((&app{}).newRoot(), []string{"-server=x", "launch", "-prompt", "-json", "-wait", "-h", "--", "-json"})
	want := []string{"--server=x", "launch", "--prompt", "-json", "--wait", "-h", "--", "-json"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("dashed = %q, want %q", got, want)
	}
}

func TestPromptFromStdin(t *testing.T) {
	cmd := &command{name: "launch", stdio: cmdIO{in: strings.NewReader("line 1\nline 2\n")}}
	got, err := cmd.readPrompt("-")
	if err != nil || got != "line 1\nline 2\n" {
		t.Errorf("readPrompt(-) = %q, %v", got, err)
	}
}

// TestFlagUsagePlain: fang's help and the man page print a flag's usage
// as it is written, so a Go-flag style `NAME` placeholder would show its
// backquotes; write the NAME plainly.
func TestFlagUsagePlain(t *testing.T) {
	root := (&app{}).newRoot()
	for _, c := range append(root.Commands(), root) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if strings.Contains(f.Usage, "`") {
				t.Errorf("octop %s --%s: a backquote in %q", c.Name(), f.Name, f.Usage)
			}
		})
	}
}
