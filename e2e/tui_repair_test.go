package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/fakellm"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/internal/wire"
)

// TestTUISteerAndRetry drives m and a in a real terminal, recording: m
// tells a child held mid-step (its bash call waits on a permission) and
// its transcript marks the message queued until the model's next step
// heard it; a opens the launch form filled with a failed child's task and
// launches its retry, which the tree links. The replay shows the link,
// and refuses m and a.
func TestTUISteerAndRetry(t *testing.T) {
	parallel(t)
	tuiRequireTmux(t)
	s := harness.Start(t, harness.Config{Version: harness.V118, Extra: map[string]any{
		"permission": map[string]any{"*": "allow", "bash": "ask"}}})
	ctx := actCtxFor(t)
	c := actNewClient(t, s)
	defer actStopAll(c)
	root := actNewRoot(t, ctx, c, "tui repair root")
	failed, err := live.Launch(ctx, c, task.LaunchRequest{Parent: root.ID, Agent: "general", Description: "doomed", Prompt: "ERROR status=400"})
	if err != nil {
		t.Fatal(err)
	}
	actWaitRun(t, ctx, c, failed.ID, wire.StatusIdle)
	steered, err := live.Launch(ctx, c, task.LaunchRequest{Parent: root.ID, Agent: "general", Description: "steered", Prompt: "STEER steps=3 sleep=0.1"})
	if err != nil {
		t.Fatal(err)
	}
	ask := repairWaitAsk(t, ctx, c, steered.ID)

	path := filepath.Join(t.TempDir(), "repair.ndjson.gz")
	tm := tuiStart(t, 160, 48, "--server", s.URL, "--record", path)
	tm.waitFor("both children in the tree", func(sc string) bool {
		return strings.Contains(sc, "● connected") && strings.Contains(sc, "doomed @general") && strings.Contains(sc, "steered @general")
	})

	// m on the steered child (root, doomed, steered): the message goes.
	tm.actSend("j", "j")
	tm.waitFor("the steered child selected", func(sc string) bool { return strings.Contains(actHeader(sc), "steered") })
	tm.actSend("m")
	tm.waitFor("the steer form", func(sc string) bool { return strings.Contains(sc, "running: the model sees this at its next step") })
	const said = "only the parser please"
	tm.actType(said)
	tm.actSend("C-s")
	tm.waitFor("the queued notice", func(sc string) bool { return strings.Contains(sc, "told task_id "+steered.ID+": queued") })
	tm.actSend("t")
	tm.waitFor("the message queued in the transcript", func(sc string) bool {
		return strings.Contains(sc, "» "+said) && strings.Contains(sc, transcript.QueuedNote)
	})
	if err := c.ReplyPermission(ctx, ask.ID, client.ReplyOnce, ""); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("the model's answer, the note gone", func(sc string) bool {
		return strings.Contains(sc, fakellm.HeardText(said)) && !strings.Contains(sc, transcript.QueuedNote)
	})
	tm.actSend("Escape")
	tm.waitFor("the transcript closed", func(sc string) bool { return !strings.Contains(sc, "transcript  steered") })

	// a on the failed child: the form holds its task; ctrl+s retries it.
	tm.actSend("k")
	tm.waitFor("the failed child selected", func(sc string) bool { return strings.Contains(actHeader(sc), "doomed") })
	tm.actSend("a")
	tm.waitFor("the retry form, filled", func(sc string) bool {
		return strings.Contains(sc, "Retry doomed") && strings.Contains(sc, "ERROR status=400") && strings.Contains(sc, "retries "+failed.ID)
	})
	tm.actSend("C-s")
	tm.waitFor("the retry's notice", func(sc string) bool { return strings.Contains(sc, "(retry of "+failed.ID+")") })
	link := "doomed @general ↺ retry of " + failed.ID
	tm.waitFor("the retry linked in the tree", func(sc string) bool { return strings.Contains(sc, link) })
	kids, err := actChildren(ctx, c, root.ID)
	if err != nil || len(kids) != 3 {
		t.Fatalf("the root's children after a: %+v, %v", kids, err)
	}
	tm.actSend("q")
	closedRecording(t, path)

	replay := tuiStart(t, 160, 48, "--replay", path, "--speed", "32")
	replay.waitFor("the replay to link the retry", func(sc string) bool { return strings.Contains(sc, link) })
	// (ui's TestDemoMutatingKeysSayReadOnly checks each key alone.)
	replay.actSend("m", "a")
	sc := replay.waitFor("m and a to answer read-only", func(sc string) bool { return strings.Contains(sc, "replay: read-only") })
	if strings.Contains(sc, "Tell ") || strings.Contains(sc, "Retry ") {
		t.Errorf("the replay opened a form:\n%s", sc)
	}
}
