package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
)

// tabTwice is a bash script that sources the completion script and presses
// Tab twice on `octop ab`, then prints what it offers. octop itself is a
// function here that answers __complete as octop would, and compopt,
// which bash allows only under a real Tab, does nothing.
const tabTwice = `
octop() { printf 'abort\tstop a running session\n:4\n'; }
compopt() { :; }
tab() {
	COMP_WORDS=(octop ab); COMP_CWORD=1; COMP_LINE="octop ab"; COMP_POINT=8
	__start_octop
}
tab; tab
echo "offered: ${COMPREPLY[*]}"
`

// bashTab runs tabTwice in a bash that loads no rc file, after prelude,
// and returns its stdout and stderr.
func bashTab(t *testing.T, script, prelude string) (string, string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash on this machine")
	}
	file := filepath.Join(t.TempDir(), "octop.bash")
	if err := os.WriteFile(file, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prelude+"\nsource "+file+"\n"+tabTwice)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("bash: %v, stderr %q", err, errb.String())
	}
	return out.String(), errb.String()
}

// TestBashCompletionWithoutThePackage: without the bash-completion
// package, Tab says in one line, once, which package is missing, instead
// of `_get_comp_words_by_ref: command not found` at every Tab (issue 28);
// with it (here a stand-in for its one function the script calls),
// completion works.
func TestBashCompletionWithoutThePackage(t *testing.T) {
	code, script, errs := run(t, client.Options{}, "", "completion", "bash")
	if code != 0 || errs != "" {
		t.Fatalf("completion bash: exit %d, stderr %q", code, errs)
	}
	out, errs := bashTab(t, script, "")
	if strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, "octop: bash completion needs the bash-completion package") ||
		strings.Contains(errs, "not found") {
		t.Errorf("without bash-completion: stderr %q, want one line naming the package", errs)
	}
	if strings.TrimSpace(out) != "offered:" {
		t.Errorf("without bash-completion: %q, want nothing offered", out)
	}
	stand := `_get_comp_words_by_ref() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; ` +
		`words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }`
	out, errs = bashTab(t, script, stand)
	if errs != "" || !strings.Contains(out, "offered: abort") {
		t.Errorf("with bash-completion: stdout %q, stderr %q, want abort offered", out, errs)
	}
}
