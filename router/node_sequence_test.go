package router

import (
	"net/http"
	"strings"
	"testing"
)

// stub is a backend answer in a table; each test starts one recorder per stub.
type stub struct {
	status int
	body   string
}

// notCalled marks a backend that must receive no request.
const notCalled = "<not called>"

// startStubs starts the backends and returns them with their URLs.
func startStubs(t *testing.T, stubs []stub) ([]*recorder, []string) {
	recs := make([]*recorder, len(stubs))
	urls := make([]string, len(stubs))
	for i, s := range stubs {
		recs[i] = &recorder{status: s.status, body: s.body}
		urls[i] = newBackend(t, recs[i]).URL
	}
	return recs, urls
}

// at points a step at backend i.
func at(i int, s stepSpec) stepSpec {
	s.ServiceURL = "backend:" + string(rune('0'+i))
	return s
}

func resolveStubs(steps []stepSpec, urls []string) []stepSpec {
	out := make([]stepSpec, len(steps))
	for i, s := range steps {
		if rest, ok := strings.CutPrefix(s.ServiceURL, "backend:"); ok {
			s.ServiceURL = urls[rest[0]-'0']
		}
		out[i] = s
	}
	return out
}

func checkInputs(t *testing.T, recs []*recorder, want []string) {
	t.Helper()
	for i, rec := range recs {
		reqs := rec.all()
		switch {
		case want[i] == notCalled && len(reqs) != 0:
			t.Errorf("backend %d was called with %q", i, reqs[0].body)
		case want[i] != notCalled && len(reqs) != 1:
			t.Errorf("backend %d got %d requests, want 1", i, len(reqs))
		case want[i] != notCalled && reqs[0].body != want[i]:
			t.Errorf("backend %d got %q, want %q", i, reqs[0].body, want[i])
		case want[i] != notCalled && reqs[0].method != http.MethodPost:
			t.Errorf("backend %d got method %s, want POST", i, reqs[0].method)
		}
	}
}

func TestSequence(t *testing.T) {
	const in = `{"instances":[1]}`
	cases := []struct {
		name       string
		stubs      []stub
		steps      []stepSpec
		wantStatus int
		wantBody   string
		wantInputs []string
	}{
		{"request data is the default", []stub{{200, `{"a":1}`}, {200, `{"b":2}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{})}, 200, `{"b":2}`, []string{in, in}},
		{"$response feeds the previous response", []stub{{200, `{"a":1}`}, {200, `{"b":2}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Data: dataResponse})}, 200, `{"b":2}`, []string{in, `{"a":1}`}},
		{"$request feeds the node input", []stub{{200, `{"a":1}`}, {200, `{"b":2}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Data: dataRequest})}, 200, `{"b":2}`, []string{in, in}},
		{"$response on the first step is the node input", []stub{{200, `{"a":1}`}},
			[]stepSpec{at(0, stepSpec{Data: dataResponse})}, 200, `{"a":1}`, []string{in}},
		{"predictions become instances", []stub{{200, `{"predictions":[1,{"x":2}],"model":"m"}`}, {200, `{}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Data: dataResponse, MapPredictionsToInstances: true})}, 200, `{}`,
			[]string{in, `{"instances":[1,{"x":2}]}`}},
		{"empty predictions pass unchanged", []stub{{200, `{"predictions":[]}`}, {200, `{}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Data: dataResponse, MapPredictionsToInstances: true})}, 200, `{}`,
			[]string{in, `{"predictions":[]}`}},
		{"non-JSON passes unchanged", []stub{{200, `not json`}, {200, `{}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Data: dataResponse, MapPredictionsToInstances: true})}, 200, `{}`,
			[]string{in, `not json`}},
		{"mapping applies to the node input too", []stub{{200, `{}`}},
			[]stepSpec{at(0, stepSpec{MapPredictionsToInstances: true})}, 200, `{}`, []string{in}},
		{"condition present runs the step", []stub{{200, `{"ok":true}`}, {200, `{"b":2}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Condition: "ok"})}, 200, `{"b":2}`, []string{in, in}},
		{"condition absent stops with the previous response and 200", []stub{{503, `{"ok":false}`}, {200, `{"b":2}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Condition: "missing"})}, 200, `{"ok":false}`, []string{in, notCalled}},
		{"gjson query condition", []stub{{200, `{"instances":[{"intval":12}]}`}, {200, `{"b":2}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Condition: "instances.#(intval>10)"})}, 200, `{"b":2}`, []string{in, in}},
		{"hard failure stops with its body and status", []stub{{503, `overloaded`}, {200, `{"b":2}`}},
			[]stepSpec{at(0, stepSpec{Dependency: dependencyHard}), at(1, stepSpec{})}, 503, `overloaded`, []string{in, notCalled}},
		{"hard success continues", []stub{{201, `{"a":1}`}, {200, `{"b":2}`}},
			[]stepSpec{at(0, stepSpec{Dependency: dependencyHard}), at(1, stepSpec{})}, 200, `{"b":2}`, []string{in, in}},
		{"soft failure continues", []stub{{500, `{"a":1}`}, {200, `{"b":2}`}},
			[]stepSpec{at(0, stepSpec{Dependency: dependencySoft}), at(1, stepSpec{Data: dataResponse})}, 200, `{"b":2}`, []string{in, `{"a":1}`}},
		{"soft failure of the last step is the result", []stub{{200, `{"a":1}`}, {502, `{"b":"down"}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{})}, 502, `{"b":"down"}`, []string{in, in}},
		{"hard failure of the last step is the result", []stub{{200, `{"a":1}`}, {404, `{"b":"gone"}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Dependency: dependencyHard})}, 404, `{"b":"gone"}`, []string{in, in}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs, urls := startStubs(t, tc.stubs)
			r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(resolveStubs(tc.steps, urls)...)}))
			got := post(t, r.url, in)
			if got.status != tc.wantStatus || got.body != tc.wantBody {
				t.Fatalf("got %d %q, want %d %q", got.status, got.body, tc.wantStatus, tc.wantBody)
			}
			checkInputs(t, recs, tc.wantInputs)
		})
	}
}

func TestSequenceConditionErrors(t *testing.T) {
	cases := []struct {
		name  string
		stubs []stub
		steps []stepSpec
	}{
		{"previous response is not JSON", []stub{{200, `plain text`}, {200, `{}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Condition: "ok"})}},
		{"condition on the first step has no previous response", []stub{{200, `{}`}},
			[]stepSpec{at(0, stepSpec{Condition: "ok"})}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, urls := startStubs(t, tc.stubs)
			r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(resolveStubs(tc.steps, urls)...)}))
			wantError(t, post(t, r.url, `{}`), http.StatusInternalServerError, "invalid response")
		})
	}
}

func TestSequenceWithBGTest(t *testing.T) {
	first, second := newBGTest(t, "single-1"), newBGTest(t, "single-2")
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(
		stepSpec{Name: "one", ServiceURL: first.URL + "/single"},
		stepSpec{Name: "two", ServiceURL: second.URL + "/single", Data: dataResponse},
	)}))
	got := post(t, r.url, `{"instances":[{"name":"blue","intval":0,"strval":"kserve"}]}`)
	if got.status != http.StatusOK {
		t.Fatalf("status %d: %s", got.status, got.body)
	}
	wantJSON(t, got.body, `{"from":"single-2","instances":[{"name":"blue","intval":0,"strval":"kserve"}]}`)
}

func TestTransportErrorIs500(t *testing.T) {
	closed := newBackend(t, fixed(200, "{}"))
	closed.Close()
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": sequence(stepSpec{ServiceURL: closed.URL})}))
	wantError(t, post(t, r.url, `{}`), http.StatusInternalServerError, "connect")
}

func TestMapPredictionsToInstances(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"predictions":[1,2]}`, `{"instances":[1,2]}`},
		{`{"predictions":[1],"instances":[9],"other":1}`, `{"instances":[1]}`},
		{`{"predictions":[1],"instances":null}`, `{"instances":[1]}`},
		{`{"predictions":[1],"instances":"x"}`, `{"predictions":[1],"instances":"x"}`},
		{`{"predictions":[]}`, `{"predictions":[]}`},
		{`{"predictions":"a"}`, `{"predictions":"a"}`},
		{`[{"predictions":[1]}]`, `[{"predictions":[1]}]`},
		{`null`, `null`},
		{`{"predictions":[1]`, `{"predictions":[1]`},
		{``, ``},
	}
	for _, tc := range cases {
		if got := string(mapPredictionsToInstances([]byte(tc.in))); got != tc.want {
			t.Errorf("mapPredictionsToInstances(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
