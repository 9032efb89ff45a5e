package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// ErrNoTrace says Jaeger has no trace with that id (yet).
var ErrNoTrace = errors.New("jaeger has no such trace")

// JaegerTrace is one trace as Jaeger's query API (v1, the UI's) gives it.
type JaegerTrace struct {
	TraceID   string                   `json:"traceID"`
	Spans     []JaegerSpan             `json:"spans"`
	Processes map[string]JaegerProcess `json:"processes"`
	Warnings  []string                 `json:"warnings"`
}

// JaegerSpan is one span: times in µs since the epoch, the parent in
// References (none for the root), attributes and status in Tags.
type JaegerSpan struct {
	SpanID        string `json:"spanID"`
	OperationName string `json:"operationName"`
	References    []struct {
		RefType string `json:"refType"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	StartTime int64       `json:"startTime"`
	Duration  int64       `json:"duration"`
	Tags      []JaegerTag `json:"tags"`
	ProcessID string      `json:"processID"`
}

// JaegerTag is one attribute. Value is a float64 for numbers (JSON),
// a string for strings (arrays come JSON-encoded in one), a bool for bools.
type JaegerTag struct {
	Key   string `json:"key"`
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// JaegerProcess is a resource: service.name, and the other attributes.
type JaegerProcess struct {
	ServiceName string      `json:"serviceName"`
	Tags        []JaegerTag `json:"tags"`
}

// Parent is the span's parent span id, "" for a root.
func (s JaegerSpan) Parent() string {
	for _, r := range s.References {
		if r.RefType == "CHILD_OF" {
			return r.SpanID
		}
	}
	return ""
}

// Tag is the value of the attribute key, and whether the span has it.
func (s JaegerSpan) Tag(key string) (any, bool) {
	for _, t := range s.Tags {
		if t.Key == key {
			return t.Value, true
		}
	}
	return nil, false
}

// Trace reads a trace by its id (32 hex digits); ErrNoTrace when Jaeger
// has none.
func (j *Jaeger) Trace(ctx context.Context, traceID string) (JaegerTrace, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, j.Query+"/api/traces/"+traceID, nil)
	if err != nil {
		return JaegerTrace{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return JaegerTrace{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return JaegerTrace{}, err
	}
	if resp.StatusCode == http.StatusNotFound {
		return JaegerTrace{}, ErrNoTrace
	}
	if resp.StatusCode != http.StatusOK {
		return JaegerTrace{}, fmt.Errorf("GET /api/traces/%s: %s: %s", traceID, resp.Status, body)
	}
	var out struct {
		Data []JaegerTrace `json:"data"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return JaegerTrace{}, fmt.Errorf("GET /api/traces/%s: %w", traceID, err)
	}
	if len(out.Data) != 1 {
		return JaegerTrace{}, fmt.Errorf("GET /api/traces/%s: %d traces", traceID, len(out.Data))
	}
	return out.Data[0], nil
}
