package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/octop-dev/octop/internal/wire"
)

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
	if err == nil && !ValidSessionID(s.ID) {
		// The id is printed for scripts and prompted next: one with a
		// newline in it would fake a line of octop's output.
		return wire.Session{}, &Error{Kind: KindBadResponse, Op: "POST /session", URL: c.baseStr,
			Msg: fmt.Sprintf("POST /session answered %q, which is not a session id (they look like ses_…)", s.ID)}
	}
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
