package client

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/octop-dev/octop/internal/wire"
)

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
