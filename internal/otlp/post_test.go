package otlp

import (
	"compress/gzip"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// TestOctopLinksNoGRPC: the command links no gRPC. The SDK's
// otlptracehttp imported it, and its ~150 packages' initialisation cost
// every command, the screen included, memory it never used.
func TestOctopLinksNoGRPC(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/octop-dev/octop/cmd/octop").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 100 {
		t.Fatalf("go list found %d dependencies; the test would prove nothing", len(deps))
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "google.golang.org/grpc") {
			t.Errorf("cmd/octop depends on %s", d)
		}
	}
}

// TestSettings: the OTEL_EXPORTER_OTLP_* variables as the specification
// reads them, the signal's own first; what octop cannot use is one line
// that names the variable and never quotes a header's value.
func TestSettings(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		headers map[string]string
		timeout time.Duration
		gzip    bool
		err     string
	}{
		{name: "none", timeout: defaultTimeout},
		{name: "headers", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization=Basic%20abc=, x-team = octop"},
			headers: map[string]string{"authorization": "Basic abc=", "x-team": "octop"}, timeout: defaultTimeout},
		{name: "the signal's own wins", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "a=1", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "b=2",
			"OTEL_EXPORTER_OTLP_TIMEOUT": "5000", "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "250"},
			headers: map[string]string{"b": "2"}, timeout: 250 * time.Millisecond},
		{name: "gzip", env: map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": "gzip"}, timeout: defaultTimeout, gzip: true},
		{name: "bad header", env: map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20SECRET,garbage"},
			err: "OTEL_EXPORTER_OTLP_HEADERS: want key=value pairs separated by commas; \"garbage\" is not one"},
		{name: "bad encoding", env: map[string]string{"OTEL_EXPORTER_OTLP_TRACES_HEADERS": "x-key=SECRET%zz"},
			err: "OTEL_EXPORTER_OTLP_TRACES_HEADERS: the value of x-key is not URL-encoded"},
		{name: "bad timeout", env: map[string]string{"OTEL_EXPORTER_OTLP_TIMEOUT": "10s"}, err: `OTEL_EXPORTER_OTLP_TIMEOUT "10s": want milliseconds`},
		{name: "bad compression", env: map[string]string{"OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"}, err: `OTEL_EXPORTER_OTLP_COMPRESSION "zstd": want gzip or none`},
		{name: "no CA file", env: map[string]string{"OTEL_EXPORTER_OTLP_CERTIFICATE": "/nonexistent/ca.pem"}, err: "OTEL_EXPORTER_OTLP_CERTIFICATE: "},
		{name: "key without certificate", env: map[string]string{"OTEL_EXPORTER_OTLP_CLIENT_KEY": "/k.pem"}, err: "go together"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := readSettings(func(k string) string { return tc.env[k] }, func(string) ([]byte, error) { return nil, io.ErrUnexpectedEOF })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "SECRET") {
					t.Fatalf("error %v, want one containing %q and no secret", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.headers) != len(tc.headers) || s.timeout != tc.timeout || s.gzip != tc.gzip {
				t.Fatalf("settings %+v, want headers %v, timeout %v, gzip %v", s, tc.headers, tc.timeout, tc.gzip)
			}
			for k, v := range tc.headers {
				if s.headers[k] != v {
					t.Errorf("header %s = %q, want %q", k, s.headers[k], v)
				}
			}
		})
	}
}

// spansIn decodes a posted ExportTraceServiceRequest and counts its spans.
func spansIn(t *testing.T, body []byte) int {
	t.Helper()
	n := 0
	for len(body) > 0 {
		num, typ, l := protowire.ConsumeTag(body)
		if l < 0 || num != 1 || typ != protowire.BytesType {
			t.Fatalf("not an ExportTraceServiceRequest: field %d type %d", num, typ)
		}
		body = body[l:]
		m, l := protowire.ConsumeBytes(body)
		if l < 0 {
			t.Fatal("a resource's spans are cut short")
		}
		body = body[l:]
		var rs tracepb.ResourceSpans
		if err := proto.Unmarshal(m, &rs); err != nil {
			t.Fatal(err)
		}
		for _, ss := range rs.ScopeSpans {
			n += len(ss.Spans)
		}
	}
	return n
}

// TestExportPostsProtobufGzipped: with OTEL_EXPORTER_OTLP_COMPRESSION=gzip
// the collector gets the whole fan-out, gzip-compressed protobuf.
func TestExportPostsProtobufGzipped(t *testing.T) {
	setSecretHeaders(t)
	t.Setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip")
	var spans atomic.Int64
	c := newCollector(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Encoding") != "gzip" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			t.Errorf("posted %q, %q; want gzip protobuf", r.Header.Get("Content-Encoding"), r.Header.Get("Content-Type"))
		}
		z, err := gzip.NewReader(r.Body)
		if err != nil {
			t.Errorf("not gzip: %v", err)
			return
		}
		b, _ := io.ReadAll(z)
		spans.Add(int64(spansIn(t, b)))
		accept(w, r)
	})
	if err := export(t, c.URL()); err != nil {
		t.Fatal(err)
	}
	if spans.Load() == 0 {
		t.Fatal("the collector got no span")
	}
}

// TestExportRetriesWhatTheCollectorAsks: 503 is tried again, after the
// Retry-After the collector gives; 400 is not, and its answer is in the
// one-line error.
func TestExportRetriesWhatTheCollectorAsks(t *testing.T) {
	setSecretHeaders(t)
	var n atomic.Int64
	busy := newCollector(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		accept(w, r)
	})
	start := time.Now()
	if err := export(t, busy.URL()); err != nil {
		t.Fatalf("after a 503: %v", err)
	}
	if got := n.Load(); got != 2 {
		t.Errorf("the collector was asked %d times, want 2", got)
	}
	if time.Since(start) < time.Second {
		t.Errorf("tried again before the collector's Retry-After of 1 s")
	}
	var asked atomic.Int64
	bad := newCollector(t, func(w http.ResponseWriter, _ *http.Request) {
		asked.Add(1)
		http.Error(w, "unknown\nfield", http.StatusBadRequest)
	})
	err := export(t, bad.URL())
	if err == nil || !strings.Contains(err.Error(), "400 Bad Request (body: unknown field)") || strings.Contains(err.Error(), "\n") {
		t.Errorf("after a 400: %v, want one line with the status and the answer", err)
	}
	if got := asked.Load(); got != 1 {
		t.Errorf("a 400 was asked %d times, want once", got)
	}
}
