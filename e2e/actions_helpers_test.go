package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// The actions tests drive the actOctop binary the way a script does (same
// code path as the TUI's actions: the actions package) against a real
// opencode serve with the fake model, and check the server's side of it
// over REST.

// actE2eWait bounds every condition these tests wait for. Generous: the
// machine running them may be busy.
const actE2eWait = 90 * time.Second

// actOctopBinary is the octop binary, built once per test binary (shared
// with the TUI tests, see tuiOctopBinary).
func actOctopBinary(t *testing.T) string { return tuiOctopBinary(t) }

// actOctop runs the binary against url and returns its exit code and output.
func actOctop(t *testing.T, url, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(2*actE2eWait))
	defer cancel()
	if url != "" {
		args = append(args, "--server", url)
	}
	cmd := exec.CommandContext(ctx, actOctopBinary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errb
	// The caller's own OpenCode settings must not leak in.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENCODE_SERVER_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	err := cmd.Run()
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("octop %v: %v\nstderr: %s", args, err, errb.String())
	}
	t.Logf("octop %s → exit %d\n%s%s", strings.Join(args, " "), code, actClip(out.String()), actClip(errb.String()))
	return code, out.String(), errb.String()
}

// actClip is s cut to its first KB for the log: a failure's own message
// must not drown under pages of JSON (CI shows only a part of the output).
func actClip(s string) string {
	const max = 1 << 10
	if len(s) <= max {
		return s
	}
	return fmt.Sprintf("%s… (%d more bytes)\n", s[:max], len(s)-max)
}

func actNewClient(t *testing.T, s *harness.Server) *client.Client {
	t.Helper()
	c, err := client.New(client.Options{BaseURL: s.URL, Timeout: testwait.Scale(20 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func actCtxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(4*actE2eWait))
	t.Cleanup(cancel)
	return ctx
}

// actWaitFor polls cond until it holds or actE2eWait passes.
func actWaitFor(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	testwait.Check(t, func() error {
		ok, err := cond()
		if ok {
			return nil
		}
		return fmt.Errorf("last error: %v", err)
	}, actE2eWait, "%s", what)
}

func actStatusType(ctx context.Context, c *client.Client, id string) (string, error) {
	st, err := c.Status(ctx)
	if err != nil {
		return "", err
	}
	if s, ok := st[id]; ok {
		return s.Type, nil
	}
	return wire.StatusIdle, nil
}

func actWaitRun(t *testing.T, ctx context.Context, c *client.Client, id, want string) {
	t.Helper()
	actWaitFor(t, id+" to be "+want, func() (bool, error) {
		got, err := actStatusType(ctx, c, id)
		return got == want, err
	})
}

// actCompletedTools counts a session's finished tool calls: a number that
// grows only while the session still runs.
func actCompletedTools(ctx context.Context, c *client.Client, id string) (int, error) {
	msgs, err := c.Messages(ctx, id, 0)
	n := 0
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Type == wire.PartTool && p.State != nil && p.State.Status == wire.ToolCompleted {
				n++
			}
		}
	}
	return n, err
}

// actWaitCallUnderWay waits until session id has a tool call running. A
// test that checks an abort's MessageAbortedError aborts there, in a long
// call: an abort that lands between two steps (a call done, the next reply
// not begun) ends a 1.1.65 run with no error, its last reply finished
// "tool-calls" (reproduced once in 16 aborts at successive offsets of a
// 0.3 s loop; 1.18 records the error every time).
func actWaitCallUnderWay(t *testing.T, ctx context.Context, c *client.Client, id string) {
	t.Helper()
	actWaitFor(t, id+" to have a tool call under way", func() (bool, error) {
		msgs, err := c.Messages(ctx, id, 0)
		for _, m := range msgs {
			for _, p := range m.Parts {
				if p.Type == wire.PartTool && p.State != nil && p.State.Status == wire.ToolRunning {
					return true, nil
				}
			}
		}
		return false, err
	})
}

// actWaitProgress waits until each session has finished more tool calls than
// it had at the start, which proves it kept running.
func actWaitProgress(t *testing.T, ctx context.Context, c *client.Client, ids ...string) {
	t.Helper()
	for _, id := range ids {
		start, err := actCompletedTools(ctx, c, id)
		if err != nil {
			t.Fatal(err)
		}
		actWaitFor(t, id+" to keep running (finish another tool call)", func() (bool, error) {
			n, err := actCompletedTools(ctx, c, id)
			return n > start, err
		})
		if st, _ := actStatusType(ctx, c, id); st != wire.StatusBusy {
			t.Errorf("%s is %s, want it still busy", id, st)
		}
	}
}

func actChildren(ctx context.Context, c *client.Client, parent string) ([]wire.Session, error) {
	all, err := c.Sessions(ctx)
	var out []wire.Session
	for _, s := range all {
		if s.ParentID == parent {
			out = append(out, s)
		}
	}
	return out, err
}

// actNewRoot creates an idle root session to launch tasks under.
func actNewRoot(t *testing.T, ctx context.Context, c *client.Client, title string) wire.Session {
	t.Helper()
	s, err := c.CreateSession(ctx, client.CreateSessionRequest{Title: title})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// actStartRoot creates a root and prompts it with a fake-model script.
func actStartRoot(t *testing.T, ctx context.Context, c *client.Client, title, script string) wire.Session {
	t.Helper()
	s := actNewRoot(t, ctx, c, title)
	if err := c.PromptAsync(ctx, s.ID, client.PromptRequest{Parts: []client.TextPartInput{{Text: script}}}); err != nil {
		t.Fatal(err)
	}
	return s
}

// actStopAll aborts whatever still runs, so a failed test does not leave the
// fake model busy for the next one.
func actStopAll(c *client.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(20*time.Second))
	defer cancel()
	st, _ := c.Status(ctx)
	for id := range st {
		_ = c.Abort(ctx, id)
	}
}

func actForVersions(t *testing.T, f func(t *testing.T, s *harness.Server)) {
	for _, v := range harness.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel() // each version on a server of its own
			s := harness.Start(t, harness.Config{Version: v})
			f(t, s)
		})
	}
}
