package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// cutShort is a server where the root "kill fan" was cut off by a crash
// while its child worked (no reply completed, calls left running, both
// idle now), and "stopped" was aborted by a person.
func cutShort(t *testing.T) *opencodetest.Server {
	t.Helper()
	withConfig(t, "")
	s := opencodetest.New(t, opencodetest.Options{})
	user := func(id, msg string, at int64) wire.MessageWithParts {
		return wire.MessageWithParts{Info: wire.Message{ID: msg, SessionID: id, Role: "user", Agent: "build",
			Time: wire.MessageTime{Created: at}}}
	}
	open := func(id, msg string, at int64, tool string, start int64) wire.MessageWithParts {
		return wire.MessageWithParts{Info: wire.Message{ID: msg, SessionID: id, Role: "assistant", Agent: "build",
			Time: wire.MessageTime{Created: at}},
			Parts: []wire.Part{{ID: "prt_" + msg, SessionID: id, MessageID: msg, Type: wire.PartTool, Tool: tool,
				CallID: "call_" + msg, State: &wire.ToolState{Status: wire.ToolRunning, Time: wire.ToolTime{Start: start}}}}}
	}
	s.AddSession(wire.Session{ID: "ses_root", Title: "kill fan", Time: wire.SessionTime{Created: 1_000, Updated: 1_200}})
	s.SetMessages("ses_root", []wire.MessageWithParts{user("ses_root", "msg_1", 1_000), open("ses_root", "msg_2", 1_100, "task", 1_200)})
	s.AddSession(wire.Session{ID: "ses_kid", ParentID: "ses_root", Title: "worker 1 (@general subagent)",
		Time: wire.SessionTime{Created: 1_300, Updated: 45_614}})
	s.SetMessages("ses_kid", []wire.MessageWithParts{user("ses_kid", "msg_3", 1_300), open("ses_kid", "msg_4", 1_400, "bash", 45_614)})
	aborted := &wire.ErrorInfo{Name: "MessageAbortedError", Data: wire.ErrorInfoData{Message: "Aborted"}}
	s.AddSession(wire.Session{ID: "ses_stop", Title: "stopped", Time: wire.SessionTime{Created: 100, Updated: 900}})
	s.SetMessages("ses_stop", []wire.MessageWithParts{user("ses_stop", "msg_5", 100),
		{Info: wire.Message{ID: "msg_6", SessionID: "ses_stop", Role: "assistant", Error: aborted,
			Time: wire.MessageTime{Created: 200, Completed: 900}}}})
	return s
}

// TestTreeJSONCutShortRunHasALength: a root cut off by a crash ends at
// the last thing it (through the child it waited on) was seen doing, not
// at 0: ended and duration_ms are set, as its subtree's are.
func TestTreeJSONCutShortRunHasALength(t *testing.T) {
	s := cutShort(t)
	code, out, errs := run(t, client.Options{BaseURL: s.URL()}, "", "tree", "--json")
	if code != codeOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	type usage struct {
		Started, Ended int64
		DurationMS     int64 `json:"duration_ms"`
	}
	var roots []struct {
		ID     string
		Status string
		usage
		Subtree  usage
		Children []struct {
			ID string
			usage
		}
	}
	if err := json.Unmarshal([]byte(out), &roots); err != nil {
		t.Fatal(err)
	}
	for _, r := range roots {
		if r.ID != "ses_root" {
			continue
		}
		if r.Ended != 45_614 || r.DurationMS != 44_614 || r.Subtree.DurationMS != 44_614 {
			t.Errorf("the cut-short root: ended %d, duration %d ms (subtree %d ms), want 45614, 44614 (44614)",
				r.Ended, r.DurationMS, r.Subtree.DurationMS)
		}
		if len(r.Children) != 1 || r.Children[0].DurationMS != 44_314 {
			t.Errorf("its child: %+v, want a duration of 44314 ms", r.Children)
		}
		return
	}
	t.Fatalf("no ses_root in:\n%s", out)
}

// TestTreeSaysAborted: plain `octop tree` names an abort as the screen
// does (■ aborted), not as an error.
func TestTreeSaysAborted(t *testing.T) {
	s := cutShort(t)
	code, out, errs := run(t, client.Options{BaseURL: s.URL()}, "", "tree")
	if code != codeOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "ses_stop") {
			line = l
		}
	}
	if !strings.Contains(line, "ses_stop  aborted ") || strings.Contains(line, "error") {
		t.Errorf("the aborted session's line is %q, want its status to be aborted", line)
	}
}

// TestTreeJSONRunsOfAResumedSession: a session resumed after an idle
// gap ran twice: tree --json gives both runs, and a duration that is
// their sum, not the time from the first prompt to the last reply.
func TestTreeJSONRunsOfAResumedSession(t *testing.T) {
	withConfig(t, "")
	s := opencodetest.New(t, opencodetest.Options{})
	msg := func(id, role string, created, done int64) wire.MessageWithParts {
		return wire.MessageWithParts{Info: wire.Message{ID: id, SessionID: "ses_res", Role: role, Agent: "build",
			Time: wire.MessageTime{Created: created, Completed: done}}}
	}
	s.AddSession(wire.Session{ID: "ses_res", Title: "resumed", Time: wire.SessionTime{Created: 900, Updated: 70_000}})
	s.SetMessages("ses_res", []wire.MessageWithParts{msg("msg_1", "user", 1_000, 0), msg("msg_2", "assistant", 1_100, 4_000),
		msg("msg_3", "user", 60_000, 0), msg("msg_4", "assistant", 60_100, 70_000)})
	code, out, errs := run(t, client.Options{BaseURL: s.URL()}, "", "tree", "--json")
	if code != codeOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var roots []struct {
		Started, Ended int64
		DurationMS     int64 `json:"duration_ms"`
		Runs           []struct{ Start, End int64 }
	}
	if err := json.Unmarshal([]byte(out), &roots); err != nil || len(roots) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	r := roots[0]
	if r.Started != 1_000 || r.Ended != 70_000 || r.DurationMS != 13_000 || len(r.Runs) != 2 ||
		r.Runs[0].End != 4_000 || r.Runs[1].Start != 60_000 {
		t.Errorf("started %d ended %d duration %d runs %+v; want 1000 70000 13000 and two runs", r.Started, r.Ended, r.DurationMS, r.Runs)
	}
}
