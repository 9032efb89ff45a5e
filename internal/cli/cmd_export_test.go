package cli

import (
	"strings"
	"testing"
	"time"
)

func TestExportUsageErrors(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	base := deadServer(t) // caught before any call
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", "--otlp", "http://localhost:4318"}, "name the roots to export"},
		{[]string{"export", "ses_1", "--all", "--otlp", "http://h:1"}, "not both"},
		{[]string{"export", "not-an-id", "--otlp", "http://h:1"}, "is not a session id"},
		{[]string{"export", "ses_1"}, "no OTLP endpoint: give --otlp URL"},
		{[]string{"export", "ses_1", "--otlp", "localhost:4318"}, "want http(s)://HOST"},
		{[]string{"export", "--since", "yesterday", "--otlp", "http://h:1"}, "--since takes"},
		{[]string{"usage", "--by", "color"}, "--by takes agent, model, root, day or end"},
		{[]string{"usage", "--since", "3x"}, "--since takes"},
		{[]string{"usage", "extra"}, "unexpected argument extra"},
		{[]string{"watch", "--otlp", "ftp://x"}, "want http(s)://HOST"},
	} {
		code, out, errs := run(t, base, "", c.args...)
		if code != codeUsage || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and one line with %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestExportFailures: a root the server lacks is exit 3; a backend that
// is not there is exit 1 with a line naming where it tried.
func TestExportFailures(t *testing.T) {
	srv := spendServer(t, "a", time.Now().UnixMilli())
	otlpDead := deadServer(t).BaseURL
	code, out, errs := run(t, srv, "", "export", "ses_nosuch", "--otlp", otlpDead)
	if code != codeNoSession || out != "" || !strings.Contains(errs, "no session ses_nosuch") {
		t.Errorf("unknown root: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = run(t, srv, "", "export", "--all", "--otlp", otlpDead)
	if code != codeFail || out != "" || !strings.Contains(errs, otlpDead+"/v1/traces") || !strings.Contains(errs, "ses_aroot") {
		t.Errorf("dead backend: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
