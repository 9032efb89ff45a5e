package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// benchFiles gives the event payloads of every replay fixture (real
// servers, 1.18.33 and 1.1.65), one slice per recording.
func benchFiles(tb testing.TB) [][][]byte {
	var out [][][]byte
	for _, rec := range loadRecordings(tb) {
		out = append(out, rec.datas)
	}
	return out
}

var bigOutput = strings.Repeat("output line that a build tool might print\n", 50)

// bigState builds, through Apply, n sessions with tools calls each: groups
// of 100 sessions under a root, each group a three-way tree. Every string
// is freshly made per event, as decoding would.
func bigState(n, tools int) (*State, map[string]bool) {
	s := New()
	expanded := make(map[string]bool, n)
	base := int64(1_795_000_000_000)
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("ses_%08dxxxxxxxxxxxxxxx", i)
		parent := ""
		if g := i % 100; g != 0 {
			parent = fmt.Sprintf("ses_%08dxxxxxxxxxxxxxxx", i-g+(g-1)/3)
		}
		agent := "general"
		if i%10 == 7 {
			agent = "explore"
		}
		at := base + int64(i)*1000
		expanded[id] = true
		s.Apply(wire.SessionCreated{Info: wire.Session{ID: id, ParentID: parent,
			Title: fmt.Sprintf("work item %d (@%s subagent)", i, agent), Agent: agent, Directory: "/home/dev/project",
			Version: "1.18.33", Time: wire.SessionTime{Created: at, Updated: at}}})
		s.Apply(status(id, "busy"))
		s.Apply(userMsg(id, fmt.Sprintf("msg_%08d%04dxxxxxxxxxxxxxx", i, 0), at))
		for k := 0; k < tools; k++ {
			msg := fmt.Sprintf("msg_%08d%04dxxxxxxxxxxxxxx", i, k+1)
			part := fmt.Sprintf("prt_%08d%04dxxxxxxxxxxxxxx", i, k)
			t0 := int(at) + k*10
			s.Apply(asstMsg(id, msg, 0, 0, int64(t0), 0))
			s.Apply(tool(id, msg, part, "bash", "pending"))
			in := fmt.Sprintf(`{"command":"go test ./pkg/%d/... -run TestThing%d","description":"run the tests"}`, i, k)
			s.Apply(tool(id, msg, part, "bash", "running", "input", in, "title", "run the tests", "start", t0))
			s.Apply(tool(id, msg, part, "bash", "completed", "input", in, "title", "run the tests",
				"output", fmt.Sprint(k)+bigOutput, "start", t0, "end", t0+5))
			s.Apply(step(id, msg, fmt.Sprintf("prt_%08d%04dstepxxxxxxxxxx", i, k), 1500, 0.01))
			s.Apply(asstMsg(id, msg, 1500, 0.01, int64(t0), int64(t0+6)))
		}
		s.Apply(text(id, fmt.Sprintf("msg_%08d%04dxxxxxxxxxxxxxx", i, tools), fmt.Sprintf("prt_%08dtextxxxxxxxxxxxxxx", i),
			fmt.Sprintf("finished item %d: all tests pass", i), at+900, at+950))
		if i%3 != 0 {
			s.Apply(status(id, "idle"))
		}
	}
	return s, expanded
}
