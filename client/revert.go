package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
)

// RevertRequest is the body of POST /session/{id}/revert: undo the
// session's changes from MessageID on (from PartID within it, if given).
type RevertRequest struct {
	MessageID string `json:"messageID"`
	PartID    string `json:"partID,omitempty"`
}

// Revert undoes a session's changes from a message on
// (POST /session/{id}/revert) and returns the session, its Revert field
// saying what the server restored. The server restores every file the
// session's steps saw change from that message on, whoever changed it,
// and refuses a busy session (see IsBusy). A message the session does not
// have is answered with the session unchanged (Revert nil).
func (c *Client) Revert(ctx context.Context, id string, req RevertRequest) (wire.Session, error) {
	const op = "POST /session/{id}/revert"
	var s wire.Session
	if err := checkSessionID(op, id); err != nil {
		return s, err
	}
	if err := checkMessageID(op, req.MessageID); err != nil {
		return s, err
	}
	err := c.do(ctx, call{method: http.MethodPost, path: "/session/" + url.PathEscape(id) + "/revert", body: req, missing: "session " + id}, &s)
	return s, err
}

// Unrevert brings back what the session's revert undid
// (POST /session/{id}/unrevert): the server writes the whole worktree
// snapshot taken at the revert back, over whatever changed since. It
// refuses a busy session (see IsBusy); a session not reverted is returned
// unchanged.
func (c *Client) Unrevert(ctx context.Context, id string) (wire.Session, error) {
	const op = "POST /session/{id}/unrevert"
	var s wire.Session
	if err := checkSessionID(op, id); err != nil {
		return s, err
	}
	err := c.do(ctx, call{method: http.MethodPost, path: "/session/" + url.PathEscape(id) + "/unrevert", missing: "session " + id}, &s)
	return s, err
}

// IsBusy reports whether err is a server refusing to act on a session
// that is running: 409 SessionBusyError on 1.18, a 500 whose message says
// "is busy" on 1.1.
func IsBusy(err error) bool {
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindServer {
		return false
	}
	return e.Status == http.StatusConflict || strings.Contains(e.Msg, " is busy")
}

// ValidMessageID reports whether id looks like an OpenCode message id:
// "msg_" followed by letters and digits.
func ValidMessageID(id string) bool {
	rest, ok := strings.CutPrefix(id, "msg_")
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

func checkMessageID(op, id string) error {
	if ValidMessageID(id) {
		return nil
	}
	return &Error{Kind: KindInvalid, Op: op, Msg: fmt.Sprintf("%q is not a message id (they look like msg_…)", id)}
}
