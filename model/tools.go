package model

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/octop-dev/octop/internal/wire"
)

// Bounds on what is kept per session and per tool call, so memory stays
// flat however long a session runs.
const (
	maxHead = 256     // Error, LiveTail
	maxLine = 200     // Title, Input digest, retry message
	maxText = 4 << 10 // LastText keeps its last 4 KiB
)

func (s *State) applyPart(ss *Session, p *wire.Part, evTime int64) {
	ss.noteMsgTime(p.MessageID, evTime)
	switch p.Type {
	case wire.PartTool:
		s.applyTool(ss, p)
		ss.stopStreaming()
	case wire.PartText:
		if ss.applyNotice(p) {
			return // the server's notice to the parent: not a reply
		}
		ss.applyText(p)
		ss.applyStream(p, StreamText)
	case wire.PartReasoning:
		ss.applyStream(p, StreamReasoning)
	case wire.PartStepFinish:
		ss.applyStep(p)
		ss.stopStreaming()
	}
}

// applyStream follows the newest text or reasoning part still open: the
// model is writing or thinking while it streams.
func (ss *Session) applyStream(p *wire.Part, kind Stream) {
	ended := p.Time != nil && p.Time.End != 0
	streamPart := ss.rd().streamPart
	switch {
	case ended && p.ID == streamPart:
		ss.stopStreaming()
	case !ended && p.ID >= streamPart:
		if a := ss.findMsg(p.MessageID); a != nil && a.role == roleUser {
			return
		}
		ss.Streaming, ss.more().streamPart = kind, p.ID
	}
}

func (ss *Session) findTool(partID string) (int, bool) {
	n := len(ss.Tools)
	// Updates nearly always hit the newest calls: look there first.
	if n > 0 && ss.Tools[n-1].PartID == partID {
		return n - 1, true
	}
	i := sort.Search(n, func(i int) bool { return ss.Tools[i].PartID >= partID })
	return i, i < n && ss.Tools[i].PartID == partID
}

func (ss *Session) countTool(st ToolStatus, d int32) {
	switch st {
	case ToolPending, ToolRunning:
		ss.nOpen += d
	case ToolCompleted:
		ss.nDone += d
	case ToolError:
		ss.nFailed += d
	case ToolAborted:
		ss.nAborted += d
	}
}

// applyTool upserts a tool call. Calls are kept in part-id order (ids
// ascend with time), so the list is the same whatever order updates came
// in. A call never goes back from ended to open: such an update is a late
// duplicate.
func (s *State) applyTool(ss *Session, p *wire.Part) {
	i, found := ss.findTool(p.ID)
	if !found {
		msgID := p.MessageID
		if a := ss.findMsg(msgID); a != nil {
			msgID = a.id // share one copy of the id with its message
		}
		ss.Tools = insertAt(ss.Tools, i, ToolCall{
			PartID:    p.ID,
			MessageID: msgID,
			Tool:      s.internStr(p.Tool),
			Status:    ToolPending,
		})
		ss.countTool(ToolPending, +1)
	}
	t := &ss.Tools[i]
	st := p.State
	if st == nil {
		return
	}
	next := storedCall(st)
	if t.Ended() && (next == ToolPending || next == ToolRunning) {
		return
	}
	changed := !found || next != t.Status
	if next != t.Status {
		ss.countTool(t.Status, -1)
		ss.countTool(next, +1)
		t.Status = next
	}
	if st.Title != "" && st.Title != t.Title {
		t.Title = boundLine(st.Title)
		if t.Title == t.Input {
			t.Title = t.Input
		}
	}
	// The input is whole once the call runs; a running bash call repeats
	// it with every output update, so it is read on a status change only.
	if t.Input == "" && changed && len(st.Input) > 2 {
		t.Input = inputDigest(st.Input)
		if t.Input == t.Title {
			t.Input = t.Title // one copy: bash's title is its command
		}
	}
	if st.Time.Start != 0 {
		t.Start = st.Time.Start
		ss.noteMsgTime(t.MessageID, st.Time.Start)
	}
	if st.Time.End != 0 {
		t.End = st.Time.End
		ss.sawEnd(t.MessageID, st.Time.End)
	}
	if st.Error != "" {
		t.Error = boundHead(st.Error, maxHead)
	}
	switch {
	case t.Ended():
		t.LiveTail = ""
	case len(st.Metadata) > 2 && bytes.Contains(st.Metadata, []byte(`"output"`)):
		var md struct {
			Output string `json:"output"`
		}
		if json.Unmarshal(st.Metadata, &md) == nil {
			t.LiveTail = boundTail(md.Output, maxHead)
		}
	}
	if t.Tool == "task" {
		s.linkTask(ss, t, st)
		if !t.Background && isBackgroundCall(st) {
			t.Background = true
			ss.nBg++
		}
	}
	if t.Tool == "todowrite" && changed && next == ToolCompleted {
		ss.applyTodoWrite(p.ID, st.Input)
	}
}

// applyTodoWrite takes the todo list from a completed todowrite call (its
// input is the whole new list), so a history read shows the list that
// todo.updated gave before octop was watching. A call older than the one
// the list came from changes nothing.
func (ss *Session) applyTodoWrite(partID string, input json.RawMessage) {
	if partID < ss.rd().todoPart {
		return
	}
	var in struct {
		Todos []wire.Todo `json:"todos"`
	}
	if json.Unmarshal(input, &in) != nil || in.Todos == nil {
		return
	}
	x := ss.more()
	x.todos, x.todoPart = boundTodos(in.Todos), partID
}

func (s *State) removePart(ss *Session, partID string) {
	if i, ok := ss.findTool(partID); ok {
		ss.countTool(ss.Tools[i].Status, -1)
		if ss.Tools[i].Background {
			ss.nBg--
		}
		ss.Tools = append(ss.Tools[:i], ss.Tools[i+1:]...)
		ss.Tools = ss.Tools[:len(ss.Tools):len(ss.Tools)]
		return
	}
	x := ss.rd()
	if partID == x.textPart {
		ss.clearText()
		return
	}
	for i := range x.msgs {
		for _, st := range x.msgs[i].steps {
			if st.part == partID {
				ss.removeStep(x.msgs[i].id, partID)
				return
			}
		}
	}
}

// Where each server version names the child session of a task call: at
// the start of the output (1.1.x, 1.18.x) or in the block that ends it
// (older). Only there: the subagent's answer, which comes between or
// before, may quote other task outputs and their ids.
var (
	reTaskID     = regexp.MustCompile(`^task_id: (ses_[0-9A-Za-z]+)`)   // 1.1.x
	reTaskTag    = regexp.MustCompile(`^<task id="(ses_[0-9A-Za-z]+)"`) // 1.18.x
	reTaskMetaID = regexp.MustCompile(`session_id: (ses_[0-9A-Za-z]+)`) // older, in the last <task_metadata>
)

// taskChild finds the child session id of a task call from whichever the
// server gave: metadata.sessionId, or the id written into the output.
func taskChild(st *wire.ToolState) string {
	if len(st.Metadata) > 2 && bytes.Contains(st.Metadata, []byte(`"sessionId"`)) {
		var md struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(st.Metadata, &md) == nil && md.SessionID != "" {
			return md.SessionID
		}
	}
	if st.Output == "" || !strings.Contains(st.Output, "ses_") {
		return ""
	}
	out := strings.TrimSpace(st.Output)
	// The older format starts with the answer, so only its end says it is
	// that format; the newer ones start with their id.
	if strings.HasSuffix(out, "</task_metadata>") {
		return taskMetadataID(out)
	}
	for _, re := range []*regexp.Regexp{reTaskTag, reTaskID} {
		if m := re.FindStringSubmatch(out); m != nil {
			return m[1]
		}
	}
	return taskMetadataID(out)
}

// taskMetadataID is the session_id in the last <task_metadata> block.
func taskMetadataID(out string) string {
	if i := strings.LastIndex(out, "<task_metadata>"); i >= 0 {
		if m := reTaskMetaID.FindStringSubmatch(out[i:]); m != nil {
			return m[1]
		}
	}
	return ""
}

// linkTask ties a task call to the child it started. The server's word
// (metadata or output) overrides a guess made by title.
func (s *State) linkTask(parent *Session, t *ToolCall, st *wire.ToolState) {
	id := taskChild(st)
	if id == "" {
		if t.ChildID == "" {
			s.linkByTitle(parent)
		}
		return
	}
	if id == t.ChildID {
		if c := s.sessions[id]; c != nil && c.TaskPartID == "" {
			c.TaskPartID = t.PartID
		}
		return
	}
	if old := s.sessions[t.ChildID]; old != nil && old.TaskPartID == t.PartID {
		old.TaskPartID = ""
	}
	t.ChildID = id
	child := s.ensure(id)
	if child == nil {
		return
	}
	if child.TaskPartID != "" && child.TaskPartID != t.PartID {
		// Another call claimed this child by a title guess: the guess was
		// wrong, so that call waits for its own link again.
		for i := range parent.Tools {
			if o := &parent.Tools[i]; o.ChildID == id && o.PartID != t.PartID {
				o.ChildID = ""
			}
		}
	}
	child.TaskPartID = t.PartID
	if child.ParentID == "" {
		s.setParent(child, parent.ID)
	}
	s.linkByTitle(parent)
}

// linkByTitle pairs a parent's task calls that name no child yet (1.1.x
// sends none while the call runs) with its children not yet claimed, by the
// title the task tool gives a child: "<description> (@<agent> subagent)".
func (s *State) linkByTitle(parent *Session) {
	for i := range parent.Tools {
		t := &parent.Tools[i]
		if t.Tool != "task" || t.ChildID != "" || t.Input == "" {
			continue
		}
		for _, c := range parent.kids {
			if c.TaskPartID != "" {
				continue
			}
			if strings.HasPrefix(c.Title, t.Input+" (@") && strings.HasSuffix(c.Title, " subagent)") {
				t.ChildID, c.TaskPartID = c.ID, t.PartID
				break
			}
		}
	}
}

// toolInput holds the input fields a digest is made of.
type toolInput struct {
	Command     string `json:"command"`
	FilePath    string `json:"filePath"`
	Path        string `json:"path"`
	Pattern     string `json:"pattern"`
	URL         string `json:"url"`
	Query       string `json:"query"`
	Description string `json:"description"`
	Prompt      string `json:"prompt"`
}

// inputDigest is one line saying what a call works on: the bash command,
// the file path, the pattern, the task's description.
func inputDigest(raw json.RawMessage) string {
	var in toolInput
	if json.Unmarshal(raw, &in) != nil {
		return ""
	}
	var d string
	switch {
	case in.Command != "":
		d = in.Command
	case in.FilePath != "":
		d = in.FilePath
	case in.Pattern != "":
		d = in.Pattern
		if in.Path != "" {
			d += " in " + in.Path
		}
	case in.URL != "":
		d = in.URL
	case in.Query != "":
		d = in.Query
	case in.Description != "":
		d = in.Description
	case in.Path != "":
		d = in.Path
	case in.Prompt != "":
		d = in.Prompt
	}
	return boundLine(d)
}

// boundLine is the first line of v, at most maxLine bytes, as its own copy.
func boundLine(v string) string {
	if i := strings.IndexByte(v, '\n'); i >= 0 {
		v = v[:i]
	}
	return boundHead(v, maxLine)
}

// boundHead is at most n bytes of the start of v, cut on a rune boundary
// and copied, so a long decoded string is not kept alive by a slice of it.
func boundHead(v string, n int) string {
	if len(v) <= n {
		return v
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return strings.Clone(v[:cut])
}

// boundTail is at most n bytes of the end of v, cut on a rune boundary.
func boundTail(v string, n int) string {
	if len(v) <= n {
		return v
	}
	cut := len(v) - n
	for cut < len(v) && !utf8.RuneStart(v[cut]) {
		cut++
	}
	return strings.Clone(v[cut:])
}
