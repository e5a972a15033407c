package localmodelcache

import (
	"sort"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// deriveStatus writes status from where the reconcile ended. It is pure:
// everything comes from the run's world and the end.
func deriveStatus(r *run, end lifecycle.End[machine.State, machine.Observation]) {
	w := r.World
	st := w.view.status
	st.ObservedGeneration = r.Object.GetGeneration()
	st.NodeStatus = w.nodeStatus()
	st.ModelCopies = localmodel.CopiesOf(st.NodeStatus)
	st.InferenceServices = w.usersStatus()
	setConditions(&st.Status, end)
}

// setConditions: Ready while every Ready node has the model, and kstatus'
// Reconciling and Stalled from the state's kind, so `kubectl wait` and GitOps
// tools see a cache finish or get stuck.
func setConditions(st *common.Status, end lifecycle.End[machine.State, machine.Observation]) {
	l := end.Lifecycle
	ready := end.State == machine.Ready
	message := l.Message
	if ready {
		message = ""
	}
	st.SetCondition(lifecycle.BoolCondition(v1alpha1.Ready, ready, l.Reason, message), end.Now)
	for _, c := range lifecycle.KstatusConditions(end.Record.Kind, l) {
		st.SetCondition(c, end.Now)
	}
	sort.Slice(st.Conditions, func(i, j int) bool { return st.Conditions[i].Type < st.Conditions[j].Type })
}
