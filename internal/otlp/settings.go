package otlp

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// settings are what the OTEL_EXPORTER_OTLP_* variables say about
// sending, as the specification names them: headers, timeout,
// compression and TLS. A signal's own variable (…_TRACES_HEADERS) wins
// over the general one (…_HEADERS).
type settings struct {
	headers map[string]string
	timeout time.Duration
	gzip    bool
	tls     *tls.Config // nil: Go's defaults
}

// defaultTimeout is the specification's, for one request.
const defaultTimeout = 10 * time.Second

// readSettings reads the variables through getenv and the files they
// name through readFile. A value octop cannot use is a one-line error
// naming the variable, never a secret it holds.
func readSettings(getenv func(string) string, readFile func(string) ([]byte, error)) (settings, error) {
	s := settings{timeout: defaultTimeout}
	get := func(name string) (string, string) {
		for _, n := range []string{"OTEL_EXPORTER_OTLP_TRACES_" + name, "OTEL_EXPORTER_OTLP_" + name} {
			if v := strings.TrimSpace(getenv(n)); v != "" {
				return n, v
			}
		}
		return "", ""
	}
	var err error
	if n, v := get("HEADERS"); v != "" {
		if s.headers, err = parseHeaders(n, v); err != nil {
			return s, err
		}
	}
	if n, v := get("TIMEOUT"); v != "" {
		ms, err := strconv.Atoi(v)
		if err != nil || ms <= 0 {
			return s, fmt.Errorf("%s %q: want milliseconds, e.g. 10000", n, v)
		}
		s.timeout = time.Duration(ms) * time.Millisecond
	}
	if n, v := get("COMPRESSION"); v != "" {
		switch v {
		case "gzip":
			s.gzip = true
		case "none":
		default:
			return s, fmt.Errorf("%s %q: want gzip or none", n, v)
		}
	}
	s.tls, err = readTLS(get, readFile)
	return s, err
}

// parseHeaders reads comma-separated key=value pairs, each value
// URL-encoded. The error names the variable and the key, never a value:
// the values are credentials.
func parseHeaders(name, v string) (map[string]string, error) {
	h := map[string]string{}
	for _, pair := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		if !ok || !validKey(k) {
			return nil, fmt.Errorf("%s: want key=value pairs separated by commas; %q is not one", name, clip(k))
		}
		val, err := url.PathUnescape(val)
		if err != nil {
			return nil, fmt.Errorf("%s: the value of %s is not URL-encoded (%%20 for a space)", name, k)
		}
		h[k] = strings.TrimSpace(val)
	}
	return h, nil
}

// validKey is an HTTP header name: a token.
func validKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if c > 0x7e || c <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, c) {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// readTLS builds the TLS configuration the certificate variables ask
// for: a CA bundle, and a client certificate with its key.
func readTLS(get func(string) (string, string), readFile func(string) ([]byte, error)) (*tls.Config, error) {
	var c tls.Config
	set := false
	if n, path := get("CERTIFICATE"); path != "" {
		b, err := readFile(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		c.RootCAs = x509.NewCertPool()
		if !c.RootCAs.AppendCertsFromPEM(b) {
			return nil, fmt.Errorf("%s: %s holds no PEM certificate", n, path)
		}
		set = true
	}
	nc, cert := get("CLIENT_CERTIFICATE")
	nk, key := get("CLIENT_KEY")
	if cert != "" || key != "" {
		if cert == "" || key == "" {
			return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and _CLIENT_KEY go together; only one is set")
		}
		cb, err := readFile(cert)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", nc, err)
		}
		kb, err := readFile(key)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", nk, err)
		}
		pair, err := tls.X509KeyPair(cb, kb)
		if err != nil {
			return nil, fmt.Errorf("%s and %s: %v", nc, nk, err)
		}
		c.Certificates = []tls.Certificate{pair}
		set = true
	}
	if !set {
		return nil, nil
	}
	return &c, nil
}

// envSettings are the process environment's settings.
func envSettings() (settings, error) { return readSettings(os.Getenv, os.ReadFile) }
