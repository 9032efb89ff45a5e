package actions

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/octop-dev/octop/client"
)

// TestCheckDirectory: a directory inside a project, or with sessions of
// its own, is known; any other is a usage error naming the projects.
func TestCheckDirectory(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/project":
			w.Write([]byte(`[{"id":"p","worktree":"/src/app","sandboxes":["/src/app-wt"]},{"id":"global","worktree":"/"}]`))
		case r.URL.Path == "/session" && strings.Contains(r.Header.Get("x-opencode-directory")+r.URL.RawQuery, "loose"):
			w.Write([]byte(`[{"id":"ses_1","time":{"created":1,"updated":1}}]`))
		default:
			w.Write([]byte(`[]`))
		}
	}))
	defer srv.Close()
	for dir, ok := range map[string]bool{
		"": true, "/src/app": true, "/src/app/sub": true, "/src/app-wt": true,
		"/tmp/loose": true, "/nonexistent": false, "/src/application": false,
	} {
		c, err := client.New(client.Options{BaseURL: srv.URL, Directory: dir})
		if err != nil {
			t.Fatal(err)
		}
		err = CheckDirectory(context.Background(), c)
		if ok != (err == nil) {
			t.Errorf("%q: %v", dir, err)
		}
		if !ok && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "/src/app")) {
			t.Errorf("%q: %v, want a usage error naming the projects", dir, err)
		}
	}
}
