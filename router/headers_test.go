package router

import (
	"bytes"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestHeaderPropagation(t *testing.T) {
	cases := []struct {
		name     string
		patterns string
		inbound  []string // name, value pairs
		want     map[string][]string
		absent   []string
	}{
		{"unanchored match, all values", "Authorization,X-Request-.*",
			[]string{"Authorization", "Bearer t", "X-Authorization-Foo", "y", "X-Request-Id", "1", "X-Request-Id", "2", "Cookie", "c"},
			map[string][]string{"Authorization": {"Bearer t"}, "X-Authorization-Foo": {"y"}, "X-Request-Id": {"1", "2"}, "Content-Type": {"application/json"}},
			[]string{"Cookie"}},
		{"invalid patterns are skipped, valid ones kept", "[unclosed,Authorization",
			[]string{"Authorization", "Bearer t", "X-Other", "o"},
			map[string][]string{"Authorization": {"Bearer t"}},
			[]string{"X-Other"}},
		{"names are matched in canonical form", "x-lower",
			[]string{"X-Lower", "v"}, nil, []string{"X-Lower"}},
		{"propagated Content-Type wins", "Content-Type",
			[]string{"Content-Type", "text/plain"}, map[string][]string{"Content-Type": {"text/plain"}}, nil},
		{"nothing configured", "",
			[]string{"Authorization", "Bearer t"}, map[string][]string{"Content-Type": {"application/json"}}, []string{"Authorization"}},
		{"empty entries match nothing", " , ",
			[]string{"Authorization", "Bearer t"}, nil, []string{"Authorization"}},
		{"hop-by-hop and trace headers are never copied", ".*",
			[]string{"Connection", "close", "Te", "trailers", "Tracestate", "k=v", "X-Keep", "1"},
			map[string][]string{"X-Keep": {"1"}}, []string{"Te", "Tracestate"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{body: `{}`}
			backend := newBackend(t, rec)
			r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: backend.URL})}),
				func(o *Options) { o.PropagateHeaders = tc.patterns })
			post(t, r.url, `{}`, tc.inbound...)
			got := rec.all()[0].header
			for name, values := range tc.want {
				if !slices.Equal(got.Values(name), values) {
					t.Errorf("%s = %q, want %q", name, got.Values(name), values)
				}
			}
			for _, name := range tc.absent {
				if v := got.Values(name); len(v) != 0 {
					t.Errorf("%s was propagated: %q", name, v)
				}
			}
		})
	}
}

func TestInvalidHeaderPatternIsLogged(t *testing.T) {
	var logs bytes.Buffer
	p := compileHeaderPolicy("Authorization,[oops", slog.New(slog.NewTextHandler(&logs, nil)))
	if len(p.patterns) != 1 {
		t.Fatalf("compiled %d patterns, want 1", len(p.patterns))
	}
	if !strings.Contains(logs.String(), "[oops") || !strings.Contains(logs.String(), "level=ERROR") {
		t.Fatalf("log does not report the bad pattern: %s", logs.String())
	}
}

func TestHeadersSelectedOncePerRequest(t *testing.T) {
	p := compileHeaderPolicy("Auth", quietLogger())
	in := http.Header{"Authorization": {"a"}, "Accept": {"*/*"}}
	got := p.selectHeaders(in)
	if len(got) != 1 || got.Get("Authorization") != "a" {
		t.Fatalf("selected %v", got)
	}
	out := outgoingHeaders(got)
	out.Set("Traceparent", "x")
	if _, ok := got["Traceparent"]; ok {
		t.Fatal("a call's headers must not leak into the shared selection")
	}
}
