package client_test

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// heard collects what Options.Undecodable is told.
type heard struct {
	mu  sync.Mutex
	got []string
}

func (h *heard) add(u wire.Undecodable) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, u.Error())
}

func (h *heard) lines() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := append([]string(nil), h.got...)
	sort.Strings(out)
	return out
}

// answer makes srv answer pattern with body, as JSON.
func answer(srv *opencodetest.Server, pattern, body string) {
	srv.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	})
}

func newHeard(t *testing.T, srv *opencodetest.Server) (*client.Client, *heard) {
	t.Helper()
	h := &heard{}
	c, err := client.New(client.Options{BaseURL: srv.URL(), Undecodable: h.add})
	if err != nil {
		t.Fatal(err)
	}
	return c, h
}

// sessionsWithABadOne is a session list whose second session has a
// number for its title and whose fourth is not a session at all.
const sessionsWithABadOne = `[{"id":"ses_a","title":"a","time":{"created":1,"updated":1}},` +
	`{"id":"ses_b","parentID":"ses_a","title":42,"time":{"created":2,"updated":2}},` +
	`{"id":"ses_c","title":"c","time":{"created":3,"updated":3}},` +
	`"what"]`

// TestSessionListKeepsTheGoodOnes: one session whose title is a number
// costs only itself: the others are listed as they are, it is kept with
// what did decode (its place under its parent) and marked, and the
// element that is not a session is left out; each is reported in one
// line. The list is read both ways the client reads one: as a stream
// (GET /session) and whole (GET /experimental/session).
func TestSessionListKeepsTheGoodOnes(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	answer(srv, "GET /session", sessionsWithABadOne)
	answer(srv, "GET /experimental/session", sessionsWithABadOne)
	c, h := newHeard(t, srv)
	ss, err := c.Sessions(context.Background())
	all, _, aerr := c.AllSessions(context.Background())
	for name, got := range map[string][]wire.Session{"Sessions": ss, "AllSessions": all} {
		if err != nil || aerr != nil || len(got) != 3 {
			t.Fatalf("%s = %d sessions, %v %v; want 3", name, len(got), err, aerr)
		}
		if b := got[1]; b.ID != "ses_b" || b.ParentID != "ses_a" || b.Time.Created != 2 || b.Undecodable != "title is a number" {
			t.Errorf("%s: the bad session is %+v, want it kept with its parent and time, and marked", name, b)
		}
		if got[0].Undecodable != "" || got[2].Title != "c" {
			t.Errorf("%s: the good ones changed: %+v", name, got)
		}
	}
	want := []string{
		"undecodable session #4 of GET /experimental/session: it is a string, not an object",
		"undecodable session #4 of GET /session: it is a string, not an object",
		"undecodable session ses_b: title is a number",
		"undecodable session ses_b: title is a number",
	}
	if got := h.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("heard\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// leanMessage is a reader's own message type, as octop tree's is.
type leanMessage struct {
	Info struct {
		ID   string  `json:"id"`
		Cost float64 `json:"cost"`
	} `json:"info"`
}

// TestMessagesAndStatusLeaveOutTheBadOnes: a message or a status that
// does not decode is left out and named; the rest of the answer stays.
func TestMessagesAndStatusLeaveOutTheBadOnes(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.AddSession(wire.Session{ID: "ses_a", Title: "a"})
	answer(srv, "GET /session/ses_a/message", `[{"info":{"id":"msg_1","role":"user"},"parts":[]},`+
		`{"info":{"id":"msg_2","role":"assistant","cost":"free"},"parts":[]},`+
		`{"info":{"id":"msg_3","role":"assistant","time":{"created":1e999}},"parts":[]},`+
		`{"info":{"id":"msg_4","role":"assistant"},"parts":[{"id":"prt_1","type":"text","text":"done"}]}]`)
	answer(srv, "GET /session/status", `{"ses_a":{"type":"busy"},"ses_b":{"type":7},"ses_c":"idle"}`)
	c, h := newHeard(t, srv)
	msgs, err := c.Messages(context.Background(), "ses_a", 0)
	if err != nil || len(msgs) != 2 || msgs[0].Info.ID != "msg_1" || msgs[1].Parts[0].Text != "done" {
		t.Errorf("Messages = %+v, %v; want msg_1 and msg_4", msgs, err)
	}
	lean, err := client.MessagesOf[leanMessage](context.Background(), c, "ses_a")
	if err != nil || len(lean) != 3 {
		t.Errorf("MessagesOf = %+v, %v; want all but msg_2 (its own type skips time)", lean, err)
	}
	st, err := c.Status(context.Background())
	if err != nil || len(st) != 1 || st["ses_a"].Type != wire.StatusBusy {
		t.Errorf("Status = %+v, %v; want ses_a busy alone", st, err)
	}
	want := []string{
		"undecodable message msg_2: info.cost is a string",
		"undecodable message msg_2: info.cost is a string",
		"undecodable message msg_3: info.time.created is the number 1e999, which does not fit",
		"undecodable status ses_b: type is a number",
		"undecodable status ses_c: it is a string, not an object",
	}
	if got := h.lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("heard\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAnswerThatIsNotJSONStaysAnError: only a record of the wrong type is
// left out; an answer that is not JSON cannot be split into records.
func TestAnswerThatIsNotJSONStaysAnError(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	answer(srv, "GET /session/status", `{"ses_a":{"type":"busy"},"ses_b":{"type":`)
	answer(srv, "GET /session", `[{"id":"ses_a","title":"a"},{"id":"ses_b","title":`)
	c, h := newHeard(t, srv)
	if _, err := c.Status(context.Background()); err == nil || !strings.Contains(err.Error(), "malformed JSON") {
		t.Errorf("Status = %v, want malformed JSON", err)
	}
	if _, err := c.Sessions(context.Background()); err == nil || !strings.Contains(err.Error(), "malformed JSON") {
		t.Errorf("Sessions = %v, want malformed JSON", err)
	}
	if got := h.lines(); len(got) != 0 {
		t.Errorf("heard %q", got)
	}
}
