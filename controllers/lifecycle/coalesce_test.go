package lifecycle

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func child(controllerKind string) *appsv1.Deployment {
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "iris-predictor", OwnerReferences: []metav1.OwnerReference{{
		APIVersion: "serving.kserve.io/v1beta1", Kind: controllerKind, Name: "iris", Controller: ptr.To(true)}}}}
}

func TestABurstOfChildUpdatesIsOneReconcile(t *testing.T) {
	q := newQueue(t)
	h := Coalesced(ControllerOf(schema.GroupKind{Group: "serving.kserve.io", Kind: "InferenceService"}))
	ctx := context.Background()
	d := child("InferenceService")
	for range 3 {
		h.Update(ctx, event.UpdateEvent{ObjectOld: d, ObjectNew: d}, q)
	}
	if q.Len() != 0 {
		t.Fatalf("an update is delayed, %d queued at once", q.Len())
	}
	time.Sleep(UpdateDelay + 200*time.Millisecond)
	if q.Len() != 1 {
		t.Fatalf("three updates in a burst queue %d reconciles, want 1", q.Len())
	}
	item, _ := q.Get()
	q.Done(item)
	if item.Name != "iris" || item.Namespace != "ns" {
		t.Errorf("queued %v", item)
	}
	h.Create(ctx, event.CreateEvent{Object: d}, q)
	if q.Len() != 0 {
		t.Error("the parent made the child: its creation must wake nothing")
	}
	h.Delete(ctx, event.DeleteEvent{Object: d}, q)
	if q.Len() != 1 {
		t.Error("a deletion is queued at once")
	}
	if got := ControllerOf(schema.GroupKind{Group: "serving.kserve.io", Kind: "InferenceService"})(ctx, child("InferenceGraph")); len(got) != 0 {
		t.Errorf("a child of another kind maps to %v", got)
	}
}

func TestPodEventsAreAllDelayed(t *testing.T) {
	q := newQueue(t)
	h := Delayed(ControllerOf(schema.GroupKind{Group: "serving.kserve.io", Kind: "InferenceService"}))
	ctx := context.Background()
	d := child("InferenceService")
	h.Create(ctx, event.CreateEvent{Object: d}, q)
	h.Delete(ctx, event.DeleteEvent{Object: d}, q)
	if q.Len() != 0 {
		t.Fatalf("%d queued at once", q.Len())
	}
	time.Sleep(UpdateDelay + 200*time.Millisecond)
	if q.Len() != 1 {
		t.Fatalf("a create and a delete in a burst queue %d reconciles, want 1", q.Len())
	}
}

func newQueue(t *testing.T) queue {
	q := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
	t.Cleanup(q.ShutDown)
	return q
}
