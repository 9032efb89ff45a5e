package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
)

// Owner finds which of several servers holds session id, asking them all
// at once, and returns its index in cs. A server that is down, slow or
// refuses the password does not stop another from answering: each is
// bounded by its client's own timeout and by ctx. With no holder, the
// error is task.ErrNoSession when every server answered "no such session",
// else it names each server that could not say.
func Owner(ctx context.Context, cs []*client.Client, id string) (int, error) {
	if len(cs) == 1 {
		return 0, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(cs))
	found := make(chan int, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := lookup(ctx, c, id); err != nil {
				errs[i] = err
				return
			}
			found <- i
		}()
	}
	go func() { wg.Wait(); close(found) }()
	if i, ok := <-found; ok {
		return i, nil
	}
	return -1, ownerError(cs, id, errs)
}

// ownerError says why no server holds id: bad input, nobody has it, or
// which servers could not be asked.
func ownerError(cs []*client.Client, id string, errs []error) error {
	var failed []string
	for i, err := range errs {
		switch {
		case errors.Is(err, task.ErrInvalid):
			return err
		case errors.Is(err, task.ErrNoSession):
		default:
			failed = append(failed, fmt.Sprintf("%s: %v", cs[i].BaseURL(), err))
		}
	}
	if len(failed) == 0 {
		return task.NewError(task.ErrNoSession, fmt.Sprintf("no session %s on any of the %d servers", id, len(cs)), nil)
	}
	return fmt.Errorf("session %s is on none of the servers that answered, and %d could not be asked: %s",
		id, len(failed), strings.Join(failed, "; "))
}
