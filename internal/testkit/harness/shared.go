package harness

import (
	"fmt"
	"sync"
)

// shared holds one default server per target for a whole test binary.
var shared struct {
	mu      sync.Mutex
	servers map[string]*Server
	errs    map[string]error
}

// Shared returns a server of version with the default config, started on
// first use and reused by every later caller in the test binary, so tests
// that do not need isolation share its start-up cost. Tests must not stop
// or restart it, and should create their own sessions. The package's
// TestMain must call CloseShared after m.Run.
func Shared(t T, version string) *Server {
	t.Helper()
	return SharedAt(t, Target{Name: version, Version: version})
}

// SharedAt is Shared for a target: one server per target name (a
// version, or a version with its experimental flags on).
func SharedAt(t T, tg Target) *Server {
	t.Helper()
	RequireBinary(t, tg.Version)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if s := shared.servers[tg.Name]; s != nil && s.Running() {
		logOnFailure(t, s)
		return s
	}
	if err := shared.errs[tg.Name]; err != nil {
		t.Fatalf("shared opencode %s failed to start earlier: %v", tg.Name, err)
	}
	if shared.servers == nil {
		shared.servers, shared.errs = map[string]*Server{}, map[string]error{}
	}
	if old := shared.servers[tg.Name]; old != nil {
		old.Close()
	}
	s, err := New(tg.Config())
	if err != nil {
		shared.errs[tg.Name] = err
		t.Fatalf("%v", err)
	}
	shared.servers[tg.Name] = s
	logOnFailure(t, s)
	return s
}

// logOnFailure prints the tail of the server's logs if t fails.
func logOnFailure(t T, s *Server) {
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("shared %s:\n%s", s, s.LogTail(40))
		}
	})
}

// CloseShared stops every server Shared started.
func CloseShared() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	for v, s := range shared.servers {
		s.Close()
		delete(shared.servers, v)
	}
}

// String describes the server for logs.
func (s *Server) String() string {
	return fmt.Sprintf("opencode %s at %s (data %s)", s.Version, s.URL, s.DataDir)
}
