package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/transcript"
	"github.com/octop-dev/octop/internal/wire"
)

// TestLogChildTranscript: `octop log --follow` on a running child prints
// its bash calls with their real output and returns once the child is
// idle; `octop log` afterwards prints the same; --json gives the outputs
// as fields; the parent's log names the child its task call started.
func TestLogChildTranscript(t *testing.T) {
	forShared(t, harness.Targets(), func(t *testing.T, s *harness.Server) {
		ctx := actCtxFor(t)
		c := actNewClient(t, s)
		defer actStopAll(c)
		root := actStartRoot(t, ctx, c, "octop e2e log", `FANOUT k=1 desc=digger child="LEAF steps=2 sleep=1"`)
		var child wire.Session
		actWaitFor(t, "the child to start", func() (bool, error) {
			kids, err := actChildren(ctx, c, root.ID)
			if len(kids) == 1 {
				child = kids[0]
			}
			return len(kids) == 1, err
		})

		code, followed, errs := actOctop(t, s.URL, "", "log", "--follow", "--timeout", actE2eWait.String(), child.ID)
		if code != 0 || errs != "" {
			t.Fatalf("log --follow: exit %d, stderr %q", code, errs)
		}
		if st, err := actStatusType(ctx, c, child.ID); err != nil || st != wire.StatusIdle {
			t.Errorf("log --follow returned while the child is %q (%v), want idle", st, err)
		}
		for _, want := range []string{
			"⟩ bash: sleep 1; echo step 1\n    step 1\n",
			"⟩ bash: sleep 1; echo step 2\n    step 2\n",
			"leaf finished after 2 steps\n",
		} {
			if !strings.Contains(followed, want) {
				t.Errorf("log --follow lacks %q:\n%s", want, followed)
			}
		}
		if strings.Count(followed, "⟩ bash:") != 2 {
			t.Errorf("log --follow printed a call more than once:\n%s", followed)
		}
		code, plain, _ := actOctop(t, s.URL, "", "log", child.ID)
		if code != 0 || plain != followed {
			t.Errorf("log after the run: exit %d, printed\n%s\nwant what --follow printed:\n%s", code, plain, followed)
		}
		checkLogJSON(t, s.URL, child.ID)

		actWaitRun(t, ctx, c, root.ID, wire.StatusIdle)
		code, parent, _ := actOctop(t, s.URL, "", "log", root.ID)
		if want := "⟩ task: digger 1 → " + child.ID; code != 0 || !strings.Contains(parent, want) {
			t.Errorf("the parent's log lacks %q:\n%s", want, parent)
		}
	})
}

func checkLogJSON(t *testing.T, url, id string) {
	t.Helper()
	code, out, _ := actOctop(t, url, "", "log", "--json", id)
	var outputs []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e transcript.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("log --json line %q: %v", line, err)
		}
		if e.SessionID != id {
			t.Errorf("entry of session %q in %s's log", e.SessionID, id)
		}
		if e.Kind == transcript.KindTool {
			outputs = append(outputs, e.Output)
		}
	}
	if code != 0 || strings.Join(outputs, "|") != "step 1\n|step 2\n" {
		t.Errorf("log --json: exit %d, tool outputs %q, want step 1 and step 2", code, outputs)
	}
}
