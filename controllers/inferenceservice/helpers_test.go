package inferenceservice_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

type unstructuredObject struct{ Object map[string]any }

func (u *unstructuredObject) toUnstructured() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: u.Object}
}

func newNamespace(t *testing.T) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "isvc-"}}
	if err := env.Client.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

// eventually polls cond until it returns "" or the timeout passes; the last
// non-empty answer explains the failure.
func eventually(t *testing.T, timeout time.Duration, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) {
		if last = cond(); last == "" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("condition not met within %s: %s", timeout, last)
}

func getISVC(t *testing.T, ns, name string) *v1beta1.InferenceService {
	t.Helper()
	isvc := &v1beta1.InferenceService{}
	if err := env.Client.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, isvc); err != nil {
		t.Fatal(err)
	}
	return isvc
}

func stateAndConditions(isvc *v1beta1.InferenceService) string {
	parts := []string{"observed:"}
	if l := isvc.Status.Lifecycle; l != nil {
		parts = append(parts, "state="+l.State+" reason="+l.Reason)
	}
	for _, c := range isvc.Status.Conditions {
		parts = append(parts, fmt.Sprintf("%s=%s(%s)", c.Type, c.Status, c.Reason))
	}
	return strings.Join(parts, " ")
}

// makeAvailable plays the Deployment controller: the latest generation is
// observed and every replica is updated and available.
func makeAvailable(t *testing.T, ns, name string) {
	t.Helper()
	ctx := context.Background()
	d := &appsv1.Deployment{}
	eventually(t, 10*time.Second, func() string {
		if err := env.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, d); err != nil {
			return err.Error()
		}
		return ""
	})
	d.Status = appsv1.DeploymentStatus{
		ObservedGeneration: d.Generation, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1,
		Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability."},
			{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable", Message: "ReplicaSet has successfully progressed."},
		},
	}
	if err := env.Client.Status().Update(ctx, d); err != nil {
		t.Fatal(err)
	}
}

func eventReasons(t *testing.T, ns string, uid string) []string {
	t.Helper()
	list := &eventsv1.EventList{}
	if err := env.Client.List(context.Background(), list, client.InNamespace(ns)); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range list.Items {
		if string(e.Regarding.UID) == uid {
			out = append(out, e.Reason)
		}
	}
	return out
}
