package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
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
	op := cl.method + " " + cl.path
	var body io.Reader
	if cl.body != nil {
		b, err := json.Marshal(cl.body)
		if err != nil {
			return &Error{Kind: KindInvalid, Op: op, Msg: op + ": cannot encode the request: " + err.Error(), Err: err}
		}
		body = bytes.NewReader(b)
	}
	tctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := c.newRequest(tctx, cl.method, cl.path, cl.query, body)
	if err != nil {
		return &Error{Kind: KindInvalid, Op: op, Msg: op + ": " + err.Error(), Err: err}
	}
	req.Header.Set("Accept", "application/json")
	if cl.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := c.hc.Do(req)
	if err != nil {
		return c.transportError(ctx, tctx, op, start, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return c.transportError(ctx, tctx, op, start, err)
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
	if err := json.Unmarshal(data, out); err != nil {
		return c.notJSON(op, resp, data, err)
	}
	return nil
}

// transportError explains a request that got no answer. A cancel by the
// caller stays a plain context error: nobody needs to be told about it.
func (c *Client) transportError(parent, tctx context.Context, op string, start time.Time, err error) error {
	if errors.Is(parent.Err(), context.Canceled) {
		return parent.Err()
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

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
