package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/octop-dev/octop/internal/sanitize"
)

// Kind sorts client errors by what the user should do about them.
type Kind int

// Error kinds.
const (
	// KindUnreachable: no connection to the server (refused, no route, DNS).
	KindUnreachable Kind = iota + 1
	// KindUnauthorized: 401/403, a missing or wrong password.
	KindUnauthorized
	// KindNotFound: 404, e.g. an unknown session id.
	KindNotFound
	// KindBadResponse: an answer that is not what an OpenCode server sends,
	// e.g. an HTML page, or an SSE endpoint that is not a stream.
	KindBadResponse
	// KindServer: any other error status (400, 5xx).
	KindServer
	// KindTimeout: no answer within the call's timeout, or a stream that
	// went silent.
	KindTimeout
	// KindInvalid: the call was refused before anything was sent, e.g. a
	// malformed session id.
	KindInvalid
	// KindReadOnly: the call would change the server, and the client is
	// read-only (Options.ReadOnly): nothing was sent.
	KindReadOnly
)

var kindNames = map[Kind]string{
	KindUnreachable:  "unreachable",
	KindUnauthorized: "unauthorized",
	KindNotFound:     "not found",
	KindBadResponse:  "bad response",
	KindServer:       "server error",
	KindTimeout:      "timeout",
	KindInvalid:      "invalid",
	KindReadOnly:     "read-only",
}

// String names the kind, e.g. "unreachable".
func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Error is what every client call returns on failure (besides a plain
// context error when the caller cancelled). Its message is one line a
// person can act on.
type Error struct {
	Kind Kind
	// Op is the call, e.g. "GET /session/{id}".
	Op string
	// URL is the server's base URL.
	URL string
	// Status is the HTTP status, 0 when there was no answer.
	Status int
	// After is how long a timed-out call waited.
	After time.Duration
	// Msg, when set, is the whole message.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

// Error is the one-line message.
func (e *Error) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	switch e.Kind {
	case KindUnreachable:
		s := "cannot reach OpenCode at " + e.URL + " — is `opencode serve` running?"
		if cause := netCause(e.Err); cause != "" {
			s += " (" + cause + ")"
		}
		return s
	case KindUnauthorized:
		return "OpenCode at " + e.URL + " rejected the password"
	case KindTimeout:
		return fmt.Sprintf("%s timed out after %s: OpenCode at %s did not answer", e.Op, e.After.Round(time.Millisecond), e.URL)
	}
	s := e.Kind.String()
	if e.Op != "" {
		s = e.Op + ": " + s
	}
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// IsNotFound reports whether err is a 404 from the server.
func IsNotFound(err error) bool { return isKind(err, KindNotFound) }

// IsUnauthorized reports whether the server refused the credentials.
func IsUnauthorized(err error) bool { return isKind(err, KindUnauthorized) }

// IsUnreachable reports whether the server could not be reached at all.
func IsUnreachable(err error) bool { return isKind(err, KindUnreachable) }

// IsReadOnly reports whether a call was refused as the client is
// read-only.
func IsReadOnly(err error) bool { return isKind(err, KindReadOnly) }

// IsTimeout reports whether a call or the stream timed out.
func IsTimeout(err error) bool { return isKind(err, KindTimeout) }

// ErrorKind is err's Kind, or 0 if err is not an *Error.
func ErrorKind(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

func isKind(err error, k Kind) bool { return ErrorKind(err) == k }

// netCause is the short reason under a dial error, e.g.
// "connection refused", without the addresses the message already names.
func netCause(err error) string {
	if err == nil {
		return ""
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		s := op.Err.Error()
		// "connect: connection refused" reads better without the syscall.
		if i := strings.LastIndex(s, ": "); i >= 0 {
			s = s[i+2:]
		}
		return s
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns.Err + " for " + dns.Name
	}
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return s
}

// statusError turns an error status into an *Error. missing names the
// thing a 404 means is absent.
func (c *Client) statusError(op, missing string, resp *http.Response, body []byte) error {
	e := &Error{Op: op, URL: c.baseStr, Status: resp.StatusCode}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		e.Kind = KindUnauthorized
		e.Msg = c.authHint()
	case resp.StatusCode == http.StatusNotFound && missing != "":
		e.Kind = KindNotFound
		e.Msg = "no " + missing + " on this server"
	case resp.StatusCode == http.StatusNotFound:
		e.Kind = KindNotFound
		e.Msg = fmt.Sprintf("%s: the server has no such endpoint (HTTP 404) — is %s an OpenCode server?", op, c.baseStr)
	default:
		e.Kind = KindServer
		msg := serverMessage(body)
		if msg == "" {
			msg = snippet(body)
		}
		e.Msg = fmt.Sprintf("%s failed: HTTP %d %s", op, resp.StatusCode, http.StatusText(resp.StatusCode))
		if msg != "" {
			e.Msg += ": " + msg
		}
	}
	return e
}

// serverMessage digs the message out of OpenCode's error bodies:
// {"name","data":{"message"}} or {"_tag","message"}.
func serverMessage(body []byte) string {
	var b struct {
		Name    string `json:"name"`
		Tag     string `json:"_tag"`
		Message string `json:"message"`
		Data    struct {
			Message string `json:"message"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &b) != nil {
		return ""
	}
	msg := b.Data.Message
	if msg == "" {
		msg = b.Message
	}
	name := b.Name
	if name == "" {
		name = b.Tag
	}
	switch {
	case name != "" && msg != "":
		return oneLine(name+": "+msg, 200)
	case msg != "":
		return oneLine(msg, 200)
	}
	return oneLine(name, 200)
}

// notJSON says what came back when JSON was expected.
func (c *Client) notJSON(op string, resp *http.Response, body []byte, err error) error {
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	e := &Error{Kind: KindBadResponse, Op: op, URL: c.baseStr, Status: resp.StatusCode, Err: err}
	switch {
	case len(body) == 0:
		e.Msg = fmt.Sprintf("expected JSON from %s but got an empty answer (HTTP %d)", op, resp.StatusCode)
	case mt == "" || !isJSONType(mt):
		if mt == "" {
			mt = "no content type"
		}
		e.Msg = fmt.Sprintf("expected JSON from %s but got %s: %q", op, mt, snippet(body))
	default:
		e.Msg = fmt.Sprintf("malformed JSON from %s: %v: %q", op, err, snippet(body))
	}
	return e
}

func isJSONType(mt string) bool {
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// snippet is the start of a body on one line, for error messages.
func snippet(b []byte) string { return oneLine(string(b[:min(len(b), 400)]), 60) }

// oneLine cleans s as the terminal needs it (sanitize.Line: a control
// shows as its picture), collapses whitespace and cuts s to n runes,
// marking the cut: what an error quotes of a server's body is text.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(sanitize.Line(s)), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// authHint says what to do about a missing or refused password, naming
// the server (its URL, and its name in the config file) and where the
// password came from or is looked for.
func (c *Client) authHint() string {
	server := "OpenCode at " + c.baseStr
	if c.name != "" {
		server += fmt.Sprintf(" (server %q)", c.name)
	}
	from := c.pwFrom
	if c.pass == "" {
		if from == "" {
			return server + " wants a password; set OPENCODE_SERVER_PASSWORD or pass --password"
		}
		return server + " wants a password; none came from " + from
	}
	if from == "" {
		from = "--password or OPENCODE_SERVER_PASSWORD"
	}
	if c.user != DefaultUsername {
		// The name is as likely wrong as the password: say both.
		return fmt.Sprintf("%s rejected user %q with the password from %s; check the user (--username, "+
			"OPENCODE_SERVER_USERNAME, usually %s) and the password", server, c.user, from, DefaultUsername)
	}
	return server + " rejected the password from " + from
}
