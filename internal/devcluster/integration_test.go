package devcluster

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// TestCluster runs the real control plane with two kwok nodes and checks
// that workloads behave as on a real cluster, then that Stop leaves nothing.
func TestCluster(t *testing.T) {
	bins := requireBinaries(t)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	c, err := New(Options{WorkDir: t.TempDir(), Nodes: 2, GPUNodes: 1, Binaries: bins, Progress: logWriter{t}})
	require.NoError(t, err)
	started := time.Now()
	require.NoError(t, c.Start(ctx))
	t.Cleanup(c.Stop)
	t.Logf("cluster started in %s", time.Since(started))
	cs, err := kubernetes.NewForConfig(c.RESTConfig())
	require.NoError(t, err)

	t.Run("nodes are Ready with their capacity", func(t *testing.T) { checkNodes(t, ctx, cs) })
	t.Run("second cluster on the same work dir is refused", func(t *testing.T) {
		other, err := New(Options{WorkDir: c.opts.WorkDir, Binaries: bins})
		require.NoError(t, err)
		assert.ErrorContains(t, other.Start(ctx), "in use by another local cluster")
	})
	t.Run("deployment becomes available", func(t *testing.T) { checkDeployment(t, ctx, c, cs) })
	t.Run("job completes", func(t *testing.T) { checkJob(t, ctx, c, cs) })
	t.Run("manifests apply and re-apply", func(t *testing.T) { checkApplyManifests(t, ctx, c) })

	pids := c.PIDs()
	require.Len(t, pids, 5, "etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok")
	stopped := time.Now()
	c.Stop()
	t.Logf("cluster stopped in %s", time.Since(stopped))
	for _, pid := range pids {
		assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "pid %d still alive after Stop", pid)
	}
}

func checkNodes(t *testing.T, ctx context.Context, cs kubernetes.Interface) {
	nodes, err := cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, nodes.Items, 2)
	for _, n := range nodes.Items {
		assert.True(t, isNodeReady(&n), "node %s Ready", n.Name)
		_, hasGPU := n.Status.Allocatable[GPUResource]
		assert.Equal(t, n.Name == NodeName(0), hasGPU, "node %s nvidia.com/gpu", n.Name)
	}
}

func checkDeployment(t *testing.T, ctx context.Context, c *Cluster, cs kubernetes.Interface) {
	labels := map[string]string{"app": "web"}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "example.com/web:1"}}},
			},
		},
	}
	_, err := cs.AppsV1().Deployments("default").Create(ctx, d, metav1.CreateOptions{})
	require.NoError(t, err)
	started := time.Now()
	err = waitFor(ctx, "deployment web 2/2 available", 60*time.Second, c.running(), func(ctx context.Context) (bool, error) {
		got, err := cs.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return got.Status.AvailableReplicas == 2, fmt.Errorf("available %d/2", got.Status.AvailableReplicas)
	})
	require.NoError(t, err)
	t.Logf("deployment available 2/2 in %s", time.Since(started))
}

func checkJob(t *testing.T, ctx context.Context, c *Cluster, cs kubernetes.Interface) {
	j := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "once", Namespace: "default"},
		Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers:    []corev1.Container{{Name: "once", Image: "example.com/once:1"}},
		}}},
	}
	_, err := cs.BatchV1().Jobs("default").Create(ctx, j, metav1.CreateOptions{})
	require.NoError(t, err)
	started := time.Now()
	err = waitFor(ctx, "job once Complete", 60*time.Second, c.running(), func(ctx context.Context) (bool, error) {
		got, err := cs.BatchV1().Jobs("default").Get(ctx, "once", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, cond := range got.Status.Conditions {
			if cond.Type == batchv1.JobComplete && cond.Status == corev1.ConditionTrue {
				return true, nil
			}
		}
		return false, fmt.Errorf("succeeded %d", got.Status.Succeeded)
	})
	require.NoError(t, err)
	t.Logf("job complete in %s", time.Since(started))
}

const widgetManifests = `
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w1
  namespace: widgets
spec:
  size: %d
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
`

// checkApplyManifests applies a CRD and an object of its kind listed before
// it, into a namespace that does not exist yet, twice.
func checkApplyManifests(t *testing.T, ctx context.Context, c *Cluster) {
	dyn, err := dynamic.NewForConfig(c.RESTConfig())
	require.NoError(t, err)
	widgets := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	for _, size := range []int64{1, 2} {
		require.NoError(t, c.ApplyManifests(ctx, fmt.Appendf(nil, widgetManifests, size)))
		got, err := dyn.Resource(widgets).Namespace("widgets").Get(ctx, "w1", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, size, got.Object["spec"].(map[string]any)["size"])
		assert.Equal(t, FieldManager, got.GetManagedFields()[0].Manager)
	}
}

// TestStartFailureStopsWhatItStarted: an apiserver that exits at once must
// not leave the etcd started before it running.
func TestStartFailureStopsWhatItStarted(t *testing.T) {
	bins := requireBinaries(t)
	bins.KubeAPIServer = "/bin/false"
	c, err := New(Options{WorkDir: t.TempDir(), Binaries: bins})
	require.NoError(t, err)
	err = c.Start(t.Context())
	require.ErrorContains(t, err, "kube-apiserver exited early")
	assert.ErrorContains(t, err, "kube-apiserver.log")
	pids := c.PIDs()
	require.Len(t, pids, 2, "etcd and kube-apiserver were started")
	for _, pid := range pids {
		assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "pid %d still alive after a failed Start", pid)
	}
}
