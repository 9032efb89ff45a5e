package harness

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// Statuses returns GET /session/status: the sessions that are not idle.
func (s *Server) Statuses(ctx context.Context) (map[string]struct {
	Type string `json:"type"`
}, error) {
	var st map[string]struct {
		Type string `json:"type"`
	}
	err := s.JSON(ctx, http.MethodGet, "/session/status", nil, &st)
	return st, err
}

// WaitIdle polls GET /session/status until no session is busy in three
// polls in a row (a parent goes idle between steps only for an instant),
// or ctx ends. Call it after the work has visibly started.
func (s *Server) WaitIdle(ctx context.Context) error {
	quiet := 0
	var last error
	for {
		pctx, cancel := context.WithTimeout(ctx, testwait.Scale(5*time.Second))
		st, err := s.Statuses(pctx)
		cancel()
		last = err
		if err == nil && len(st) == 0 {
			quiet++
			if quiet >= 3 {
				return nil
			}
		} else {
			quiet = 0
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sessions still busy on %s: %v (last poll: %v)", s.URL, ctx.Err(), last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
