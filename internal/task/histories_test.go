package task

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/octop-dev/octop/internal/wire"
)

// historyServer answers History from a map; an id it lacks is
// ErrNoSession, "ses_broken" a server error. It records the directories
// asked.
type historyServer struct {
	Server
	msgs map[string][]wire.MessageWithParts
	mu   sync.Mutex
	dirs map[string]string
}

func (h *historyServer) History(_ context.Context, id, dir string) ([]wire.MessageWithParts, error) {
	h.mu.Lock()
	h.dirs[id] = dir
	h.mu.Unlock()
	if id == "ses_broken" {
		return nil, errors.New("500 Internal Server Error")
	}
	m, ok := h.msgs[id]
	if !ok {
		return nil, NewError(ErrNoSession, "no session "+id, nil)
	}
	return m, nil
}

// TestHistoriesRequest: each session's messages come back by id, read
// in its own directory; one deleted meanwhile is left out; a server
// error fails the reply.
func TestHistoriesRequest(t *testing.T) {
	one := []wire.MessageWithParts{{Info: wire.Message{ID: "msg_1"}}}
	h := &historyServer{msgs: map[string][]wire.MessageWithParts{"ses_a": one, "ses_b": nil}, dirs: map[string]string{}}
	r := Histories(context.Background(), h, HistoriesRequest{IDs: []string{"ses_a", "ses_b", "ses_gone"}, Dirs: []string{"/p", "", "/q"}})
	got, ok := r.(HistoriesReply)
	if !ok || got.Err != nil || len(got.Msgs) != 2 || !reflect.DeepEqual(got.Msgs["ses_a"], one) {
		t.Fatalf("reply %#v", r)
	}
	if h.dirs["ses_a"] != "/p" || h.dirs["ses_gone"] != "/q" {
		t.Errorf("directories asked: %v", h.dirs)
	}
	r = Histories(context.Background(), h, HistoriesRequest{IDs: []string{"ses_a", "ses_broken"}})
	if got := r.(HistoriesReply); got.Err == nil || got.Msgs != nil {
		t.Errorf("with a server error: %#v", got)
	}
	if Timeout(HistoriesRequest{}) <= RequestTimeout {
		t.Errorf("a subtree's histories get only %v", Timeout(HistoriesRequest{}))
	}
}
