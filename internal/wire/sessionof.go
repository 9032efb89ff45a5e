package wire

// SessionOf is the id of the session an event is about, or "" for an
// event about no one session (server.connected, a heartbeat, …).
func SessionOf(ev Event) string {
	switch e := ev.(type) {
	case SessionCreated:
		return e.Info.ID
	case SessionUpdated:
		return e.Info.ID
	case SessionDeleted:
		return e.Info.ID
	case SessionStatusChanged:
		return e.SessionID
	case SessionIdle:
		return e.SessionID
	case SessionError:
		return e.SessionID
	case MessageUpdated:
		return e.Info.SessionID
	case MessageRemoved:
		return e.SessionID
	case PartUpdated:
		return e.Part.SessionID
	case PartRemoved:
		return e.SessionID
	case PartDelta:
		return e.SessionID
	case PermissionAsked:
		return e.Request.SessionID
	case PermissionReplied:
		return e.SessionID
	case QuestionAsked:
		return e.Request.SessionID
	case QuestionReplied:
		return e.SessionID
	case QuestionRejected:
		return e.SessionID
	}
	return ""
}
