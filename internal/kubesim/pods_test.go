package kubesim

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestPodReady(t *testing.T) {
	now := metav1.NewTime(time.Unix(1000, 0))
	p := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "kserve-container", Image: "sklearn"}}}}
	PodReady(p, now)
	assert.Equal(t, corev1.PodRunning, p.Status.Phase)
	require.Len(t, p.Status.ContainerStatuses, 1)
	assert.True(t, p.Status.ContainerStatuses[0].Ready)
	ready := map[corev1.PodConditionType]corev1.ConditionStatus{}
	for _, c := range p.Status.Conditions {
		ready[c.Type] = c.Status
	}
	assert.Equal(t, corev1.ConditionTrue, ready[corev1.PodReady])
	assert.Equal(t, corev1.ConditionTrue, ready[corev1.ContainersReady])
}
