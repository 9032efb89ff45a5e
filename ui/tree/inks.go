package tree

import (
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/format"
	"github.com/octop-dev/octop/ui/styles"
)

// inks are the row's styles reduced to escape codes (see styles.Ink):
// rows are the hot path of every frame.
type inks struct {
	dim, title, badge, busy, selected, unfocused styles.Ink
	done, failed, retry, waiting                 styles.Ink
	aborted, interrupted, denied                 styles.Ink
	stale                                        styles.Ink // faint, even without colour
}

func newInks(s *styles.Styles) inks {
	return inks{
		dim: styles.InkOf(s.Dim), title: styles.InkOf(s.Title), badge: styles.InkOf(s.Badge),
		busy: styles.InkOf(s.Busy), selected: styles.InkOf(s.Selected), unfocused: styles.InkOf(s.Focused),
		done: styles.InkOf(s.Done), failed: styles.InkOf(s.Failed), retry: styles.InkOf(s.Retry),
		waiting: styles.InkOf(s.Waiting), aborted: styles.InkOf(s.Aborted),
		interrupted: styles.InkOf(s.Interrupted), denied: styles.InkOf(s.Denied),
		stale: styles.InkOf(s.Dim.Faint(true)),
	}
}

// mark is a session's one-cell state mark and its ink (the same marks as
// format.StateMark, with the row's own inks).
func (k inks) mark(kind model.Kind, spin string) (string, styles.Ink) {
	switch kind {
	case model.KindRunning:
		return spin, k.busy
	case model.KindRetrying:
		return format.MarkRetry, k.retry
	case model.KindWaiting:
		return format.MarkWaiting, k.waiting
	case model.KindFailed:
		return format.MarkFailed, k.failed
	case model.KindAborted:
		return format.MarkAborted, k.aborted
	case model.KindInterrupted:
		return format.MarkInterrupted, k.interrupted
	case model.KindDenied:
		return format.MarkDenied, k.denied
	case model.KindComplete:
		return format.MarkDone, k.done
	case model.KindIdle:
		return format.MarkIdle, k.dim
	case model.KindBackground:
		return format.MarkBackground, k.busy
	}
	return format.MarkNotLoaded, k.dim
}
