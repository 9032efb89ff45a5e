package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"

	"github.com/octop-dev/octop/internal/wire"
)

// EachSession lists every session of the directory (GET /session), as
// Sessions does, handing each to fn as it is decoded: the answer is read
// as a stream and never held whole (read whole, then decoded, it took
// three times its size; docs/perf.md, scale). An error fn returns
// stops the read and is returned as it is. The answer is bounded as every
// other (Options.MaxBodySize).
func (c *Client) EachSession(ctx context.Context, fn func(*wire.Session) error) error {
	return EachSessionOf(ctx, c, fn)
}

// listAll is the limit GET /session is asked for: 1.18 lists only the 100
// most recently updated sessions unless told a limit, and 1.1 takes one
// too; this one is larger than any server's count.
const listAll = "2147483647"

// EachSessionOf is EachSession decoding each session into a type of the
// caller's own, for one that needs less of a session than wire.Session
// holds (the screen and octop tree skip every child's permission rules).
//
// A session that does not decode (a title that is a number) costs only
// itself: Options.Undecodable hears of it, and, when its id could be
// read, fn gets it with what did decode and its Undecodable field, if T
// has one, saying why; else it is left out.
func EachSessionOf[T any](ctx context.Context, c *Client, fn func(*T) error) error {
	cl := call{method: http.MethodGet, path: "/session", what: whatSession,
		query: url.Values{"limit": {listAll}}}
	pos := 0
	return c.streamList(ctx, cl, func(raw []byte) error {
		pos++
		var s T
		if err := wire.Unmarshal(raw, &s); err != nil {
			if !recordError(err) {
				return err
			}
			u := wire.Undecodable{What: cl.what, ID: idOf(reflect.ValueOf(&s)), Pos: pos, Reason: reasonOf(err), Op: "GET /session"}
			if !c.skipped(u, reflect.ValueOf(&s)) {
				return nil
			}
		}
		return stopWith(fn(&s))
	})
}

// Sessions lists every session of the directory (GET /session), roots and
// children alike.
func (c *Client) Sessions(ctx context.Context) ([]wire.Session, error) {
	var out []wire.Session
	err := c.EachSession(ctx, func(s *wire.Session) error {
		out = append(out, *s)
		return nil
	})
	return out, err
}

// stopped is an error the caller's fn returned: it ends a stream as it
// is, not as a malformed answer.
type stopped struct{ err error }

func (s stopped) Error() string { return s.err.Error() }

func stopWith(err error) error {
	if err == nil {
		return nil
	}
	return stopped{err}
}

// streamList sends cl and reads its answer, a JSON array (or null),
// element by element (eachElement): each calls next with its bytes.
func (c *Client) streamList(ctx context.Context, cl call, next func(raw []byte) error) error {
	resp, x, err := c.send(ctx, cl)
	if err != nil {
		return err
	}
	defer x.cancel()
	defer resp.Body.Close()
	op := x.op
	if resp.StatusCode >= 300 {
		data, _ := readBody(resp, errorBodyMax, nil)
		return c.statusError(op, cl.missing, resp, data)
	}
	body := &cappedBody{r: resp.Body, limit: c.maxBody}
	err = eachElement(body, next)
	var stop stopped
	switch {
	case err == nil:
		return nil
	case errors.As(err, &stop):
		return stop.err
	case body.over:
		return c.tooLarge(op, resp.StatusCode, c.maxBody, errTooLarge)
	case body.readErr != nil && errors.Is(err, body.readErr):
		return c.transportError(ctx, x.tctx, op, x.start, err)
	}
	return c.notJSON(op, resp, body.head, err)
}

// cappedBody reads an answer up to limit bytes, keeping its first bytes
// for an error message; past the limit it fails.
type cappedBody struct {
	r       io.Reader
	limit   int64
	n       int64
	head    []byte
	over    bool
	readErr error // the transport's own error, if reading failed
}

// headKeep is how much of an answer cappedBody keeps for a message.
const headKeep = 512

func (b *cappedBody) Read(p []byte) (int, error) {
	// One byte past the limit says the answer is longer than it.
	if rest := b.limit + 1 - b.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := b.r.Read(p)
	if len(b.head) < headKeep {
		b.head = append(b.head, p[:min(n, headKeep-len(b.head))]...)
	}
	b.n += int64(n)
	if b.n > b.limit {
		b.over = true
		return n - int(b.n-b.limit), errTooLarge
	}
	if err != nil && err != io.EOF {
		b.readErr = err
	}
	return n, err
}
