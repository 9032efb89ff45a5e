package client

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
)

// ValidSessionID reports whether id looks like an OpenCode session id:
// "ses_" followed by letters and digits. The server answers a malformed id
// with a 500 (abort) or a 400, so callers check before sending.
func ValidSessionID(id string) bool {
	rest, ok := strings.CutPrefix(id, "ses_")
	if !ok || rest == "" || len(rest) > 64 {
		return false
	}
	for _, r := range rest {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
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
	err := c.do(ctx, call{method: http.MethodGet, path: "/session/" + url.PathEscape(id) + "/children", missing: "session " + id,
		what: whatSession}, &s)
	return s, err
}

// Status maps session ids to their run state (GET /session/status). Only
// sessions that are not idle appear.
func (c *Client) Status(ctx context.Context) (map[string]wire.SessionStatus, error) {
	m := map[string]wire.SessionStatus{}
	err := c.do(ctx, call{method: http.MethodGet, path: "/session/status", what: whatStatus}, &m)
	if m == nil {
		m = map[string]wire.SessionStatus{}
	}
	return m, err
}

// Messages lists a session's messages with their parts
// (GET /session/{id}/message). A limit of 0 or less means all of them.
func (c *Client) Messages(ctx context.Context, id string, limit int) ([]wire.MessageWithParts, error) {
	var m []wire.MessageWithParts
	err := c.messagesInto(ctx, id, limit, &m)
	return m, err
}

// MessagesOf is Messages (all of them) decoded into a slice of the
// caller's own message type T, for a reader that needs less of a message
// than wire.MessageWithParts keeps: octop tree decodes no output or text
// it does not print, a third of the work of reading 50,000 histories.
func MessagesOf[T any](ctx context.Context, c *Client, id string) ([]T, error) {
	var m []T
	err := c.messagesInto(ctx, id, 0, &m)
	return m, err
}

// messagesInto is Messages decoded into out, a pointer to a slice of the
// caller's own message type (see MessagesOf).
func (c *Client) messagesInto(ctx context.Context, id string, limit int, out any) error {
	if err := checkSessionID("GET /session/{id}/message", id); err != nil {
		return err
	}
	var q url.Values
	if limit > 0 {
		q = url.Values{"limit": {strconv.Itoa(limit)}}
	}
	return c.do(ctx, call{method: http.MethodGet, path: "/session/" + url.PathEscape(id) + "/message", query: q, missing: "session " + id,
		what: whatMessage}, out)
}

// Agents lists the configured agents (GET /agent).
func (c *Client) Agents(ctx context.Context) ([]wire.Agent, error) {
	var a []wire.Agent
	err := c.do(ctx, call{method: http.MethodGet, path: "/agent"}, &a)
	return a, err
}

func checkSessionID(op, id string) error {
	if ValidSessionID(id) {
		return nil
	}
	return &Error{Kind: KindInvalid, Op: op, Msg: fmt.Sprintf("%q is not a session id (they look like ses_…)", id)}
}
