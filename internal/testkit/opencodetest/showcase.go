package opencodetest

import (
	"encoding/json"
	"fmt"

	"github.com/octop-dev/octop/internal/wire"
)

// Showcase names the sessions and asks AddShowcase puts on the fake.
type Showcase struct {
	// Root runs: its messages hold every kind of part (a prompt, reasoning,
	// text, a finished, a running and a failed tool call, a task call to
	// Worker) and its prompt changed two files.
	Root string
	// Worker is Root's running child (a bash call under way, a todo
	// list); Failed ended in an error; Retrying waits to retry a provider
	// error; Waiting asks a permission and a question.
	Worker, Failed, Retrying, Waiting string
	// Done is a finished root whose last answer is markdown.
	Done string
	// Orphan's parent is not on the server.
	Orphan string
	// Permission and Question are Waiting's asks.
	Permission, Question string
	// BadID is a session whose id is malformed (only with Hostile: the
	// id carries Payload), under a parent id that is also malformed.
	BadID string
}

// AddShowcase puts on the fake a tree with one of everything octop shows:
// sessions running, failed, retrying, waiting and done, an orphan, every
// kind of message part, the files a prompt changed, a todo list, a
// permission and a question, an agent of the user's own. Over a Hostile
// fake every string of it carries Payload, so a test can walk every view
// and command over it. It sends no event: a test that follows the stream
// emits what it needs.
func (s *Server) AddShowcase() Showcase {
	sc := Showcase{Root: "ses_showroot", Worker: "ses_showworker", Failed: "ses_showfailed",
		Retrying: "ses_showretry", Waiting: "ses_showwaiting", Done: "ses_showdone", Orphan: "ses_showorphan",
		Permission: "per_showperm", Question: "que_showquestion"}
	at := int64(1795284000000)
	add := func(id, parent, title string, sec int64) {
		s.AddSession(wire.Session{ID: id, ParentID: parent, Title: title, Agent: "build",
			Time: wire.SessionTime{Created: at + sec*1000, Updated: at + sec*1000 + 500}})
	}
	add(sc.Done, "", "write the release notes", 0)
	add(sc.Root, "", "refactor the parser", 10)
	add(sc.Worker, sc.Root, "lint the parser (@general subagent)", 20)
	add(sc.Failed, sc.Root, "run the tests (@explore subagent)", 21)
	add(sc.Retrying, sc.Root, "check the docs (@general subagent)", 22)
	add(sc.Waiting, sc.Root, "clean the build (@general subagent)", 23)
	add(sc.Orphan, "ses_showgone", "left behind", 24)
	if s.opts.Hostile {
		sc.BadID = "ses_showbad" + Payload
		add(sc.BadID, "ses_showgone"+Payload, "malformed id", 25)
	}
	s.SetStatus(sc.Root, wire.SessionStatus{Type: wire.StatusBusy})
	s.SetStatus(sc.Worker, wire.SessionStatus{Type: wire.StatusBusy})
	s.SetStatus(sc.Waiting, wire.SessionStatus{Type: wire.StatusBusy})
	s.SetStatus(sc.Retrying, wire.SessionStatus{Type: wire.StatusRetry, Attempt: 2,
		Message: "rate limited by the provider", Next: at + 3_600_000})

	s.SetMessages(sc.Root, rootMessages(sc.Root, sc.Worker, at+10_000))
	s.SetMessages(sc.Worker, []wire.MessageWithParts{prompt(sc.Worker, "lint it", at+20_000),
		reply(sc.Worker, 2, at+20_100, "", tool("prt_w1", "bash", wire.ToolRunning, "golangci-lint run",
			`{"command":"golangci-lint run ./parser/..."}`, "", "", at+20_200))})
	failed := reply(sc.Failed, 2, at+21_100, "stop", tool("prt_f1", "bash", wire.ToolError, "go test ./...",
		`{"command":"go test ./..."}`, "", "exit status 1: FAIL parser", at+21_200))
	failed.Info.Error = &wire.ErrorInfo{Name: "ProviderAuthError", Data: wire.ErrorInfoData{Message: "the API key was refused"}}
	failed.Info.Time.Completed = at + 21_900
	s.SetMessages(sc.Failed, []wire.MessageWithParts{prompt(sc.Failed, "run the tests", at+21_000), failed})
	s.SetMessages(sc.Retrying, []wire.MessageWithParts{prompt(sc.Retrying, "check the docs", at+22_000)})
	s.SetMessages(sc.Waiting, []wire.MessageWithParts{prompt(sc.Waiting, "clean the build", at+23_000),
		reply(sc.Waiting, 2, at+23_100, "", tool("prt_q1", "bash", wire.ToolRunning, "rm -rf build",
			`{"command":"rm -rf build"}`, "", "", at+23_200))})
	done := reply(sc.Done, 2, at+1_000, "stop", wire.Part{ID: "prt_d1", Type: wire.PartText,
		Text: "# Release notes\n\n- faster **parser**\n- `go test` passes\n\n| file | change |\n|---|---|\n| parse.go | rewritten |\n\n```go\nfunc main() {}\n```\n\nSee [the docs](https://example.com/docs).",
		Time: &wire.PartTime{Start: at + 1_100, End: at + 1_800}})
	done.Info.Time.Completed = at + 1_900
	s.SetMessages(sc.Done, []wire.MessageWithParts{prompt(sc.Done, "write the release notes", at), done})
	s.SetMessages(sc.Orphan, []wire.MessageWithParts{prompt(sc.Orphan, "stay", at+24_000)})

	s.AddPermission(wire.PermissionRequest{ID: sc.Permission, SessionID: sc.Waiting, Permission: "bash",
		Patterns: []string{"rm -rf build", "rm -rf dist"}, Always: []string{"rm *"},
		Tool: &wire.RequestTool{MessageID: "msg_showwaiting_2", CallID: "call_prt_q1"}})
	s.AddQuestion(wire.QuestionRequest{ID: sc.Question, SessionID: sc.Waiting, Questions: []wire.QuestionInfo{{
		Question: "Which build directory should go?", Header: "Clean up",
		Options: []wire.QuestionOption{{Label: "build", Description: "the Go build output"}, {Label: "dist", Description: "the release archives"}}}}})
	s.SetAgents(append(DefaultAgents(), wire.Agent{Name: "reviewer", Mode: "subagent", Description: "Reviews a change for bugs."}))
	s.SetTodos(sc.Worker, []wire.Todo{{Content: "run the linter", Status: wire.TodoCompleted, Priority: "high"},
		{Content: "fix what it finds", Status: wire.TodoInProgress, Priority: "medium"}})
	return sc
}

// rootMessages is the root's run: a prompt that changed two files, then
// reasoning, text, a read, an edit that failed, a running task call to
// worker, and a bash call under way.
func rootMessages(id, worker string, at int64) []wire.MessageWithParts {
	p := prompt(id, "refactor the parser\n\tkeep the API", at)
	p.Info.Summary = &wire.MessageSummary{Title: "refactor", Diffs: []wire.FileDiff{
		{File: "parser/parse.go", Patch: "--- a/parser/parse.go\n+++ b/parser/parse.go\n@@ -1,2 +1,2 @@\n-old line\n+new line\n context\n",
			Additions: 1, Deletions: 1, Status: "modified"},
		{File: "parser/lex.go", Before: "package parser\n", After: "package parser\n\n// lex splits.\n", Additions: 2, Status: "modified"},
	}}
	task := tool("prt_r4", "task", wire.ToolRunning, "lint the parser",
		`{"description":"lint the parser","prompt":"run the linter","subagent_type":"general"}`, "", "", at+400)
	task.State.Metadata = json.RawMessage(fmt.Sprintf(`{"sessionId":%q}`, worker))
	r := reply(id, 2, at+100, "",
		wire.Part{ID: "prt_r0", Type: wire.PartReasoning, Text: "The parser needs\na new lexer.", Time: &wire.PartTime{Start: at + 110, End: at + 150}},
		wire.Part{ID: "prt_r1", Type: wire.PartText, Text: "I will read the parser first.", Time: &wire.PartTime{Start: at + 160, End: at + 170}},
		tool("prt_r2", "read", wire.ToolCompleted, "parser/parse.go", `{"filePath":"parser/parse.go"}`,
			"package parser\n\tfunc Parse() {}\n", "", at+200),
		tool("prt_r3", "edit", wire.ToolError, "parser/parse.go", `{"filePath":"parser/parse.go","oldString":"a","newString":"b"}`,
			"", "oldString not found in the file", at+300),
		task,
		tool("prt_r5", "bash", wire.ToolRunning, "go build ./...", `{"command":"go build ./...","description":"build it"}`, "", "", at+500))
	return []wire.MessageWithParts{p, r}
}

func prompt(id, text string, at int64) wire.MessageWithParts {
	mid := "msg_" + id[len("ses_"):] + "_1"
	return wire.MessageWithParts{Info: wire.Message{ID: mid, SessionID: id, Role: "user", Agent: "build",
		Time: wire.MessageTime{Created: at}},
		Parts: []wire.Part{{ID: "prt_" + id[len("ses_"):] + "p", SessionID: id, MessageID: mid, Type: wire.PartText, Text: text}}}
}

// reply is session id's n-th message, from the assistant: message ids
// sort in the order they were made, as the server's do.
func reply(id string, n int, at int64, finish string, parts ...wire.Part) wire.MessageWithParts {
	mid := fmt.Sprintf("msg_%s_%d", id[len("ses_"):], n)
	for i := range parts {
		parts[i].SessionID, parts[i].MessageID = id, mid
	}
	return wire.MessageWithParts{Info: wire.Message{ID: mid, SessionID: id, Role: "assistant", Agent: "build",
		ModelID: "fake-model", ProviderID: "fake", Cost: 0.0123, Finish: finish,
		Tokens: wire.Tokens{Input: 1200, Output: 340}, Time: wire.MessageTime{Created: at}}, Parts: parts}
}

func tool(id, name, status, title, input, output, errText string, at int64) wire.Part {
	st := &wire.ToolState{Status: status, Input: json.RawMessage(input), Output: output, Title: title, Error: errText,
		Time: wire.ToolTime{Start: at}}
	if status == wire.ToolCompleted || status == wire.ToolError {
		st.Time.End = at + 50
	}
	return wire.Part{ID: id, Type: wire.PartTool, Tool: name, CallID: "call_" + id, State: st}
}
