package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestReadOnlySendsNothing: with --read-only, or read_only in the config
// file, every command that would launch, resume or abort says read-only,
// exits 2 and sends the server nothing that changes it; the commands that
// read still work.
func TestReadOnlySendsNothing(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	sc := srv.AddShowcase()
	hostileEnv(t, srv.URL())
	changing := [][]string{
		{"launch", "--parent", sc.Root, "--agent", "reviewer", "--description", "d", "--prompt", "p"},
		{"launch", "--agent", "build", "--description", "d", "--prompt", "p"},
		{"resume", sc.Done, "--prompt", "again"},
		{"resume", sc.Done, "--prompt", "again", "--wait"},
		{"say", sc.Worker, "only the parser"},
		{"say", sc.Done, "again"},
		{"retry", sc.Failed},
		{"retry", sc.Done, "--prompt", "again", "--wait", "--json"},
		{"abort", sc.Worker},
		{"abort", "--tree", sc.Root},
		{"undo", sc.Worker, "--yes", "--force"},
		{"redo", sc.Worker},
	}
	check := func(how string, prefix []string) {
		t.Helper()
		for _, args := range changing {
			all := append(append([]string{}, prefix...), args...)
			if prefix == nil {
				all = append(append([]string{}, args...), "--read-only")
			}
			code, out, errs := octopMain(t, all...)
			if code != codeUsage || !strings.Contains(errs, "read-only") || strings.Count(errs, "\n") != 1 || out != "" {
				t.Errorf("%s: octop %s: exit %d, stdout %q, stderr %q; want 2 and one line saying read-only",
					how, strings.Join(all, " "), code, out, errs)
			}
		}
		for _, args := range [][]string{{"tree"}, {"result", sc.Done}, {"log", sc.Root}} {
			if code, _, errs := octopMain(t, append(append([]string{}, prefix...), args...)...); code != codeOK {
				t.Errorf("%s: octop %s: exit %d: %s", how, args[0], code, errs)
			}
		}
		if m := srv.Mutations(); len(m) != 0 {
			t.Errorf("%s: the server was sent %v", how, m)
		}
	}
	check("--read-only after the command", nil)
	check("--read-only before the command", []string{"--read-only"})

	cfg := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, []byte("[[server]]\nname = \"work\"\nurl = \""+srv.URL()+"\"\nread_only = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OCTOP_CONFIG", cfg)
	t.Setenv("OPENCODE_SERVER_URL", "")
	check("read_only in the config file", []string{"--server", "work"})
	if code, out, _ := octopMain(t, "config"); code != 0 || !strings.Contains(out, "read-only      yes (config file, server \"work\")") {
		t.Errorf("octop config does not say the server is read-only:\n%s", out)
	}
}

// TestReadOnlyWatchAbortsNothing: watch --abort-on on a read-only server
// says it only marks.
func TestReadOnlyWatchAbortsNothing(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	var out, errb syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		a := &app{stdio: cmdIO{nil, &out, &errb}, base: client.Options{BaseURL: srv.URL()}}
		done <- a.executeContext(ctx, []string{"watch", "--read-only", "--abort-on", "loop"})
	}()
	testwait.Eventually(t, func() bool { return strings.Contains(errb.String(), "watching") }, 10*time.Second, "watch to start")
	cancel()
	<-done
	if !strings.Contains(errb.String(), "octop watch: read-only: --abort-on marks runaways and aborts nothing") {
		t.Errorf("stderr %q", errb.String())
	}
}
