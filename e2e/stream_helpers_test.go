package e2e

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// newClient returns a client for s with a fast reconnect backoff, so tests
// do not wait seconds between attempts.
func newClient(t testing.TB, s *harness.Server) *client.Client {
	t.Helper()
	return newClientAt(t, s.URL, s.Username, s.Password)
}

func newClientAt(t testing.TB, url, user, pass string) *client.Client {
	t.Helper()
	return newClientWith(t, client.Options{BaseURL: url, Username: user, Password: pass,
		Stream: client.StreamOptions{MinBackoff: 50 * time.Millisecond, MaxBackoff: 500 * time.Millisecond}})
}

// streamConnectTimeout bounds each stream attempt's wait for headers. A
// restarting server accepts connections before it answers them, and an
// attempt that lands in that window hangs until this timeout.
const streamConnectTimeout = 3 * time.Second

// newClientWith is client.New with a generous per-call timeout for a
// loaded machine (scaled by OCTOP_TEST_SLOW).
func newClientWith(t testing.TB, opts client.Options) *client.Client {
	t.Helper()
	opts.Timeout = testwait.Scale(30 * time.Second)
	if opts.Stream.ConnectTimeout == 0 {
		opts.Stream.ConnectTimeout = streamConnectTimeout
	}
	c, err := client.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// streamLog runs client.Stream in a goroutine and keeps everything it
// sends, for tests to wait on.
type streamLog struct {
	mu     sync.Mutex
	items  []any
	cancel context.CancelFunc
	done   chan error
}

func startStream(t testing.TB, c *client.Client) *streamLog {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := &streamLog{cancel: cancel, done: make(chan error, 1)}
	go func() { l.done <- c.Stream(ctx, l.add) }()
	t.Cleanup(func() { _ = l.stop(t) })
	return l
}

func (l *streamLog) add(v any) {
	l.mu.Lock()
	l.items = append(l.items, v)
	l.mu.Unlock()
}

// stop cancels the stream and waits for Stream to return.
func (l *streamLog) stop(t testing.TB) error {
	l.cancel()
	select {
	case err := <-l.done:
		l.done <- err // keep it for a second stop
		return err
	case <-time.After(testwait.Scale(30 * time.Second)):
		t.Errorf("Stream did not return within %v of its context's end", testwait.Scale(30*time.Second))
		return nil
	}
}

// wait polls cond over everything received so far until it holds or the
// limit passes.
func (l *streamLog) wait(t testing.TB, limit time.Duration, what string, cond func(items []any) bool) {
	t.Helper()
	testwait.Check(t, func() error {
		l.mu.Lock()
		ok := cond(l.items)
		n := len(l.items)
		l.mu.Unlock()
		if ok {
			return nil
		}
		return fmt.Errorf("%d stream items\n%s", n, l.summary())
	}, limit, "%s", what)
}

// summary lists the connection states and counts events, for failures.
func (l *streamLog) summary() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	counts := map[string]int{}
	var states string
	for _, it := range l.items {
		switch v := it.(type) {
		case wire.ConnState:
			states += fmt.Sprintf("  %s attempt %d err=%v\n", v.State, v.Attempt, v.Err)
		case wire.ResyncNeeded:
			states += "  resync\n"
		case wire.Envelope:
			counts[v.Event.EventType()]++
		case wire.DecodeError:
			counts["DecodeError"]++
		}
	}
	return fmt.Sprintf("connection:\n%sevents: %v", states, counts)
}

func count[T any](items []any) int {
	n := 0
	for _, it := range items {
		if _, ok := it.(T); ok {
			n++
		}
	}
	return n
}

// events returns the decoded events of type T.
func events[T wire.Event](items []any) []T {
	var out []T
	for _, it := range items {
		if env, ok := it.(wire.Envelope); ok {
			if e, ok := env.Event.(T); ok {
				out = append(out, e)
			}
		}
	}
	return out
}

// childrenOf lists the ids of session.created events whose parent is root.
func childrenOf(items []any, root string) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range events[wire.SessionCreated](items) {
		if e.Info.ParentID == root && !seen[e.Info.ID] {
			seen[e.Info.ID] = true
			out = append(out, e.Info.ID)
		}
	}
	return out
}

// toolParts lists the tool part updates of a session.
func toolParts(items []any, session string) []wire.Part {
	var out []wire.Part
	for _, e := range events[wire.PartUpdated](items) {
		if e.Part.SessionID == session && e.Part.Type == wire.PartTool {
			out = append(out, e.Part)
		}
	}
	return out
}

// prompt creates a root session and sends it a fakellm script.
func prompt(t testing.TB, c *client.Client, title, script string) wire.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
	defer cancel()
	s, err := c.CreateSession(ctx, client.CreateSessionRequest{Title: title})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.PromptAsync(ctx, s.ID, client.PromptRequest{Parts: []client.TextPartInput{{Text: script}}}); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitREST polls f until it reports done, fails the test on its error or
// at the limit.
func waitREST(t testing.TB, limit time.Duration, what string, f func(ctx context.Context) (bool, error)) {
	t.Helper()
	var last error
	testwait.Check(t, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(15*time.Second))
		defer cancel()
		ok, err := f(ctx)
		if err != nil {
			last = err
		}
		if err == nil && ok {
			return nil
		}
		return fmt.Errorf("last error: %v", last)
	}, limit, "%s", what)
}

// waitIdle waits until the server has no busy session, so the next test
// on a shared server starts quiet; limit is scaled by OCTOP_TEST_SLOW.
func waitIdle(t testing.TB, s *harness.Server, limit time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(limit))
	defer cancel()
	if err := s.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
}

// cutProxy is a TCP proxy whose connections a test can cut, to make a
// client reconnect without restarting the server.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  map[net.Conn]bool
	wg     sync.WaitGroup
	down   bool // refusing: each new connection is closed at once
}

func newCutProxy(t testing.TB, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *cutProxy) URL() string { return "http://" + p.ln.Addr().String() }

func (p *cutProxy) serve() {
	defer p.wg.Done()
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		down := p.down
		p.mu.Unlock()
		if down {
			in.Close()
			continue
		}
		out, err := net.DialTimeout("tcp", p.target, testwait.Scale(5*time.Second))
		if err != nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns[in], p.conns[out] = true, true
		p.mu.Unlock()
		p.wg.Add(2)
		pipe := func(dst, src net.Conn) {
			defer p.wg.Done()
			_, _ = io.Copy(dst, src)
			dst.Close()
			src.Close()
			p.mu.Lock()
			delete(p.conns, dst)
			delete(p.conns, src)
			p.mu.Unlock()
		}
		go pipe(in, out)
		go pipe(out, in)
	}
}

// cut closes every open connection.
func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

// setDown cuts every connection and refuses new ones until setDown(false):
// a server the client cannot reach for a while.
func (p *cutProxy) setDown(down bool) {
	p.mu.Lock()
	p.down = down
	p.mu.Unlock()
	if down {
		p.cut()
	}
}

func (p *cutProxy) close() {
	p.ln.Close()
	p.cut()
	p.wg.Wait()
}
