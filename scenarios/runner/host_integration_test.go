package runner

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/internal/podfault"
)

// TestALiveHostSaysWhatItDidNotDo runs a story on a harness that says it is
// a live cluster with admission and no pod faults: what it cannot do is
// listed with the reason, never passed silently.
func TestALiveHostSaysWhatItDidNotDo(t *testing.T) {
	h := newHarness(t)
	h.Clock, h.Spans = nil, nil
	h.Host = Host{Name: "live", Live: true, Admission: true}
	s := mustParse(t, `
name: live skips
steps:
  - apply: |
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: c}
      data: {k: v}
  - name: only where the world waits
    requires: {host: envtest, why: it needs the fake clock}
    expect: {object: ConfigMap/c, fields: {.data.k: nope}}
  - advance: 30s
  - expect: {object: ConfigMap/c, fields: {.data.k: v}, spans: [Transition]}
  - world: {deploymentFailed: {name: d}}
  - expect: {object: ConfigMap/c, fields: {.data.k: never-checked}}
`)
	out, err := h.RunOutcome(context.Background(), s)
	require.NoError(t, err)
	require.Len(t, out.SkippedSteps, 4)
	assert.Contains(t, out.SkippedSteps[0].Reason, "needs the envtest host, this is live: it needs the fake clock")
	assert.Equal(t, 3, out.SkippedSteps[1].Step)
	assert.Contains(t, out.SkippedSteps[1].Reason, "real clock")
	assert.Equal(t, 5, out.SkippedSteps[2].Step)
	assert.Contains(t, out.SkippedSteps[2].Reason, "fsmserve sets the predictor's progressDeadlineSeconds")
	assert.Equal(t, 6, out.SkippedSteps[3].Step)
	assert.Contains(t, out.SkippedSteps[3].Reason, "cannot go on without step 5")
	require.Len(t, out.SkippedChecks, 1)
	assert.Contains(t, out.SkippedChecks[0].Reason, "spans")
}

func TestAStoryTheHostCannotTellIsSkippedWhole(t *testing.T) {
	h := newHarness(t)
	s := mustParse(t, `
name: needs admission
requires: {admission: "on", why: it shows the webhook's words}
steps:
  - wait: 1ms
`)
	out, err := h.RunOutcome(context.Background(), s)
	require.NoError(t, err)
	assert.Equal(t, "needs admission on, this host has it off: it shows the webhook's words", out.Skipped)
}

const refusedLabel = `
name: refused
steps:
  - refused: "%s"
    apply: |
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: c, labels: {k: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa}}
`

func TestARefusalIsExpectedWithItsWords(t *testing.T) {
	h := newHarness(t)
	_, err := h.RunOutcome(context.Background(), mustParse(t, fmt.Sprintf(refusedLabel, "~must be no more than 63 bytes")))
	require.NoError(t, err)
	_, err = h.RunOutcome(context.Background(), mustParse(t, fmt.Sprintf(refusedLabel, "~a reason it did not give")))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "refused, but not as expected")
	accepted := mustParse(t, `
name: accepted
steps:
  - refused: ~anything
    apply: |
      apiVersion: v1
      kind: ConfigMap
      metadata: {name: c}
`)
	_, err = h.RunOutcome(context.Background(), accepted)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the API server accepted it")
}

// TestALiveFaultReachesEveryTargetThatIsStillThere: one target gone between
// the selection and the act must not leave the others without their fault.
func TestALiveFaultReachesEveryTargetThatIsStillThere(t *testing.T) {
	h := newHarness(t)
	h.Host = Host{Live: true, PodFaults: true}
	r := startRun(t, h)
	ctx := context.Background()
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: r.namespace, Name: "there"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "i"}}}}
	require.NoError(t, h.Client.Create(ctx, pod))
	mean, why := podsStuckMean(&PodsStuck{Reason: "ImagePullBackOff"})
	require.Empty(t, why)
	change := newWorldChange(&World{PodsStuck: &PodsStuck{Reason: "ImagePullBackOff"}}, metav1.Now())
	require.NoError(t, r.actOn(ctx, "podsStuck", mean, change, r.namespace, []string{"gone", "there"}))
	require.NoError(t, h.Client.Get(ctx, client.ObjectKeyFromObject(pod), pod))
	assert.Equal(t, podfault.ImagePull, pod.Labels[podfault.Label])
}
