package inferencegraph

import (
	"sort"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	machine "github.com/fsmserve/fsmserve/machines/inferencegraph"
)

// deriveStatus writes status from where the reconcile ended. It is pure:
// everything comes from the run's world and the end.
func deriveStatus(r *run, end lifecycle.End[machine.State, machine.Observation]) {
	ig, w := r.Object, r.World
	st := &ig.Status
	st.DeploymentMode = string(w.mode)
	st.ObservedGeneration = ig.Generation
	setConditions(&st.Status, end)
	setURL(st, end, w.host)
}

// setConditions writes Ready, Stopped, Reconciling and Stalled. Ready is True
// only while the router is available and runs the current graph (Ready) or
// keeps serving during a rollout of the next one (RollingOut); otherwise it
// carries the lifecycle's reason, which names a missing InferenceService.
func setConditions(st *common.Status, end lifecycle.End[machine.State, machine.Observation]) {
	l := end.Lifecycle
	stopped := end.State == machine.Stopped
	reason := ""
	if stopped {
		reason = machine.ReasonStopped
	}
	st.SetCondition(lifecycle.BoolCondition(v1alpha1.Stopped, stopped, reason, ""), end.Now)
	ready := end.State == machine.Ready || end.State == machine.RollingOut
	readyCond := lifecycle.BoolCondition(v1alpha1.Ready, ready, "", "")
	if !ready {
		readyCond.Reason, readyCond.Message = l.Reason, l.Message
	}
	st.SetCondition(readyCond, end.Now)
	for _, c := range lifecycle.KstatusConditions(end.Record.Kind, l) {
		st.SetCondition(c, end.Now)
	}
	sort.Slice(st.Conditions, func(i, j int) bool { return st.Conditions[i].Type < st.Conditions[j].Type })
}

// setURL writes http://{domainTemplate(graph)} while the router Deployment is
// available (Available=True), and clears it otherwise and when stopped.
func setURL(st *v1alpha1.InferenceGraphStatus, end lifecycle.End[machine.State, machine.Observation], host string) {
	switch {
	case end.State == machine.Deleting:
		return
	case end.State == machine.Stopped || !end.Observation.Router.Serving || host == "":
		st.URL = nil
	default:
		st.URL = common.NewURL("http://" + host)
	}
}
