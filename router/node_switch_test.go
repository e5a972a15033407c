package router

import (
	"net/http"
	"testing"
)

// The conditions of KServe's switch sample, against bgtest services.
func TestSwitch(t *testing.T) {
	cases := []struct {
		name, input, wantFrom string
	}{
		{"object matching", `{"source":"client","instances":[]}`, "single-1"},
		{"array matching", `{"instances":[{"name":"a","intval":11,"strval":"x"}]}`, "single-2"},
		{"pattern matching", `{"instances":[{"name":"a","intval":1,"strval":"a-red-server"}]}`, "single-3"},
		{"first match wins", `{"source":"client","instances":[{"intval":99}]}`, "single-1"},
	}
	one, two, three := newBGTest(t, "single-1"), newBGTest(t, "single-2"), newBGTest(t, "single-3")
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": switchOf(
		stepSpec{ServiceURL: one.URL + "/switch", Condition: "[@this].#(source==client)"},
		stepSpec{ServiceURL: two.URL + "/switch", Condition: "instances.#(intval>10)"},
		stepSpec{ServiceURL: three.URL + "/switch", Condition: "instances.#(strval%*red-server*)"},
	)}))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := post(t, r.url, tc.input)
			var resp bgResponse
			mustUnmarshal(t, got.body, &resp)
			if got.status != http.StatusOK || resp.From != tc.wantFrom {
				t.Fatalf("got %d from %q, want 200 from %q", got.status, resp.From, tc.wantFrom)
			}
		})
	}
}

func TestSwitchNoMatch(t *testing.T) {
	cases := []struct{ name, input string }{
		{"no condition exists", `{"instances":[{"intval":1}]}`},
		{"input is not JSON", `source=client`},
		{"empty input", ``},
	}
	recs, urls := startStubs(t, []stub{{200, `{}`}})
	r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": switchOf(
		stepSpec{ServiceURL: urls[0], Condition: "source"},
	)}))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, post(t, r.url, tc.input), http.StatusNotFound, "None of the routes matched with the switch condition")
		})
	}
	if n := len(recs[0].all()); n != 0 {
		t.Fatalf("backend called %d times, want none", n)
	}
}

func TestSwitchReturnsTheChosenStepUnchanged(t *testing.T) {
	cases := []struct {
		name       string
		dependency string
	}{{"hard", dependencyHard}, {"soft", dependencySoft}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, urls := startStubs(t, []stub{{500, `model crashed`}})
			r := startRouter(t, graphOf(t, map[string]nodeSpec{"root": switchOf(
				stepSpec{ServiceURL: urls[0], Condition: "x", Dependency: tc.dependency},
			)}))
			got := post(t, r.url, `{"x":1}`)
			if got.status != 500 || got.body != `model crashed` {
				t.Fatalf("got %d %q, want the step's own 500 and body", got.status, got.body)
			}
		})
	}
}
