package router

import (
	"net/http"
	"testing"
)

// A step with nodeName runs that node with the step's input: a Sequence
// whose second step is a Switch over the first response and whose third is an
// Ensemble over the original request that nests the Switch again.
func TestNestedNodes(t *testing.T) {
	recs, urls := startStubs(t, []stub{
		{200, `{"class":"dog","instances":[{"name":"rex"}]}`},
		{200, `{"breed":"collie"}`},
		{200, `{"breed":"siamese"}`},
		{200, `{"score":1}`},
	})
	r := startRouter(t, graphOf(t, map[string]nodeSpec{
		"root": sequence(
			stepSpec{Name: "classify", ServiceURL: urls[0]},
			stepSpec{Name: "breed", NodeName: "breeds", Data: dataResponse},
			stepSpec{Name: "both", NodeName: "both", Data: dataRequest},
		),
		"breeds": switchOf(
			stepSpec{ServiceURL: urls[1], Condition: `[@this].#(class=="dog")`},
			stepSpec{ServiceURL: urls[2], Condition: `[@this].#(class=="cat")`},
		),
		"both": ensemble(
			stepSpec{Name: "score", ServiceURL: urls[3]},
			stepSpec{Name: "again", NodeName: "breeds"},
		),
	}))
	got := post(t, r.url, `{"class":"dog"}`)
	if got.status != http.StatusOK {
		t.Fatalf("status %d: %s", got.status, got.body)
	}
	wantJSON(t, got.body, `{"score":{"score":1},"again":{"breed":"collie"}}`)
	checkInputs(t, []*recorder{recs[0], recs[2], recs[3]}, []string{`{"class":"dog"}`, notCalled, `{"class":"dog"}`})
	breedInputs := recs[1].all()
	if len(breedInputs) != 2 {
		t.Fatalf("the dog model got %d requests, want 2", len(breedInputs))
	}
}

// A nested node's failure keeps its status (KServe turns every nested error
// into a 500): here a nested Switch without a match is a 404.
func TestNestedErrorKeepsStatus(t *testing.T) {
	_, urls := startStubs(t, []stub{{200, `{"class":"fish"}`}, {200, `{}`}})
	r := startRouter(t, graphOf(t, map[string]nodeSpec{
		"root":   sequence(stepSpec{ServiceURL: urls[0]}, stepSpec{NodeName: "breeds", Data: dataResponse}),
		"breeds": switchOf(stepSpec{ServiceURL: urls[1], Condition: `[@this].#(class=="dog")`}),
	}))
	wantError(t, post(t, r.url, `{}`), http.StatusNotFound, "None of the routes matched with the switch condition")
}

func TestNestedNodeResult(t *testing.T) {
	_, urls := startStubs(t, []stub{{200, `{"class":"cat"}`}, {200, `{"breed":"collie"}`}, {200, `{"breed":"siamese"}`}})
	r := startRouter(t, graphOf(t, map[string]nodeSpec{
		"root": sequence(
			stepSpec{ServiceURL: urls[0]},
			stepSpec{NodeName: "breeds", Data: dataResponse},
		),
		"breeds": switchOf(
			stepSpec{ServiceURL: urls[1], Condition: `[@this].#(class=="dog")`},
			stepSpec{ServiceURL: urls[2], Condition: `[@this].#(class=="cat")`},
		),
	}))
	got := post(t, r.url, `{}`)
	if got.status != http.StatusOK || got.body != `{"breed":"siamese"}` {
		t.Fatalf("got %d %s", got.status, got.body)
	}
}

func TestInvalidRouteType(t *testing.T) {
	_, urls := startStubs(t, []stub{{200, `{}`}})
	cases := []struct {
		name  string
		nodes map[string]nodeSpec
	}{
		{"root", map[string]nodeSpec{"root": {RouterType: "Teleport", Steps: []stepSpec{{ServiceURL: urls[0]}}}}},
		{"nested", map[string]nodeSpec{
			"root":  sequence(stepSpec{NodeName: "inner"}),
			"inner": {RouterType: "", Steps: []stepSpec{{ServiceURL: urls[0]}}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := startRouter(t, graphOf(t, tc.nodes))
			wantError(t, post(t, r.url, `{}`), http.StatusInternalServerError, "invalid route type")
		})
	}
}
