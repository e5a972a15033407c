package runner

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// installWidgetCRD installs a small namespaced kind with a status
// subresource that is not in fsmserve's scheme, so the tests can play a
// lifecycle (state, conditions, trace) without fsmserve's controllers.
func installWidgetCRD(t *testing.T) {
	t.Helper()
	preserve := true
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.test.fsmserve.io"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "test.fsmserve.io", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object", XPreserveUnknownFields: &preserve,
				}},
			}},
		},
	}
	_, err := envtest.InstallCRDs(env.Config, envtest.CRDInstallOptions{CRDs: []*apiextensionsv1.CustomResourceDefinition{crd}})
	require.NoError(t, err)
}

// publishWidgetEvents plays a controller that publishes Admitted then
// Settled, through the same events library as fsmserve, for every Widget
// labelled emit-events=yes.
func publishWidgetEvents(ctx context.Context, t *testing.T) {
	clientset, err := kubernetes.NewForConfig(env.Config)
	require.NoError(t, err)
	broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: clientset.EventsV1()})
	require.NoError(t, broadcaster.StartRecordingToSinkWithContext(ctx))
	recorder := broadcaster.NewRecorder(env.Scheme, "widget-controller")
	go func() {
		defer broadcaster.Shutdown()
		done := map[types.UID]bool{}
		for ctx.Err() == nil {
			list := &unstructured.UnstructuredList{}
			list.SetAPIVersion("test.fsmserve.io/v1")
			list.SetKind("WidgetList")
			if err := env.Client.List(ctx, list, client.MatchingLabels{"emit-events": "yes"}); err == nil {
				for i := range list.Items {
					w := &list.Items[i]
					if !done[w.GetUID()] {
						done[w.GetUID()] = true
						recorder.Eventf(w, nil, corev1.EventTypeNormal, "Admitted", "Admit", "admitted")
						time.Sleep(5 * time.Millisecond)
						recorder.Eventf(w, nil, corev1.EventTypeNormal, "Settled", "Settle", "settled")
					}
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
}

// recordEpisodeSpans emits a trace like an episode's and returns its ID.
func recordEpisodeSpans(recorder *tracetest.SpanRecorder) string {
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(recorder)).Tracer("test")
	ctx, root := tracer.Start(context.Background(), "Lifecycle Widget")
	for _, name := range []string{"Transition", "Step EnsureWidget"} {
		_, span := tracer.Start(ctx, name)
		span.End()
	}
	root.End()
	_, other := tracer.Start(context.Background(), "Step InAnotherTrace")
	other.End()
	return root.SpanContext().TraceID().String()
}

const widgetScenario = `
name: %s
steps:
  - apply: {apiVersion: test.fsmserve.io/v1, kind: Widget, metadata: {name: w, labels: {emit-events: "yes"}}, spec: {size: 1}}
  - name: play the controller's status write
    patch:
      object: Widget.test.fsmserve.io/w
      subresource: status
      merge:
        status:
          lifecycle: {state: Ready, reason: Settled, traceID: "%s"}
          conditions: [{type: Ready, status: "True", reason: Settled, message: all good}]
  - name: check the lifecycle
    expect:
      object: Widget.test.fsmserve.io/w
      state: Ready
      reason: ~^Sett
      conditions: {Ready: {status: true, message: ~good}, Stalled: <absent>}
      events: [%s]
      eventsAbsent: [Failed]
      spans: [%s]
      within: %s
`

func TestRunLifecycleEventsAndSpans(t *testing.T) {
	installWidgetCRD(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	publishWidgetEvents(ctx, t)
	spans := tracetest.NewSpanRecorder()
	traceID := recordEpisodeSpans(spans)
	h := newHarness(t)
	h.Spans = spans.Ended

	ok := fmt.Sprintf(widgetScenario, "widget settles", traceID, "Admitted, Settled", "Transition, Step EnsureWidget", "10s")
	require.NoError(t, h.Run(ctx, mustParse(t, ok)))

	tests := []struct {
		name, events, spans string
		want                []string
	}{
		{"events out of order", "Settled, Admitted", "Transition",
			[]string{"- events: Admitted occurs only before Settled (want Settled, Admitted in this order)", "events (oldest first): Admitted, Settled"}},
		{"span in another trace", "Admitted", "Transition, Step InAnotherTrace",
			[]string{"- spans: no Step InAnotherTrace in trace " + traceID, "spans in trace " + traceID + ": Transition, Step EnsureWidget, Lifecycle Widget"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := fmt.Sprintf(widgetScenario, tt.name, traceID, tt.events, tt.spans, "1s")
			err := h.Run(ctx, mustParse(t, bad))
			require.Error(t, err)
			assert.Contains(t, err.Error(), `step 3 ("check the lifecycle"): expect failed`)
			assert.Contains(t, err.Error(), "state: Ready\n")
			assert.Contains(t, err.Error(), "Ready=True (Settled: all good)")
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}
