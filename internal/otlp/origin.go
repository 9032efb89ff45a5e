package otlp

import (
	"errors"
	"net/http"
	"net/url"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"

	"github.com/octop-dev/octop/client"
)

// otherOrigin is a request the exporter refused to send: it was bound
// for another scheme, host or port than the collector's, which only a
// redirect can ask for. The error that carries it names the collector.
type otherOrigin struct{ to string }

func (e *otherOrigin) Error() string {
	return "the collector redirected to " + e.to + ", another origin, which octop does not follow: " +
		"OTEL_EXPORTER_OTLP_HEADERS are for this endpoint alone (if the collector moved, give its new URL)"
}

// onlyTo keeps the exporter's requests on the endpoint's origin. net/http
// follows a 307 or 308 with every header the SDK set, the credentials of
// OTEL_EXPORTER_OTLP_HEADERS included (and Authorization too, when only
// the port changes). The SDK asks its transport's Proxy about every
// request it sends, the redirected ones too, so the check goes there:
// WithHTTPClient, the other way in, would drop the SDK's reading of
// OTEL_EXPORTER_OTLP_TIMEOUT and the certificate variables. A request to
// the origin itself goes on to the proxy the environment names, as the
// SDK's own transport does.
func onlyTo(endpoint string) (otlptracehttp.Option, error) {
	home, err := url.Parse(endpoint)
	if err != nil {
		return nil, err
	}
	return otlptracehttp.WithProxy(func(r *http.Request) (*url.URL, error) {
		if !client.SameOrigin(home, r.URL) {
			return nil, &otherOrigin{to: client.Redact(r.URL.String())}
		}
		return http.ProxyFromEnvironment(r)
	}), nil
}

// refused is the refusal under err, if a redirect was refused: net/http
// wraps it in a url.Error that names the method and the URL again.
func refused(err error) error {
	var o *otherOrigin
	if errors.As(err, &o) {
		return o
	}
	return err
}
