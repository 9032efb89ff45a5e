package transcript

import (
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

func userAt(id string, at int64, text string) wire.MessageWithParts {
	return wire.MessageWithParts{Info: wire.Message{ID: id, SessionID: "s", Role: "user", Time: wire.MessageTime{Created: at}},
		Parts: []wire.Part{{ID: id + "p", Type: wire.PartText, Text: text}}}
}

func replyAt(id string, at, done int64) wire.MessageWithParts {
	return wire.MessageWithParts{Info: wire.Message{ID: id, SessionID: "s", Role: "assistant",
		Time: wire.MessageTime{Created: at, Completed: done}},
		Parts: []wire.Part{tool(id+"t", "bash", wire.ToolRunning, `{"command":"sleep 2"}`, "")}}
}

func promptNamed(entries []Entry, text string) (Entry, bool) {
	for _, e := range entries {
		if e.Kind == KindPrompt && e.Text == text {
			return e, true
		}
	}
	return Entry{}, false
}

// TestQueuedPrompt: a prompt that came while the last reply was being
// made is queued until a reply follows it; one that came after the reply
// ended (a resume), or during a reply that ended in an error (an abort),
// is not.
func TestQueuedPrompt(t *testing.T) {
	aborted := replyAt("m2", 20, 40)
	aborted.Info.Error = &wire.ErrorInfo{Name: "MessageAbortedError"}
	for _, c := range []struct {
		name   string
		msgs   []wire.MessageWithParts
		queued bool
	}{
		{"mid-step", []wire.MessageWithParts{userAt("m1", 10, "go"), replyAt("m2", 20, 0), userAt("m3", 30, "steer")}, true},
		{"step ended after it came", []wire.MessageWithParts{userAt("m1", 10, "go"), replyAt("m2", 20, 40), userAt("m3", 30, "steer")}, true},
		{"seen: a reply follows", []wire.MessageWithParts{userAt("m1", 10, "go"), replyAt("m2", 20, 40), userAt("m3", 30, "steer"), replyAt("m4", 41, 0)}, false},
		{"a resume after the end", []wire.MessageWithParts{userAt("m1", 10, "go"), replyAt("m2", 20, 25), userAt("m3", 30, "steer")}, false},
		{"during an aborted reply", []wire.MessageWithParts{userAt("m1", 10, "go"), aborted, userAt("m3", 30, "steer")}, false},
		{"before the first reply", []wire.MessageWithParts{userAt("m1", 10, "go"), userAt("m3", 30, "steer")}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			for how, entries := range map[string][]Entry{"Build": Build(c.msgs), "Live": NewLive("s", c.msgs).Entries()} {
				e, ok := promptNamed(entries, "steer")
				if !ok {
					t.Fatalf("%s: no steer prompt in %+v", how, entries)
				}
				if e.Queued != c.queued || e.Settled(false) == c.queued {
					t.Errorf("%s: queued %v, settled %v; want queued %v", how, e.Queued, e.Settled(false), c.queued)
				}
				if first, _ := promptNamed(entries, "go"); first.Queued {
					t.Errorf("%s: the first prompt is marked queued", how)
				}
			}
		})
	}
}

// TestQueuedPlainAndStopped: log prints the note under a queued prompt;
// once the session stops nothing is queued, and the entries given are not
// changed.
func TestQueuedPlainAndStopped(t *testing.T) {
	entries := Build([]wire.MessageWithParts{userAt("m1", 10, "go"), replyAt("m2", 20, 0), userAt("m3", 30, "steer")})
	last := entries[len(entries)-1]
	if got, want := Plain(last), "» steer\n  ("+QueuedNote+")\n"; got != want {
		t.Errorf("Plain = %q, want %q", got, want)
	}
	stopped := Stopped(entries, false)
	if stopped[len(stopped)-1].Queued || !entries[len(entries)-1].Queued {
		t.Errorf("Stopped: got queued %v, original %v", stopped[len(stopped)-1].Queued, entries[len(entries)-1].Queued)
	}
	if strings.Contains(Plain(stopped[len(stopped)-1]), "queued") {
		t.Error("a stopped session's prompt still says queued")
	}
}

// TestFollowerHoldsQueued: log --follow prints a queued prompt only once
// the model has seen it, after the step it came during.
func TestFollowerHoldsQueued(t *testing.T) {
	var f Follower
	msgs := []wire.MessageWithParts{userAt("m1", 10, "go"), replyAt("m2", 20, 0), userAt("m3", 30, "steer")}
	if got := f.Next(Build(msgs), false); len(got) != 1 || got[0].Text != "go" {
		t.Fatalf("first: %+v", got)
	}
	done := replyAt("m2", 20, 40)
	done.Parts[0].State.Status = wire.ToolCompleted
	msgs[1] = done
	if got := f.Next(Build(msgs), false); len(got) != 1 || got[0].Kind != KindTool {
		t.Fatalf("after the step: %+v (the prompt must wait for the model)", got)
	}
	msgs = append(msgs, replyAt("m4", 41, 0))
	if got := f.Next(Build(msgs), false); len(got) != 1 || got[0].Text != "steer" || got[0].Queued {
		t.Fatalf("once seen: %+v", got)
	}
}
