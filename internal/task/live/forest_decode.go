package live

import (
	"bytes"
	"encoding/json"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// What octop tree decodes of a history: what the model folds into a
// session's state, counts and times, and what its usage adds up, and no
// more. Decoding is most of the work of reading 50,000 histories; the
// texts, outputs, titles and ids nobody prints are scanned past, not
// copied out, except where the model reads them (a background task's end
// notice, a task call's child and whether it runs in the background, a
// task's description and a todo list). Each list becomes the wire types
// the model takes (wire), so the state is the model's own derivation.

type treeMessage struct {
	Info  treeInfo   `json:"info"`
	Parts []treePart `json:"parts"`
}

type treeInfo struct {
	ID      string               `json:"id"`
	Role    string               `json:"role"`
	Agent   string               `json:"agent"`
	Cost    float64              `json:"cost"`
	Tokens  wire.Tokens          `json:"tokens"`
	Error   *wire.ErrorInfo      `json:"error"`
	Finish  string               `json:"finish"`
	Time    wire.MessageTime     `json:"time"`
	Summary *wire.MessageSummary `json:"summary"`
}

type treePart struct {
	ID        string         `json:"id"`
	MessageID string         `json:"messageID"`
	Type      string         `json:"type"`
	Text      keptIf         `json:"text"`
	Synthetic bool           `json:"synthetic"`
	Tool      string         `json:"tool"`
	State     *treeState     `json:"state"`
	Tokens    *wire.Tokens   `json:"tokens"`
	Cost      float64        `json:"cost"`
	Time      *wire.PartTime `json:"time"`
}

type treeState struct {
	Status   string        `json:"status"`
	Input    keptRaw       `json:"input"`
	Output   keptIf        `json:"output"`
	Metadata keptRaw       `json:"metadata"`
	Error    string        `json:"error"`
	Time     wire.ToolTime `json:"time"`
}

// keptIf is a string kept only when it may say which session a task
// started or how a background task ended: an end notice (<task id=…>), a
// task's output (<task id=…>, task_id: …, <task_metadata>), or how a call
// ended (model.CallMarks: an abort's note). Any other is skipped, never
// unquoted. The marks leave out the angle brackets, which a server may
// send escaped (\u003c).
type keptIf string

var keptMarks = append([][]byte{[]byte("task id="), []byte("task_id:"), []byte("task_metadata")}, callMarks()...)

// callMarks are model.CallMarks as bytes.
func callMarks() [][]byte {
	out := make([][]byte, len(model.CallMarks))
	for i, m := range model.CallMarks {
		out[i] = []byte(m)
	}
	return out
}

func (k *keptIf) UnmarshalJSON(b []byte) error {
	for _, m := range keptMarks {
		if bytes.Contains(b, m) {
			var s string
			if err := json.Unmarshal(b, &s); err != nil {
				return err
			}
			*k = keptIf(s)
			return nil
		}
	}
	return nil
}

// keptRaw is a call's input or metadata, kept only when the model reads
// it: a task's description (and prompt), a todo list, a child's id, a
// background launch, how a call ended (model.CallMarks).
type keptRaw json.RawMessage

var rawMarks = append([][]byte{[]byte(`"todos"`), []byte(`"prompt"`), []byte(`"subagent_type"`),
	[]byte(`"sessionId"`), []byte(`"background"`)}, callMarks()...)

func (k *keptRaw) UnmarshalJSON(b []byte) error {
	for _, m := range rawMarks {
		if bytes.Contains(b, m) {
			*k = append(keptRaw(nil), b...)
			return nil
		}
	}
	return nil
}

// wireOf turns a history decoded for the tree into the wire types the
// model and the usage read.
func wireOf(msgs []treeMessage) []wire.MessageWithParts {
	out := make([]wire.MessageWithParts, len(msgs))
	for i := range msgs {
		in := &msgs[i].Info
		out[i].Info = wire.Message{ID: in.ID, Role: in.Role, Agent: in.Agent, Cost: in.Cost, Tokens: in.Tokens,
			Error: in.Error, Finish: in.Finish, Time: in.Time, Summary: in.Summary}
		parts := make([]wire.Part, len(msgs[i].Parts))
		for j := range msgs[i].Parts {
			p := &msgs[i].Parts[j]
			parts[j] = wire.Part{ID: p.ID, MessageID: p.MessageID, Type: p.Type, Text: string(p.Text),
				Synthetic: p.Synthetic, Tool: p.Tool, Tokens: p.Tokens, Cost: p.Cost, Time: p.Time}
			if st := p.State; st != nil {
				parts[j].State = &wire.ToolState{Status: st.Status, Input: json.RawMessage(st.Input),
					Output: string(st.Output), Metadata: json.RawMessage(st.Metadata), Error: st.Error, Time: st.Time}
			}
		}
		out[i].Parts = parts
	}
	return out
}
