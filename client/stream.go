package client

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptrace"
	"time"

	"github.com/octop-dev/octop/internal/bytesize"
	"github.com/octop-dev/octop/internal/sleep"
	"github.com/octop-dev/octop/internal/wire"
	sse "github.com/tmaxmax/go-sse"
)

const decodeErrorDataMax = 1 << 10

// Errors the stream's watchdogs cancel a connection with.
var (
	errIdle           = errors.New("no event or heartbeat")
	errConnectTimeout = errors.New("no answer")
)

// StreamPath is the path Stream reads: /event, or /global/event when the
// client was made with Options.Global.
func (c *Client) StreamPath() string {
	if c.global {
		return "/global/event"
	}
	return "/event"
}

// Stream follows the server's event stream until ctx is done, then
// returns nil. It calls send, from the calling goroutine, with:
//   - ConnState on every change of the connection;
//   - ResyncNeeded right after every successful (re)connect;
//   - Envelope for each event, unknown types included (as Unknown);
//   - DecodeError for an event that could not be decoded;
//   - CaughtUp, with StreamOptions.Pace only, after each read's events.
//
// It reconnects on its own with capped exponential backoff and jitter. It
// gives up, returning the error, only on a failure retrying cannot fix: a
// rejected password (KindUnauthorized), a missing endpoint (KindNotFound)
// or an answer that is not an event stream (KindBadResponse).
func (c *Client) Stream(ctx context.Context, send func(any)) error {
	o := c.stream
	// attempt numbers the connection attempts since the stream started or
	// a connection last stayed up for StableAfter; it drives the backoff.
	attempt := 1
	for {
		send(wire.ConnState{State: wire.Connecting, Attempt: attempt})
		start := time.Now()
		connected, err := c.streamOnce(ctx, send, attempt)
		if ctx.Err() != nil {
			send(wire.ConnState{State: wire.Disconnected, Attempt: attempt})
			return nil
		}
		if permanent(err) {
			send(wire.ConnState{State: wire.Disconnected, Err: err, Attempt: attempt})
			return err
		}
		stable := connected && time.Since(start) >= o.StableAfter
		wait := o.backoff(attempt)
		if stable {
			wait = o.backoff(1)
		}
		send(wire.ConnState{State: wire.Disconnected, Err: err, RetryAt: time.Now().Add(wait), Attempt: attempt})
		ended := attempt
		if stable {
			attempt = 1
		} else {
			attempt++
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			send(wire.ConnState{State: wire.Disconnected, Attempt: ended})
			return nil
		case <-t.C:
		}
	}
}

func permanent(err error) bool {
	switch ErrorKind(err) {
	case KindUnauthorized, KindNotFound, KindBadResponse, KindInvalid:
		return true
	}
	return false
}

// streamOnce runs one connection until it ends. connected says whether it
// got as far as an event stream. The error is never nil unless ctx is done.
func (c *Client) streamOnce(ctx context.Context, send func(any), attempt int) (connected bool, err error) {
	cctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var conn net.Conn
	trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { conn = i.Conn }}
	resp, err := c.openStream(ctx, httptrace.WithClientTrace(cctx, trace), cancel)
	if resp == nil {
		return false, err
	}
	defer resp.Body.Close()
	send(wire.ConnState{State: wire.Connected, Attempt: attempt})
	send(wire.ResyncNeeded{})
	arr, _ := conn.(arrivals)
	err = c.readStream(ctx, cancel, resp.Body, arr, send)
	return true, c.streamEnded(ctx, cctx, err)
}

// openStream sends the stream's request and checks that an event stream
// came back. A nil response comes with the error that ended the attempt,
// or with none when ctx is done. cancel ends cctx, the request's context.
func (c *Client) openStream(ctx, cctx context.Context, cancel context.CancelCauseFunc) (*http.Response, error) {
	path := c.StreamPath()
	op := "GET " + path
	req, err := c.newRequest(cctx, http.MethodGet, path, nil, nil)
	if err != nil {
		return nil, &Error{Kind: KindInvalid, Op: op, Msg: op + ": " + err.Error(), Err: err}
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Cache-Control", "no-cache")

	connectTimeout := c.stream.ConnectTimeout
	if connectTimeout <= 0 {
		connectTimeout = min(DefaultConnectTimeout, c.timeout)
	}
	// The stream's request has no overall deadline (it lives for hours), so
	// two timers stand in: one until the headers arrive, then the idle
	// watchdog. Both cancel the request, which unblocks the body read.
	connectTimer := time.AfterFunc(connectTimeout, func() { cancel(errConnectTimeout) })
	start := time.Now()
	resp, err := c.streamC.Do(req)
	connectTimer.Stop()
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil
		}
		if context.Cause(cctx) == errConnectTimeout {
			return nil, &Error{Kind: KindTimeout, Op: op, URL: c.baseStr, After: time.Since(start),
				Msg: fmt.Sprintf("%s: OpenCode at %s accepted no stream within %s", op, c.baseStr, connectTimeout.Round(time.Millisecond)), Err: err}
		}
		return nil, c.transportError(ctx, cctx, op, start, err)
	}
	if err := c.checkStreamResponse(op, resp); err != nil {
		resp.Body.Close()
		return nil, err
	}
	return resp, nil
}

// checkStreamResponse turns an answer that is not an event stream (an
// error status, an HTML page) into the error that says so.
func (c *Client) checkStreamResponse(op string, resp *http.Response) error {
	if resp.StatusCode >= 300 {
		body := make([]byte, 512)
		n, _ := resp.Body.Read(body)
		return c.statusError(op, "", resp, body[:n])
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		body := make([]byte, 512)
		n, _ := resp.Body.Read(body)
		if mt == "" {
			mt = "no content type"
		}
		return &Error{Kind: KindBadResponse, Op: op, URL: c.baseStr, Status: resp.StatusCode,
			Msg: fmt.Sprintf("expected an event stream from %s but got %s: %q", op, mt, snippet(body[:n]))}
	}
	return nil
}

// readStream decodes events from body and sends them until the body ends,
// fails, or ctx is done; it returns the read error, if any. The idle
// watchdog is armed once the server has sent a heartbeat, and stopped
// while send runs so a slow consumer is not taken for a dead server.
//
// conn, when the connection can say when its bytes arrived (a rawConn),
// stamps each event's Received; without it the reader estimates.
func (c *Client) readStream(ctx context.Context, cancel context.CancelCauseFunc, body io.Reader, conn arrivals, send func(any)) error {
	o := c.stream
	var idle *time.Timer
	defer func() {
		if idle != nil {
			idle.Stop()
		}
	}()
	pr := &pacedReader{ctx: ctx, r: body, pace: o.Pace, conn: conn}
	defer pr.close()
	if o.Pace > 0 {
		pr.caughtUp = func() { send(wire.CaughtUp{}) }
	}
	for ev, rerr := range sse.Read(fillingReader{pr}, &sse.ReadConfig{MaxEventSize: o.MaxEventSize}) {
		if idle != nil {
			idle.Stop()
		}
		if errors.Is(rerr, bufio.ErrTooLong) {
			// The parser's own words ("bufio.Scanner: token too long")
			// would tell nobody what happened.
			return fmt.Errorf("an event is larger than %s, the most octop reads of one event", bytesize.Text(int64(o.MaxEventSize)))
		}
		if rerr != nil {
			return rerr
		}
		if ev.Data == "" {
			continue
		}
		if o.Raw != nil {
			o.Raw(ev.Data)
		}
		env, derr := wire.DecodeEvent([]byte(ev.Data))
		env.Received = pr.since
		pr.sent = true
		if derr != nil {
			data := []byte(ev.Data[:min(len(ev.Data), decodeErrorDataMax)])
			send(wire.DecodeError{Err: derr, Data: data})
		} else {
			send(env)
		}
		if o.IdleTimeout > 0 {
			if idle == nil {
				if _, ok := env.Event.(wire.ServerHeartbeat); ok {
					idle = time.AfterFunc(o.IdleTimeout, func() { cancel(errIdle) })
				}
			} else {
				idle.Reset(o.IdleTimeout)
			}
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	return nil
}

// streamEnded says why a connection that reached the stream ended: nil
// when ctx is done, else the idle watchdog, a close by the server, or the
// read error err.
func (c *Client) streamEnded(ctx, cctx context.Context, err error) error {
	op := "GET " + c.StreamPath()
	if ctx.Err() != nil {
		return nil
	}
	if context.Cause(cctx) == errIdle {
		return &Error{Kind: KindTimeout, Op: op, URL: c.baseStr, After: c.stream.IdleTimeout,
			Msg: fmt.Sprintf("the event stream from %s went silent for %s (no heartbeat)", c.baseStr, c.stream.IdleTimeout.Round(time.Millisecond))}
	}
	if err == nil {
		return &Error{Kind: KindUnreachable, Op: op, URL: c.baseStr,
			Msg: "OpenCode at " + c.baseStr + " closed the event stream"}
	}
	return &Error{Kind: KindUnreachable, Op: op, URL: c.baseStr,
		Msg: "lost the event stream from " + c.baseStr + ": " + oneLine(err.Error(), 120), Err: err}
}

// fillingReader keeps reading into p while what it got holds no line
// break. go-sse's scanner rescans its whole buffer after every Read, so a
// multi-MB event (one line of JSON) arriving in socket-sized reads would
// cost time quadratic in its size (tens of megabytes took seconds). Until a line break
// arrives the parser cannot produce anything, so waiting for more cannot
// delay an event; each Read then fills the scanner's growing buffer and
// the cost stays linear.
type fillingReader struct{ r io.Reader }

func (f fillingReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := f.r.Read(p[n:])
		if bytes.ContainsAny(p[n:n+m], "\r\n") || err != nil {
			return n + m, err
		}
		n += m
	}
	return n, nil
}

// pacedReader reads a busy stream once per pace (StreamOptions.Pace). The
// parser asks for a read only once it has handed on every whole event in
// what it had, so each read first calls caughtUp if events were sent
// since the last. A read has caught up when it came back short (nothing
// more was waiting) right at the end of an event; the next read then
// waits out the pace. A read that did not catch up (an event cut across
// reads) is followed at once. Without a pace it only keeps since.
type pacedReader struct {
	ctx      context.Context
	r        io.Reader
	pace     time.Duration
	caughtUp func()
	sent     bool             // an event was sent since caughtUp was last called
	timer    *sleep.Timer     // the pace's, made at the first wait; close lets it go
	now      func() time.Time // time.Now; tests set their own clock
	// since is the earliest time the bytes of the last read may have
	// reached the socket (wire.Envelope.Received): the connection's own
	// stamp when it has one (conn), else estimated from how long reads take.
	since time.Time
	conn  arrivals
	at    time.Time // when the last read caught up; zero if it did not
	empty time.Time // when a read last came back short: the socket was empty then
	tail  []byte    // the stream's last bytes, for endsEvent across reads
}

// arrivals is a connection that knows when the bytes of its last read
// reached its socket (rawConn, on Linux).
type arrivals interface{ Arrived() time.Time }

// quieter is a connection that can hold what arrives without waking
// anyone while the stream waits out its pace (rawConn, on Linux).
type quieter interface{ Quiet(on bool) }

// blocked is how long a read must take to count as having waited for its
// bytes (they reached the socket as it returned), rather than finding them
// there.
const blocked = time.Millisecond

func (p *pacedReader) Read(b []byte) (int, error) {
	if p.sent && p.pace > 0 {
		// The parser reads again only once it has handed on every
		// whole event it had: those are all there is for now.
		p.sent = false
		p.caughtUp()
	}
	if !p.at.IsZero() && p.pace > 0 {
		// A sleep.Timer, not a Go timer: this wait comes with every
		// batch of a busy stream, and a Go timer wakes octop four times.
		if p.timer == nil {
			p.timer = sleep.New(p.ctx)
		}
		q, _ := p.conn.(quieter)
		if q != nil {
			q.Quiet(true)
		}
		err := p.timer.For(p.pace - p.clock().Sub(p.at))
		if q != nil {
			q.Quiet(false)
		}
		if err != nil {
			return 0, err
		}
		p.at = time.Time{}
	}
	start := p.clock()
	n, err := p.r.Read(b)
	end := p.clock()
	// Bytes the read found waiting came after the socket was last seen
	// empty; bytes it waited for came as it returned, and the socket was
	// empty until then.
	waited := end.Sub(start) >= blocked
	if n > 0 {
		p.since = p.empty
		if p.since.IsZero() || waited {
			p.since = end
		}
		if p.conn != nil {
			// The body is read through net/http's buffer, which reads
			// the socket only when it is empty: these bytes came in
			// the connection's last read.
			if at := p.conn.Arrived(); !at.IsZero() {
				p.since = at
			}
		}
	}
	if n < len(b) || waited {
		p.empty = end
	}
	if n > 0 {
		p.tail = append(p.tail, b[max(n-4, 0):n]...)
		p.tail = p.tail[max(len(p.tail)-4, 0):]
	}
	if n > 0 && n < len(b) && endsEvent(p.tail) {
		p.at = end
	}
	return n, err
}

// close lets the pace's timer go.
func (p *pacedReader) close() {
	if p.timer != nil {
		p.timer.Close()
	}
}

func (p *pacedReader) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

// endsEvent reports whether b, the stream's last bytes, ends with the
// blank line that ends an SSE event.
func endsEvent(b []byte) bool {
	return bytes.HasSuffix(b, []byte("\n\n")) || bytes.HasSuffix(b, []byte("\r\n\r\n")) || bytes.HasSuffix(b, []byte("\r\r"))
}
