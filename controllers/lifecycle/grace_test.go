package lifecycle

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

func graceObject(state string) (*v1beta1.InferenceService, StatusAccess) {
	obj := &v1beta1.InferenceService{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "m", UID: "u1", Generation: 1}}
	if state != "" {
		obj.Status.Lifecycle = &common.Lifecycle{State: state}
	}
	st := &obj.Status
	return obj, StatusAccess{Value: st, Lifecycle: &st.Lifecycle, ObservedGeneration: &st.ObservedGeneration}
}

func stateOf(a StatusAccess) string {
	if *a.Lifecycle == nil {
		return ""
	}
	return (*a.Lifecycle).State
}

func TestAHeldReportIsWhereTheNextReconcileStarts(t *testing.T) {
	var g Grace
	t0 := time.Unix(1000, 0)
	stored, base := graceObject("")
	derived, status := graceObject("Deploying")
	left, held := g.hold(derived, base, status, 2*time.Second, t0)
	if !held || left != 2*time.Second {
		t.Fatalf("first report: held=%v left=%v, want held for 2s", held, left)
	}
	g.recall(stored, base)
	if got := stateOf(base); got != "Deploying" {
		t.Fatalf("recalled state %q, want the held Deploying", got)
	}
	(*status.Lifecycle).State = "Mutated"
	fresh, freshAccess := graceObject("")
	g.recall(fresh, freshAccess)
	if got := stateOf(freshAccess); got != "Deploying" {
		t.Errorf("the held copy must not alias the reconcile's object: got %q", got)
	}
}

func TestTheGraceCountsFromTheFirstHeldReport(t *testing.T) {
	var g Grace
	t0 := time.Unix(1000, 0)
	obj, base := graceObject("")
	_, status := graceObject("Deploying")
	g.hold(obj, base, status, 2*time.Second, t0)
	if left, held := g.hold(obj, base, status, 2*time.Second, t0.Add(1500*time.Millisecond)); !held || left != 500*time.Millisecond {
		t.Errorf("second report 1.5s in: held=%v left=%v, want 0.5s left", held, left)
	}
	if _, held := g.hold(obj, base, status, 2*time.Second, t0.Add(2*time.Second)); held {
		t.Error("a report past the grace must be written")
	}
}

func TestAHeldReportIsDroppedWhenTheStoredStatusMovedOn(t *testing.T) {
	var g Grace
	t0 := time.Unix(1000, 0)
	obj, base := graceObject("")
	_, status := graceObject("Deploying")
	g.hold(obj, base, status, 2*time.Second, t0)

	written, writtenAccess := graceObject("Ready")
	g.recall(written, writtenAccess)
	if got := stateOf(writtenAccess); got != "Ready" {
		t.Errorf("a stored status other than the base must win: got %q", got)
	}
	other, otherAccess := graceObject("")
	other.UID = "u2"
	g.recall(other, otherAccess)
	if got := stateOf(otherAccess); got != "" {
		t.Errorf("a new object of the same name must not inherit a held report: got %q", got)
	}
	g.Forget(client.ObjectKeyFromObject(obj))
	again, againAccess := graceObject("")
	g.recall(again, againAccess)
	if got := stateOf(againAccess); got != "" {
		t.Errorf("a forgotten report must not come back: got %q", got)
	}
}

func TestOnlyDetailOfTheReportedStepWaits(t *testing.T) {
	stored := &common.Lifecycle{State: "RollingOut", Reason: "RollingOut", Message: "(1/1 replicas available)"}
	if !sameStep(stored, &common.Lifecycle{State: "RollingOut", Reason: "RollingOut", Message: "(2/1 replicas available)"}) {
		t.Error("new counts in the same state and reason are detail")
	}
	if sameStep(stored, &common.Lifecycle{State: "RollingOut", Reason: "Unschedulable"}) {
		t.Error("a new reason must be written at once")
	}
	if sameStep(stored, &common.Lifecycle{State: "Degraded", Reason: "RollingOut"}) {
		t.Error("a new state must be written at once")
	}
	if sameStep(nil, &common.Lifecycle{State: "Deploying"}) {
		t.Error("a first report is not detail")
	}
}
