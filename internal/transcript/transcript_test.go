package transcript

import (
	"bytes"
	"encoding/json"
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
