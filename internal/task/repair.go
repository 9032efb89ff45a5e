package task

// The requests of the repair keys: steer (m) and retry (a).

// SayRequest tells session ID Text without waiting for it to stop
// (steer): a running session's model sees it at its next step; an idle
// session is resumed with it.
type SayRequest struct{ ID, Text string }

// RetrySourceRequest reads the launch that would retry session ID: the
// retry form's prefilled parent, agent, description and prompt. The
// launch itself is a LaunchRequest with RetryOf set.
type RetrySourceRequest struct{ ID string }

// SayReply answers SayRequest: Agent is the agent the message went to,
// Queued says the session was running (its model sees the message at its
// next step) rather than resumed.
type SayReply struct {
	ID, Agent string
	Queued    bool
	Err       error
}

// RetrySourceReply answers RetrySourceRequest with the launch to start
// (RetryOf set).
type RetrySourceReply struct {
	Req LaunchRequest
	Err error
}

// Changes: a message changes the server; reading a retry's source does
// not (the launch that follows does).
func (SayRequest) Changes() bool         { return true }
func (RetrySourceRequest) Changes() bool { return false }

// Refused: the reply carrying err.
func (r SayRequest) Refused(err error) Reply       { return SayReply{ID: r.ID, Err: err} }
func (RetrySourceRequest) Refused(err error) Reply { return RetrySourceReply{Err: err} }

func (SayReply) reply()         {}
func (RetrySourceReply) reply() {}
