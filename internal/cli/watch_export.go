package cli

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/otlp"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/watchdog"
)

// traceWaitLimit bounds how long watch, on its way out (--until-done),
// waits for the traces it is still sending.
const traceWaitLimit = time.Minute

// rootTraces is `octop watch --otlp`: when a root ends (its end event,
// which comes once the whole tree has stopped, background children
// included), its tree is read and sent as one trace. One root is sent at
// a time; the lines it leaves go through note.
type rootTraces struct {
	c    *client.Client
	exp  *otlp.Exporter
	note func(string)
	mu   sync.Mutex // one export at a time
	wg   sync.WaitGroup
}

// newRootTraces builds the exporter for --otlp URL.
func newRootTraces(ctx context.Context, c *client.Client, url string, note func(string)) (*rootTraces, error) {
	exp, err := newExporter(ctx, c, url)
	if err != nil {
		return nil, err
	}
	return &rootTraces{c: c, exp: exp, note: note}, nil
}

// ended reports whether e is the end of a root's run.
func rootEnded(e watchdog.Event) bool {
	if e.ID == "" || e.Parent != "" {
		return false
	}
	switch e.Name {
	case watchdog.SessionDone, watchdog.SessionFailed, watchdog.SessionAborted, watchdog.SessionInterrupted:
		return true
	}
	return false
}

// send exports root's tree in the background.
func (x *rootTraces) send(ctx context.Context, root string) {
	x.wg.Add(1)
	go func() {
		defer x.wg.Done()
		x.mu.Lock()
		defer x.mu.Unlock()
		ectx, cancel := context.WithTimeout(ctx, exportTimeout)
		defer cancel()
		st, history, _, err := live.LoadTrees(ectx, x.c, []string{root})
		if err != nil {
			x.note(fmt.Sprintf("octop watch: could not read the tree of %s to export it: %s", root, squashSpaces(err.Error())))
			return
		}
		sum, err := x.exp.Export(ectx, otlp.TreeOf(st, history, root))
		if err != nil {
			x.note("octop watch: " + squashSpaces(err.Error()))
			return
		}
		x.note("octop watch: exported " + exportLine(root, st, sum) + " to " + x.exp.Endpoint())
	}()
}

// close waits (up to traceWaitLimit) for the traces under way, then
// releases the exporter.
func (x *rootTraces) close() {
	done := make(chan struct{})
	go func() {
		x.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(traceWaitLimit):
		x.note("octop watch: gave up waiting for traces still being sent")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = x.exp.Shutdown(ctx)
}

// flushTraces waits for the traces still being sent before watch exits
// (--until-done), and prints what they left.
func (w *watcher) flushTraces() {
	if w.traces == nil {
		return
	}
	w.traces.close()
	w.drainNotes()
}
