package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// The background tests run on each 1.18 target with background subagents
// on (harness.BackgroundTargets): the server's own async tasks, which
// octop must follow to their end.

// bgOctop is an octop command running on its own while the test looks
// (`octop watch` has its own: startWatch). Its output is read once it
// has exited.
type bgOctop struct {
	cmd      *exec.Cmd
	out, err bytes.Buffer
	done     chan struct{}
}

// startOctop starts the octop binary against url without waiting for it.
func startOctop(t *testing.T, url string, args ...string) *bgOctop {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(2*actE2eWait))
	t.Cleanup(cancel)
	o := &bgOctop{done: make(chan struct{})}
	o.cmd = exec.CommandContext(ctx, actOctopBinary(t), append(args, "--server", url)...)
	o.cmd.Stdout, o.cmd.Stderr = &o.out, &o.err
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENCODE_SERVER_") {
			o.cmd.Env = append(o.cmd.Env, kv)
		}
	}
	if err := o.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = o.cmd.Wait(); close(o.done) }()
	return o
}

// wait waits for the command to exit and returns its code and output.
func (o *bgOctop) wait(t *testing.T) (int, string) {
	t.Helper()
	<-o.done
	t.Logf("octop %s → exit %d\n%s%s", strings.Join(o.cmd.Args[1:], " "), o.cmd.ProcessState.ExitCode(), actClip(o.out.String()), actClip(o.err.String()))
	return o.cmd.ProcessState.ExitCode(), o.out.String()
}

func (o *bgOctop) exited() bool { return closed(o.done) }

// closed says whether ch is closed, without waiting.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// treeNode runs `octop tree --json` and returns the node of id.
func treeNode(t *testing.T, url, id string) *live.Node {
	t.Helper()
	code, out, _ := actOctop(t, url, "", "tree", "--json")
	if code != 0 {
		t.Fatalf("octop tree --json: exit %d", code)
	}
	var roots []*live.Node
	if err := json.Unmarshal([]byte(out), &roots); err != nil {
		t.Fatal(err)
	}
	var find func([]*live.Node) *live.Node
	find = func(ns []*live.Node) *live.Node {
		for _, n := range ns {
			if n.ID == id {
				return n
			}
			if f := find(n.Children); f != nil {
				return f
			}
		}
		return nil
	}
	n := find(roots)
	if n == nil {
		t.Fatalf("octop tree --json has no %s", id)
	}
	return n
}

// noticesAnswered counts the end notices in a parent's messages, and
// those a finished assistant reply follows.
func noticesAnswered(msgs []wire.MessageWithParts) (notices, answered int) {
	for i, m := range msgs {
		if m.Info.Role != "user" || len(m.Parts) == 0 || !model.IsNotice(&m.Parts[0]) {
			continue
		}
		notices++
		if i+1 < len(msgs) && msgs[i+1].Info.Role == "assistant" && msgs[i+1].Info.Time.Completed != 0 {
			answered++
		}
	}
	return notices, answered
}

// doneAt is the index of the first session.done line of id, or -1.
func doneAt(lines []watchLine, id string) int {
	for i, l := range lines {
		if l.Event == "session.done" && l.ID == id {
			return i
		}
	}
	return -1
}

// doneCount is how many session.done lines of id there are.
func doneCount(lines []watchLine, id string) int {
	n := 0
	for _, l := range lines {
		if l.Event == "session.done" && l.ID == id {
			n++
		}
	}
	return n
}

// kidsOf is the ids of parent's children.
func kidsOf(ctx context.Context, t *testing.T, c *client.Client, parent string) []string {
	t.Helper()
	kids, err := actChildren(ctx, c, parent)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, k := range kids {
		ids = append(ids, k.ID)
	}
	return ids
}

// busyChildren is how many of parent's children are busy, of how many.
func busyChildren(ctx context.Context, c *client.Client, parent string) (busy, all int, err error) {
	kids, err := actChildren(ctx, c, parent)
	if err != nil {
		return 0, 0, err
	}
	st, err := c.Status(ctx)
	for _, k := range kids {
		if st[k.ID].Type == wire.StatusBusy {
			busy++
		}
	}
	return busy, len(kids), err
}

// TestBackgroundFanout: a root launched with `octop launch --wait` fans
// out to 2 background tasks and goes idle while they run. Meanwhile
// `octop tree --json` says it is running, reason background, its 2 task
// calls running; `octop watch --until-done`, started then, and the launch's
// --wait both end only once both children ended and the root answered
// both end notices; `octop log` shows each notice as such, not as a
// prompt.
func TestBackgroundFanout(t *testing.T) {
	forShared(t, harness.BackgroundTargets(), func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		desc := fmt.Sprintf("bg fanout %s", t.Name())
		launch := startOctop(t, s.URL, "launch", "--agent", "build", "--description", desc, "--wait",
			"--prompt", `FANOUT k=2 background=true desc=worker child="LEAF steps=4 sleep=1.5"`)
		var root wire.Session
		actWaitFor(t, "the root, idle, with both children busy", func() (bool, error) {
			all, err := c.Sessions(ctx)
			for _, ses := range all {
				if ses.Title == desc {
					root = ses
				}
			}
			if root.ID == "" || err != nil {
				return false, err
			}
			st, err := actStatusType(ctx, c, root.ID)
			busy, _, err2 := busyChildren(ctx, c, root.ID)
			return st == wire.StatusIdle && busy == 2, errors.Join(err, err2)
		})
		watch := startWatch(t, s.URL, "--root", root.ID, "--until-done")
		watchAll := startWatch(t, s.URL) // no --root: every session

		n := treeNode(t, s.URL, root.ID)
		if n.Status != "running" || n.Reason != "background" || n.Run != "idle" ||
			n.Tools.Running < 1 || n.Tools.Running+n.Tools.Completed != 2 {
			t.Errorf("tree --json while the children run: %+v", n)
		}
		if code, out, _ := actOctop(t, s.URL, "", "result", root.ID); code != 0 ||
			!strings.HasPrefix(out, "status: running\n") || !strings.Contains(out, "\nwaiting: ") {
			t.Errorf("result while the children run: exit %d\n%s", code, out)
		}
		if launch.exited() || closed(watch.done) {
			t.Errorf("launch --wait or watch --until-done ended while the children run")
		}

		code, out := launch.wait(t)
		msgs, err := c.Messages(ctx, root.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		busy, kids, _ := busyChildren(ctx, c, root.ID)
		notices, answered := noticesAnswered(msgs)
		if busy != 0 || kids != 2 || notices != 2 || answered != 2 {
			t.Errorf("launch --wait returned with %d of %d children busy, %d notices, %d answered", busy, kids, notices, answered)
		}
		if code != 0 || !strings.Contains(out, "status: complete\n") || !strings.Contains(out, "<task_result>\nnoticed task ses_") {
			t.Errorf("launch --wait: exit %d\n%s", code, out)
		}
		wcode := watch.exitCode(t)
		lines := watch.snapshot()
		if wcode != 0 || len(lines) < 3 || lines[len(lines)-1].Event != "session.done" || lines[len(lines)-1].ID != root.ID ||
			doneAt(lines, root.ID) != len(lines)-1 {
			t.Errorf("watch --until-done: exit %d, want 0 and the root's end last, once", wcode)
		}

		watchAll.waitLine(t, "session.done", root.ID)
		all := watchAll.snapshot()
		for _, k := range kidsOf(ctx, t, c, root.ID) {
			if i := doneAt(all, k); i < 0 || i > doneAt(all, root.ID) {
				t.Errorf("plain watch: the root's end before its child %s's", k)
			}
		}
		if n := doneCount(all, root.ID); n != 1 {
			t.Errorf("plain watch printed the root's end %d times", n)
		}

		n = treeNode(t, s.URL, root.ID)
		if n.Status != "complete" || n.Reason != "" || n.Tools.Completed != 2 || n.Tools.Running != 0 {
			t.Errorf("tree --json at the end: %+v", n)
		}
		code, log, _ := actOctop(t, s.URL, "", "log", root.ID)
		if code != 0 || strings.Count(log, "◂ background task completed: worker ") != 2 || strings.Contains(log, "» <task") ||
			strings.Count(log, "  (background)\n") != 2 {
			t.Errorf("octop log:\n%s", log)
		}
		_, js, _ := actOctop(t, s.URL, "", "log", "--json", root.ID)
		if strings.Count(js, `"kind":"background"`) != 2 || strings.Count(js, `"kind":"prompt"`) != 1 {
			t.Errorf("octop log --json:\n%s", js)
		}
	})
}

// TestBackgroundAbortedChild: an aborted background child sends its
// parent no notice; the parent, waiting on it, is done once it stops, and
// its call shows the child's end.
func TestBackgroundAbortedChild(t *testing.T) {
	forShared(t, harness.BackgroundTargets(), func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		root := actStartRoot(t, ctx, c, "bg abort", `FANOUT k=2 background=true desc=worker child1="LEAF steps=1 sleep=0.2" child2="RUNAWAY sleep=1"`)
		var runaway string
		actWaitFor(t, "the first notice answered, the runaway running, the root idle", func() (bool, error) {
			msgs, err := c.Messages(ctx, root.ID, 0)
			_, answered := noticesAnswered(msgs)
			kids, err2 := actChildren(ctx, c, root.ID)
			st, err3 := c.Status(ctx)
			for _, k := range kids {
				if strings.HasPrefix(k.Title, "worker 2") && st[k.ID].Type == wire.StatusBusy {
					runaway = k.ID
				}
			}
			return answered == 1 && runaway != "" && st[root.ID].Type != wire.StatusBusy, errors.Join(err, err2, err3)
		})
		if n := treeNode(t, s.URL, root.ID); n.Status != "running" || n.Reason != "background" {
			t.Errorf("tree --json with the runaway running: %+v", n)
		}
		if code, _, _ := actOctop(t, s.URL, "", "abort", runaway); code != 0 {
			t.Fatalf("octop abort %s: exit %d", runaway, code)
		}
		code, out, _ := actOctop(t, s.URL, "", "result", root.ID, "--wait", "--timeout", actE2eWait.String())
		if code != 0 || !strings.HasPrefix(out, "status: complete\n") {
			t.Errorf("result --wait after the abort: exit %d\n%s", code, out)
		}
		n := treeNode(t, s.URL, root.ID)
		// The aborted child's call is aborted (■), neither failed nor done.
		if n.Status != "complete" || n.Tools.Completed != 1 || n.Tools.Aborted != 1 || n.Tools.Failed != 0 || n.Tools.Running != 0 {
			t.Errorf("tree --json after the abort: %+v", n)
		}
	})
}

// TestBackgroundNotForLaunchedChildren: a child started with `octop
// launch` does not make its idle parent wait; only the background tasks
// a session launched itself do.
func TestBackgroundNotForLaunchedChildren(t *testing.T) {
	forShared(t, harness.BackgroundTargets(), func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		parent := actStartRoot(t, ctx, c, "bg bystander parent", "say hello")
		actWaitFor(t, "the parent to answer", func() (bool, error) {
			msgs, err := c.Messages(ctx, parent.ID, 0)
			st, err2 := actStatusType(ctx, c, parent.ID)
			return len(msgs) >= 2 && st == wire.StatusIdle, errors.Join(err, err2)
		})
		code, out, _ := actOctop(t, s.URL, "", "launch", "--parent", parent.ID, "--agent", "general",
			"--description", "long job", "--prompt", "LEAF steps=6 sleep=1")
		if code != 0 {
			t.Fatalf("launch: exit %d\n%s", code, out)
		}
		child := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(out, "\n", 2)[0], "task_id:"))
		actWaitRun(t, ctx, c, child, wire.StatusBusy)
		if n := treeNode(t, s.URL, parent.ID); n.Status != "complete" || n.Reason != "" {
			t.Errorf("the parent of a launched child: %+v, want complete", n)
		}
		if code, out, _ := actOctop(t, s.URL, "", "result", parent.ID, "--wait", "--timeout", actE2eWait.String()); code != 0 ||
			!strings.HasPrefix(out, "status: complete\n") {
			t.Errorf("result --wait on the parent: exit %d\n%s", code, out)
		}
		if st, _ := actStatusType(ctx, c, child); st != wire.StatusBusy {
			t.Errorf("the launched child is %s after the parent's wait; the test proves nothing", st)
		}
	})
}
