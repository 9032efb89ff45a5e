package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// seen is one request as the test server received it.
type seen struct {
	Method, Path, RawQuery string
	Query                  map[string][]string
	Body                   string
	User, Pass             string
	HasAuth                bool
	ContentType            string
}

// recorder is the shared fake server with every route answered by one
// canned status and body; what it got is in its Requests.
type recorder struct {
	*opencodetest.Server
	URL    string
	mu     sync.Mutex
	status int
	ctype  string
	body   string
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	r := &recorder{Server: opencodetest.New(t, opencodetest.Options{}), status: 200, ctype: "application/json", body: "true"}
	r.URL = r.Server.URL()
	r.HandleFunc("/", func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		status, ctype, body := r.status, r.ctype, r.body
		r.mu.Unlock()
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
	return r
}

func (r *recorder) answer(status int, ctype, body string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.status, r.ctype, r.body = status, ctype, body
}

// last is the newest request as seen.
func (r *recorder) last(t *testing.T) seen {
	t.Helper()
	req, ok := r.Last()
	if !ok {
		t.Fatal("the server got no request")
	}
	u, p, hasAuth := req.BasicAuth()
	return seen{req.Method, req.Path, req.Query.Encode(), req.Query, string(req.Body), u, p, hasAuth, req.Header.Get("Content-Type")}
}

func (r *recorder) count() int { return len(r.Requests()) }

func mustNew(t *testing.T, o Options) *Client {
	t.Helper()
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// jsonEqual compares two JSON texts by value.
func jsonEqual(t *testing.T, got, want string) bool {
	t.Helper()
	if want == "" {
		return got == ""
	}
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Errorf("body %q is not JSON: %v", got, err)
		return false
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad test: %v", err)
	}
	return reflect.DeepEqual(g, w)
}

// TestCalls checks each call's method, path, query, body and auth, and
// that the answer is decoded.
func TestCalls(t *testing.T) {
	ctx := context.Background()
	const dir = "/home/dev/my project"
	cases := []struct {
		name       string
		answer     string
		status     int
		call       func(c *Client) (any, error)
		method     string
		path       string
		query      map[string][]string // besides directory
		body       string
		wantResult any
	}{
		{"health", `{"healthy":true,"version":"1.18.33"}`, 200,
			func(c *Client) (any, error) { return c.Health(ctx) },
			"GET", "/global/health", nil, "", wire.Health{Healthy: true, Version: "1.18.33"}},
		{"sessions", `[{"id":"ses_a","title":"root"},{"id":"ses_b","parentID":"ses_a","title":"child"}]`, 200,
			func(c *Client) (any, error) { return c.Sessions(ctx) },
			// 1.18 lists only the 100 most recently updated unless told a limit.
			"GET", "/session", map[string][]string{"limit": {"2147483647"}}, "", []wire.Session{{ID: "ses_a", Title: "root"}, {ID: "ses_b", ParentID: "ses_a", Title: "child"}}},
		{"session", `{"id":"ses_a","title":"root","time":{"created":1,"updated":2}}`, 200,
			func(c *Client) (any, error) { return c.Session(ctx, "ses_a") },
			"GET", "/session/ses_a", nil, "", wire.Session{ID: "ses_a", Title: "root", Time: wire.SessionTime{Created: 1, Updated: 2}}},
		{"children", `[{"id":"ses_b","parentID":"ses_a","title":"c"}]`, 200,
			func(c *Client) (any, error) { return c.Children(ctx, "ses_a") },
			"GET", "/session/ses_a/children", nil, "", []wire.Session{{ID: "ses_b", ParentID: "ses_a", Title: "c"}}},
		{"status", `{"ses_a":{"type":"busy"},"ses_b":{"type":"retry","attempt":2,"message":"rate","next":99}}`, 200,
			func(c *Client) (any, error) { return c.Status(ctx) },
			"GET", "/session/status", nil, "", map[string]wire.SessionStatus{"ses_a": {Type: "busy"}, "ses_b": {Type: "retry", Attempt: 2, Message: "rate", Next: 99}}},
		{"messages all", `[{"info":{"id":"msg_1","sessionID":"ses_a","role":"user","tokens":{},"time":{"created":5}},"parts":[{"id":"prt_1","sessionID":"ses_a","messageID":"msg_1","type":"text","text":"hi"}]}]`, 200,
			func(c *Client) (any, error) { return c.Messages(ctx, "ses_a", 0) },
			"GET", "/session/ses_a/message", nil, "",
			[]wire.MessageWithParts{{Info: wire.Message{ID: "msg_1", SessionID: "ses_a", Role: "user", Time: wire.MessageTime{Created: 5}}, Parts: []wire.Part{{ID: "prt_1", SessionID: "ses_a", MessageID: "msg_1", Type: "text", Text: "hi"}}}}},
		{"messages limit", `[]`, 200,
			func(c *Client) (any, error) { return c.Messages(ctx, "ses_a", 5) },
			"GET", "/session/ses_a/message", map[string][]string{"limit": {"5"}}, "", []wire.MessageWithParts{}},
		{"agents", `[{"name":"general","mode":"subagent","description":"d"},{"name":"build","mode":"primary","native":true}]`, 200,
			func(c *Client) (any, error) { return c.Agents(ctx) },
			"GET", "/agent", nil, "", []wire.Agent{{Name: "general", Mode: "subagent", Description: "d"}, {Name: "build", Mode: "primary", Native: true}}},
		{"create child", `{"id":"ses_c","parentID":"ses_a","title":"t"}`, 200,
			func(c *Client) (any, error) {
				return c.CreateSession(ctx, CreateSessionRequest{ParentID: "ses_a", Title: "t", Permission: []wire.PermissionRule{{Permission: "task", Pattern: "*", Action: "deny"}}})
			},
			"POST", "/session", nil, `{"parentID":"ses_a","title":"t","permission":[{"permission":"task","pattern":"*","action":"deny"}]}`,
			wire.Session{ID: "ses_c", ParentID: "ses_a", Title: "t"}},
		{"create empty", `{"id":"ses_c","title":"New session"}`, 200,
			func(c *Client) (any, error) { return c.CreateSession(ctx, CreateSessionRequest{}) },
			"POST", "/session", nil, `{}`, wire.Session{ID: "ses_c", Title: "New session"}},
		{"prompt_async", ``, 204,
			func(c *Client) (any, error) {
				return nil, c.PromptAsync(ctx, "ses_a", PromptRequest{Agent: "general", Parts: []TextPartInput{{Text: "hi"}},
					Tools: map[string]bool{"task": false}, Model: &ModelRef{ProviderID: "mock", ModelID: "mock-1"}, System: "be brief"})
			},
			"POST", "/session/ses_a/prompt_async", nil,
			`{"agent":"general","parts":[{"type":"text","text":"hi"}],"tools":{"task":false},"model":{"providerID":"mock","modelID":"mock-1"},"system":"be brief"}`, nil},
		{"prompt_async minimal", ``, 204,
			func(c *Client) (any, error) { return nil, c.PromptAsync(ctx, "ses_a", PromptRequest{}) },
			"POST", "/session/ses_a/prompt_async", nil, `{"parts":[]}`, nil},
		{"abort", `true`, 200,
			func(c *Client) (any, error) { return nil, c.Abort(ctx, "ses_a") },
			"POST", "/session/ses_a/abort", nil, "", nil},
		{"delete", `true`, 200,
			func(c *Client) (any, error) { return nil, c.DeleteSession(ctx, "ses_a") },
			"DELETE", "/session/ses_a", nil, "", nil},
		{"permissions", `[{"id":"per_1","sessionID":"ses_a","permission":"bash","patterns":["ls"]}]`, 200,
			func(c *Client) (any, error) { return c.Permissions(ctx) },
			"GET", "/permission", nil, "", []wire.PermissionRequest{{ID: "per_1", SessionID: "ses_a", Permission: "bash", Patterns: []string{"ls"}}}},
		{"reply permission", `true`, 200,
			func(c *Client) (any, error) { return nil, c.ReplyPermission(ctx, "per_1", ReplyOnce, "go ahead") },
			"POST", "/permission/per_1/reply", nil, `{"reply":"once","message":"go ahead"}`, nil},
		{"reply permission no message", `true`, 200,
			func(c *Client) (any, error) { return nil, c.ReplyPermission(ctx, "per_1", ReplyReject, "") },
			"POST", "/permission/per_1/reply", nil, `{"reply":"reject"}`, nil},
		{"questions", `[{"id":"que_1","sessionID":"ses_a","questions":[{"question":"Which?","header":"H","options":[{"label":"A"}]}]}]`, 200,
			func(c *Client) (any, error) { return c.Questions(ctx) },
			"GET", "/question", nil, "", []wire.QuestionRequest{{ID: "que_1", SessionID: "ses_a", Questions: []wire.QuestionInfo{{Question: "Which?", Header: "H", Options: []wire.QuestionOption{{Label: "A"}}}}}}},
		{"reply question", `true`, 200,
			func(c *Client) (any, error) { return nil, c.ReplyQuestion(ctx, "que_1", [][]string{{"A"}, nil}) },
			"POST", "/question/que_1/reply", nil, `{"answers":[["A"],[]]}`, nil},
		{"reject question", `true`, 200,
			func(c *Client) (any, error) { return nil, c.RejectQuestion(ctx, "que_1") },
			"POST", "/question/que_1/reject", nil, "", nil},
	}
	for _, auth := range []bool{true, false} {
		srv := newRecorder(t)
		o := Options{BaseURL: srv.URL + "/"}
		if auth {
			o.Password, o.Directory = "s3cret", dir
		}
		c := mustNew(t, o)
		for _, tc := range cases {
			name := tc.name
			if auth {
				name += "/auth+directory"
			}
			t.Run(name, func(t *testing.T) {
				ctype := "application/json"
				if tc.status == 204 {
					ctype = ""
				}
				srv.answer(tc.status, ctype, tc.answer)
				res, err := tc.call(c)
				if err != nil {
					t.Fatalf("call failed: %v", err)
				}
				got := srv.last(t)
				if got.Method != tc.method || got.Path != tc.path {
					t.Errorf("request %s %s, want %s %s", got.Method, got.Path, tc.method, tc.path)
				}
				wantQuery := map[string][]string{}
				for k, v := range tc.query {
					wantQuery[k] = v
				}
				if auth {
					wantQuery["directory"] = []string{dir}
				}
				if !reflect.DeepEqual(got.Query, wantQuery) {
					t.Errorf("query %v, want %v", got.Query, wantQuery)
				}
				if !jsonEqual(t, got.Body, tc.body) {
					t.Errorf("body %s, want %s", got.Body, tc.body)
				}
				if tc.body != "" && got.ContentType != "application/json" {
					t.Errorf("Content-Type %q, want application/json", got.ContentType)
				}
				if auth {
					if !got.HasAuth || got.User != "opencode" || got.Pass != "s3cret" {
						t.Errorf("basic auth %v %q:%q, want opencode:s3cret", got.HasAuth, got.User, got.Pass)
					}
				} else if got.HasAuth {
					t.Errorf("sent basic auth with no password set")
				}
				if tc.wantResult != nil && !reflect.DeepEqual(res, tc.wantResult) {
					t.Errorf("result\n got %#v\nwant %#v", res, tc.wantResult)
				}
			})
		}
	}
}

func TestUsernameAndPathPrefix(t *testing.T) {
	srv := newRecorder(t)
	srv.answer(200, "application/json", `[]`)
	c := mustNew(t, Options{BaseURL: srv.URL + "/proxy/oc/", Username: "me", Password: "pw"})
	if c.BaseURL() != srv.URL+"/proxy/oc" {
		t.Errorf("BaseURL() = %q", c.BaseURL())
	}
	if _, err := c.Sessions(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := srv.last(t)
	if got.Path != "/proxy/oc/session" || got.User != "me" || got.Pass != "pw" {
		t.Errorf("got %s as %s:%s", got.Path, got.User, got.Pass)
	}
	if got.RawQuery != "limit=2147483647" {
		t.Errorf("query %q, want only the limit", got.RawQuery)
	}
}

func TestNewRejectsBadURL(t *testing.T) {
	for _, u := range []string{"localhost:4096", "ftp://x", "http://", "http://a b", "http://h:1/?q=1", "::"} {
		_, err := New(Options{BaseURL: u})
		if err == nil {
			t.Errorf("New(%q) accepted a bad URL", u)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "invalid server URL") || strings.Contains(msg, "\n") {
			t.Errorf("New(%q): %q is not a one-line invalid-URL error", u, msg)
		}
	}
	c, err := New(Options{})
	if err != nil || c.BaseURL() != DefaultURL {
		t.Errorf("New with no URL: %v, %v; want %s", c, err, DefaultURL)
	}
}

func TestOptionsFromEnv(t *testing.T) {
	t.Setenv("OPENCODE_SERVER_URL", "")
	t.Setenv("OPENCODE_SERVER_PASSWORD", "")
	t.Setenv("OPENCODE_SERVER_USERNAME", "")
	if o := OptionsFromEnv(); o.BaseURL != DefaultURL || o.Password != "" || o.Username != "" {
		t.Errorf("empty env gave %+v", o)
	}
	t.Setenv("OPENCODE_SERVER_URL", "http://10.0.0.2:5000")
	t.Setenv("OPENCODE_SERVER_PASSWORD", "pw")
	t.Setenv("OPENCODE_SERVER_USERNAME", "bob")
	want := Options{BaseURL: "http://10.0.0.2:5000", Password: "pw", Username: "bob", PasswordFrom: "$OPENCODE_SERVER_PASSWORD"}
	if o := OptionsFromEnv(); !reflect.DeepEqual(o, want) {
		t.Errorf("got %+v, want %+v", o, want)
	}
}

func TestTimeoutDefault(t *testing.T) {
	c := mustNew(t, Options{BaseURL: "http://127.0.0.1:1"})
	if c.timeout != 10*time.Second {
		t.Errorf("default timeout %v", c.timeout)
	}
}

// TestCredentialsInURL: http://user:pass@host is that server's login, sent
// as basic auth and never shown by BaseURL or in an error.
func TestCredentialsInURL(t *testing.T) {
	srv := newRecorder(t)
	srv.answer(200, "application/json", `[]`)
	withCreds := strings.Replace(srv.URL, "http://", "http://alice:s3cret@", 1)
	c := mustNew(t, Options{BaseURL: withCreds, Username: "bob", Password: "other"})
	if c.BaseURL() != srv.URL {
		t.Errorf("BaseURL() = %q, want %q", c.BaseURL(), srv.URL)
	}
	if _, err := c.Sessions(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := srv.last(t); got.User != "alice" || got.Pass != "s3cret" {
		t.Errorf("sent basic auth %s:%s, want alice:s3cret", got.User, got.Pass)
	}
	for _, bad := range []string{"http://alice:s3cret@h:1/?q=1", "ftp://alice:s3cret@h", "http://alice:s3cret@h:1/ x%zz"} {
		_, err := New(Options{BaseURL: bad})
		if err == nil || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("New(%q): %v; want an error without the password", bad, err)
		}
	}
}
