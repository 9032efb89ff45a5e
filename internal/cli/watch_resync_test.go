package cli

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// treeHistory reads --root's whole tree, once each, and nothing else the
// snapshot lacks.
func TestTreeHistory(t *testing.T) {
	fake := opencodetest.New(t, opencodetest.Options{})
	sessions := []wire.Session{
		{ID: "ses_p"}, {ID: "ses_c", ParentID: "ses_p"}, {ID: "ses_g", ParentID: "ses_c"},
		{ID: "ses_q"}, {ID: "ses_q1", ParentID: "ses_q"}, {ID: "ses_idle"},
		// A parent loop no server should send: each walk visits it once.
		{ID: "ses_x", ParentID: "ses_y"}, {ID: "ses_y", ParentID: "ses_x"},
	}
	for _, s := range sessions {
		fake.AddSession(s)
	}
	cl, err := client.New(client.Options{BaseURL: fake.URL(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ root, want string }{
		{"ses_p", "ses_c ses_p"},
		{"ses_q", "ses_q ses_q1"},
		{"ses_x", "ses_x ses_y"},
	} {
		snap := model.Snapshot{Sessions: sessions, Messages: map[string][]wire.MessageWithParts{"ses_g": nil}}
		treeHistory(context.Background(), live.New(cl), &snap, c.root)
		var got []string
		for id := range snap.Messages {
			if id != "ses_g" {
				got = append(got, id)
			}
		}
		sort.Strings(got)
		if strings.Join(got, " ") != c.want {
			t.Errorf("root %q: read %v, want %s", c.root, got, c.want)
		}
	}
}
