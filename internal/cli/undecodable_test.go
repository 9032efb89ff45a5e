package cli

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// withAnUndecodableSession is a server that lists ses_b, ses_a's child,
// with a number for its title, and whose ses_a has a message with a
// string for its cost; everything else is as the fake keeps it.
func withAnUndecodableSession(t *testing.T) *opencodetest.Server {
	t.Helper()
	withConfig(t, "")
	s := opencodetest.New(t, opencodetest.Options{})
	s.AddSession(wire.Session{ID: "ses_a", Title: "root a", Time: wire.SessionTime{Created: 1_000, Updated: 1_000}})
	s.AddSession(wire.Session{ID: "ses_b", ParentID: "ses_a", Time: wire.SessionTime{Created: 2_000, Updated: 2_000}})
	s.AddSession(wire.Session{ID: "ses_c", Title: "root c", Time: wire.SessionTime{Created: 3_000, Updated: 3_000}})
	s.HandleFunc("GET /session", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[{"id":"ses_c","title":"root c","time":{"created":3000,"updated":3000}},` +
			`{"id":"ses_b","parentID":"ses_a","title":42,"time":{"created":2000,"updated":2000}},` +
			`{"id":"ses_a","title":"root a","time":{"created":1000,"updated":1000}}]`))
	})
	s.HandleFunc("GET /session/ses_a/message", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[{"info":{"id":"msg_1","sessionID":"ses_a","role":"user","time":{"created":1000}},` +
			`"parts":[{"id":"prt_1","type":"text","text":"go on"}]},` +
			`{"info":{"id":"msg_2","sessionID":"ses_a","role":"assistant","cost":"free","time":{"created":1100}},"parts":[]},` +
			`{"info":{"id":"msg_3","sessionID":"ses_a","role":"assistant","finish":"stop","time":{"created":1200,"completed":1300}},` +
			`"parts":[{"id":"prt_3","type":"text","text":"all done"}]}]`))
	})
	return s
}

// TestTreeKeepsAnUndecodableSession: octop tree prints every session; the
// one whose title is a number is in its place under its parent, marked
// undecodable, with one line on stderr naming it (and one for the message
// of ses_a's history that does not decode); as JSON and as text.
func TestTreeKeepsAnUndecodableSession(t *testing.T) {
	s := withAnUndecodableSession(t)
	wantErr := "octop tree: undecodable session ses_b: title is a number\n" +
		"octop tree: undecodable message msg_2: info.cost is a string\n"
	code, out, errs := run(t, client.Options{BaseURL: s.URL()}, "", "tree", "--json")
	if code != codeOK || errs != wantErr {
		t.Fatalf("tree --json: exit %d, stderr %q; want 0 and %q", code, errs, wantErr)
	}
	var roots []struct {
		ID       string
		Children []struct {
			ID          string
			Title       string
			Undecodable string
		}
	}
	if err := json.Unmarshal([]byte(out), &roots); err != nil {
		t.Fatalf("tree --json is not JSON: %v\n%s", err, out)
	}
	if len(roots) != 2 || roots[0].ID != "ses_c" || roots[1].ID != "ses_a" || len(roots[1].Children) != 1 ||
		roots[1].Children[0].ID != "ses_b" || roots[1].Children[0].Undecodable != "title is a number" {
		t.Errorf("tree --json = %+v, want ses_c, then ses_a with ses_b under it, marked", roots)
	}
	code, out, errs = run(t, client.Options{BaseURL: s.URL()}, "", "tree")
	if code != codeOK || errs != wantErr || !strings.Contains(out, "ses_b") ||
		!strings.Contains(out, "(undecodable: title is a number)") || !strings.Contains(out, "root c") {
		t.Errorf("tree: exit %d, stderr %q\n%s", code, errs, out)
	}
}

// TestLogLeavesOutAnUndecodableMessage: octop log prints the messages
// that decode, and names on stderr the one that does not.
func TestLogLeavesOutAnUndecodableMessage(t *testing.T) {
	s := withAnUndecodableSession(t)
	code, out, errs := run(t, client.Options{BaseURL: s.URL()}, "", "log", "ses_a")
	if code != codeOK || errs != "octop log: undecodable message msg_2: info.cost is a string\n" ||
		!strings.Contains(out, "go on") || !strings.Contains(out, "all done") {
		t.Errorf("log: exit %d, stderr %q\n%s", code, errs, out)
	}
}
