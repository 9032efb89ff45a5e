package cli

import (
	"encoding/json"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// unpricedServer is a fake server whose root "mixed" has a priced reply
// and a child with an unpriced one (tokens used, cost 0, as the scripted
// fake model's), and whose root "free" has only an unpriced reply.
func unpricedServer(t *testing.T) client.Options {
	t.Helper()
	withConfig(t, "")
	s := opencodetest.New(t, opencodetest.Options{})
	reply := func(id, msg string, tokens, cost float64) []wire.MessageWithParts {
		return []wire.MessageWithParts{
			{Info: wire.Message{ID: msg + "a", SessionID: id, Role: "user", Time: wire.MessageTime{Created: 1_000}}},
			{Info: wire.Message{ID: msg + "b", SessionID: id, Role: "assistant", Tokens: wire.Tokens{Input: tokens}, Cost: cost,
				Finish: "stop", Time: wire.MessageTime{Created: 1_100, Completed: 1_200}}}}
	}
	s.AddSession(wire.Session{ID: "ses_mixed", Title: "mixed", Time: wire.SessionTime{Created: 1_000, Updated: 1_200}})
	s.SetMessages("ses_mixed", reply("ses_mixed", "msg_1", 300, 0.0123))
	s.AddSession(wire.Session{ID: "ses_kid", ParentID: "ses_mixed", Title: "kid", Time: wire.SessionTime{Created: 1_050, Updated: 1_200}})
	s.SetMessages("ses_kid", reply("ses_kid", "msg_2", 15, 0))
	s.AddSession(wire.Session{ID: "ses_free", Title: "free", Time: wire.SessionTime{Created: 900, Updated: 1_200}})
	s.SetMessages("ses_free", reply("ses_free", "msg_3", 315, 0))
	return client.Options{BaseURL: s.URL()}
}

// costJSON is what a JSON output says of a cost.
type costJSON struct {
	Cost     *float64 `json:"cost"`
	Unpriced *int     `json:"unpriced_replies"`
}

// says is the cost as "null/N" or "0.0123/N".
func (c costJSON) says() string {
	s := "null"
	if c.Cost != nil {
		s = fmtFloat(*c.Cost)
	}
	if c.Unpriced == nil {
		return s + "/absent"
	}
	return s + "/" + fmtFloat(float64(*c.Unpriced))
}

func fmtFloat(v float64) string { b, _ := json.Marshal(v); return string(b) }

// TestTreeJSONUnpricedCost: tree --json gives "cost": null when nothing
// is priced, else the known sum, always with "unpriced_replies" beside
// it, per node and over its subtree; never a made-up 0.
func TestTreeJSONUnpricedCost(t *testing.T) {
	code, out, errs := run(t, unpricedServer(t), "", "tree", "--json")
	if code != codeOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	type node struct {
		ID string
		costJSON
		Subtree  costJSON
		Children []struct {
			ID string
			costJSON
			Subtree costJSON
		}
	}
	var roots []node
	if err := json.Unmarshal([]byte(out), &roots); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	got := map[string]string{}
	for _, r := range roots {
		got[r.ID], got[r.ID+" subtree"] = r.says(), r.Subtree.says()
		for _, c := range r.Children {
			got[c.ID], got[c.ID+" subtree"] = c.says(), c.Subtree.says()
		}
	}
	for id, want := range map[string]string{
		"ses_mixed": "0.0123/0", "ses_mixed subtree": "0.0123/1",
		"ses_kid": "null/1", "ses_kid subtree": "null/1",
		"ses_free": "null/1", "ses_free subtree": "null/1",
	} {
		if got[id] != want {
			t.Errorf("%s: cost/unpriced_replies %s, want %s\n%s", id, got[id], want, out)
		}
	}
}
