package otlp

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestExportSendsTheHeadersOfTheEnvironment: OTEL_EXPORTER_OTLP_HEADERS
// (where a backend's credentials go: Grafana Cloud, Langfuse) reaches the
// collector on every trace, and the trace goes to URL/v1/traces.
func TestExportSendsTheHeadersOfTheEnvironment(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "authorization=Basic%20b2N0b3A6cHc=,x-team=octop")
	t.Setenv(EnvEndpoint, "")
	t.Setenv(EnvTracesEndpoint, "")
	srv := opencodetest.New(t, opencodetest.Options{})
	var mu sync.Mutex
	var got []http.Header
	srv.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	})
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(20*time.Second))
	defer cancel()
	e, err := New(ctx, Config{URL: srv.URL(), ServerVersion: "1.18.33"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Export(ctx, fanOutTree(t)); err != nil {
		t.Fatalf("export: %v", err)
	}
	if err := e.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("nothing reached POST /v1/traces")
	}
	for _, h := range got {
		if h.Get("Authorization") != "Basic b2N0b3A6cHc=" || h.Get("X-Team") != "octop" {
			t.Errorf("a trace arrived without the environment's headers: %v", h)
		}
	}
}
