package task

import "context"

// ReadOnly is s for a server octop must not change (--read-only, or
// read_only in the config file): its reads go to s, and every request
// that Changes the server is refused at once with ErrReadOnly, saying why,
// and sends nothing.
func ReadOnly(s Server, why string) Server { return readOnly{s, NewError(ErrReadOnly, why, nil)} }

type readOnly struct {
	Server
	err error
}

func (r readOnly) Do(ctx context.Context, req Request) Reply {
	if req.Changes() {
		return req.Refused(r.err)
	}
	return r.Server.Do(ctx, req)
}
