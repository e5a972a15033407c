package runner

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func parseExpect(t *testing.T, yamlText string) *Expect {
	t.Helper()
	s, err := Parse([]byte("name: t\nsteps:\n- expect: "+yamlText+"\n"), "t.yaml")
	require.NoError(t, err)
	return s.Steps[0].Expect
}

func isvcObservation() *observation {
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "serving.kserve.io/v1beta1", "kind": "InferenceService",
		"metadata": map[string]any{"name": "iris", "namespace": "ns"},
		"status": map[string]any{
			"lifecycle":  map[string]any{"state": "Deploying", "reason": "Deploying", "message": "waiting for the predictor", "traceID": "0af7651916cd43dd8448eb211c80319c", "waitingFor": []any{"PredictorAvailable"}},
			"conditions": []any{map[string]any{"type": "Ready", "status": "False", "reason": "Deploying"}},
		},
	}}
	return &observation{
		namespace: "ns", object: obj, traceID: "0af7651916cd43dd8448eb211c80319c", eventsRead: true,
		events:   []eventRecord{{Name: "iris.1", Reason: "Admitted", First: time.Unix(1, 0), Count: 1}},
		spans:    []string{"Transition"},
		children: map[string]bool{"Deployment/iris-predictor": true, "Ingress/iris": false},
	}
}

func TestEvaluate(t *testing.T) {
	tests := []struct {
		name   string
		expect string
		fail   []string
	}{
		{"all hold", `{object: InferenceService/iris, state: Deploying, reason: ~Deploy, conditions: {Ready: "False"}, events: [Admitted], eventsAbsent: [RolloutFailed], spans: [Transition], children: {present: [Deployment/iris-predictor], absent: [Ingress/iris]}}`, nil},
		{"wrong state", `{object: InferenceService/iris, state: Ready}`, []string{`state: want "Ready", got "Deploying"`}},
		{"reason absent wanted", `{object: InferenceService/iris, reason: <absent>}`, []string{`reason: want <absent>, got "Deploying"`}},
		{"missing event and span", `{object: InferenceService/iris, events: [Admitted, RuntimeResolved], spans: [Transition, Step EnsurePredictor]}`,
			[]string{"events: no RuntimeResolved event (want Admitted, RuntimeResolved in this order)", "spans: no Step EnsurePredictor in trace 0af7651916cd43dd8448eb211c80319c"}},
		{"children wrong", `{children: {present: [Ingress/iris], absent: [Deployment/iris-predictor]}}`,
			[]string{"children: Ingress/iris does not exist (want present)", "children: Deployment/iris-predictor exists (want absent)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.fail, evaluate(parseExpect(t, tt.expect), isvcObservation()))
		})
	}
}

func TestEvaluateWithoutObject(t *testing.T) {
	e := parseExpect(t, `{object: InferenceService/iris, state: Ready}`)
	assert.Equal(t, []string{"InferenceService/iris not found"}, evaluate(e, &observation{namespace: "ns"}))
	assert.Equal(t, []string{"reading InferenceService/iris: forbidden"}, evaluate(e, &observation{objectErr: errors.New("forbidden")}))

	noTrace := isvcObservation()
	noTrace.traceID = ""
	assert.Equal(t, []string{"spans: the object has no .status.lifecycle.traceID yet"},
		evaluate(parseExpect(t, `{object: InferenceService/iris, spans: [Transition]}`), noTrace))
}

func TestReportShowsExpectedAndObserved(t *testing.T) {
	e := parseExpect(t, `{object: InferenceService/iris, state: Ready, conditions: {Ready: "True"}, fields: {.status.url: x}, events: [Admitted, Ready], spans: [Transition], children: {absent: [Ingress/iris]}}`)
	obs := isvcObservation()
	msg := report(e, 15*time.Second, obs, evaluate(e, obs))
	for _, want := range []string{
		"not met within 15s (namespace ns):",
		`  - state: want "Ready", got "Deploying"`,
		`  - condition Ready: want status "True"; got Ready=False (Deploying)`,
		"expected of InferenceService/iris:\n  children:\n    absent:\n    - Ingress/iris\n",
		"last observed InferenceService/iris:\n  state: Deploying\n",
		"  reason: Deploying  message: waiting for the predictor\n",
		"  waitingFor: PredictorAvailable\n",
		"  conditions:\n    Ready=False (Deploying)\n",
		"  field .status.url: <absent>\n",
		"  events (oldest first): Admitted\n",
		"  spans in trace 0af7651916cd43dd8448eb211c80319c: Transition\n",
		"last observed children:\n  Ingress/iris: absent",
	} {
		assert.Contains(t, msg, want)
	}
}

func TestStepErrorMessage(t *testing.T) {
	err := &StepError{File: "scenarios/happy.yaml", Scenario: "happy path", Step: 3, StepName: "ready", Action: "expect",
		Err: errors.New("not met within 1s:\n  - state: want \"Ready\"")}
	assert.Equal(t, "scenarios/happy.yaml: scenario \"happy path\": step 3 (\"ready\"): expect failed:\n  not met within 1s:\n    - state: want \"Ready\"", err.Error())
	assert.ErrorContains(t, errors.Unwrap(err), "not met")
}

func TestExpandStep(t *testing.T) {
	s, err := Parse([]byte(`name: t
steps:
- apply: |
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: "cm-${NAMESPACE}"}
    data: {url: "http://x-${NAMESPACE}.example.com", keep: "${HOME}"}
- expect: {object: "ConfigMap/cm-${NAMESPACE}", namespace: "${SYSTEM_NAMESPACE}", fields: {.data.url: "~^http://x-${NAMESPACE}\\."}, conditions: {Ready: <absent>}, within: 3s}
- world: {jobSucceeded: "app=${NAMESPACE}"}
- advance: 1s
`), "t.yaml")
	require.NoError(t, err)
	values := map[string]string{PlaceholderNamespace: "scenario-abc", PlaceholderSystemNamespace: "kserve"}

	apply, err := expandStep(s.Steps[0], values)
	require.NoError(t, err)
	assert.JSONEq(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-scenario-abc"},"data":{"url":"http://x-scenario-abc.example.com","keep":"${HOME}"}}`, string(apply.Apply.Docs[0]))

	expect, err := expandStep(s.Steps[1], values)
	require.NoError(t, err)
	assert.Equal(t, "ConfigMap/cm-scenario-abc", expect.Expect.Object)
	assert.Equal(t, "kserve", expect.Expect.Namespace)
	assert.True(t, expect.Expect.Fields[".data.url"].check("http://x-scenario-abc.example.com", true))
	assert.True(t, expect.Expect.Conditions["Ready"].Status.absent)
	assert.Equal(t, 3*time.Second, expect.Expect.Within.D())

	world, err := expandStep(s.Steps[2], values)
	require.NoError(t, err)
	assert.Equal(t, "app=scenario-abc", world.World.JobSucceeded.Selector)

	advance, err := expandStep(s.Steps[3], values)
	require.NoError(t, err)
	assert.Equal(t, time.Second, advance.Advance.D())
}

func TestSpanNamesInTrace(t *testing.T) {
	tid := func(b byte) trace.TraceID { return trace.TraceID{b, 1} }
	stub := func(name string, id trace.TraceID) tracetest.SpanStub {
		return tracetest.SpanStub{Name: name, SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: id, SpanID: trace.SpanID{1}})}
	}
	spans := tracetest.SpanStubs{
		stub("Transition", tid(1)), stub("Step EnsurePredictor", tid(1)), stub("Transition", tid(1)), stub("Other", tid(2)),
	}.Snapshots()
	assert.Equal(t, []string{"Transition", "Step EnsurePredictor"}, spanNamesInTrace(spans, tid(1).String()))
	assert.Empty(t, spanNamesInTrace(spans, tid(3).String()))
}
