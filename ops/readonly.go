package ops

import (
	"context"

	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/intent"
	"github.com/octop-dev/octop/wire"
)

// Reader is the part of the operations a recording can answer: the
// screen's own reads.
type Reader interface {
	Snapshot(ctx context.Context) (model.Snapshot, error)
	Health(ctx context.Context) (wire.Health, error)
}

// ReadOnly is ui.Ops over a Reader (a replay, the demo): the reads go to
// r, every action answers intent.ErrReadOnly.
func ReadOnly(r Reader) Replay { return Replay{r} }

// Replay is the operations of a recording; see ReadOnly.
type Replay struct{ Reader }

// Agents answers intent.ErrReadOnly.
func (Replay) Agents(context.Context) ([]wire.Agent, error) { return nil, intent.ErrReadOnly }

// Launch answers intent.ErrReadOnly.
func (Replay) Launch(context.Context, intent.LaunchRequested) (wire.Session, error) {
	return wire.Session{}, intent.ErrReadOnly
}

// Resume answers intent.ErrReadOnly.
func (Replay) Resume(context.Context, string, string, string) (string, error) {
	return "", intent.ErrReadOnly
}

// Wait answers intent.ErrReadOnly.
func (Replay) Wait(context.Context, string) error { return intent.ErrReadOnly }

// Find answers intent.ErrReadOnly.
func (Replay) Find(context.Context, string) (wire.Session, bool, error) {
	return wire.Session{}, false, intent.ErrReadOnly
}

// Abort answers intent.ErrReadOnly.
func (Replay) Abort(context.Context, string) error { return intent.ErrReadOnly }

// AbortSessions answers intent.ErrReadOnly.
func (Replay) AbortSessions(context.Context, []string) ([]string, error) {
	return nil, intent.ErrReadOnly
}

// Result answers intent.ErrReadOnly.
func (Replay) Result(context.Context, string) (intent.Result, error) {
	return intent.Result{}, intent.ErrReadOnly
}

// ReplyPermission answers intent.ErrReadOnly.
func (Replay) ReplyPermission(context.Context, string, string) error { return intent.ErrReadOnly }

// ReplyQuestion answers intent.ErrReadOnly.
func (Replay) ReplyQuestion(context.Context, string, [][]string) error { return intent.ErrReadOnly }

// RejectQuestion answers intent.ErrReadOnly.
func (Replay) RejectQuestion(context.Context, string) error { return intent.ErrReadOnly }

// Messages answers intent.ErrReadOnly: a recording holds no message lists.
func (Replay) Messages(context.Context, string) ([]wire.MessageWithParts, bool, error) {
	return nil, false, intent.ErrReadOnly
}
