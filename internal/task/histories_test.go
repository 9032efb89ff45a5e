package task

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
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

// TestReadHistoriesBounded: HistoryParallel reads at once, no more, the
// first of refs first; every list arrives with its ref, a session gone
// is left out unheard.
func TestReadHistoriesBounded(t *testing.T) {
	var refs []HistoryRef
	for i := range 3 * HistoryParallel {
		refs = append(refs, HistoryRef{ID: fmt.Sprintf("ses_%02d", i), Dir: fmt.Sprintf("/p%d", i)})
	}
	refs = append(refs, HistoryRef{ID: "ses_gone"})
	var mu sync.Mutex
	var started []string
	inFlight, peak := 0, 0
	gate := make(chan struct{})
	got := map[string]string{}
	done := make(chan error, 1)
	go func() {
		done <- ReadHistories(context.Background(), refs, func(_ context.Context, r HistoryRef) ([]string, error) {
			mu.Lock()
			started = append(started, r.ID)
			inFlight++
			peak = max(peak, inFlight)
			mu.Unlock()
			<-gate
			mu.Lock()
			inFlight--
			mu.Unlock()
			if r.ID == "ses_gone" {
				return nil, NewError(ErrNoSession, "no session "+r.ID, nil)
			}
			return []string{r.Dir}, nil
		}, func(r HistoryRef, msgs []string, err error) error {
			mu.Lock()
			defer mu.Unlock()
			if err != nil || len(msgs) != 1 {
				t.Errorf("%s: %v %v", r.ID, msgs, err)
			}
			got[r.ID] = msgs[0]
			return nil
		})
	}()
	testwait.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return inFlight == HistoryParallel },
		5*time.Second, "%d reads under way", HistoryParallel)
	mu.Lock()
	first := slices.Sorted(slices.Values(started))
	mu.Unlock()
	if want := []string{"ses_00", "ses_01", "ses_02", "ses_03"}; !slices.Equal(first, want) {
		t.Errorf("started first %v, want %v", first, want)
	}
	close(gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if peak != HistoryParallel || len(got) != len(refs)-1 || got["ses_05"] != "/p5" {
		t.Errorf("peak %d, got %v", peak, got)
	}
}

// TestReadHistoriesStopsWhereGotSays: an error got returns stops the
// reads and is returned; one it takes (returning nil) does not.
func TestReadHistoriesStopsWhereGotSays(t *testing.T) {
	refs := []HistoryRef{{ID: "ses_a"}, {ID: "ses_broken"}, {ID: "ses_b"}}
	boom := errors.New("500 Internal Server Error")
	read := func(_ context.Context, r HistoryRef) ([]int, error) {
		if r.ID == "ses_broken" {
			return nil, boom
		}
		return []int{1}, nil
	}
	strict := ReadHistories(context.Background(), refs, read, func(_ HistoryRef, _ []int, err error) error { return err })
	if !errors.Is(strict, boom) {
		t.Errorf("a reader that needs every history got %v, want the server's error", strict)
	}
	var mu sync.Mutex
	var n int
	lenient := ReadHistories(context.Background(), refs, read, func(_ HistoryRef, msgs []int, err error) error {
		mu.Lock()
		n += len(msgs)
		mu.Unlock()
		return nil
	})
	if lenient != nil || n != 2 {
		t.Errorf("a reader that takes what it can: %v, %d lists", lenient, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ReadHistories(ctx, refs, read, func(HistoryRef, []int, error) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled read returned %v", err)
	}
}

// TestReadHistoriesReadsEachOnce: a session named twice is read once,
// in the place it first comes, so no caller dedupes the list itself.
func TestReadHistoriesReadsEachOnce(t *testing.T) {
	var mu sync.Mutex
	var read []string
	refs := []HistoryRef{{ID: "ses_a"}, {ID: "ses_b"}, {ID: "ses_a", Dir: "/other"}, {ID: "ses_b"}}
	err := ReadHistories(context.Background(), refs, func(_ context.Context, r HistoryRef) ([]wire.MessageWithParts, error) {
		mu.Lock()
		defer mu.Unlock()
		read = append(read, r.ID+r.Dir)
		return nil, nil
	}, func(HistoryRef, []wire.MessageWithParts, error) error { return nil })
	slices.Sort(read)
	if err != nil || !slices.Equal(read, []string{"ses_a", "ses_b"}) {
		t.Errorf("read %v (err %v), want ses_a and ses_b once each", read, err)
	}
}
