package otlp

import (
	"errors"
	"net/http"
	"net/url"

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

// onlyTo keeps the exporter's requests on the endpoint's origin: it is
// the client's CheckRedirect. net/http follows a 307 or 308 with every
// header the request had, the credentials of OTEL_EXPORTER_OTLP_HEADERS
// included (and Authorization too, when only the port changes), so a
// redirect to another scheme, host or port is refused; one within the
// endpoint is followed, as far as net/http's own limit of 10.
func onlyTo(endpoint string) (func(*http.Request, []*http.Request) error, error) {
	home, err := url.Parse(endpoint)
	if err != nil {
		return nil, err
	}
	return func(r *http.Request, via []*http.Request) error {
		if !client.SameOrigin(home, r.URL) {
			return &otherOrigin{to: client.Redact(r.URL.String())}
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}, nil
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
