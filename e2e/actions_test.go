package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/fakellm"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestActionsLaunchResultResume: launch under a chosen parent makes exactly
// one child (parent, title, deny rules), it runs to completion and `result
// --wait` prints its final text; resume continues the same session.
func TestActionsLaunchResultResume(t *testing.T) {
	parallel(t)
	actForTargets(t, func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		root := actNewRoot(t, ctx, c, "octop e2e parent")
		other := actNewRoot(t, ctx, c, "octop e2e bystander")
		before, err := c.Sessions(ctx)
		if err != nil {
			t.Fatal(err)
		}

		const script = "LEAF steps=2 sleep=0.2"
		// The prompt comes on stdin (--prompt -), as a script would pipe it.
		code, out, errs := actOctop(t, s.URL, script+"\n", "launch", "--parent", root.ID, "--agent", "general",
			"--description", "count files", "--prompt", "-")
		if code != 0 || errs != "" {
			t.Fatalf("launch: exit %d, stderr %q", code, errs)
		}
		kids, err := actChildren(ctx, c, root.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(kids) != 1 {
			t.Fatalf("root has %d actChildren after one launch, want 1: %+v", len(kids), kids)
		}
		child := kids[0]
		want := fmt.Sprintf("task_id: %s\nagent: general\ndescription: count files\nstatus: launched\n", child.ID)
		if out != want {
			t.Errorf("launch printed %q, want %q", out, want)
		}
		if child.Title != "count files (@general subagent)" {
			t.Errorf("child title %q", child.Title)
		}
		after, _ := c.Sessions(ctx)
		if len(after) != len(before)+1 {
			t.Errorf("%d sessions after one launch, %d before: want exactly one more", len(after), len(before))
		}
		if otherKids, _ := actChildren(ctx, c, other.ID); len(otherKids) != 0 {
			t.Errorf("the bystander root got children: %+v", otherKids)
		}
		// 1.1.65 does not echo a session's permission rules back; 1.18 does.
		if !harness.Is11(s.Version) || len(child.Permission) > 0 {
			if !actSameRules(child.Permission, live.DenyRules()) {
				t.Errorf("child permission %+v, want %+v", child.Permission, live.DenyRules())
			}
		}

		code, out, _ = actOctop(t, s.URL, "", "result", child.ID, "--wait", "--timeout", testwait.Scale(actE2eWait).String())
		final := fakellm.FinalText(actMustScript(t, script))
		wantRes := fmt.Sprintf("status: complete\ntask_id: %s\n\n<task_result>\n%s\n</task_result>\n", child.ID, final)
		if code != 0 || out != wantRes {
			t.Errorf("result --wait: exit %d, printed %q; want 0 and %q", code, out, wantRes)
		}

		// Resume: same id, more messages, the new answer is the result.
		msgsBefore, err := c.Messages(ctx, child.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		const again = "SLOW words=4 delay=0.05"
		code, out, errs = actOctop(t, s.URL, "", "resume", child.ID, "--prompt", again, "--wait", "--timeout", testwait.Scale(actE2eWait).String())
		final2 := fakellm.FinalText(actMustScript(t, again))
		wantOut := fmt.Sprintf("task_id: %s\nagent: general\nstatus: resumed\n\nstatus: complete\ntask_id: %s\n\n<task_result>\n%s\n</task_result>\n", child.ID, child.ID, final2)
		if code != 0 || out != wantOut {
			t.Errorf("resume --wait: exit %d, printed %q (stderr %q); want 0 and %q", code, out, errs, wantOut)
		}
		msgsAfter, _ := c.Messages(ctx, child.ID, 0)
		if len(msgsAfter) <= len(msgsBefore) {
			t.Errorf("resume did not add messages: %d before, %d after", len(msgsBefore), len(msgsAfter))
		}
		if kids, _ := actChildren(ctx, c, root.ID); len(kids) != 1 || kids[0].ID != child.ID {
			t.Errorf("resume must continue the same session, root's actChildren are now %+v", kids)
		}

		// The tree shows it: one child under the root, complete, with its
		// two bash calls.
		code, out, _ = actOctop(t, s.URL, "", "tree", "--json")
		var roots []*live.Node
		if code != 0 || json.Unmarshal([]byte(out), &roots) != nil {
			t.Fatalf("tree --json: exit %d, output %q", code, out)
		}
		var got *live.Node
		for _, r := range roots {
			if r.ID == root.ID && len(r.Children) == 1 {
				got = r.Children[0]
			}
		}
		if got == nil || got.ID != child.ID || got.Status != model.StatusComplete || got.Tools.Completed != 2 {
			t.Errorf("tree --json: the root's child is %+v, want %s complete with 2 completed tools", got, child.ID)
		}
		if code, out, _ = actOctop(t, s.URL, "", "tree"); code != 0 || !strings.Contains(out, "└─ "+child.ID+"  complete  tools:2  count files (@general subagent)") {
			t.Errorf("tree: exit %d, output:\n%s", code, out)
		}
	})
}

func actMustScript(t *testing.T, text string) fakellm.Script {
	t.Helper()
	sc, ok := fakellm.ParseScript(text)
	if !ok {
		t.Fatalf("no scenario in %q", text)
	}
	return sc
}

// TestActionsAbortOneOfThree: with three runaway actChildren running, aborting
// one stops that one (MessageAbortedError, idle) and the other two keep
// going; resuming a busy one is refused.
func TestActionsAbortOneOfThree(t *testing.T) {
	parallel(t)
	actForVersions(t, func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		root := actNewRoot(t, ctx, c, "octop e2e runaways")
		var ids []string
		for i := 1; i <= 3; i++ {
			// The first, aborted below, in the middle of a long call (see
			// actWaitCallUnderWay); the others must be seen to go on.
			script := "RUNAWAY sleep=0.3"
			if i == 1 {
				script = "RUNAWAY sleep=30"
			}
			kid, err := live.Launch(ctx, c, task.LaunchRequest{Parent: root.ID, Agent: "general",
				Description: fmt.Sprintf("runaway %d", i), Prompt: script})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, kid.ID)
		}
		for _, id := range ids {
			actWaitRun(t, ctx, c, id, wire.StatusBusy)
		}

		// A busy task refuses a second prompt and gets none.
		msgs, _ := c.Messages(ctx, ids[1], 0)
		users := actCountRole(msgs, "user")
		code, _, errs := actOctop(t, s.URL, "", "resume", ids[1], "--prompt", "more")
		if code != 1 || !strings.Contains(errs, "is still running") {
			t.Errorf("resume of a busy task: exit %d, stderr %q; want 1 and 'is still running'", code, errs)
		}
		msgs, _ = c.Messages(ctx, ids[1], 0)
		if n := actCountRole(msgs, "user"); n != users {
			t.Errorf("the refused resume sent a prompt: %d user messages, had %d", n, users)
		}

		// Waiting on a task that never ends gives up at --timeout, exit 5.
		code, _, errs = actOctop(t, s.URL, "", "result", ids[2], "--wait", "--timeout", "1s")
		if code != 5 || !strings.Contains(errs, ids[2]+" is still running; gave up waiting") {
			t.Errorf("result --wait --timeout 1s on a runaway: exit %d, stderr %q", code, errs)
		}

		actWaitCallUnderWay(t, ctx, c, ids[0])
		code, out, _ := actOctop(t, s.URL, "", "abort", ids[0])
		if code != 0 || !strings.HasPrefix(out, "aborted: "+ids[0]+"  runaway 1 (@general subagent)\n") || strings.Count(out, "\n") != 1 {
			t.Errorf("abort: exit %d, printed %q", code, out)
		}
		actWaitRun(t, ctx, c, ids[0], wire.StatusIdle)
		// 1.1.65 can show the aborted reply finished, without its error,
		// for a moment after the session goes idle: wait for the server's
		// word (full runs caught it so once).
		_ = testwait.Poll(func() error {
			if code, out, _ = actOctop(t, s.URL, "", "result", ids[0]); code != 4 {
				return fmt.Errorf("exit %d", code)
			}
			return nil
		}, 30*time.Second)
		if code != 4 || !strings.Contains(out, "status: error\n") || !strings.Contains(out, "error: MessageAbortedError") {
			t.Errorf("result of the aborted task: exit %d, printed %q; want 4 and MessageAbortedError", code, out)
		}
		actWaitProgress(t, ctx, c, ids[1], ids[2])
		if st, _ := actStatusType(ctx, c, root.ID); st != wire.StatusIdle {
			t.Errorf("the idle parent is %s after aborting a child", st)
		}

		// Aborting it again: nothing to abort, exit 0, nothing sent.
		code, out, errs = actOctop(t, s.URL, "", "abort", ids[0])
		if code != 0 || out != "" || !strings.Contains(errs, "nothing to abort") {
			t.Errorf("abort of an idle task: exit %d, stdout %q, stderr %q", code, out, errs)
		}
	})
}

func actCountRole(msgs []wire.MessageWithParts, role string) int {
	n := 0
	for _, m := range msgs {
		if m.Info.Role == role {
			n++
		}
	}
	return n
}

// TestActionsAbortTree: aborting a subtree stops exactly that subtree,
// deepest first, while a second busy root outside it keeps running.
func TestActionsAbortTree(t *testing.T) {
	parallel(t)
	actForVersions(t, func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		// rootA ── mid (agent deep) ─┬─ leaf 1 (runaway)
		//                            └─ leaf 2 (runaway)
		a := actStartRoot(t, ctx, c, "octop e2e subtree", `NESTED k=1 agent=deep kids=2 leafagent=general leaf="RUNAWAY sleep=30"`)
		b := actStartRoot(t, ctx, c, "octop e2e outside", "RUNAWAY sleep=0.3")
		var mid wire.Session
		var leaves []wire.Session
		actWaitFor(t, "the subtree's three actChildren to run", func() (bool, error) {
			kids, err := actChildren(ctx, c, a.ID)
			if err != nil || len(kids) != 1 {
				return false, err
			}
			mid = kids[0]
			leaves, err = actChildren(ctx, c, mid.ID)
			if err != nil || len(leaves) != 2 {
				return false, err
			}
			st, err := c.Status(ctx)
			for _, id := range []string{a.ID, mid.ID, leaves[0].ID, leaves[1].ID, b.ID} {
				if st[id].Type != wire.StatusBusy {
					return false, err
				}
			}
			return true, err
		})
		// Let the leaves get going: a call under way each, where the
		// abort lands (see actWaitCallUnderWay).
		for _, l := range leaves {
			actWaitCallUnderWay(t, ctx, c, l.ID)
		}

		code, out, errs := actOctop(t, s.URL, "", "abort", "--tree", a.ID)
		if code != 0 {
			t.Fatalf("abort --tree: exit %d, stderr %q", code, errs)
		}
		var aborted []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || f[0] != "aborted:" {
				t.Fatalf("abort --tree printed %q", out)
			}
			aborted = append(aborted, f[1])
		}
		if len(aborted) != 4 || aborted[2] != mid.ID || aborted[3] != a.ID ||
			!actSameSet(aborted[:2], []string{leaves[0].ID, leaves[1].ID}) {
			t.Errorf("aborted %v, want the two leaves, then %s, then %s", aborted, mid.ID, a.ID)
		}
		for _, id := range []string{leaves[0].ID, leaves[1].ID, mid.ID, a.ID} {
			actWaitRun(t, ctx, c, id, wire.StatusIdle)
		}
		actWaitProgress(t, ctx, c, b.ID)
		for _, l := range leaves {
			r, err := live.Result(ctx, c, l.ID)
			if err != nil || r.State != model.StatusError || r.Error == nil || r.Error.Name != "MessageAbortedError" {
				t.Errorf("leaf %s after abort: %+v, %v; want error MessageAbortedError", l.ID, r, err)
			}
		}
	})
}

// sameRules compares rule sets; the server may reorder them.
func actSameRules(a, b []wire.PermissionRule) bool {
	var as, bs []string
	for _, r := range a {
		as = append(as, r.Permission+" "+r.Pattern+" "+r.Action)
	}
	for _, r := range b {
		bs = append(bs, r.Permission+" "+r.Pattern+" "+r.Action)
	}
	return actSameSet(as, bs)
}

func actSameSet(a, b []string) bool {
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, n := range m {
		if n != 0 {
			return false
		}
	}
	return len(a) == len(b)
}

// TestActionsBadInput: an unknown id, a malformed id, an empty prompt, an
// unknown agent and a dead server each get one clear line and their exit
// code, and nothing reaches the server that changes it.
func TestActionsBadInput(t *testing.T) {
	parallel(t)
	actForVersions(t, func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		root := actNewRoot(t, ctx, c, "octop e2e bad input")
		before, err := c.Sessions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		modelCalls := s.Fake.Requests()
		const unknown = "ses_0000000000000000000000000"
		launch := func(parent, agent, desc, prompt string) []string {
			return []string{"launch", "--parent", parent, "--agent", agent, "--description", desc, "--prompt", prompt}
		}
		tests := []struct {
			name string
			args []string
			code int
			want string
		}{
			{"launch unknown parent", launch(unknown, "general", "d", "LEAF"), 3, "no session " + unknown + " on this server"},
			{"launch malformed parent", launch("ses-bad!", "general", "d", "LEAF"), 2, `"ses-bad!" is not a session id`},
			{"launch empty prompt", launch(root.ID, "general", "d", "  \n"), 2, "the prompt is empty"},
			{"launch unknown agent", launch(root.ID, "nosuchagent", "d", "LEAF"), 2, `unknown agent "nosuchagent"; use one of:`},
			{"launch primary agent", launch(root.ID, "build", "d", "LEAF"), 2, `agent "build" is mode primary and cannot run as a task`},
			{"resume unknown id", []string{"resume", unknown, "--prompt", "LEAF"}, 3, "no session " + unknown},
			{"resume malformed id", []string{"resume", "nope", "--prompt", "LEAF"}, 2, `"nope" is not a session id`},
			{"resume empty prompt", []string{"resume", root.ID, "--prompt", " "}, 2, "the prompt is empty"},
			{"resume unknown agent", []string{"resume", root.ID, "--prompt", "LEAF", "--agent", "nosuchagent"}, 2, "unknown agent"},
			{"abort unknown id", []string{"abort", unknown}, 3, "no session " + unknown},
			{"abort malformed id", []string{"abort", "ses_with space"}, 2, "is not a session id"},
			{"abort --tree unknown id", []string{"abort", "--tree", unknown}, 3, "no session " + unknown},
			{"result unknown id", []string{"result", unknown, "--wait"}, 3, "no session " + unknown},
			{"result malformed id", []string{"result", "12345"}, 2, "is not a session id"},
		}
		for _, tt := range tests {
			code, out, errs := actOctop(t, s.URL, "", tt.args...)
			if code != tt.code || out != "" || !strings.Contains(errs, tt.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and one line with %q", tt.name, code, out, errs, tt.code, tt.want)
			}
		}
		after, err := c.Sessions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Errorf("bad input changed the server's sessions:\nbefore %+v\nafter  %+v", before, after)
		}
		if msgs, _ := c.Messages(ctx, root.ID, 0); len(msgs) != 0 {
			t.Errorf("bad input reached the root: %d messages", len(msgs))
		}
		if n := s.Fake.Requests(); n != modelCalls {
			t.Errorf("bad input made the model run: %d requests, had %d", n, modelCalls)
		}
	})

	t.Run("dead server", func(t *testing.T) {
		dead := actDeadURL(t)
		for _, args := range [][]string{
			{"launch", "--parent", "ses_abc", "--agent", "general", "--description", "d", "--prompt", "p"},
			{"resume", "ses_abc", "--prompt", "p"},
			{"abort", "ses_abc"},
			{"result", "ses_abc", "--wait"},
			{"tree"},
		} {
			code, out, errs := actOctop(t, dead, "", args...)
			if code != 1 || out != "" || !strings.Contains(errs, "cannot reach OpenCode at "+dead+" — is `opencode serve` running?") || strings.Count(errs, "\n") != 1 {
				t.Errorf("%v on a dead server: exit %d, stdout %q, stderr %q", args, code, out, errs)
			}
		}
	})
}

// actDeadURL is a loopback URL where nothing listens.
func actDeadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// TestActionsPassword: the connection flags reach the server; a password
// server refuses a command without one in a single clear line.
func TestActionsPassword(t *testing.T) {
	parallel(t)
	s := harness.Start(t, harness.Config{Version: harness.V118, Password: "s3cret"})
	code, _, errs := actOctop(t, s.URL, "", "tree")
	if code != 1 || !strings.Contains(errs, "wants a password; set OPENCODE_SERVER_PASSWORD") || strings.Count(errs, "\n") != 1 {
		t.Errorf("tree without the password: exit %d, stderr %q", code, errs)
	}
	code, _, errs = actOctop(t, s.URL, "", "tree", "--password", "wrong")
	if code != 1 || !strings.Contains(errs, "OpenCode at "+s.URL+" rejected the password from --password") {
		t.Errorf("tree with a wrong password: exit %d, stderr %q", code, errs)
	}
	code, out, _ := actOctop(t, s.URL, "", "tree", "--password", "s3cret", "--username", "opencode")
	if code != 0 || out != "no sessions\n" {
		t.Errorf("tree with the password: exit %d, stdout %q", code, out)
	}
}
