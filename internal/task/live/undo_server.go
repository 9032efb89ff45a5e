package live

import (
	"context"

	"github.com/octop-dev/octop/internal/task"
)

// repair carries out the undo and redo requests (the u and U keys).
func (s *Server) repair(ctx context.Context, r task.Request) task.Reply {
	switch r := r.(type) {
	case task.UndoPlanRequest:
		p, err := PlanUndo(ctx, s.c, r.ID, r.To)
		return task.UndoPlanReply{Plan: p, Err: kind(err)}
	case task.UndoRequest:
		res, err := Undo(ctx, s.c, r.Plan, r.Consent)
		return task.UndoReply{Result: res, Err: kind(err)}
	case task.RedoPlanRequest:
		p, err := PlanRedo(ctx, s.c, r.ID)
		return task.RedoPlanReply{Plan: p, Err: kind(err)}
	case task.RedoRequest:
		res, err := Redo(ctx, s.c, r.Plan, r.Consent)
		return task.RedoReply{Result: res, Err: kind(err)}
	}
	return r.Refused(nil)
}
