package task

import (
	"context"

	"github.com/octop-dev/octop/internal/wire"
)

// ReadOnly is s for a server octop must not change (--read-only, or
// read_only in the config file): its reads go to s, and every operation
// that would launch, resume, abort or answer fails at once with
// ErrReadOnly, saying why, and sends nothing.
func ReadOnly(s Server, why string) Server { return readOnly{s, NewError(ErrReadOnly, why, nil)} }

type readOnly struct {
	Server
	err error
}

func (r readOnly) Launch(context.Context, LaunchRequest) (wire.Session, error) {
	return wire.Session{}, r.err
}

func (r readOnly) Resume(context.Context, string, string, string) (string, error) { return "", r.err }

func (r readOnly) Abort(context.Context, string) error { return r.err }

func (r readOnly) AbortSessions(context.Context, []string) ([]string, error) { return nil, r.err }

func (r readOnly) ReplyPermission(context.Context, string, string) error { return r.err }

func (r readOnly) ReplyQuestion(context.Context, string, [][]string) error { return r.err }

func (r readOnly) RejectQuestion(context.Context, string) error { return r.err }
