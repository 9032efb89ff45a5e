package client

import (
	"math/rand/v2"
	"time"
)

// StreamOptions tunes the event stream. The zero value is what a local
// server needs; tests shrink the durations.
type StreamOptions struct {
	// MinBackoff is the wait before the first retry (default 250ms). Each
	// failed attempt in a row doubles it up to MaxBackoff (default 10s).
	MinBackoff, MaxBackoff time.Duration
	// Jitter spreads each wait by ±Jitter of itself (default 0.2) so that
	// many clients do not retry in step. Negative means none.
	Jitter float64
	// StableAfter is how long a connection must live for the next failure
	// to start again from MinBackoff (default 30s). A server that accepts
	// and drops at once therefore still backs off.
	StableAfter time.Duration
	// ConnectTimeout bounds dialling and waiting for the response headers
	// (default 5s, or Options.Timeout if shorter). A restarting server
	// accepts connections before it answers them; a short limit retries
	// sooner instead of hanging on the first attempt.
	ConnectTimeout time.Duration
	// IdleTimeout is how long a connection may stay silent once the server
	// has shown that it sends heartbeats before it is taken for dead and
	// reopened (default 75s; negative disables). 1.18 sends
	// server.heartbeat about every 10s, 1.1.65 every 30s: the default is
	// well over both, so a quiet but live stream is never cycled. Until
	// the first heartbeat the stream is not held to it at all.
	IdleTimeout time.Duration
	// MaxEventSize is the largest event accepted (default 64 MiB). A tool
	// output of several MB arrives as one event.
	MaxEventSize int
	// Raw, when set, is called with each event's SSE data as the server
	// sent it, before it is decoded, on the stream's goroutine. octop
	// --record writes it down.
	Raw func(data string)
	// Pace, when > 0, reads a busy stream once per Pace: once a read has
	// caught up with the server (it ended an event and found nothing
	// more waiting), its next read waits until Pace has passed. After
	// the events of each read Stream sends wire.CaughtUp: all that came
	// is handed on. What the server sends meanwhile waits in the
	// socket and is read, decoded and handed on in one go, so a busy
	// stream wakes its reader once per Pace instead of once per event.
	// The first event after a quiet spell is read at once, and an event
	// cut across reads is never held between them.
	Pace time.Duration
}

// Defaults of StreamOptions.
const (
	DefaultMinBackoff  = 250 * time.Millisecond
	DefaultMaxBackoff  = 10 * time.Second
	DefaultJitter      = 0.2
	DefaultStableAfter = 30 * time.Second
	DefaultIdleTimeout = 75 * time.Second
	// DefaultConnectTimeout bounds a stream attempt until its headers.
	DefaultConnectTimeout = 5 * time.Second
	DefaultMaxEventSize   = 64 << 20
)

func (o StreamOptions) withDefaults() StreamOptions {
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = o.MinBackoff
	}
	if o.Jitter == 0 {
		o.Jitter = DefaultJitter
	}
	if o.Jitter < 0 {
		o.Jitter = 0
	}
	if o.Jitter > 1 {
		o.Jitter = 1
	}
	if o.StableAfter <= 0 {
		o.StableAfter = DefaultStableAfter
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxEventSize <= 0 {
		o.MaxEventSize = DefaultMaxEventSize
	}
	return o
}

// backoff is the wait before retry number attempt (1-based): MinBackoff
// doubled attempt-1 times, capped at MaxBackoff, then jittered.
func (o StreamOptions) backoff(attempt int) time.Duration {
	d := o.MinBackoff
	for i := 1; i < attempt && d < o.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, o.MaxBackoff)
	if o.Jitter > 0 {
		f := 1 + o.Jitter*(2*rand.Float64()-1)
		d = time.Duration(float64(d) * f)
	}
	return d
}
