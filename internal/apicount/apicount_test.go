package apicount

import (
	"net/http"
	"net/url"
	"testing"
)

func TestResourceAndVerb(t *testing.T) {
	cases := []struct{ method, path, want string }{
		{"GET", "/api/v1/namespaces/ns/services", "LIST services"},
		{"GET", "/api/v1/namespaces/ns/services/x", "GET services"},
		{"PATCH", "/apis/apps/v1/namespaces/ns/deployments/x", "PATCH deployments"},
		{"PUT", "/apis/serving.kserve.io/v1beta1/namespaces/ns/inferenceservices/x/status", "PUT inferenceservices/status"},
		{"POST", "/apis/events.k8s.io/v1/namespaces/ns/events", "POST events"},
		{"GET", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/m", "GET mutatingwebhookconfigurations"},
		{"GET", "/api/v1/namespaces", "LIST namespaces"},
		{"GET", "/api/v1/namespaces/kserve", "GET namespaces"},
	}
	for _, c := range cases {
		req := &http.Request{Method: c.method, URL: &url.URL{Path: c.path}}
		if got := Verb(req) + " " + Resource(c.path); got != c.want {
			t.Errorf("%s %s: got %q, want %q", c.method, c.path, got, c.want)
		}
	}
}

func TestLogSortsWritesReadsAndWatches(t *testing.T) {
	var l Log
	for _, r := range []struct{ method, path, query string }{
		{"GET", "/api/v1/namespaces/ns/pods", "watch=true"},
		{"GET", "/api/v1/namespaces/ns/pods", ""},
		{"POST", "/api/v1/namespaces/ns/services", ""},
		{"PATCH", "/api/v1/namespaces/ns/services/a", ""},
		{"PATCH", "/api/v1/namespaces/ns/services/b", ""},
	} {
		l.record(&http.Request{Method: r.method, URL: &url.URL{Path: r.path, RawQuery: r.query}})
	}
	c := l.Snapshot()
	if c.Watches != 1 || Total(c.Reads()) != 1 || Total(c.Writes()) != 3 || c.Writes()["PATCH services"] != 2 {
		t.Errorf("got %+v", c)
	}
	if k := Keys(c.Writes()); k[0] != "PATCH services" {
		t.Errorf("keys %v", k)
	}
	l.Reset()
	if Total(l.Snapshot().ByKind) != 0 {
		t.Error("reset kept counts")
	}
}
