package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/fakellm"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/internal/wire"
)

// repairForTargets runs f on a server of its own for each target, with
// extra merged into its config.
func repairForTargets(t *testing.T, extra map[string]any, f func(t *testing.T, s *harness.Server)) {
	for _, tg := range harness.Targets() {
		t.Run(tg.Name, func(t *testing.T) {
			t.Parallel() // each target on a server of its own
			cfg := tg.Config()
			cfg.Extra = extra
			f(t, harness.Start(t, cfg))
		})
	}
}

// TestSteerRunningChild: octop say reaches a child in the middle of a
// step (its bash call held on a permission ask, so the step cannot end
// first): the message joins the conversation at once, log marks it queued,
// and once the step ends the model's next step shows it saw it (STEER
// answers "heard: …"). Then the transcript has it where the model saw it:
// after the step it came during, before the answer. An idle session is
// resumed by say.
func TestSteerRunningChild(t *testing.T) {
	parallel(t)
	repairForTargets(t, map[string]any{"permission": map[string]any{"*": "allow", "bash": "ask"}}, func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		root := actNewRoot(t, ctx, c, "octop e2e steer parent")
		code, out, errs := actOctop(t, s.URL, "", "launch", "--parent", root.ID, "--agent", "general",
			"--description", "steer me", "--prompt", "STEER steps=3 sleep=0.1")
		if code != 0 {
			t.Fatalf("launch: exit %d, stderr %q", code, errs)
		}
		child := strings.TrimPrefix(strings.SplitN(out, "\n", 2)[0], "task_id: ")
		ask := repairWaitAsk(t, ctx, c, child)

		const said = "only the parser, please"
		code, out, errs = actOctop(t, s.URL, "", "say", child, said)
		if want := "task_id: " + child + "\nagent: general\nstatus: queued\n"; code != 0 || out != want {
			t.Fatalf("say: exit %d, stdout %q, stderr %q; want 0 and %q", code, out, errs, want)
		}
		// The message is in the conversation before the step it came
		// during has ended (the ask holds it), and log says so.
		var msgs []wire.MessageWithParts
		actWaitFor(t, "the message in the child's conversation", func() (bool, error) {
			var err error
			msgs, err = c.Messages(ctx, child, 0)
			return repairPrompt(msgs, said) >= 0, err
		})
		if i := repairPrompt(msgs, said); i != len(msgs)-1 || msgs[i-1].Info.Role != "assistant" || msgs[i-1].Info.Time.Completed != 0 {
			t.Errorf("the message is at %d of %d, after %+v; want it last, after the reply still being made", i, len(msgs), msgs[max(i-1, 0)].Info)
		}
		code, out, _ = actOctop(t, s.URL, "", "log", child)
		if code != 0 || !strings.Contains(out, "» "+said+"\n  ("+transcript.QueuedNote+")\n") {
			t.Errorf("log while the step runs: exit %d, want the message marked queued:\n%s", code, out)
		}
		code, out, _ = actOctop(t, s.URL, "", "log", "--json", child)
		if code != 0 || !repairQueuedJSON(out, said) {
			t.Errorf("log --json while the step runs: exit %d, want the prompt with queued true:\n%s", code, out)
		}

		if err := c.ReplyPermission(ctx, ask.ID, client.ReplyOnce, ""); err != nil {
			t.Fatal(err)
		}
		code, out, _ = actOctop(t, s.URL, "", "result", child, "--wait", "--timeout", testwait.Scale(actE2eWait).String())
		if heard := fakellm.HeardText(said); code != 0 || !strings.Contains(out, "status: complete") || !strings.Contains(out, heard) {
			t.Fatalf("result --wait: exit %d, want complete with %q:\n%s", code, heard, out)
		}
		repairCheckSeenNext(t, ctx, c, child, said)
		code, out, _ = actOctop(t, s.URL, "", "log", child)
		step, msg, heard := strings.Index(out, "⟩ bash: "), strings.Index(out, "» "+said), strings.Index(out, fakellm.HeardText(said))
		if inOrder := step >= 0 && step < msg && msg < heard; code != 0 || !inOrder || strings.Contains(out, "queued") {
			t.Errorf("log at the end: exit %d; want the step, then the message (not queued), then the answer:\n%s", code, out)
		}

		// Idle now: say resumes it, and the model hears the new word.
		code, out, _ = actOctop(t, s.URL, "", "say", child, "and the lexer")
		if want := "task_id: " + child + "\nagent: general\nstatus: resumed\n"; code != 0 || out != want {
			t.Errorf("say to an idle child: exit %d, stdout %q; want %q", code, out, want)
		}
		actWaitFor(t, "the answer to the resumed child", func() (bool, error) {
			msgs, err := c.Messages(ctx, child, 0)
			text, _ := lastAssistantText(msgs)
			return text == fakellm.HeardText("and the lexer"), err
		})
	})
}

// repairWaitAsk waits for session id's permission ask.
func repairWaitAsk(t *testing.T, ctx context.Context, c *client.Client, id string) wire.PermissionRequest {
	t.Helper()
	var p wire.PermissionRequest
	actWaitFor(t, id+"'s bash call to ask", func() (bool, error) {
		ps, err := c.Permissions(ctx)
		i := slices.IndexFunc(ps, func(p wire.PermissionRequest) bool { return p.SessionID == id })
		if i >= 0 {
			p = ps[i]
		}
		return i >= 0, err
	})
	return p
}

// repairPrompt is the index of the user message whose text is text, -1
// for none.
func repairPrompt(msgs []wire.MessageWithParts, text string) int {
	return slices.IndexFunc(msgs, func(m wire.MessageWithParts) bool {
		return m.Info.Role == "user" && slices.ContainsFunc(m.Parts, func(p wire.Part) bool { return p.Type == wire.PartText && p.Text == text })
	})
}

// repairQueuedJSON says whether log --json printed text as a queued
// prompt.
func repairQueuedJSON(out, text string) bool {
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e transcript.Entry
		if json.Unmarshal([]byte(line), &e) == nil && e.Kind == transcript.KindPrompt && e.Text == text {
			return e.Queued
		}
	}
	return false
}

// repairCheckSeenNext checks that the reply after the message answers it
// (its parentID is the message) and is the one that heard it.
func repairCheckSeenNext(t *testing.T, ctx context.Context, c *client.Client, id, said string) {
	t.Helper()
	msgs, err := c.Messages(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	i := repairPrompt(msgs, said)
	if i < 0 || i+1 >= len(msgs) {
		t.Fatalf("no reply after the message (at %d of %d)", i, len(msgs))
	}
	next := msgs[i+1]
	if next.Info.Role != "assistant" || next.Info.ParentID != msgs[i].Info.ID {
		t.Errorf("the message after it is %+v; want a reply whose parentID is %s", next.Info, msgs[i].Info.ID)
	}
	if text, _ := lastAssistantText(msgs); text != fakellm.HeardText(said) {
		t.Errorf("the last answer is %q, want %q", text, fakellm.HeardText(said))
	}
}
