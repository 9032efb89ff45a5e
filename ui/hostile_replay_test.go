package ui

import (
	"bytes"
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/record"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/testkit/drive"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// tappedServer records the screen's reads, as --record does.
type tappedServer struct {
	task.Server
	reads record.Backend
	tap   record.Tap
}

func (t tappedServer) Snapshot(ctx context.Context) (model.Snapshot, error) {
	return t.reads.Snapshot(ctx)
}

func (t tappedServer) Health(ctx context.Context) (wire.Health, error) { return t.reads.Health(ctx) }

func (t tappedServer) History(ctx context.Context, id, dir string) ([]wire.MessageWithParts, error) {
	msgs, err := t.Server.History(ctx, id, dir)
	if err == nil {
		t.tap.History(id, msgs)
	}
	return msgs, err
}

// TestHostileRecordingOnReplay records the screen over the hostile server,
// then plays the recording back (--replay): a shared recording must not
// attack whoever plays it, on the screen or in the rooms it answers.
func TestHostileRecordingOnReplay(t *testing.T) {
	var buf bytes.Buffer
	rec, err := record.NewWriter(&buf, "test", 0)
	if err != nil {
		t.Fatal(err)
	}
	recorded := newShowcaseScreen(t, 160, 50, screenSetup{hostile: true, rec: rec})
	for _, id := range []string{recorded.sc.Done, recorded.sc.Failed, recorded.sc.Orphan} {
		recorded.selectSession(id) // the screen reads histories as it goes
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := record.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	p, err := record.New(r, record.Options{Speed: 32})
	if err != nil {
		t.Fatal(err)
	}
	seen := record.NewRecorded()
	clk := drive.NewClock(t, p.Clock())
	hs := &showcaseScreen{t: t, sc: recorded.sc, clk: clk, m: New(Options{Demo: true, ReadOnly: "replay: read-only",
		RecordedHistory: p.HasHistories(), Server: record.ReadOnly(p.Backend(), seen, "replay"), Clock: p.Clock,
		Timer: clk, NoColor: true})}
	hs.send(tea.WindowSizeMsg{Width: 160, Height: 50})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	played := make(chan any, 1024)
	go p.Run(ctx, func(msg any) { seen.Observe(msg); played <- msg })
	for done := false; !done; {
		select {
		case msg := <-played:
			if env, ok := msg.(wire.Envelope); ok {
				_, done = env.Event.(wire.TodoUpdated) // the recording's last event
				hs.send(EventsMsg{env})
			} else {
				hs.send(msg)
			}
		case <-time.After(testwait.Scale(20 * time.Second)):
			t.Fatal("the replay did not reach the recording's last event")
		}
	}
	hs.check("the replay's screen", true)
	for _, id := range []string{hs.sc.Root, hs.sc.Worker, hs.sc.Failed, hs.sc.Retrying, hs.sc.Waiting, hs.sc.Done, hs.sc.Orphan} {
		hs.selectSession(id)
		hs.check("the replay's tree and detail of "+id, true)
	}
	for _, r := range []struct{ session, key string }{{hs.sc.Done, "o"}, {hs.sc.Failed, "t"}, {hs.sc.Root, "d"},
		{hs.sc.Root, "T"}, {hs.sc.Root, "i"}, {hs.sc.Root, "x"}, {hs.sc.Root, "u"}, {hs.sc.Root, "U"}} {
		hs.selectSession(r.session)
		hs.keys(r.key)
		hs.check("the replay's "+r.key+" on "+r.session, r.key != "x" && r.key != "u" && r.key != "U")
		hs.keys("esc")
		if hs.m.dialog != nil {
			hs.keys("esc")
		}
	}
}
