package otlp

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/octop-dev/octop/client"
)

// The standard variables that say where traces go.
const (
	EnvEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	EnvTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	tracesPath        = "v1/traces"
)

// ErrNoEndpoint says neither --otlp nor the environment names a backend.
var ErrNoEndpoint = errors.New("no OTLP endpoint: give --otlp URL (e.g. http://localhost:4318) or set " + EnvEndpoint)

// Endpoint is the URL traces are posted to. base is the --otlp URL, a
// base as OTEL_EXPORTER_OTLP_ENDPOINT is: traces go to base/v1/traces.
// Without it, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is taken as it is, else
// OTEL_EXPORTER_OTLP_ENDPOINT as a base. The SDK alone would post a bare
// URL to "/" and default to https://localhost:4318; this says instead.
func Endpoint(base string, getenv func(string) string) (string, error) {
	switch {
	case base != "":
		return join(base, "--otlp")
	case getenv(EnvTracesEndpoint) != "":
		u, err := check(getenv(EnvTracesEndpoint), EnvTracesEndpoint)
		if err != nil {
			return "", err
		}
		return u.String(), nil
	case getenv(EnvEndpoint) != "":
		return join(getenv(EnvEndpoint), EnvEndpoint)
	}
	return "", ErrNoEndpoint
}

// join appends /v1/traces to a base URL's path.
func join(base, what string) (string, error) {
	u, err := check(base, what)
	if err != nil {
		return "", err
	}
	u.Path = path.Join("/", u.Path, tracesPath)
	u.RawPath = ""
	return u.String(), nil
}

// check parses an endpoint and refuses what the exporter cannot use.
// Credentials belong in OTEL_EXPORTER_OTLP_HEADERS, which the exporter
// sends only to this endpoint; a URL's user:pass would be dropped. An
// error quotes the URL without its password (client.Redact: with or
// without a scheme), and never the parser's message, which quotes it
// whole.
func check(raw, what string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	switch {
	case err != nil:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("%s %q is not a URL: %v", what, client.Redact(raw), err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return nil, fmt.Errorf("%s %q: want http(s)://HOST[:PORT][/PATH], e.g. http://localhost:4318", what, client.Redact(raw))
	case u.User != nil:
		return nil, fmt.Errorf("%s: put credentials in OTEL_EXPORTER_OTLP_HEADERS (e.g. authorization=Basic%%20…), not in the URL", what)
	}
	return u, nil
}
