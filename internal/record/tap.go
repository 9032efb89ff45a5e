package record

import (
	"context"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Backend is how a screen reads a server (task.Server has these and more
// methods). Tap.Backend wraps one to record what it reads.
type Backend interface {
	Snapshot(ctx context.Context) (model.Snapshot, error)
	Health(ctx context.Context) (wire.Health, error)
}

// Tap records what one server sends, on its way to the screen.
type Tap struct {
	w      *Writer
	server string
	now    func() time.Time
	reads  *atomic.Int64 // the screen's snapshot reads so far
}

// Tap returns a tap for the server at serverURL. The URL's user and
// password are never written.
func (w *Writer) Tap(serverURL string) Tap {
	return Tap{w: w, server: ServerName(serverURL), now: time.Now, reads: new(atomic.Int64)}
}

// ServerName is a server URL fit to write down: without user or password.
// One whose credentials the parser cannot find (no scheme, as in
// "user:pw@host:4096") is not written down at all.
func ServerName(serverURL string) string {
	u, err := url.Parse(serverURL)
	if err != nil || (u.Host == "" && strings.Contains(serverURL, "@")) {
		return "(unparsable server URL)"
	}
	if u.User == nil {
		return serverURL
	}
	u.User = nil
	return u.String()
}

// Announce records that the server joins the recording; a screen of
// several servers announces each in its order, which a replay keeps.
func (t Tap) Announce() {
	t.w.Write(Entry{Kind: KindServer, At: t.now().UnixMilli(), Server: t.server})
}

// Raw records one event's SSE data. It matches client.StreamOptions.Raw.
func (t Tap) Raw(data string) { t.w.Event(t.server, t.now(), []byte(data)) }

// History records a session's messages the screen read.
func (t Tap) History(id string, msgs []wire.MessageWithParts) {
	t.w.History(t.server, t.now(), id, msgs)
}

// Send wraps the stream's send: it records the connection changes and
// resyncs and passes everything on. Events are recorded by Raw, as sent.
func (t Tap) Send(next func(any)) func(any) {
	return func(v any) {
		switch v := v.(type) {
		case wire.ConnState:
			t.w.Conn(t.server, t.now(), v)
		case wire.ResyncNeeded:
			t.w.Resync(t.server, t.now())
		}
		next(v)
	}
}

// Backend wraps b so that every snapshot and health reply it reads is
// recorded when it arrives, and every snapshot read that fails.
func (t Tap) Backend(b Backend) Backend { return tapBackend{b, t} }

type tapBackend struct {
	b Backend
	t Tap
}

func (tb tapBackend) Snapshot(ctx context.Context) (model.Snapshot, error) {
	read := int(tb.t.reads.Add(1))
	s, err := tb.b.Snapshot(ctx)
	if err != nil {
		tb.t.w.SnapshotFailed(tb.t.server, tb.t.now(), read, err)
		return s, err
	}
	tb.t.w.Snapshot(tb.t.server, tb.t.now(), read, s)
	return s, err
}

func (tb tapBackend) Health(ctx context.Context) (wire.Health, error) {
	h, err := tb.b.Health(ctx)
	if err == nil {
		tb.t.w.Health(tb.t.server, tb.t.now(), h)
	}
	return h, err
}
