package router

import (
	"net/http"
	"testing"
	"time"
)

func TestEnsemble(t *testing.T) {
	cases := []struct {
		name       string
		stubs      []stub
		steps      []stepSpec
		wantStatus int
		wantBody   string // compared as JSON when the status is 200
	}{
		{"named steps", []stub{{200, `{"p":1}`}, {200, `{"p":2}`}},
			[]stepSpec{at(0, stepSpec{Name: "sklearn"}), at(1, stepSpec{Name: "xgboost"})}, 200, `{"sklearn":{"p":1},"xgboost":{"p":2}}`},
		{"unnamed steps use their index", []stub{{200, `{"p":1}`}, {200, `{"p":2}`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Name: "x"})}, 200, `{"0":{"p":1},"x":{"p":2}}`},
		{"soft failure is merged", []stub{{200, `{"p":1}`}, {500, `{"error":"boom"}`}},
			[]stepSpec{at(0, stepSpec{Name: "a"}), at(1, stepSpec{Name: "b"})}, 200, `{"a":{"p":1},"b":{"error":"boom"}}`},
		{"null response is kept", []stub{{200, `null`}},
			[]stepSpec{at(0, stepSpec{Name: "a"})}, 200, `{"a":null}`},
		{"same name: the later step wins", []stub{{200, `{"p":1}`}, {200, `{"p":2}`}},
			[]stepSpec{at(0, stepSpec{Name: "m"}), at(1, stepSpec{Name: "m"})}, 200, `{"m":{"p":2}}`},
		{"hard failure short-circuits with its body and status", []stub{{200, `{"p":1}`}, {503, `{"error":"down"}`}},
			[]stepSpec{at(0, stepSpec{Name: "a"}), at(1, stepSpec{Name: "b", Dependency: dependencyHard})}, 503, `{"error":"down"}`},
		{"hard success is merged", []stub{{200, `{"p":1}`}, {200, `{"p":2}`}},
			[]stepSpec{at(0, stepSpec{Name: "a", Dependency: dependencyHard}), at(1, stepSpec{Name: "b"})}, 200, `{"a":{"p":1},"b":{"p":2}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, urls := startStubs(t, tc.stubs)
			r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": ensemble(resolveStubs(tc.steps, urls)...)}))
			got := post(t, r.url, `{"instances":[1]}`)
			if got.status != tc.wantStatus {
				t.Fatalf("status = %d, want %d (%s)", got.status, tc.wantStatus, got.body)
			}
			if tc.wantStatus == 200 {
				wantJSON(t, got.body, tc.wantBody)
			} else if got.body != tc.wantBody {
				t.Fatalf("body = %s, want %s", got.body, tc.wantBody)
			}
		})
	}
}

func TestEnsembleErrors(t *testing.T) {
	cases := []struct {
		name  string
		stubs []stub
		steps []stepSpec
		cause string
	}{
		{"array response", []stub{{200, `{}`}, {200, `[1,2]`}},
			[]stepSpec{at(0, stepSpec{}), at(1, stepSpec{Name: "arr"})}, `the response of step "arr" of node "root" is not a JSON object`},
		{"non-JSON response", []stub{{200, `hello`}},
			[]stepSpec{at(0, stepSpec{})}, `the response of step 0 of node "root" is not a JSON object`},
		{"empty response", []stub{{200, ``}},
			[]stepSpec{at(0, stepSpec{})}, `is not a JSON object`},
		{"hard failure that is not an object", []stub{{503, `Service Unavailable`}},
			[]stepSpec{at(0, stepSpec{Dependency: dependencyHard})}, `is not a JSON object`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, urls := startStubs(t, tc.stubs)
			r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": ensemble(resolveStubs(tc.steps, urls)...)}))
			wantError(t, post(t, r.url, `{}`), http.StatusInternalServerError, tc.cause)
		})
	}
}

func TestEnsembleTransportError(t *testing.T) {
	ok := newBackend(t, fixed(200, `{}`))
	closed := newBackend(t, fixed(200, `{}`))
	closed.Close()
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": ensemble(
		stepSpec{ServiceURL: ok.URL}, stepSpec{ServiceURL: closed.URL},
	)}))
	wantError(t, post(t, r.url, `{}`), http.StatusInternalServerError, "connect")
}

// In step order, the first failed Hard step decides, even when a later one
// fails sooner.
func TestEnsembleFirstHardFailureInStepOrder(t *testing.T) {
	slow := newBackend(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(100 * time.Millisecond)
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"first":true}`))
	}))
	fast := newBackend(t, fixed(http.StatusBadGateway, `{"second":true}`))
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": ensemble(
		stepSpec{ServiceURL: slow.URL, Dependency: dependencyHard},
		stepSpec{ServiceURL: fast.URL, Dependency: dependencyHard},
	)}))
	got := post(t, r.url, `{}`)
	if got.status != http.StatusServiceUnavailable || got.body != `{"first":true}` {
		t.Fatalf("got %d %s, want the first step's 503", got.status, got.body)
	}
}

// Once the answer is known, the calls still running are cancelled: the slow
// backend sees its request end long before it would have answered.
func TestEnsembleCancelsRemainingCalls(t *testing.T) {
	h, slow := newHanging(t)
	failing := newBackend(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.waitStarted(t) // fail only once the slow call is in flight
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"error":"x"}`))
	}))
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": ensemble(
		stepSpec{ServiceURL: failing.URL, Dependency: dependencyHard},
		stepSpec{ServiceURL: slow},
	)}))
	start := time.Now()
	got := post(t, r.url, `{}`)
	if got.status != http.StatusInternalServerError || got.body != `{"error":"x"}` {
		t.Fatalf("got %d %s", got.status, got.body)
	}
	h.wantGaveUp(t)
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Fatalf("took %v; the ensemble waited for the slow step", elapsed)
	}
}
