package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// builtinScenario exercises every non-world action on built-in kinds,
// including a cluster-scoped object and a shared object in the system
// namespace.
const builtinScenario = `
name: %s
description: ConfigMaps are applied, patched, checked and deleted.
steps:
  - name: apply two objects
    apply: |
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: settings, labels: {app: demo}}
      data: {mode: fast, url: "http://demo-${NAMESPACE}.example.com"}
      ---
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata: {name: "reader-${NAMESPACE}"}
      rules: []
  - expect:
      object: ConfigMap/settings
      fields:
        .data.mode: fast
        .data.url: "~^http://demo-scenario-[a-z0-9]+\\.example\\.com$"
        .data.missing: <absent>
        .metadata.labels.app: demo
      children:
        present: [ConfigMap/settings, "ClusterRole/reader-${NAMESPACE}"]
        absent: [ConfigMap/other]
  - patch: {object: ConfigMap/settings, merge: {data: {mode: slow, url: null}}}
  - expect: {object: ConfigMap/settings, fields: {.data.mode: slow, .data.url: <absent>}}
  - name: change the shared config
    patch: {object: ConfigMap/shared, namespace: "${SYSTEM_NAMESPACE}", merge: {data: {ingress: changed}}}
  - expect: {object: ConfigMap/shared, namespace: "${SYSTEM_NAMESPACE}", fields: {.data.ingress: changed}}
  - delete: ConfigMap/settings
  - expect: {children: {absent: [ConfigMap/settings]}}
  - advance: 30s
  - wait: 10ms
`

func TestRunBuiltinScenario(t *testing.T) {
	ctx := context.Background()
	system := createNamespace(t, "system-builtin")
	shared := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "shared", Namespace: system}, Data: map[string]string{"ingress": "original"}}
	require.NoError(t, env.Client.Create(ctx, shared))

	h := newHarness(t)
	h.SystemNamespace = system
	name := uniqueName("builtin kinds")
	require.NoError(t, h.Run(ctx, mustParse(t, fmt.Sprintf(builtinScenario, name))))

	assert.Equal(t, testStart.Add(30*time.Second), h.Clock.Now(), "advance moved the fake clock")
	require.NoError(t, env.Client.Get(ctx, client.ObjectKeyFromObject(shared), shared))
	assert.Equal(t, map[string]string{"ingress": "original"}, shared.Data, "the shared object was restored")
	ns := scenarioNamespace(t, name)
	assert.Equal(t, "true", ns.Labels[ScenarioLabel])
	assertGone(t, ns)
	assertGone(t, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "reader-" + ns.Name}})
}

func TestRunReportsTheFailingStepAndCleansUp(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t)
	name := uniqueName("failing")
	s := mustParse(t, `
name: `+name+`
steps:
  - apply: {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: "failing-${NAMESPACE}"}}
  - apply: {apiVersion: v1, kind: ConfigMap, metadata: {name: settings}, data: {mode: fast}}
  - name: check the mode
    expect:
      object: ConfigMap/settings
      fields: {.data.mode: slow}
      children: {present: [Secret/settings]}
      within: 300ms
  - apply: {apiVersion: v1, kind: ConfigMap, metadata: {name: never}, data: {}}
`)
	err := h.Run(ctx, s)
	var stepErr *StepError
	require.True(t, errors.As(err, &stepErr), "want a StepError, got %v", err)
	assert.Equal(t, 3, stepErr.Step)
	assert.Equal(t, "check the mode", stepErr.StepName)
	msg := err.Error()
	for _, want := range []string{
		t.Name() + `.yaml: scenario "` + name + `": step 3 ("check the mode"): expect failed:`,
		"not met within 300ms",
		`- field .data.mode: want "slow", got "fast"`,
		"- children: Secret/settings does not exist (want present)",
		"last observed ConfigMap/settings:",
		"field .data.mode: \"fast\"",
		"Secret/settings: absent",
		"events (oldest first): (none)",
	} {
		assert.Contains(t, msg, want)
	}
	t.Log(msg)

	ns := scenarioNamespace(t, name)
	assertGone(t, ns)
	assertGone(t, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "failing-" + ns.Name}})
	assertGone(t, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: ns.Name}})
	var never corev1.ConfigMap
	assert.Error(t, env.Client.Get(ctx, client.ObjectKey{Namespace: ns.Name, Name: "never"}, &never), "steps after the failure did not run")
}

func TestRunRestoresADeletedSharedObject(t *testing.T) {
	ctx := context.Background()
	system := createNamespace(t, "system-deleted")
	shared := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "shared", Namespace: system, Labels: map[string]string{"keep": "me"}}, Data: map[string]string{"a": "b"}}
	require.NoError(t, env.Client.Create(ctx, shared))
	h := newHarness(t)
	h.SystemNamespace = system
	require.NoError(t, h.Run(ctx, mustParse(t, `
name: deletes shared
steps:
  - {namespace: "${SYSTEM_NAMESPACE}", delete: ConfigMap/shared}
  - {namespace: "${SYSTEM_NAMESPACE}", expect: {children: {absent: [ConfigMap/shared]}}}
`)))
	var back corev1.ConfigMap
	require.NoError(t, env.Client.Get(ctx, client.ObjectKeyFromObject(shared), &back))
	assert.Equal(t, map[string]string{"a": "b"}, back.Data)
	assert.Equal(t, "me", back.Labels["keep"])
}

func TestRunScenariosConcurrently(t *testing.T) {
	ctx := context.Background()
	system := createNamespace(t, "system-concurrent")
	require.NoError(t, env.Client.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "shared", Namespace: system}}))
	h := newHarness(t)
	h.SystemNamespace = system
	base := uniqueName("concurrent")
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			scenario := fmt.Sprintf(builtinScenario, fmt.Sprintf("%s-%d", base, i))
			// Only one scenario may change the shared object; the others skip
			// those two steps.
			s, err := Parse([]byte(scenario), "concurrent.yaml")
			if err == nil && i > 0 {
				s.Steps = append(s.Steps[:4], s.Steps[6:]...)
			}
			errs[i] = errors.Join(err, h.Run(ctx, s))
		})
	}
	wg.Wait()
	for i, err := range errs {
		assert.NoError(t, err, "scenario %d", i)
	}
	for i := range n {
		ns := scenarioNamespace(t, fmt.Sprintf("%s-%d", base, i))
		assertGone(t, &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "reader-" + ns.Name}})
	}
}

func TestResolveKinds(t *testing.T) {
	tests := []struct {
		ref        string
		gvk        string
		namespaced bool
		err        string
	}{
		{ref: "Deployment/x", gvk: "apps/v1, Kind=Deployment", namespaced: true},
		{ref: "Event/x", gvk: "/v1, Kind=Event", namespaced: true},
		{ref: "Event.events.k8s.io/x", gvk: "events.k8s.io/v1, Kind=Event", namespaced: true},
		{ref: "Ingress/x", gvk: "networking.k8s.io/v1, Kind=Ingress", namespaced: true},
		{ref: "ClusterRole/x", gvk: "rbac.authorization.k8s.io/v1, Kind=ClusterRole"},
		{ref: "InferenceService/x", gvk: "serving.kserve.io/v1beta1, Kind=InferenceService", namespaced: true},
		{ref: "ClusterServingRuntime/x", gvk: "serving.kserve.io/v1alpha1, Kind=ClusterServingRuntime"},
		{ref: "Gizmo/x", err: "kind Gizmo is not in fsmserve's scheme: write Kind.group/name"},
		{ref: "Gizmo.example.com/x", err: "kind Gizmo is not served by the API server"},
	}
	h := newHarness(t)
	for _, tt := range tests {
		ref, err := parseRef(tt.ref)
		require.NoError(t, err)
		info, err := h.resolve(ref)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.ref)
			continue
		}
		require.NoError(t, err, tt.ref)
		assert.Equal(t, tt.gvk, info.gvk.String(), tt.ref)
		assert.Equal(t, tt.namespaced, info.namespaced, tt.ref)
	}
}

func TestRunInferenceServiceSample(t *testing.T) {
	// No controllers run here: this shows that fsmserve's own kinds apply and
	// resolve through the CRDs, not how they reconcile.
	h := newHarness(t)
	require.NoError(t, h.Run(context.Background(), mustParse(t, `
name: sklearn sample applies
steps:
  - apply: |
      apiVersion: serving.kserve.io/v1beta1
      kind: InferenceService
      metadata: {name: sklearn-iris}
      spec: {predictor: {sklearn: {storageUri: gs://bucket/model}}}
  - expect:
      object: InferenceService/sklearn-iris
      state: <absent>
      fields: {.spec.predictor.sklearn.storageUri: gs://bucket/model, .status.url: <absent>}
      children: {absent: [Deployment/sklearn-iris-predictor]}
  - delete: InferenceService/sklearn-iris
`)))
}

func TestRunChecksScenariosBuiltInGo(t *testing.T) {
	h := newHarness(t)
	d := Duration(time.Millisecond)
	name := uniqueName("built in go")
	err := h.Run(context.Background(), &Scenario{Name: name, File: "go", Steps: []Step{{Wait: &d}, {Name: "two", Wait: &d, Advance: &d}}})
	var stepErr *StepError
	require.True(t, errors.As(err, &stepErr), "%v", err)
	assert.Equal(t, 2, stepErr.Step)
	assert.Contains(t, err.Error(), "2 actions (advance, wait)")
	assertGone(t, scenarioNamespace(t, name))

	assert.ErrorContains(t, h.Run(context.Background(), nil), "Run needs")
}
