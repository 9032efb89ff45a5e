package model

import "github.com/octop-dev/octop/internal/wire"

// Reverted is what the server says is undone in a session (its revert
// field): the messages from MessageID on, and the files the undo changed,
// from the server's own diff. It lasts until an unrevert brings them back
// or the session's next prompt makes the undo final.
type Reverted struct {
	MessageID string
	Files     []wire.DiffStat
}

// maxRevertFiles bounds the files a Reverted keeps of a huge diff.
const maxRevertFiles = 1000

// Reverted is what is undone in the session, nil when nothing is. It is
// the one reading of the server's revert field every view shows.
func (ss *Session) Reverted() *Reverted { return ss.rd().revert }

// setRevert takes the revert field of a session's newest info: nil means
// nothing is undone (an unrevert, or a prompt made it final).
func (s *State) setRevert(ss *Session, r *wire.Revert) {
	if r == nil {
		if ss.rd().revert != nil {
			ss.more().revert = nil
		}
		return
	}
	if old := ss.rd().revert; old != nil && old.MessageID == r.MessageID && ss.rd().revertDiff == r.Diff {
		return
	}
	s.reopen(ss)
	files, _ := wire.DiffStats(r.Diff)
	if len(files) > maxRevertFiles {
		files = files[:maxRevertFiles]
	}
	m := ss.more()
	m.revert = &Reverted{MessageID: r.MessageID, Files: files}
	m.revertDiff = r.Diff
}
