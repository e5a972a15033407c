// Package bench measures what fsmserve costs per object on a real local
// cluster (kube-controller-manager, kube-scheduler, kwok): the time to get N
// InferenceServices Ready against the floor of N bare Deployment and
// Service pairs in the same cluster, the manager's writes and uncached reads
// per object by verb and resource, its reconciles, CPU and memory, and what
// it sends while idle.
package bench

import (
	"context"
	"fmt"
	"sort"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/machines/workload"
)

// poll is how often the bench looks at the objects it waits for.
const poll = 250 * time.Millisecond

// InferenceService is KServe's sklearn sample, numbered.
func InferenceService(ns string, i int) *v1beta1.InferenceService {
	uri := "gs://kfserving-examples/models/sklearn/1.0/model"
	return &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("m%d", i)},
		Spec: v1beta1.InferenceServiceSpec{Predictor: v1beta1.PredictorSpec{
			SKLearn: &v1beta1.SKLearnSpec{PredictorExtensionSpec: v1beta1.PredictorExtensionSpec{StorageURI: &uri}}}}}
}

// floorPair is the floor's unit: what a predictor needs and nothing else, a
// Deployment with the sklearn server's resources and a Service in front.
func floorPair(ns string, i int) (*appsv1.Deployment, *corev1.Service) {
	name := fmt.Sprintf("f%d", i)
	labels := map[string]string{"app": name}
	one := int32(1)
	res := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), corev1.ResourceMemory: resource.MustParse("2Gi")}
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: appsv1.DeploymentSpec{
		Replicas: &one, Selector: &metav1.LabelSelector{MatchLabels: labels},
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels}, Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "kserve-container", Image: "kserve/sklearnserver:latest",
			Resources: corev1.ResourceRequirements{Requests: res, Limits: res},
		}}}},
	}}
	s := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: corev1.ServiceSpec{
		Selector: labels, Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080)}}}}
	return d, s
}

// Floor creates n Deployment and Service pairs in ns and returns how long
// they took to be available.
func Floor(ctx context.Context, c client.Client, ns string, n int) (time.Duration, error) {
	start := time.Now()
	for i := range n {
		d, s := floorPair(ns, i)
		if err := c.Create(ctx, s); err != nil {
			return 0, err
		}
		if err := c.Create(ctx, d); err != nil {
			return 0, err
		}
	}
	err := waitForAll(ctx, c, ns, n, func() client.ObjectList { return &appsv1.DeploymentList{} }, func(o client.Object) bool {
		return available(o.(*appsv1.Deployment))
	})
	return time.Since(start), err
}

// FloorRollOut changes the pod template of the floor's n Deployments in ns
// (a new environment variable, as a new model version changes the
// predictor's arguments) and returns how long until every one has rolled
// out by the rule a predictor's rollout is judged by (workload.RolledOut):
// the floor of a spec change.
func FloorRollOut(ctx context.Context, c client.Client, ns string, n int) (time.Duration, error) {
	start := time.Now()
	for i := range n {
		d, _ := floorPair(ns, i)
		patch := []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"kserve-container","env":[{"name":"MODEL_VERSION","value":"2"}]}]}}}}`)
		if err := c.Patch(ctx, d, client.RawPatch(types.StrategicMergePatchType, patch)); err != nil {
			return 0, fmt.Errorf("patch %s: %w", d.Name, err)
		}
	}
	err := waitForAll(ctx, c, ns, n, func() client.ObjectList { return &appsv1.DeploymentList{} }, func(o client.Object) bool {
		return o.GetGeneration() > 1 && workload.RolledOut(o.(*appsv1.Deployment))
	})
	return time.Since(start), err
}

func available(d *appsv1.Deployment) bool {
	c := workload.Condition(d, appsv1.DeploymentAvailable)
	return c != nil && c.Status == corev1.ConditionTrue
}

// waitForAll waits until n of the objects in ns (of newList's kind) satisfy done.
func waitForAll(ctx context.Context, c client.Client, ns string, n int, newList func() client.ObjectList, done func(client.Object) bool) error {
	return waitUntil(ctx, 10*time.Minute, func() (bool, error) {
		list := newList()
		if err := c.List(ctx, list, client.InNamespace(ns)); err != nil {
			return false, err
		}
		count := 0
		err := meta.EachListItem(list, func(o runtime.Object) error {
			if done(o.(client.Object)) {
				count++
			}
			return nil
		})
		return count == n, err
	})
}

// ApplyAndWaitReady creates n InferenceServices in ns (each create goes
// through fsmserve's admission webhooks; their latencies are returned) and
// waits until every one is Ready; it returns the time from the first create.
func ApplyAndWaitReady(ctx context.Context, c client.Client, ns string, n int) (time.Duration, []time.Duration, error) {
	start := time.Now()
	admission := make([]time.Duration, 0, n)
	for i := range n {
		sent := time.Now()
		if err := c.Create(ctx, InferenceService(ns, i)); err != nil {
			return 0, admission, fmt.Errorf("create %d: %w", i, err)
		}
		admission = append(admission, time.Since(sent))
	}
	err := waitForAll(ctx, c, ns, n, func() client.ObjectList { return &v1beta1.InferenceServiceList{} }, func(o client.Object) bool {
		return o.(*v1beta1.InferenceService).Status.IsConditionTrue(v1beta1.Ready)
	})
	return time.Since(start), admission, err
}

// Percentile is the p-th percentile (0 < p <= 100) of ds.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sorted := append([]time.Duration(nil), ds...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	i := int(float64(len(sorted))*p/100+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func waitUntil(ctx context.Context, limit time.Duration, done func() (bool, error)) error {
	deadline := time.Now().Add(limit)
	for {
		ok, err := done()
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not done within %s", limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// Noise creates n Secrets and n pods that have nothing to do with fsmserve
// (the pods select no node, so they stay Pending), to show that the
// manager's memory does not grow with the cluster's unrelated objects.
func Noise(ctx context.Context, c client.Client, ns string, n int) error {
	for i := range n {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("s%d", i)},
			StringData: map[string]string{"token": fmt.Sprintf("%064d", i)}}
		if err := c.Create(ctx, s); err != nil {
			return err
		}
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("p%d", i), Labels: map[string]string{"app": "unrelated"}},
			Spec: corev1.PodSpec{NodeSelector: map[string]string{"bench.fsmserve.io/nowhere": "true"},
				Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}
		if err := c.Create(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// RollOut changes the model of every InferenceService in ns (a new
// generation) and waits until every one is Ready on it.
func RollOut(ctx context.Context, c client.Client, ns string, n int) (time.Duration, error) {
	start := time.Now()
	for i := range n {
		isvc := InferenceService(ns, i)
		patch := []byte(`{"spec":{"predictor":{"sklearn":{"storageUri":"gs://kfserving-examples/models/sklearn/2.0/model"}}}}`)
		if err := c.Patch(ctx, isvc, client.RawPatch(types.MergePatchType, patch)); err != nil {
			return 0, fmt.Errorf("patch %d: %w", i, err)
		}
	}
	err := waitForAll(ctx, c, ns, n, func() client.ObjectList { return &v1beta1.InferenceServiceList{} }, func(o client.Object) bool {
		isvc := o.(*v1beta1.InferenceService)
		st := &isvc.Status
		return st.ObservedGeneration == isvc.Generation && isvc.Generation > 1 && st.Lifecycle != nil && st.Lifecycle.State == "Ready"
	})
	return time.Since(start), err
}

// Clear deletes the namespace and waits until its pods are gone, so the
// floor's pods do not take the capacity the InferenceServices need.
func Clear(ctx context.Context, c client.Client, ns string) error {
	if err := c.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}); err != nil {
		return err
	}
	return waitUntil(ctx, 10*time.Minute, func() (bool, error) {
		pods := &corev1.PodList{}
		if err := c.List(ctx, pods, client.InNamespace(ns), client.Limit(1)); err != nil {
			return false, err
		}
		return len(pods.Items) == 0, nil
	})
}
