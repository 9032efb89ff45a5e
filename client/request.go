package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/octop-dev/octop/internal/bytesize"
)

// expectTrue turns a successful call that answered false into an error:
// the boolean endpoints only answer false when nothing was done.
func (c *Client) expectTrue(err error, ok bool, op string) error {
	if err != nil {
		return err
	}
	if !ok {
		return &Error{Kind: KindBadResponse, Op: op, URL: c.baseStr, Msg: op + " answered false: the server did nothing"}
	}
	return nil
}

// call describes one request. missing names what a 404 means, e.g.
// "session ses_…"; empty means a 404 says the URL is wrong.
type call struct {
	method  string
	path    string
	query   url.Values
	body    any
	missing string
	header  *http.Header // if set, receives the response's headers
	// what names the records the answer is a list or map of
	// (whatSession…): one that does not decode costs only itself
	// (salvage). Empty: the answer decodes whole or not at all.
	what string
}

func (c *Client) url(path string, q url.Values) string {
	u := *c.base
	u.Path = c.base.Path + path
	if c.dir != "" {
		if q == nil {
			q = url.Values{}
		}
		q.Set("directory", c.dir)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func (c *Client) newRequest(ctx context.Context, method, path string, q url.Values, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.url(path, q), body)
	if err != nil {
		return nil, err
	}
	if c.pass != "" {
		req.SetBasicAuth(c.user, c.pass)
	}
	return req, nil
}

// do runs one request with the per-call timeout and decodes a JSON answer
// into out (nil: the body is only checked for not being an error page).
func (c *Client) do(ctx context.Context, cl call, out any) error {
	resp, x, err := c.send(ctx, cl)
	if err != nil {
		return err
	}
	defer x.cancel()
	defer resp.Body.Close()
	op := x.op
	limit := c.maxBody
	if resp.StatusCode >= 300 {
		limit = errorBodyMax // only its message is shown
	}
	var pooled *[]byte
	if n := resp.ContentLength; out != nil && resp.StatusCode < 300 && n > 0 && n <= pooledMax && n <= limit {
		// The answer is decoded and let go at once: its buffer is reused
		// (decode keeps nothing of its input, and an error quotes a
		// copy). Read at scale, histories were most of the garbage made.
		pooled = bodies.Get().(*[]byte)
		defer bodies.Put(pooled)
	}
	data, err := readBody(resp, limit, pooled)
	if errors.Is(err, errTooLarge) && resp.StatusCode < 300 {
		return c.tooLarge(op, resp.StatusCode, limit, err)
	}
	if err != nil && !errors.Is(err, errTooLarge) {
		return c.transportError(ctx, x.tctx, op, x.start, err)
	}
	if resp.StatusCode >= 300 {
		return c.statusError(op, cl.missing, resp, data)
	}
	if cl.header != nil {
		*cl.header = resp.Header
	}
	if out == nil {
		if len(bytes.TrimSpace(data)) > 0 && !json.Valid(data) {
			return c.notJSON(op, resp, data, nil)
		}
		return nil
	}
	if err := decode(data, out); err != nil {
		if cl.what != "" && recordError(err) && c.salvage(op, cl.what, data, out) {
			return nil
		}
		return c.notJSON(op, resp, data, err)
	}
	return nil
}

// exchange is a request sent: its name, its deadline (cancel once the
// answer is read) and when it left.
type exchange struct {
	op     string
	tctx   context.Context
	cancel context.CancelFunc
	start  time.Time
}

// send sends one request with the per-call timeout, which also bounds
// reading the answer, and returns once the answer's head is in: the
// caller reads and closes its body, then calls x.cancel.
func (c *Client) send(ctx context.Context, cl call) (*http.Response, *exchange, error) {
	op := cl.method + " " + cl.path
	if c.ro && cl.method != http.MethodGet {
		return nil, nil, &Error{Kind: KindReadOnly, Op: op, URL: c.baseStr, Msg: fmt.Sprintf(
			"read-only: %s was not sent; octop changes nothing on %s (--read-only, or read_only in the config file)", op, c.baseStr)}
	}
	var body io.Reader
	if cl.body != nil {
		b, err := json.Marshal(cl.body)
		if err != nil {
			return nil, nil, &Error{Kind: KindInvalid, Op: op, Msg: op + ": cannot encode the request: " + err.Error(), Err: err}
		}
		body = bytes.NewReader(b)
	}
	tctx, cancel := context.WithTimeout(ctx, c.timeout)
	req, err := c.newRequest(tctx, cl.method, cl.path, cl.query, body)
	if err != nil {
		cancel()
		return nil, nil, &Error{Kind: KindInvalid, Op: op, Msg: op + ": " + err.Error(), Err: err}
	}
	req.Header.Set("Accept", "application/json")
	if cl.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := c.hc.Do(req)
	if err != nil {
		cancel()
		return nil, nil, c.transportError(ctx, tctx, op, start, err)
	}
	return resp, &exchange{op: op, tctx: tctx, cancel: cancel, start: start}, nil
}

// tooLarge is an answer over the most octop reads of one.
func (c *Client) tooLarge(op string, status int, limit int64, err error) error {
	return &Error{Kind: KindBadResponse, Op: op, URL: c.baseStr, Status: status, Err: err,
		Msg: fmt.Sprintf("%s: the answer is larger than %s, the most octop reads of one answer", op, bytesize.Text(limit))}
}

// transportError explains a request that got no answer. A cancel by the
// caller stays a plain context error: nobody needs to be told about it.
func (c *Client) transportError(parent, tctx context.Context, op string, start time.Time, err error) error {
	if errors.Is(parent.Err(), context.Canceled) {
		return parent.Err()
	}
	var re *redirectError
	if errors.As(err, &re) {
		return &Error{Kind: KindBadResponse, Op: op, URL: c.baseStr, Err: re, Msg: fmt.Sprintf(
			"%s: OpenCode at %s redirected to %s, another server, which octop does not follow (the password is for this one); "+
				"if OpenCode is there, use that URL", op, c.baseStr, Redact(re.to.String()))}
	}
	if head := badHead(err); head != "" {
		return &Error{Kind: KindBadResponse, Op: op, URL: c.baseStr, Err: err, Msg: fmt.Sprintf(
			"%s: OpenCode at %s answered with a head octop cannot read (%s)", op, c.baseStr, head)}
	}
	if tctx.Err() == context.DeadlineExceeded || errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		after := c.timeout
		if parent.Err() != nil {
			after = time.Since(start)
		}
		return &Error{Kind: KindTimeout, Op: op, URL: c.baseStr, After: after, Err: err}
	}
	return &Error{Kind: KindUnreachable, Op: op, URL: c.baseStr, Err: err}
}

// badHead says what is wrong with an answer's head that net/http
// refused (a malformed header line, a head over net/http's limit), or "" when
// err is not that: the server answered, so it is not out of reach.
func badHead(err error) string {
	var pe textproto.ProtocolError
	switch {
	case errors.As(err, &pe):
		what, _, _ := strings.Cut(string(pe), ":")
		return what
	case strings.Contains(err.Error(), "server response headers exceeded"):
		return "its headers are too large"
	}
	return ""
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// errorBodyMax is how much of an error answer is read: its message is
// all that is shown of it.
const errorBodyMax = 64 << 10

// errTooLarge is an answer over its limit.
var errTooLarge = errors.New("answer too large")

// pooledMax is the largest answer read into a reused buffer (bodies).
const pooledMax = 256 << 10

// bodies are buffers for answers of at most pooledMax bytes.
var bodies = sync.Pool{New: func() any { return new([]byte) }}

// readBody reads resp's body up to limit bytes: all of it, or, past the
// limit, the first limit bytes and errTooLarge. A body that says its
// length is read into a buffer of that size, not grown to it: into
// *pooled, grown as needed, when it is given.
func readBody(resp *http.Response, limit int64, pooled *[]byte) ([]byte, error) {
	r := io.LimitReader(resp.Body, limit+1)
	var buf []byte
	var err error
	if n := resp.ContentLength; n > 0 && n <= limit {
		if pooled != nil && int64(cap(*pooled)) > n {
			buf = (*pooled)[:n]
		} else {
			buf = make([]byte, n, n+1)
			if pooled != nil {
				*pooled = buf
			}
		}
		var m int
		m, err = io.ReadFull(r, buf)
		buf = buf[:m]
		if err == nil {
			// A body longer than it said: read on, to the limit.
			var probe [1]byte
			k, perr := io.ReadFull(r, probe[:])
			switch {
			case k > 0:
				var rest []byte
				rest, err = io.ReadAll(r)
				buf = append(append(buf, probe[0]), rest...)
			case perr != io.EOF:
				err = perr
			}
		}
	} else {
		buf, err = io.ReadAll(r)
	}
	if int64(len(buf)) > limit {
		return buf[:limit], errTooLarge
	}
	return buf, err
}
