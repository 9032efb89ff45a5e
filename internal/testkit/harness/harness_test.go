package harness

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestStartRestart starts each version, checks the fake-model config took
// (the deep agent exists), then restarts on the same port and data dir
// and finds the session made before the restart.
func TestStartRestart(t *testing.T) {
	for _, v := range Versions() {
		t.Run(v, func(t *testing.T) {
			s := Start(t, Config{Version: v})
			ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(60*time.Second))
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
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
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

// fakeT records what RequireBinary does with a test.
type fakeT struct {
	T
	skipped, fatal string
}

func (f *fakeT) Helper() {}

// Skipf and Fatalf end the goroutine, as testing's do.
func (f *fakeT) Skipf(format string, args ...any) {
	f.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (f *fakeT) Fatalf(format string, args ...any) {
	f.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// requireBinary runs RequireBinary on a goroutine of its own, since the
// fake ends it.
func requireBinary(v string) *fakeT {
	f := &fakeT{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		RequireBinary(f, v)
	}()
	<-done
	return f
}

// TestMissingBinary: without the binary a plain go test skips and says to
// run make test; with OCTOP_E2E set (make test sets 1) it fails.
func TestMissingBinary(t *testing.T) {
	const v = "1.18.999"
	t.Setenv("OCTOP_OPENCODE_1_18_999", "/nonexistent/opencode")
	_, err := Binary(v)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/opencode ($OCTOP_OPENCODE_1_18_999)") ||
		!strings.Contains(err.Error(), "opencode-"+v) {
		t.Fatalf("Binary(%s) error %v: want it to name the places it looked", v, err)
	}
	// The pinned release's variable names that release only.
	t.Setenv("OCTOP_OPENCODE_1_18", "/nonexistent/pinned")
	if _, err := Binary(v); err == nil || strings.Contains(err.Error(), "/nonexistent/pinned") {
		t.Errorf("Binary(%s) looked at $OCTOP_OPENCODE_1_18 (1.18.33's): %v", v, err)
	}

	t.Setenv("OCTOP_E2E", "")
	f := requireBinary(v)
	if f.fatal != "" || !strings.Contains(f.skipped, "run `make test`") {
		t.Errorf("without OCTOP_E2E: skipped %q, fatal %q; want a skip that says to run make test", f.skipped, f.fatal)
	}

	for _, set := range []string{"1", "true"} {
		t.Setenv("OCTOP_E2E", set)
		f = requireBinary(v)
		if f.skipped != "" || !strings.Contains(f.fatal, "not installed") {
			t.Errorf("with OCTOP_E2E=%s: skipped %q, fatal %q; want a failure", set, f.skipped, f.fatal)
		}
	}
}

func TestConfigPerVersion(t *testing.T) {
	c118 := Config2JSON(V118, "http://x/v1", map[string]any{"extra": map[string]any{"mode": "subagent"}}, map[string]any{"share": "manual"})
	c11 := Config2JSON(V11, "http://x/v1", nil, nil)
	if c118["subagent_depth"] == nil {
		t.Error("1.18 config lacks subagent_depth, which nested delegation needs")
	}
	if _, ok := c11["subagent_depth"]; ok {
		t.Error("1.1.65 config has subagent_depth, which that version rejects")
	}
	agents := c118["agent"].(map[string]any)
	if agents["deep"] == nil || agents["extra"] == nil || c118["share"] != "manual" {
		t.Errorf("agents/extra not merged: %v", c118)
	}
}

func TestTargets(t *testing.T) {
	t.Setenv("OCTOP_E2E_TARGETS", "")
	var names []string
	for _, tg := range Targets() {
		names = append(names, tg.Name)
	}
	if strings.Join(names, ",") != DefaultTargets {
		t.Errorf("Targets() = %v, want %s", names, DefaultTargets)
	}
	t.Setenv("OCTOP_E2E_TARGETS", "1.18.30+flags, 1.1.60")
	tgs := Targets()
	if len(tgs) != 2 || tgs[0].Version != "1.18.30" || len(tgs[0].Config().Env) != 2 || tgs[1].Name != "1.1.60" || tgs[1].Background() {
		t.Errorf("Targets() = %+v", tgs)
	}
	bg := BackgroundTargets()
	if len(bg) != 1 || bg[0].Name != "1.18.30+flags" {
		t.Errorf("BackgroundTargets() = %+v", bg)
	}
	if _, err := ParseTarget("latest"); err == nil {
		t.Error("ParseTarget(latest) gave no error")
	}
}
