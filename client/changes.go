package client

import (
	"context"
	"net/http"
	"net/url"

	"github.com/octop-dev/octop/internal/wire"
)

// Diff lists the files one user message's run changed
// (GET /session/{id}/diff?messageID=…). Without a messageID the server
// (1.18.33, 1.1.65) answers [] whatever the session did: a session's
// changes are those of its user messages together (see SessionDiffs).
func (c *Client) Diff(ctx context.Context, id, messageID string) ([]wire.FileDiff, error) {
	var d []wire.FileDiff
	if err := checkSessionID("GET /session/{id}/diff", id); err != nil {
		return d, err
	}
	var q url.Values
	if messageID != "" {
		q = url.Values{"messageID": {messageID}}
	}
	err := c.do(ctx, call{method: http.MethodGet, path: "/session/" + url.PathEscape(id) + "/diff", query: q, missing: "session " + id}, &d)
	return d, err
}

// Todos is a session's todo list (GET /session/{id}/todo); empty when it
// has none.
func (c *Client) Todos(ctx context.Context, id string) ([]wire.Todo, error) {
	var t []wire.Todo
	if err := checkSessionID("GET /session/{id}/todo", id); err != nil {
		return t, err
	}
	err := c.do(ctx, call{method: http.MethodGet, path: "/session/" + url.PathEscape(id) + "/todo", missing: "session " + id}, &t)
	return t, err
}
