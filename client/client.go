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
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/octop-dev/octop/wire"
)

// DefaultURL is where `opencode serve` listens unless told otherwise.
const DefaultURL = "http://127.0.0.1:4096"

// DefaultUsername is the basic-auth user OpenCode expects unless
// OPENCODE_SERVER_USERNAME says otherwise.
const DefaultUsername = "opencode"

// DefaultTimeout bounds each request call (not the event stream).
const DefaultTimeout = 10 * time.Second

// Options configures a Client. Only BaseURL is needed; the zero value of
// every other field picks a sensible default.
type Options struct {
	// BaseURL is the server's root, e.g. http://127.0.0.1:4096. A path
	// prefix (a reverse proxy's) is kept.
	BaseURL string
	// Username and Password turn on HTTP basic auth when Password is set.
	// Username defaults to "opencode".
	Username, Password string
	// Directory, when set, is sent as the `directory` query parameter on
	// every call: it picks the project instance on the server.
	Directory string
	// Global streams /global/event (every project, payload wrapped)
	// instead of /event (one project).
	Global bool
	// HTTPClient is used for every call and the stream. Nil means a client
	// with dial and keep-alive settings suited to a local server. Its
	// Timeout, if any, is not applied to the long-lived stream.
	HTTPClient *http.Client
	// Timeout bounds each request call (DefaultTimeout when zero). The
	// event stream is not bounded by it; see StreamOptions.
	Timeout time.Duration
	// Stream tunes the event stream's reconnects and dead-server detection.
	Stream StreamOptions
}

// OptionsFromEnv reads OPENCODE_SERVER_URL (default DefaultURL),
// OPENCODE_SERVER_PASSWORD and OPENCODE_SERVER_USERNAME. Flags given by
// the user should override what it returns.
func OptionsFromEnv() Options {
	o := Options{
		BaseURL:  os.Getenv("OPENCODE_SERVER_URL"),
		Username: os.Getenv("OPENCODE_SERVER_USERNAME"),
		Password: os.Getenv("OPENCODE_SERVER_PASSWORD"),
	}
	if o.BaseURL == "" {
		o.BaseURL = DefaultURL
	}
	return o
}

// Client talks to one OpenCode server. It is safe for concurrent use.
type Client struct {
	base    *url.URL
	baseStr string
	user    string
	pass    string
	dir     string
	global  bool
	hc      *http.Client
	streamC *http.Client // hc without an overall timeout
	timeout time.Duration
	stream  StreamOptions
}

// New checks opts and returns a Client. It does not contact the server;
// call Health for that.
func New(opts Options) (*Client, error) {
	raw := strings.TrimSpace(opts.BaseURL)
	if raw == "" {
		raw = DefaultURL
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("invalid server URL %q: want something like %s", opts.BaseURL, DefaultURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("invalid server URL %q: it must not carry a query or fragment", opts.BaseURL)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	c := &Client{
		base:    u,
		baseStr: u.String(),
		user:    opts.Username,
		pass:    opts.Password,
		dir:     opts.Directory,
		global:  opts.Global,
		hc:      opts.HTTPClient,
		timeout: opts.Timeout,
		stream:  opts.Stream.withDefaults(),
	}
	if c.user == "" {
		c.user = DefaultUsername
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.hc == nil {
		c.hc = &http.Client{Transport: newTransport()}
	}
	// An http.Client Timeout covers reading the whole body, which would
	// cut the stream; calls have their own per-call deadline instead.
	sc := *c.hc
	sc.Timeout = 0
	c.streamC = &sc
	return c, nil
}

// newTransport is http.DefaultTransport with a shorter dial timeout (the
// server is usually on loopback, so a slow dial means it is not there) and
// TCP keep-alive probes that give up on a vanished peer within about 30s:
// 1.1.65 sends no heartbeats, so for its stream they are the only way to
// notice a server whose host went away without closing the connection.
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{
		Timeout:         5 * time.Second,
		KeepAliveConfig: net.KeepAliveConfig{Enable: true, Idle: 15 * time.Second, Interval: 5 * time.Second, Count: 3},
	}
	t.DialContext = d.DialContext
	return t
}

// BaseURL is the server URL the client was made with, without a trailing
// slash.
func (c *Client) BaseURL() string { return c.baseStr }

// Directory is the project directory sent with every call, or "".
func (c *Client) Directory() string { return c.dir }

// CloseIdleConnections closes kept-alive connections that are not in use,
// e.g. before a program exits or when a test counts goroutines.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// ValidSessionID reports whether id looks like an OpenCode session id:
// "ses_" followed by letters and digits. The server answers a malformed id
// with a 500 (abort) or a 400, so callers check before sending.
func ValidSessionID(id string) bool {
	rest, ok := strings.CutPrefix(id, "ses_")
	if !ok || rest == "" || len(rest) > 64 {
		return false
	}
	for _, r := range rest {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// Health is GET /global/health: whether the server is up, and its version.
func (c *Client) Health(ctx context.Context) (wire.Health, error) {
	var h wire.Health
	err := c.do(ctx, call{method: http.MethodGet, path: "/global/health"}, &h)
	return h, err
}

// Sessions lists every session of the directory (GET /session), roots and
// children alike.
func (c *Client) Sessions(ctx context.Context) ([]wire.Session, error) {
	var s []wire.Session
	err := c.do(ctx, call{method: http.MethodGet, path: "/session"}, &s)
	return s, err
}

// Session fetches one session (GET /session/{id}).
func (c *Client) Session(ctx context.Context, id string) (wire.Session, error) {
	var s wire.Session
	if err := checkSessionID("GET /session/{id}", id); err != nil {
		return s, err
	}
	err := c.do(ctx, call{method: http.MethodGet, path: "/session/" + url.PathEscape(id), missing: "session " + id}, &s)
	return s, err
}

// Children lists a session's direct children (GET /session/{id}/children).
func (c *Client) Children(ctx context.Context, id string) ([]wire.Session, error) {
	var s []wire.Session
	if err := checkSessionID("GET /session/{id}/children", id); err != nil {
		return s, err
	}
	err := c.do(ctx, call{method: http.MethodGet, path: "/session/" + url.PathEscape(id) + "/children", missing: "session " + id}, &s)
	return s, err
}

// Status maps session ids to their run state (GET /session/status). Only
// sessions that are not idle appear.
func (c *Client) Status(ctx context.Context) (map[string]wire.SessionStatus, error) {
	m := map[string]wire.SessionStatus{}
	err := c.do(ctx, call{method: http.MethodGet, path: "/session/status"}, &m)
	if m == nil {
		m = map[string]wire.SessionStatus{}
	}
	return m, err
}

// Messages lists a session's messages with their parts
// (GET /session/{id}/message). A limit of 0 or less means all of them.
func (c *Client) Messages(ctx context.Context, id string, limit int) ([]wire.MessageWithParts, error) {
	var m []wire.MessageWithParts
	if err := checkSessionID("GET /session/{id}/message", id); err != nil {
		return m, err
	}
	var q url.Values
	if limit > 0 {
		q = url.Values{"limit": {strconv.Itoa(limit)}}
	}
	err := c.do(ctx, call{method: http.MethodGet, path: "/session/" + url.PathEscape(id) + "/message", query: q, missing: "session " + id}, &m)
	return m, err
}

// Agents lists the configured agents (GET /agent).
func (c *Client) Agents(ctx context.Context) ([]wire.Agent, error) {
	var a []wire.Agent
	err := c.do(ctx, call{method: http.MethodGet, path: "/agent"}, &a)
	return a, err
}

// CreateSessionRequest is the body of POST /session. Every field is
// optional; ParentID makes the new session a child.
type CreateSessionRequest struct {
	ParentID   string                `json:"parentID,omitempty"`
	Title      string                `json:"title,omitempty"`
	Permission []wire.PermissionRule `json:"permission,omitempty"`
}

// CreateSession creates a session (POST /session) and returns it.
func (c *Client) CreateSession(ctx context.Context, req CreateSessionRequest) (wire.Session, error) {
	var s wire.Session
	if req.ParentID != "" {
		if err := checkSessionID("POST /session", req.ParentID); err != nil {
			return s, err
		}
	}
	err := c.do(ctx, call{method: http.MethodPost, path: "/session", body: req, missing: "session " + req.ParentID}, &s)
	return s, err
}

// TextPartInput is a text part of a prompt. Type defaults to "text".
type TextPartInput struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// MarshalJSON fills in the type so callers may leave it empty.
func (p TextPartInput) MarshalJSON() ([]byte, error) {
	if p.Type == "" {
		p.Type = "text"
	}
	type plain TextPartInput
	return json.Marshal(plain(p))
}

// ModelRef names a model by provider and model id, e.g. mock / mock-1.
type ModelRef struct {
	ProviderID string `json:"providerID"`
	ModelID    string `json:"modelID"`
}

// PromptRequest is the body of POST /session/{id}/prompt_async. Tools
// switches tools on or off by name for this prompt.
type PromptRequest struct {
	Agent  string          `json:"agent,omitempty"`
	Parts  []TextPartInput `json:"parts"`
	Tools  map[string]bool `json:"tools,omitempty"`
	Model  *ModelRef       `json:"model,omitempty"`
	System string          `json:"system,omitempty"`
}

// PromptAsync sends a prompt to a session and returns once the server has
// accepted it (POST /session/{id}/prompt_async); the run's progress comes
// as events. On an existing child it continues that child's conversation.
func (c *Client) PromptAsync(ctx context.Context, id string, req PromptRequest) error {
	if err := checkSessionID("POST /session/{id}/prompt_async", id); err != nil {
		return err
	}
	if req.Parts == nil {
		req.Parts = []TextPartInput{}
	}
	return c.do(ctx, call{method: http.MethodPost, path: "/session/" + url.PathEscape(id) + "/prompt_async", body: req, missing: "session " + id}, nil)
}

// Abort stops a session's run (POST /session/{id}/abort). The server
// answers true even for an id it does not know, so this cannot tell a
// missing session from an idle one.
func (c *Client) Abort(ctx context.Context, id string) error {
	if err := checkSessionID("POST /session/{id}/abort", id); err != nil {
		return err
	}
	var ok bool
	return c.expectTrue(c.do(ctx, call{method: http.MethodPost, path: "/session/" + url.PathEscape(id) + "/abort", missing: "session " + id}, &ok), ok, "POST /session/{id}/abort")
}

// DeleteSession deletes a session and its children (DELETE /session/{id}).
func (c *Client) DeleteSession(ctx context.Context, id string) error {
	if err := checkSessionID("DELETE /session/{id}", id); err != nil {
		return err
	}
	var ok bool
	return c.expectTrue(c.do(ctx, call{method: http.MethodDelete, path: "/session/" + url.PathEscape(id), missing: "session " + id}, &ok), ok, "DELETE /session/{id}")
}

// Permissions lists pending permission requests (GET /permission).
func (c *Client) Permissions(ctx context.Context) ([]wire.PermissionRequest, error) {
	var p []wire.PermissionRequest
	err := c.do(ctx, call{method: http.MethodGet, path: "/permission"}, &p)
	return p, err
}

// Replies to a permission request.
const (
	ReplyOnce   = "once"
	ReplyAlways = "always"
	ReplyReject = "reject"
)

// ReplyPermission answers a permission request
// (POST /permission/{requestID}/reply). reply is ReplyOnce, ReplyAlways or
// ReplyReject; message is optional and goes back to the model.
func (c *Client) ReplyPermission(ctx context.Context, requestID, reply, message string) error {
	const op = "POST /permission/{id}/reply"
	if requestID == "" {
		return &Error{Kind: KindInvalid, Op: op, Msg: "no permission request id given"}
	}
	switch reply {
	case ReplyOnce, ReplyAlways, ReplyReject:
	default:
		return &Error{Kind: KindInvalid, Op: op, Msg: fmt.Sprintf("permission reply %q is not one of once, always, reject", reply)}
	}
	body := struct {
		Reply   string `json:"reply"`
		Message string `json:"message,omitempty"`
	}{reply, message}
	var ok bool
	return c.expectTrue(c.do(ctx, call{method: http.MethodPost, path: "/permission/" + url.PathEscape(requestID) + "/reply", body: body, missing: "permission request " + requestID}, &ok), ok, op)
}

// Questions lists pending questions (GET /question).
func (c *Client) Questions(ctx context.Context) ([]wire.QuestionRequest, error) {
	var q []wire.QuestionRequest
	err := c.do(ctx, call{method: http.MethodGet, path: "/question"}, &q)
	return q, err
}

// ReplyQuestion answers a question (POST /question/{requestID}/reply):
// answers holds, for each question in order, the labels chosen.
func (c *Client) ReplyQuestion(ctx context.Context, requestID string, answers [][]string) error {
	const op = "POST /question/{id}/reply"
	if requestID == "" {
		return &Error{Kind: KindInvalid, Op: op, Msg: "no question id given"}
	}
	// The server wants [] and not null for "no answer".
	a := make([][]string, len(answers))
	for i, ans := range answers {
		if ans == nil {
			ans = []string{}
		}
		a[i] = ans
	}
	body := struct {
		Answers [][]string `json:"answers"`
	}{a}
	var ok bool
	return c.expectTrue(c.do(ctx, call{method: http.MethodPost, path: "/question/" + url.PathEscape(requestID) + "/reply", body: body, missing: "question " + requestID}, &ok), ok, op)
}

// RejectQuestion dismisses a question without answering it
// (POST /question/{requestID}/reject).
func (c *Client) RejectQuestion(ctx context.Context, requestID string) error {
	const op = "POST /question/{id}/reject"
	if requestID == "" {
		return &Error{Kind: KindInvalid, Op: op, Msg: "no question id given"}
	}
	var ok bool
	return c.expectTrue(c.do(ctx, call{method: http.MethodPost, path: "/question/" + url.PathEscape(requestID) + "/reject", missing: "question " + requestID}, &ok), ok, op)
}

func checkSessionID(op, id string) error {
	if ValidSessionID(id) {
		return nil
	}
	return &Error{Kind: KindInvalid, Op: op, Msg: fmt.Sprintf("%q is not a session id (they look like ses_…)", id)}
}

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
