package model

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/octop-dev/octop/internal/wire"
)

var sessionIDShape = regexp.MustCompile(`^ses_[0-9A-Za-z]+$`)

// FuzzTaskOutput: a task call's output names its child in one of three
// formats (model/doc.go, "Links"): `task_id: ses_…` first (1.1.x),
// `<task id="ses_…">` first (1.18.x), or `session_id: ses_…` in a
// `<task_metadata>` block that ends it (older). Whatever the subagent's
// answer says (it may quote other task outputs), the child is the format's
// own id. more is what may follow a newer format's closing tag.
func FuzzTaskOutput(f *testing.F) {
	f.Add(uint8(0), "e00b000cbffeyNRa2YAcspyG31", "All done.", "")
	f.Add(uint8(1), "child1", "ok", "")
	f.Add(uint8(2), "child1", "see task_id: ses_other (for resuming)", "ok")
	f.Fuzz(func(t *testing.T, format uint8, id, answer, more string) {
		if id == "" || !sessionIDShape.MatchString("ses_"+id) {
			return
		}
		want := "ses_" + id
		var out string
		switch format % 3 {
		case 0:
			out = "task_id: " + want + " (for resuming to continue this task if needed)\n\n<task_result>\n" + answer + "\n</task_result>" + more
		case 1:
			out = `<task id="` + want + `" state="completed">` + "\n<task_result>\n" + answer + "\n</task_result>\n</task>" + more
		default: // the block ends the output
			out = answer + "\n\n<task_metadata>\nsession_id: " + want + "\n</task_metadata>\n"
		}
		if got := taskChild(&wire.ToolState{Output: out}); got != want {
			t.Fatalf("format %d: child %q, want %q, from output:\n%s", format%3, got, want, out)
		}
	})
}

// FuzzTaskChild: any output and metadata. taskChild must not panic, and
// an id it reads from the output has a session id's shape and is there.
func FuzzTaskChild(f *testing.F) {
	f.Add("task_id: ses_a (for resuming)", []byte(`{}`))
	f.Add("", []byte(`{"sessionId":"ses_b","parentSessionId":"ses_a"}`))
	f.Fuzz(func(t *testing.T, output string, metadata []byte) {
		got := taskChild(&wire.ToolState{Output: output, Metadata: metadata})
		var md struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(metadata, &md) == nil && md.SessionID != "" && got == md.SessionID {
			return
		}
		if got != "" && (!sessionIDShape.MatchString(got) || !strings.Contains(output, got)) {
			t.Fatalf("child %q from output %q, metadata %q", got, output, metadata)
		}
	})
}

// FuzzInputDigest: a tool call's input is any JSON the model wrote. Its
// digest is one line of valid UTF-8, at most maxLine bytes.
func FuzzInputDigest(f *testing.F) {
	f.Add([]byte(`{"command":"ls -la\nrm x","description":"list"}`))
	f.Add([]byte(`{"pattern":"TODO","path":"/src"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		d := inputDigest(raw)
		if len(d) > maxLine || strings.ContainsAny(d, "\n") || !utf8.ValidString(d) {
			t.Fatalf("digest %q (%d bytes) of %q is not one bounded line of UTF-8", d, len(d), raw)
		}
	})
}

// FuzzReduceOrder: the reference captures, interleaved across sessions as
// the fuzz bytes say (each session's own order kept, as the server keeps
// it) and with some events repeated, end in the same state as the order
// recorded. It is TestShuffledReplay's property with the fuzzer choosing
// the interleavings; canon is the comparison.
func FuzzReduceOrder(f *testing.F) {
	var caps [][]wire.Event
	for _, path := range captures(f) {
		caps = append(caps, decodeAll(f, readSSE(f, path)))
	}
	wants := make([]string, len(caps))
	for i, evs := range caps {
		wants[i] = canon(apply(evs...))
	}
	f.Add([]byte{0, 1, 2, 3, 0x81, 5})
	f.Fuzz(func(t *testing.T, plan []byte) {
		if len(plan) == 0 {
			return
		}
		i := int(plan[0]) % len(caps)
		mixed := interleave(caps[i], plan[1:])
		if got := canon(apply(mixed...)); got != wants[i] {
			t.Fatalf("capture %d in the order %v ends differently:\n%s\nwant:\n%s", i, plan, got, wants[i])
		}
	})
}

// interleave is shuffle with the fuzz bytes for dice: each byte picks the
// session whose next event comes next (low 7 bits) and whether it comes
// twice (high bit). When the bytes run out the sessions take turns.
func interleave(evs []wire.Event, plan []byte) []wire.Event {
	queues := map[string][]wire.Event{}
	var keys []string
	for _, ev := range evs {
		k := wire.SessionOf(ev)
		if _, ok := queues[k]; !ok {
			keys = append(keys, k)
		}
		queues[k] = append(queues[k], ev)
	}
	out := make([]wire.Event, 0, len(evs)*2)
	for n := 0; len(keys) > 0; n++ {
		b := byte(n)
		if n < len(plan) {
			b = plan[n]
		}
		i := int(b&0x7f) % len(keys)
		q := queues[keys[i]]
		out = append(out, q[0])
		if b&0x80 != 0 {
			out = append(out, q[0])
		}
		if len(q) == 1 {
			keys = append(keys[:i], keys[i+1:]...)
		} else {
			queues[keys[i]] = q[1:]
		}
	}
	return out
}

// FuzzReduceEvents: any sequence of events over a few colliding ids, built
// from the fuzz bytes (every event type, re-parenting, deletes, cycles
// attempted). Applying it must not panic and keeps the state's invariants;
// the reads the screen makes must not panic either.
func FuzzReduceEvents(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte("\x00\x10\x20\x08\x18\x28\x03\x13"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New()
		for len(data) >= 2 {
			s.Apply(eventFrom(data[0], data[1]))
			data = data[2:]
		}
		checkInvariants(t, s)
		_ = Flatten(s, map[string]bool{"ses_a": true}, "")
		_ = Flatten(s, nil, "a")
		for _, id := range fuzzIDs {
			_ = s.Counts(id)
			_ = s.BusyDescendants(id)
		}
	})
}

var fuzzIDs = []string{"ses_a", "ses_b", "ses_c", "ses_d"}

// eventFrom makes one event from two bytes: op picks the type and the
// session, arg the rest.
func eventFrom(op, arg byte) wire.Event {
	id := fuzzIDs[op>>4%4]
	other := fuzzIDs[arg%4]
	msg := fmt.Sprintf("msg_%d", arg>>2%3)
	part := fmt.Sprintf("prt_%d", arg>>4%4)
	at := int64(arg % 16)
	switch op % 16 {
	case 0:
		return created(id, other, "t"+other, at)
	case 1:
		return created(id, "", "root "+id, at)
	case 2:
		return updated(id, other, "u"+id, at/2, at)
	case 3:
		return wire.SessionDeleted{Info: wire.Session{ID: id}}
	case 4:
		return status(id, []string{"busy", "idle", "retry"}[arg%3])
	case 5:
		return aborted(id)
	case 6:
		return asstMsg(id, msg, float64(arg%7), 0.25, at, int64(arg>>4))
	case 7:
		return userMsg(id, msg, at)
	case 8, 9:
		name := []string{"bash", "task", "read"}[arg%3]
		st := []string{"pending", "running", "completed", "error"}[arg>>6]
		kv := []any{"input", `{"description":"t` + other + `","command":"x"}`}
		if name == "task" && arg&0x20 != 0 {
			kv = append(kv, "metadata", `{"sessionId":"`+other+`"}`)
		}
		return tool(id, msg, part, name, st, kv...)
	case 10:
		return wire.PartRemoved{SessionID: id, MessageID: msg, PartID: part}
	case 11:
		return wire.MessageRemoved{SessionID: id, MessageID: msg}
	case 12:
		return text(id, msg, part, "hello", 1, at%2)
	case 13:
		return delta(id, msg, part, "more")
	case 14:
		return step(id, msg, part, float64(arg%9), 0.1)
	}
	req := fmt.Sprintf("req_%d", arg%3)
	switch arg >> 6 {
	case 0:
		return wire.PermissionAsked{Request: wire.PermissionRequest{ID: req, SessionID: id}}
	case 1:
		return wire.PermissionReplied{SessionID: id, RequestID: req}
	case 2:
		return wire.QuestionAsked{Request: wire.QuestionRequest{ID: req, SessionID: id}}
	}
	return wire.QuestionRejected{SessionID: id, RequestID: req}
}
