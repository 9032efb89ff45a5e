package harness

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// TestStartRestart starts each version, checks the fake-model config took
// (the deep agent exists), then restarts on the same port and data dir
// and finds the session made before the restart.
func TestStartRestart(t *testing.T) {
	for _, v := range Versions() {
		t.Run(v, func(t *testing.T) {
			s := Start(t, Config{Version: v})
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()

			var agents []struct{ Name, Mode string }
			if err := s.JSON(ctx, http.MethodGet, "/agent", nil, &agents); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, a := range agents {
				found = found || (a.Name == "deep" && a.Mode == "subagent")
			}
			if !found {
				t.Fatalf("agent deep missing from %+v", agents)
			}

			var sess struct{ ID string }
			if err := s.JSON(ctx, http.MethodPost, "/session", map[string]any{"title": "before restart"}, &sess); err != nil {
				t.Fatal(err)
			}
			url := s.URL
			if err := s.Restart(); err != nil {
				t.Fatal(err)
			}
			if s.URL != url {
				t.Fatalf("URL changed across restart: %s -> %s", url, s.URL)
			}
			var got struct{ ID, Title string }
			if err := s.JSON(ctx, http.MethodGet, "/session/"+sess.ID, nil, &got); err != nil {
				t.Fatalf("session made before the restart: %v", err)
			}
			if got.Title != "before restart" {
				t.Errorf("title after restart = %q", got.Title)
			}
		})
	}
}

func TestPasswordProtected(t *testing.T) {
	s := Start(t, Config{Password: "sekrit"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.JSON(ctx, http.MethodGet, "/session", nil, nil); err != nil {
		t.Fatalf("with the password: %v", err)
	}
	s.Password = "wrong"
	err := s.JSON(ctx, http.MethodGet, "/session", nil, nil)
	if se, ok := err.(*StatusError); !ok || se.Code != http.StatusUnauthorized {
		t.Fatalf("wrong password: %v, want HTTP 401", err)
	}
}
