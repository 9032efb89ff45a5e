package otlp

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
)

// TestEndpoint: --otlp and OTEL_EXPORTER_OTLP_ENDPOINT are bases, the
// traces endpoint is taken as is, and a URL the exporter cannot use is
// refused with a line that says what to give.
func TestEndpoint(t *testing.T) {
	for _, c := range []struct {
		base          string
		env           map[string]string
		want, wantErr string
	}{
		{base: "http://localhost:4318", want: "http://localhost:4318/v1/traces"},
		{base: "https://otel.example.com/prefix/", want: "https://otel.example.com/prefix/v1/traces"},
		{base: "http://h:4318", env: map[string]string{EnvEndpoint: "http://other:1"}, want: "http://h:4318/v1/traces"},
		{env: map[string]string{EnvEndpoint: "http://collector:4318"}, want: "http://collector:4318/v1/traces"},
		{env: map[string]string{EnvEndpoint: "http://c:4318", EnvTracesEndpoint: "http://t:4318/custom"}, want: "http://t:4318/custom"},
		{wantErr: "no OTLP endpoint: give --otlp URL"},
		{base: "localhost:4318", wantErr: "want http(s)://HOST"},
		{base: "http://user:secret@h:4318", wantErr: "OTEL_EXPORTER_OTLP_HEADERS"},
		{base: "user:secret@h:4318", wantErr: `"user:xxxxx@h:4318": want http(s)://HOST`},
		{base: "http://user:secret@h:4318:x", wantErr: "is not a URL"},
		{env: map[string]string{EnvTracesEndpoint: "ftp://u:secret@h"}, wantErr: EnvTracesEndpoint + ` "ftp://u:xxxxx@h"`},
		{env: map[string]string{EnvEndpoint: "ftp://x"}, wantErr: EnvEndpoint + ` "ftp://x"`},
	} {
		got, err := Endpoint(c.base, func(k string) string { return c.env[k] })
		switch {
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("Endpoint(%q, %v) = %q, %v; want an error with %q", c.base, c.env, got, err, c.wantErr)
		case c.wantErr == "" && (err != nil || got != c.want):
			t.Errorf("Endpoint(%q, %v) = %q, %v; want %q", c.base, c.env, got, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("the error repeats the password: %v", err)
		}
	}
}

// TestResource: service.name is opencode unless OTEL_SERVICE_NAME says,
// service.version the server's, and OTEL_RESOURCE_ATTRIBUTES adds.
func TestResource(t *testing.T) {
	t.Setenv("OTEL_SERVICE_NAME", "")
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "")
	res, err := Resource(context.Background(), "1.18.33")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := res.Set().Value("service.name"); v.AsString() != "opencode" {
		t.Errorf("service.name = %q", v.AsString())
	}
	if v, _ := res.Set().Value("service.version"); v.AsString() != "1.18.33" {
		t.Errorf("service.version = %q", v.AsString())
	}
	t.Setenv("OTEL_SERVICE_NAME", "agents")
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "team=core,deployment.environment=ci")
	res, err = Resource(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[attribute.Key]string{"service.name": "agents", "team": "core", "deployment.environment": "ci"} {
		if v, _ := res.Set().Value(k); v.AsString() != want {
			t.Errorf("%s = %q, want %q", k, v.AsString(), want)
		}
	}
}
