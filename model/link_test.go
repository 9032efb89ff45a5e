package model

import (
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// TestTaskLinks: the link from a parent's task call to its child comes from
// whichever the server version gives.
func TestTaskLinks(t *testing.T) {
	const P, C = "ses_p", "ses_child1"
	in := `{"description":"explore part 0","prompt":"go","subagent_type":"explore"}`
	cases := []struct {
		name string
		ev   wire.Event
	}{
		{"metadata.sessionId (1.18 running)", tool(P, "msg_1", "prt_1", "task", "running", "input", in,
			"metadata", `{"parentSessionId":"ses_p","sessionId":"ses_child1"}`)},
		{"task_id in output (1.1)", tool(P, "msg_1", "prt_1", "task", "completed", "input", in,
			"output", "task_id: ses_child1 (for resuming to continue this task if needed)\n\n<task_result>\nok\n</task_result>")},
		{"task tag in output (1.18)", tool(P, "msg_1", "prt_1", "task", "completed", "input", in,
			"output", "<task id=\"ses_child1\" state=\"completed\">\n<task_result>\nok\n</task_result>\n</task>")},
		{"task_metadata in output (older)", tool(P, "msg_1", "prt_1", "task", "completed", "input", in,
			"output", "ok\n\n<task_metadata>\nsession_id: ses_child1\n</task_metadata>")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, order := range [][]wire.Event{
				{created(P, "", "root", 1), created(C, P, "explore part 0 (@explore subagent)", 2), tc.ev},
				{created(P, "", "root", 1), tc.ev, created(C, P, "explore part 0 (@explore subagent)", 2)},
				{tc.ev, created(C, P, "explore part 0 (@explore subagent)", 2), created(P, "", "root", 1)},
			} {
				s := apply(order...)
				if got := s.Session(P).Tools[0].ChildID; got != C {
					t.Fatalf("ChildID = %q", got)
				}
				if c := s.Session(C); c.TaskPartID != "prt_1" || c.ParentID != P || s.Len() != 2 || len(s.Session(P).ChildIDs()) != 1 {
					t.Fatalf("child %+v len %d", c, s.Len())
				}
			}
		})
	}
}

// TestTaskLinkBeforeChildCreated: the task part names a child not created
// yet; a placeholder under the parent stands in, and session.created fills
// it without a second session appearing.
func TestTaskLinkBeforeChildCreated(t *testing.T) {
	const P, C = "ses_p", "ses_child1"
	s := apply(created(P, "", "root", 1),
		tool(P, "msg_1", "prt_1", "task", "running", "metadata", `{"sessionId":"ses_child1"}`))
	c := s.Session(C)
	if c == nil || c.Known || c.ParentID != P || s.Counts(P).Children != 1 {
		t.Fatalf("placeholder = %+v", c)
	}
	s.Apply(created(C, P, "x (@general subagent)", 2))
	if c := s.Session(C); !c.Known || s.Len() != 2 || s.Counts(P).Children != 1 {
		t.Fatalf("after created: %+v len %d", c, s.Len())
	}
}

// TestTaskLinkByTitle: 1.1.65 names the child only when the call ends; until
// then the child's title ties it to the call.
func TestTaskLinkByTitle(t *testing.T) {
	const P = "ses_p"
	for _, order := range []string{"call first", "child first"} {
		t.Run(order, func(t *testing.T) {
			calls := []wire.Event{
				tool(P, "msg_1", "prt_1", "task", "running", "input", `{"description":"worker 0","subagent_type":"explore"}`),
				tool(P, "msg_1", "prt_2", "task", "running", "input", `{"description":"worker 1","subagent_type":"explore"}`),
			}
			kids := []wire.Event{
				created("ses_w1", P, "worker 1 (@explore subagent)", 3),
				created("ses_w0", P, "worker 0 (@explore subagent)", 2),
			}
			evs := []wire.Event{created(P, "", "root", 1)}
			if order == "call first" {
				evs = append(append(evs, calls...), kids...)
			} else {
				evs = append(append(evs, kids...), calls...)
			}
			s := apply(evs...)
			tools := s.Session(P).Tools
			if tools[0].ChildID != "ses_w0" || tools[1].ChildID != "ses_w1" {
				t.Fatalf("links: %q %q", tools[0].ChildID, tools[1].ChildID)
			}
			// The server's word at completion overrides the guess.
			s.Apply(tool(P, "msg_1", "prt_1", "task", "completed", "input", `{"description":"worker 0"}`,
				"output", "task_id: ses_w1 (for resuming)", "metadata", `{"sessionId":"ses_w1"}`))
			if got := s.Session(P).Tools[0].ChildID; got != "ses_w1" || s.Session("ses_w0").TaskPartID != "" || s.Session("ses_w1").TaskPartID != "prt_1" {
				t.Fatalf("after completion: %q, w0 task %q, w1 task %q", got, s.Session("ses_w0").TaskPartID, s.Session("ses_w1").TaskPartID)
			}
			if got := s.Session(P).Tools[1].ChildID; got != "" {
				t.Fatalf("the call whose guess was taken still links %q", got)
			}
			s.Apply(tool(P, "msg_1", "prt_2", "task", "completed", "input", `{"description":"worker 1"}`,
				"metadata", `{"sessionId":"ses_w0"}`))
			if got := s.Session(P).Tools[1].ChildID; got != "ses_w0" || s.Session("ses_w0").TaskPartID != "prt_2" {
				t.Fatalf("second call links %q", got)
			}
		})
	}
}

func TestInputDigest(t *testing.T) {
	cases := map[string]string{
		`{"command":"ls -la\nrm x","description":"list"}`:     "ls -la",
		`{"filePath":"/src/main.go","offset":3}`:              "/src/main.go",
		`{"pattern":"TODO","path":"/src"}`:                    "TODO in /src",
		`{"url":"https://example.com","format":"markdown"}`:   "https://example.com",
		`{"description":"explore part 0","prompt":"go look"}`: "explore part 0",
		`{"todos":[]}`: "",
		`not json`:     "",
	}
	for in, want := range cases {
		if got := inputDigest([]byte(in)); got != want {
			t.Errorf("inputDigest(%s) = %q, want %q", in, got, want)
		}
	}
}
