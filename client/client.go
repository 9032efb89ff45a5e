package client

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/octop-dev/octop/internal/wire"
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
	// prefix (a reverse proxy's) is kept. http://user:pass@host:port sets
	// Username and Password for this server; BaseURL() never shows them.
	BaseURL string
	// Username and Password turn on HTTP basic auth when Password is set.
	// Username defaults to "opencode".
	Username, Password string
	// PasswordFrom names where Password comes from, or with none where one
	// was looked for, for the hint of a missing or refused password: "$MY_PW
	// (password_env of server \"work\" in ~/.config/octop/config.toml)".
	// Empty means --password or OPENCODE_SERVER_PASSWORD; a password in
	// the URL says so itself.
	PasswordFrom string
	// Name is the server's name in octop's config file, if it has one,
	// for error messages.
	Name string
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
	// ReadOnly makes the client change nothing on the server: every call
	// but a GET fails with KindReadOnly before anything is sent
	// (--read-only, or read_only in the config file).
	ReadOnly bool
	// MaxBodySize is the largest answer a call reads (DefaultMaxBodySize
	// when zero); a larger one fails with an error that says so, instead
	// of being read into memory whole, however large.
	MaxBodySize int64
	// Undecodable hears of every record of an answer that did not decode
	// (a session, a message, a status) while the rest did: it is left
	// out, or, a listed session whose id could be read, kept and marked
	// (wire.Session.Undecodable). It may be called from several
	// goroutines at once. Nil: nobody is told.
	Undecodable func(wire.Undecodable)
}

// IdleConnsPerHost is how many idle connections to one server are kept:
// the history reads (a few at once), a snapshot's as many, and an action.
const IdleConnsPerHost = 16

// DefaultMaxBodySize bounds one answer: 256 MiB. GET /session for tens
// of thousands of sessions is tens of megabytes, and a long session's
// messages, every tool's output included, can be several times that; an
// answer past this is not one octop can show, and reading it would cost
// a multiple of it in memory.
const DefaultMaxBodySize = 256 << 20

// OptionsFromEnv reads OPENCODE_SERVER_URL (default DefaultURL),
// OPENCODE_SERVER_PASSWORD and OPENCODE_SERVER_USERNAME. Flags given by
// the user should override what it returns.
func OptionsFromEnv() Options {
	o := Options{
		BaseURL:  os.Getenv("OPENCODE_SERVER_URL"),
		Username: os.Getenv("OPENCODE_SERVER_USERNAME"),
		Password: os.Getenv("OPENCODE_SERVER_PASSWORD"),
	}
	if o.Password != "" {
		o.PasswordFrom = "$OPENCODE_SERVER_PASSWORD"
	}
	if o.BaseURL == "" {
		o.BaseURL = DefaultURL
	}
	return o
}

// Redact is a server URL fit to print: a password in it becomes "xxxxx",
// with or without a scheme. "opencode:PW@host:4096" parses as a URL of
// scheme "opencode" whose userinfo the parser does not see: any text
// whose authority it does not find keeps nothing before its last "@"
// but the user.
func Redact(raw string) string {
	s := strings.TrimSpace(raw)
	u, err := url.Parse(s)
	if err == nil && u.Host != "" {
		return u.Redacted()
	}
	at := strings.LastIndex(s, "@")
	if at < 0 {
		return s
	}
	start := 0
	if i := strings.Index(s, "://"); i >= 0 && i < at {
		start = i + 3
	}
	user, _, hasPass := strings.Cut(s[start:at], ":")
	if !hasPass {
		return s[:start] + "xxxxx" + s[at:] // a lone secret, or a user: either way hidden
	}
	return s[:start] + user + ":xxxxx" + s[at:]
}

// Client talks to one OpenCode server. It is safe for concurrent use.
type Client struct {
	base    *url.URL
	baseStr string
	user    string
	pass    string
	pwFrom  string // Options.PasswordFrom
	name    string // Options.Name
	dir     string
	global  bool
	hc      *http.Client
	streamC *http.Client // hc without an overall timeout
	timeout time.Duration
	stream  StreamOptions
	maxBody int64
	ro      bool

	undecodable func(wire.Undecodable) // Options.Undecodable
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
		return nil, fmt.Errorf("invalid server URL %q: want something like %s", Redact(opts.BaseURL), DefaultURL)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("invalid server URL %q: it must not carry a query or fragment", Redact(opts.BaseURL))
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	if u.User != nil {
		// http://user:pass@host names this server's own credentials; they
		// win over the options' and are kept out of the URL, which is
		// printed in headers and errors.
		opts.Username = u.User.Username()
		if pw, ok := u.User.Password(); ok {
			opts.Password = pw
			opts.PasswordFrom = "the URL (" + opts.Username + ":…@" + u.Host + ")"
		}
		u.User = nil
	}
	c := &Client{
		base:    u,
		baseStr: u.String(),
		user:    opts.Username,
		pass:    opts.Password,
		pwFrom:  opts.PasswordFrom,
		name:    opts.Name,
		dir:     opts.Directory,
		global:  opts.Global,
		hc:      opts.HTTPClient,
		timeout: opts.Timeout,
		stream:  opts.Stream.withDefaults(),
		maxBody: opts.MaxBodySize,
		ro:      opts.ReadOnly,

		undecodable: opts.Undecodable,
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBodySize
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
	// The password goes to this server only: a redirect elsewhere is
	// refused (net/http would send it on to another port of the same
	// host, or to a subdomain).
	hc := *c.hc
	hc.CheckRedirect = sameServer(hc.CheckRedirect)
	c.hc = &hc
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
// Its connections clean the heads of answers (headerConn).
// It keeps IdleConnsPerHost connections to a server open between calls
// (net/http keeps 2): the screen and `octop tree` read a few histories
// at once, and with 2 kept the others were closed and opened
// again for every read (1,672 new connections for 50,000 histories).
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = IdleConnsPerHost
	d := &net.Dialer{
		Timeout:         5 * time.Second,
		KeepAliveConfig: net.KeepAliveConfig{Enable: true, Idle: 15 * time.Second, Interval: 5 * time.Second, Count: 3},
	}
	t.DialContext = cleanHeads(rawDial(d))
	return t
}

// BaseURL is the server URL the client was made with, without a trailing
// slash.
func (c *Client) BaseURL() string { return c.baseStr }

// ReadOnly says the client sends nothing that would change the server.
func (c *Client) ReadOnly() bool { return c.ro }

// Directory is the project directory sent with every call, or "".
func (c *Client) Directory() string { return c.dir }

// CloseIdleConnections closes kept-alive connections that are not in use,
// e.g. before a program exits or when a test counts goroutines.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// redirectError is a redirect to another server, refused.
type redirectError struct{ to *url.URL }

func (e *redirectError) Error() string {
	return "redirected to another server, " + Redact(e.to.String())
}

// sameServer is a CheckRedirect that refuses a redirect to another
// scheme, host or port than the request's first, then asks next (or
// stops after 10 redirects, as net/http does).
func sameServer(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if to := req.URL; !SameOrigin(via[0].URL, to) {
			return &redirectError{to: to}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return fmt.Errorf("stopped after %d redirects", len(via))
		}
		return nil
	}
}

// SameOrigin says a and b have the same scheme, host and port (a port
// left out is its scheme's default): where a credential meant for a may
// go.
func SameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && portOf(a) == portOf(b)
}

// portOf is u's port, or its scheme's default.
func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}
