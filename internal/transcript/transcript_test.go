package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

func tool(id, name, status, input, output string) wire.Part {
	return wire.Part{ID: id, Type: wire.PartTool, Tool: name, State: &wire.ToolState{
		Status: status, Input: json.RawMessage(input), Output: output}}
}

// session is a parent that reasons, runs bash, fails a read, starts a
// task (1.18's <task id=…> output) and is then aborted.
func session() []wire.MessageWithParts {
	failed := tool("p5", "read", wire.ToolError, `{"filePath":"/x/missing.txt"}`, "")
	failed.State.Error = "File not found: /x/missing.txt"
	running := tool("p7", "bash", wire.ToolRunning, `{"command":"sleep 9; echo late"}`, "")
	running.State.Metadata = json.RawMessage(`{"output":"so far\n"}`)
	return []wire.MessageWithParts{
		{Info: wire.Message{ID: "m1", SessionID: "s", Role: "user"}, Parts: []wire.Part{
			{ID: "p1", Type: wire.PartText, Text: "Count the files.\nThen report."}}},
		{Info: wire.Message{ID: "m2", SessionID: "s", Role: "assistant", Agent: "build", Time: wire.MessageTime{Completed: 9}},
			Parts: []wire.Part{
				{ID: "p2", Type: wire.PartStepStart},
				{ID: "p3", Type: wire.PartReasoning, Text: "I should list.\nThen count."},
				tool("p4", "bash", wire.ToolCompleted, `{"command":"ls | wc -l","description":"count"}`, "42\n"),
				failed,
				tool("p6", "task", wire.ToolCompleted, `{"description":"dig","prompt":"go","subagent_type":"general"}`,
					"<task id=\"ses_child1\" state=\"completed\">\n<task_result>\nfound it\n</task_result>\n</task>"),
				{ID: "p6b", Type: wire.PartText, Text: "There are **42** files."},
				{ID: "p6c", Type: wire.PartText, Text: "  \n"},
			}},
		{Info: wire.Message{ID: "m3", SessionID: "s", Role: "assistant",
			Error: &wire.ErrorInfo{Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "Aborted"}}},
			Parts: []wire.Part{running}},
	}
}

func TestBuildAndPlain(t *testing.T) {
	var b bytes.Buffer
	if err := WritePlain(&b, Build(session())); err != nil {
		t.Fatal(err)
	}
	want := `» Count the files.
  Then report.

~ I should list.
~ Then count.

⟩ bash: ls | wc -l
    42

⟩ read: /x/missing.txt  (failed)
    ✗ File not found: /x/missing.txt

⟩ task: dig → ses_child1
    <task id="ses_child1" state="completed">
    <task_result>
    found it
    </task_result>
    </task>

There are **42** files.

⟩ bash: sleep 9; echo late  (running)
    so far

✗ MessageAbortedError: Aborted

`
	if got := b.String(); got != want {
		t.Errorf("plain transcript:\n%s\nwant:\n%s", got, want)
	}
}

func TestNDJSONOneEntryPerLine(t *testing.T) {
	var b bytes.Buffer
	entries := Build(session())
	if err := WriteNDJSON(&b, entries); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != len(entries) || len(entries) != 8 {
		t.Fatalf("%d lines for %d entries, want 8:\n%s", len(lines), len(entries), b.String())
	}
	var task Entry
	if err := json.Unmarshal([]byte(lines[4]), &task); err != nil {
		t.Fatal(err)
	}
	if task.Kind != KindTool || task.Tool != "task" || task.ChildID != "ses_child1" || task.Input != "dig" || task.Agent != "build" {
		t.Errorf("task entry decoded to %+v", task)
	}
	if !strings.Contains(lines[0], `"kind":"prompt"`) || !strings.Contains(lines[7], `"error":"MessageAbortedError"`) {
		t.Errorf("first/last lines: %s / %s", lines[0], lines[7])
	}
}

// The follower prints in order and holds back everything after a call
// that still runs, until it ends or the session goes idle.
func TestFollowerHoldsBackUnsettled(t *testing.T) {
	msgs := session()
	msgs[2].Info.Error = nil // still running: the bash call is open
	var f Follower
	first := f.Next(Build(msgs), false)
	if len(first) != 6 || first[5].PartID != "p6b" {
		t.Fatalf("first batch: %d entries, want the 6 before the running call: %+v", len(first), first)
	}
	if again := f.Next(Build(msgs), false); len(again) != 0 {
		t.Errorf("nothing changed, yet Next gave %+v", again)
	}
	msgs[2].Parts[0].State.Status = wire.ToolCompleted
	msgs[2].Parts[0].State.Output = "late\n"
	msgs[2].Parts = append(msgs[2].Parts, wire.Part{ID: "p8", Type: wire.PartText, Text: "done"})
	next := f.Next(Build(msgs), false)
	if len(next) != 1 || next[0].Output != "late\n" {
		t.Errorf("after the call ended: %+v, want only it (its text part is still open)", next)
	}
	if last := f.Next(Build(msgs), true); len(last) != 1 || last[0].Text != "done" {
		t.Errorf("once idle: %+v, want the last text", last)
	}
}

func TestBuildEmpty(t *testing.T) {
	if e := Build(nil); len(e) != 0 {
		t.Errorf("Build(nil) = %+v", e)
	}
	msgs := []wire.MessageWithParts{{Info: wire.Message{ID: "m", Role: "assistant"}, Parts: []wire.Part{
		{ID: "t", Type: wire.PartTool, Tool: "bash"}}}}
	e := Build(msgs)
	if len(e) != 1 || e[0].Status != wire.ToolPending || e[0].Settled(false) || !e[0].Settled(true) {
		t.Errorf("a tool part with no state: %+v", e)
	}
}

// A background root's messages, as a real 1.18.33 server keeps them: the
// task calls launched in the background, then each child's end notice (a
// synthetic user message) and the root's answer to it. A notice is an
// entry of its own, never a prompt; both task outputs name the child.
func TestBackgroundNotices(t *testing.T) {
	b, err := os.ReadFile("../../model/testdata/background/endings-A-root-messages.json")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []wire.MessageWithParts
	if err := json.Unmarshal(b, &msgs); err != nil {
		t.Fatal(err)
	}
	entries := Build(msgs)
	var prompts, notices, bgCalls int
	for _, e := range entries {
		switch e.Kind {
		case KindPrompt:
			prompts++
		case KindBackground:
			notices++
		case KindTool:
			if e.Background && e.ChildID != "" {
				bgCalls++
			}
		}
	}
	if prompts != 1 || notices != 2 || bgCalls != 3 {
		t.Errorf("%d prompts, %d notices, %d background calls; want 1, 2, 3", prompts, notices, bgCalls)
	}
	var out strings.Builder
	if err := WritePlain(&out, entries); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"◂ background task completed: worker 2 → ses_dec5c1e19ffepX9xBYNB454fPE\n    fail finished: the tool failed as planned\n",
		"◂ background task failed: worker 3 → ses_dec5c1dc5ffeD1aiA7f5oeUIjA\n    Subagent failed (task_id: ses_dec5c1dc5ffeD1aiA7f5oeUIjA): fakellm: refused on purpose\n",
		"⟩ task: worker 1 → ses_dec5c1eb6ffeDFHX7J3I6vjNNV  (background)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "» <task") {
		t.Errorf("a notice printed as a prompt:\n%s", got)
	}
	var js strings.Builder
	_ = WriteNDJSON(&js, entries)
	if !strings.Contains(js.String(), `{"kind":"background","sessionID":"ses_dec5c307effeQax5h7bQCtkGSQ",`) ||
		!strings.Contains(js.String(), `"status":"error","title":"worker 3",`) {
		t.Errorf("NDJSON:\n%s", js.String())
	}
}

// Both task output forms name the child: 1.1's `task_id: …` and 1.18's
// `<task id=… state=…>`, and neither a foreground task is background.
func TestTaskOutputForms(t *testing.T) {
	for _, out := range []string{
		"task_id: ses_kid (for resuming to continue this task if needed)\n\n<task_result>\nok\n</task_result>",
		"<task id=\"ses_kid\" state=\"completed\">\n<task_result>\nok\n</task_result>\n</task>",
	} {
		e := Build([]wire.MessageWithParts{{Info: wire.Message{ID: "m", Role: "assistant", Time: wire.MessageTime{Completed: 1}},
			Parts: []wire.Part{tool("p", "task", "completed", `{"description":"dig"}`, out)}}})
		if len(e) != 1 || e[0].ChildID != "ses_kid" || e[0].Background || ToolLine(e[0]) != "⟩ task: dig → ses_kid" {
			t.Errorf("%q: %+v", out, e)
		}
	}
}

// TestCallsByTheirOutcome: log and the transcript say what the model says
// of a call: one an abort cut is aborted (1.18 stores it completed), one
// left open by a stopped session interrupted.
func TestCallsByTheirOutcome(t *testing.T) {
	cut := tool("p1", "bash", wire.ToolCompleted, `{"command":"sleep 3.0; echo step3"}`,
		"(no output)\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>")
	cut.State.Metadata = json.RawMessage(`{"exit":null}`)
	open := tool("p2", "bash", wire.ToolRunning, `{"command":"sleep 9"}`, "")
	msgs := []wire.MessageWithParts{{Info: wire.Message{ID: "m1", SessionID: "s", Role: "assistant"}, Parts: []wire.Part{cut, open}}}
	entries := Build(msgs)
	if entries[0].Status != "aborted" || entries[1].Status != "running" {
		t.Fatalf("statuses %q, %q; want aborted, running", entries[0].Status, entries[1].Status)
	}
	stopped := Stopped(entries, false)
	if stopped[1].Status != "interrupted" || entries[1].Status != "running" {
		t.Errorf("stopped: %q (and the original %q); want interrupted, the original kept", stopped[1].Status, entries[1].Status)
	}
	if got := Stopped(entries, true)[1].Status; got != "aborted" {
		t.Errorf("left open by an abort: %q, want aborted", got)
	}
	var b bytes.Buffer
	if err := WritePlain(&b, stopped); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"⟩ bash: sleep 3.0; echo step3  (aborted)", "⟩ bash: sleep 9  (interrupted)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := WriteNDJSON(&b, stopped); err != nil || !strings.Contains(b.String(), `"status":"aborted"`) {
		t.Errorf("log --json: %v\n%s", err, b.String())
	}
}
