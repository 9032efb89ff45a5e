package fakellm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Chunk is one chat.completion.chunk as the fake streams it.
type Chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []ChunkChoice `json:"choices"`
	Usage   *Usage        `json:"usage,omitempty"`
}

// ChunkChoice is a chunk's only choice.
type ChunkChoice struct {
	Index        int     `json:"index"`
	Delta        Delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

// Delta is the streamed increment of a chunk.
type Delta struct {
	Role      string          `json:"role,omitempty"`
	Content   string          `json:"content,omitempty"`
	ToolCalls []ToolCallDelta `json:"tool_calls,omitempty"`
}

// ToolCallDelta is one tool call, sent whole in a single chunk.
type ToolCallDelta struct {
	Index    int          `json:"index"`
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// FunctionCall names the tool and carries its JSON arguments as a string.
type FunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Usage is the token count sent with the last chunk. The numbers are rough
// (bytes/4) but deterministic, so the UI has tokens to show.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// chunks turns a reply into the chunk sequence of a streamed answer. The
// delays say how long to wait before sending each chunk.
func (s *Server) chunks(id string, c conversation, rep reply) ([]Chunk, []time.Duration) {
	now := time.Now().Unix()
	mk := func(d Delta, finish *string) Chunk {
		return Chunk{ID: id, Object: "chat.completion.chunk", Created: now, Model: s.opts.Model,
			Choices: []ChunkChoice{{Delta: d, FinishReason: finish}}}
	}
	out := []Chunk{mk(Delta{Role: "assistant"}, nil)}
	delays := []time.Duration{rep.firstDelay}
	for i, w := range splitWords(rep.text) {
		out = append(out, mk(Delta{Content: w}, nil))
		d := time.Duration(0)
		if i > 0 {
			d = rep.wordDelay
		}
		delays = append(delays, d)
	}
	for i, tc := range rep.calls {
		args, _ := json.Marshal(tc.args)
		out = append(out, mk(Delta{ToolCalls: []ToolCallDelta{{
			Index: i, ID: fmt.Sprintf("call_%s_%d", id, i), Type: "function",
			Function: FunctionCall{Name: tc.name, Arguments: string(args)},
		}}}, nil))
		delays = append(delays, 0)
	}
	reason := "stop"
	if len(rep.calls) > 0 {
		reason = "tool_calls"
	}
	last := mk(Delta{}, &reason)
	completion := len(rep.text) / 4
	for _, tc := range rep.calls {
		args, _ := json.Marshal(tc.args)
		completion += len(args) / 4
	}
	prompt := 100 + 20*c.turn
	for _, r := range c.toolResults {
		prompt += len(r) / 4
	}
	last.Usage = &Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion}
	out = append(out, last)
	delays = append(delays, 0)
	return out, delays
}

// splitWords splits text into chunks of one word each, keeping the spaces,
// so the concatenation is the text again.
func splitWords(text string) []string {
	if text == "" {
		return nil
	}
	var out []string
	for text != "" {
		i := strings.IndexByte(text[1:], ' ')
		if i < 0 {
			out = append(out, text)
			break
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request, id string, c conversation, rep reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	chunks, delays := s.chunks(id, c, rep)
	for i, ch := range chunks {
		if delays[i] > 0 {
			t := time.NewTimer(delays[i])
			select {
			case <-r.Context().Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		b, _ := json.Marshal(ch)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
}

// writeCompletion answers a non-streaming request with one
// chat.completion object.
func (s *Server) writeCompletion(w http.ResponseWriter, id string, c conversation, rep reply) {
	type msg struct {
		Role      string          `json:"role"`
		Content   string          `json:"content"`
		ToolCalls []ToolCallDelta `json:"tool_calls,omitempty"`
	}
	m := msg{Role: "assistant", Content: rep.text}
	chunks, _ := s.chunks(id, c, rep)
	for _, ch := range chunks {
		m.ToolCalls = append(m.ToolCalls, ch.Choices[0].Delta.ToolCalls...)
	}
	last := chunks[len(chunks)-1]
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": id, "object": "chat.completion", "created": last.Created, "model": s.opts.Model,
		"choices": []any{map[string]any{"index": 0, "message": m, "finish_reason": *last.Choices[0].FinishReason}},
		"usage":   last.Usage,
	})
}
