package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// BenchmarkSessionList: GET /session of 50,000 sessions shaped like
// 1.18's (a tenth roots, each with nine children carrying permission
// rules), read and decoded by Sessions, the list the screen and octop
// tree start from; and the same list with one undecodable session in the
// middle.
//
//	go test -run '^$' -bench SessionList -benchmem ./client/
func BenchmarkSessionList(b *testing.B) {
	const n = 50_000
	list := make([]wire.Session, n)
	for i := range list {
		s := wire.Session{ID: fmt.Sprintf("ses_%06d", i), Slug: "calm-river", Version: "1.18.33", ProjectID: "prj_1",
			Directory: "/home/dev/project", Title: fmt.Sprintf("job %d", i), Tokens: wire.Tokens{Input: 1200, Output: 300},
			Cost: 0.01, Time: wire.SessionTime{Created: int64(1_000_000 + i), Updated: int64(1_000_500 + i)}}
		if i%10 != 0 {
			s.ParentID = fmt.Sprintf("ses_%06d", i-i%10)
			s.Permission = []wire.PermissionRule{{Permission: "todowrite", Pattern: "*", Action: "deny"},
				{Permission: "task", Pattern: "*", Action: "deny"}}
		}
		list[i] = s
	}
	good, err := json.Marshal(list)
	if err != nil {
		b.Fatal(err)
	}
	i := bytes.Index(good[len(good)/2:], []byte(`"title":"`)) + len(good)/2
	bad := append(append(append([]byte(nil), good[:i]...), `"title":1,"x":"`...), good[i+len(`"title":"`):]...)
	for name, body := range map[string][]byte{"good": good, "one-undecodable": bad} {
		b.Run(name, func(b *testing.B) {
			srv := opencodetest.New(b, opencodetest.Options{})
			srv.HandleFunc("GET /session", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write(body)
			})
			c, err := client.New(client.Options{BaseURL: srv.URL()})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for range b.N {
				if ss, err := c.Sessions(context.Background()); err != nil || len(ss) != n {
					b.Fatalf("%d sessions, %v", len(ss), err)
				}
			}
		})
	}
}
