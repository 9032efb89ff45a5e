package otlp

import (
	"context"
	"fmt"
	"os"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

const (
	// ScopeName is the instrumentation scope the spans name.
	ScopeName = "github.com/octop-dev/octop"
	// DefaultService is service.name unless OTEL_SERVICE_NAME says.
	DefaultService = "opencode"
	// chunk bounds the spans of one request: the exporter refuses a
	// request over 64 MiB rather than split it.
	chunk = 1000
)

// retry is short: a person or a watch waits on it; the SDK's default
// retries for a minute.
var retry = backoff{first: 500 * time.Millisecond, most: 5 * time.Second, total: 15 * time.Second}

// Config says where traces go and what they say they come from.
type Config struct {
	// URL is --otlp: a base URL, or "" for the environment's (Endpoint).
	URL string
	// ServerVersion is the OpenCode version, sent as service.version.
	ServerVersion string
	// Version is octop's, the instrumentation scope's version.
	Version string
}

// Exporter sends fan-outs as traces: the SDK's spans and protobuf, posted
// by octop's own transport (poster). The OTEL_EXPORTER_OTLP_* variables
// (headers, timeout, compression, certificates) apply as the
// specification says (settings); OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES override the resource. It sends nothing to
// another origin than the endpoint's: a redirect there is refused
// (onlyTo).
type Exporter struct {
	exp      *otlptrace.Exporter
	res      *resource.Resource
	scope    instrumentation.Scope
	endpoint string
}

// New builds an Exporter; nothing is sent until Export.
func New(ctx context.Context, c Config) (*Exporter, error) {
	endpoint, err := Endpoint(c.URL, os.Getenv)
	if err != nil {
		return nil, err
	}
	res, err := Resource(ctx, c.ServerVersion)
	if err != nil {
		return nil, err
	}
	set, err := envSettings()
	if err != nil {
		return nil, err
	}
	post, err := newPoster(endpoint, set)
	if err != nil {
		return nil, err
	}
	exp, err := otlptrace.New(ctx, post)
	if err != nil {
		return nil, fmt.Errorf("OTLP exporter for %s: %w", endpoint, err)
	}
	version := c.Version
	if version == "" {
		version = "dev"
	}
	return &Exporter{exp: exp, res: res, endpoint: endpoint,
		scope: instrumentation.Scope{Name: ScopeName, Version: version, SchemaURL: semconv.SchemaURL}}, nil
}

// Resource is what the traces say they come from: service.name opencode
// (OTEL_SERVICE_NAME wins), service.version the server's version, then
// OTEL_RESOURCE_ATTRIBUTES. The schema URL stays the SDK's: giving the
// resource 1.41.0's would conflict with the SDK's own detectors.
func Resource(ctx context.Context, serverVersion string) (*resource.Resource, error) {
	attrs := []resource.Option{resource.WithAttributes(semconv.ServiceName(DefaultService))}
	if serverVersion != "" {
		attrs = append(attrs, resource.WithAttributes(semconv.ServiceVersion(serverVersion)))
	}
	res, err := resource.New(ctx, append(attrs, resource.WithTelemetrySDK(), resource.WithFromEnv())...)
	if err != nil {
		return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	return res, nil
}

// Endpoint is the URL traces are posted to.
func (e *Exporter) Endpoint() string { return e.endpoint }

// Export sends one fan-out as one trace, a thousand spans per request.
func (e *Exporter) Export(ctx context.Context, t Tree) (Summary, error) {
	stubs, sum := Spans(t, e.res, e.scope)
	spans := make([]sdktrace.ReadOnlySpan, len(stubs))
	for i := range stubs {
		spans[i] = stubs[i].Snapshot()
	}
	for len(spans) > 0 {
		n := min(len(spans), chunk)
		if err := e.exp.ExportSpans(ctx, spans[:n]); err != nil {
			return sum, fmt.Errorf("send the trace of %s to %s: %w", t.Root, e.endpoint, refused(err))
		}
		spans = spans[n:]
	}
	return sum, nil
}

// Shutdown releases the exporter.
func (e *Exporter) Shutdown(ctx context.Context) error { return e.exp.Shutdown(ctx) }
