package model

import "strings"

// retryOpen opens the mark octop puts in the title of a session it starts
// as a retry of another: "<description> (retry of ses_…)", before the
// " (@<agent> subagent)" suffix a task's title ends with. The link lives
// in the server's own record of the new session, so it survives a restart
// of octop, shows in a recording and in other front ends, and needs no
// history read.
const retryOpen = " (retry of "

// RetryMark is the mark that says a session retries session id, to append
// to the description its title is made of.
func RetryMark(id string) string { return retryOpen + id + ")" }

// SplitRetry separates a title's retry mark from the rest: of is the
// session the mark names ("" when there is none) and rest the title without
// it. The mark counts only at the end of the title or just before a
// task's " (@agent subagent)" suffix, and only with an id of a session's
// form in it.
func SplitRetry(title string) (rest, of string) {
	i, j := retrySpan(title)
	if i == j {
		return title, ""
	}
	return title[:i] + title[j:], title[i+len(retryOpen) : j-1]
}

// retrySpan is where SplitRetry's mark lies in title, title[i:j]; i == j
// when there is none. It allocates nothing, for the filter.
func retrySpan(title string) (i, j int) {
	i = strings.LastIndex(title, retryOpen)
	if i < 0 {
		return 0, 0
	}
	tail := title[i+len(retryOpen):]
	k := strings.IndexByte(tail, ')')
	if k < 0 || !sessionIDLike(tail[:k]) {
		return 0, 0
	}
	after := tail[k+1:]
	if after != "" && (!strings.HasPrefix(after, " (@") || !strings.HasSuffix(after, taskSuffix)) {
		return 0, 0
	}
	return i, i + len(retryOpen) + k + 1
}

// sessionIDLike says whether s has a session id's form: "ses_" and then
// letters and digits.
func sessionIDLike(s string) bool {
	rest, ok := strings.CutPrefix(s, "ses_")
	if !ok || rest == "" || len(rest) > 64 {
		return false
	}
	for _, r := range rest {
		digit, lower, upper := '0' <= r && r <= '9', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z'
		if !digit && !lower && !upper {
			return false
		}
	}
	return true
}

// RetryOf is the session that session id retries: the one its title's
// retry mark names, when that session is known and has the same parent
// (both roots, or children of one session), as a retry started by octop
// always does. Anything else, such as a title a model wrote to look like
// one, links nothing. "" for none.
func (s *State) RetryOf(id string) string {
	ss := s.sessions[id]
	if ss == nil {
		return ""
	}
	_, of := SplitRetry(ss.Title)
	if of == "" || of == id {
		return ""
	}
	if o := s.sessions[of]; o == nil || !o.Known || o.ParentID != ss.ParentID {
		return ""
	}
	return of
}
