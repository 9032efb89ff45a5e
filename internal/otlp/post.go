package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// poster is the exporter's transport: it posts the SDK's spans, already
// in their protobuf form, to the endpoint (an otlptrace.Client).
//
// It stands in for the SDK's otlptracehttp, which builds the same
// request but imports gRPC (its collector package holds the gRPC
// service): some 150 packages whose initialisation every octop command,
// the screen included, ran and kept in memory, for a subcommand most
// runs never use. What it does is the specification's for OTLP/HTTP:
// one POST of an ExportTraceServiceRequest, protobuf, gzip when
// OTEL_EXPORTER_OTLP_COMPRESSION says so, retried on 429, 502, 503 and
// 504 (after Retry-After when the collector gives one).
type poster struct {
	endpoint string
	set      settings
	client   *http.Client
	retry    backoff
}

// backoff is how the retries are spaced: from first, doubling, at most
// most apart, none after total.
type backoff struct{ first, most, total time.Duration }

var _ otlptrace.Client = (*poster)(nil)

func newPoster(endpoint string, set settings) (*poster, error) {
	guard, err := onlyTo(endpoint)
	if err != nil {
		return nil, err
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if set.tls != nil {
		tr.TLSClientConfig = set.tls
	}
	return &poster{endpoint: endpoint, set: set, retry: retry,
		client: &http.Client{Transport: tr, Timeout: set.timeout, CheckRedirect: guard}}, nil
}

// Start does nothing: the client connects on the first post.
func (p *poster) Start(context.Context) error { return nil }

// Stop closes the idle connections.
func (p *poster) Stop(context.Context) error {
	p.client.CloseIdleConnections()
	return nil
}

// UploadTraces posts one request of spans, retrying what the collector
// says to retry until the backoff's total.
func (p *poster) UploadTraces(ctx context.Context, spans []*tracepb.ResourceSpans) error {
	body, err := request(spans, p.set.gzip)
	if err != nil {
		return err
	}
	start := time.Now()
	wait := p.retry.first
	for {
		after, err := p.post(ctx, body)
		if err == nil || after < 0 {
			return err
		}
		wait = max(wait, after)
		if time.Since(start)+wait > p.retry.total {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (gave up: %v)", err, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, p.retry.most)
	}
}

// post sends body once. retryAfter is negative when the error is final,
// else how long the collector asked to wait (0 if it did not say).
func (p *poster) post(ctx context.Context, body []byte) (retryAfter time.Duration, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(body))
	if err != nil {
		return -1, err
	}
	for k, v := range p.set.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("User-Agent", "octop OTLP exporter")
	if p.set.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := p.client.Do(req)
	if err != nil {
		var ne interface{ Timeout() bool }
		if errors.As(err, &ne) && ne.Timeout() && ctx.Err() == nil {
			return 0, err
		}
		return -1, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	switch code := resp.StatusCode; {
	case code >= 200 && code <= 299:
		return 0, nil
	case code == http.StatusTooManyRequests, code == http.StatusBadGateway,
		code == http.StatusServiceUnavailable, code == http.StatusGatewayTimeout:
		after := time.Duration(0)
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			after = time.Duration(s) * time.Second
		}
		return after, fmt.Errorf("%s: %s (%s)", p.endpoint, resp.Status, said(msg))
	default:
		return -1, fmt.Errorf("failed to send to %s: %s (%s)", p.endpoint, resp.Status, said(msg))
	}
}

// said is a collector's answer as one line of an error.
func said(body []byte) string {
	s := strings.Join(strings.Fields(string(body)), " ")
	if s == "" {
		return "empty answer"
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return "body: " + s
}

// request is the body of one post: an ExportTraceServiceRequest, whose
// only field (1) repeats the resource spans, each encoded by the SDK's
// protobuf types; gzip-compressed when asked.
func request(spans []*tracepb.ResourceSpans, compress bool) ([]byte, error) {
	var b []byte
	for _, rs := range spans {
		m, err := proto.Marshal(rs)
		if err != nil {
			return nil, fmt.Errorf("encode the spans: %w", err)
		}
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, m)
	}
	if !compress {
		return b, nil
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return z.Bytes(), nil
}
