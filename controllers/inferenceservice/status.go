package inferenceservice

import (
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/machines/engine"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/machines/workload"
	"github.com/fsmserve/fsmserve/steps/ingress"
)

// readySet is KServe's: Ready is True exactly when PredictorReady and
// IngressReady are.
var readySet = common.NewConditionSet(v1beta1.PredictorReady, v1beta1.IngressReady)

// reasonIngressNotCreated is KServe's IngressReady reason while the predictor
// is not ready, written as KServe writes it.
const reasonIngressNotCreated = "Predictor ingress not created"

// statusInput is everything status is derived from, and nothing else: the
// status functions are pure over it and table-tested.
type statusInput struct {
	State     machine.State
	Kind      engine.Kind
	Lifecycle *common.Lifecycle
	Obs       machine.Observation
	// Built is true when the predictor could be built (a runtime resolved,
	// no problem with the spec or the configuration).
	Built      bool
	Deployment *appsv1.Deployment
	Service    *corev1.Service
	Ingress    *networkingv1.Ingress
	Pods       []corev1.Pod
	// IngressWanted is false for cluster-local objects and disabled ingress.
	IngressWanted bool
	// URL, ComponentURL and Address are what the ingress configuration
	// renders ("" when it renders nothing).
	URL, ComponentURL, Address string
	Now                        metav1.Time
}

// deriveStatus writes status from where the reconcile ended. Only the
// lifecycle block (written by the skeleton) and these fields change.
func deriveStatus(r *run, end lifecycle.End[machine.State, machine.Observation]) {
	isvc, w := r.Object, r.World
	st := &isvc.Status
	st.DeploymentMode = string(w.mode)
	st.ObservedGeneration = isvc.Generation
	setRuntimeNames(st, w)
	in := statusInput{State: end.State, Kind: end.Record.Kind, Lifecycle: end.Lifecycle, Obs: end.Observation,
		Built: w.desired != nil, Deployment: w.serving.Deployment, Service: w.serving.Service, Ingress: w.ingress, Pods: w.pods,
		IngressWanted: ingress.Wanted(isvc, &w.cfg.Ingress), Now: end.Now}
	if u, err := ingress.URL(isvc, &w.cfg.Ingress); err == nil {
		in.URL = u
	}
	if cu, err := ingress.ComponentURL(isvc, &w.cfg.Ingress); err == nil {
		in.ComponentURL = cu
	}
	if w.serving.Service != nil {
		in.Address = ingress.Address(w.serving.Service, w.clusterDomain)
	}
	setConditions(&st.Status, in)
	setAddresses(st, in)
	setModelStatus(st, in)
}

func setRuntimeNames(st *v1beta1.InferenceServiceStatus, w *world) {
	st.ServingRuntimeName, st.ClusterServingRuntimeName = "", ""
	switch {
	case w.runtime == nil:
	case w.runtime.Cluster:
		st.ClusterServingRuntimeName = w.runtime.Name
	default:
		st.ServingRuntimeName = w.runtime.Name
	}
}

// setConditions writes Stopped, PredictorReady, IngressReady, Ready (their
// conjunction) and kstatus' Reconciling and Stalled.
func setConditions(st *common.Status, in statusInput) {
	l := in.Lifecycle
	stopped := in.State == machine.Stopped
	reason := ""
	if stopped {
		reason = machine.ReasonStopped
	}
	st.SetCondition(lifecycle.BoolCondition(v1beta1.Stopped, stopped, reason, ""), in.Now)
	switch {
	case stopped:
		msg := "stopped by annotation serving.kserve.io/stop"
		st.SetCondition(common.Condition{Type: v1beta1.PredictorReady, Status: corev1.ConditionFalse, Reason: v1beta1.ReasonStopped, Message: msg}, in.Now)
		st.SetCondition(common.Condition{Type: v1beta1.IngressReady, Status: corev1.ConditionFalse, Reason: v1beta1.ReasonStopped, Message: msg}, in.Now)
	case in.State == machine.Repairing:
		// Pods without their storage initializer cannot serve the model,
		// whatever the Deployment says.
		st.SetCondition(common.Condition{Type: v1beta1.PredictorReady, Status: corev1.ConditionFalse, Reason: l.Reason, Message: l.Message}, in.Now)
		st.SetCondition(ingressReady(in), in.Now)
	default:
		rollingOut := in.State == machine.Deploying || in.State == machine.RollingOut
		st.SetCondition(predictorReady(in.Deployment, l, rollingOut), in.Now)
		st.SetCondition(ingressReady(in), in.Now)
	}
	readySet.Recompute(st, in.Now)
	for _, c := range lifecycle.KstatusConditions(in.Kind, l) {
		st.SetCondition(c, in.Now)
	}
	sort.Slice(st.Conditions, func(i, j int) bool { return st.Conditions[i].Type < st.Conditions[j].Type })
}

// ordinaryProgress are the Deployment's reasons for "not available yet,
// working on it".
var ordinaryProgress = map[string]bool{
	"MinimumReplicasUnavailable": true, "ReplicaSetUpdated": true,
	"NewReplicaSetCreated": true, "FoundNewReplicaSet": true,
}

// predictorReady follows KServe's reading of the Deployment's conditions; with
// no Deployment (or no verdict yet) it says what the lifecycle is doing.
// While a rollout is under way, a verdict that only says "not available yet"
// gives way to the lifecycle's reason too: that says the same in more words
// (replica counts, why pods do not run), and mirroring each step of the
// Deployment's own progress would cost a status write apiece and say less.
// Outside a rollout (a Degraded or Failed predictor) KServe's words stand.
func predictorReady(d *appsv1.Deployment, l *common.Lifecycle, rollingOut bool) common.Condition {
	c := propagateRaw(d)
	if c.Status == corev1.ConditionTrue {
		return c
	}
	if c.Reason == "" || (rollingOut && ordinaryProgress[c.Reason]) {
		c.Status, c.Reason, c.Message = corev1.ConditionFalse, l.Reason, l.Message
	}
	return c
}

// propagateRaw is KServe's rule order over Deployment conditions: each rule
// overrides the previous one.
func propagateRaw(d *appsv1.Deployment) common.Condition {
	c := common.Condition{Type: v1beta1.PredictorReady, Status: corev1.ConditionFalse}
	if d == nil {
		return c
	}
	set := func(status corev1.ConditionStatus, dc *appsv1.DeploymentCondition) {
		c.Status, c.Reason, c.Message = status, dc.Reason, dc.Message
	}
	available := workload.Condition(d, appsv1.DeploymentAvailable)
	availableTrue := available != nil && available.Status == corev1.ConditionTrue
	if availableTrue {
		set(corev1.ConditionTrue, available)
	}
	if p := workload.Condition(d, appsv1.DeploymentProgressing); p != nil {
		switch {
		case p.Status == corev1.ConditionFalse && p.Message != "":
			set(corev1.ConditionFalse, p)
		case p.Status == corev1.ConditionTrue && p.Reason == "NewReplicaSetAvailable":
			set(corev1.ConditionTrue, p)
		case p.Status == corev1.ConditionTrue && !availableTrue:
			set(corev1.ConditionUnknown, p)
		}
	}
	if available != nil && available.Status == corev1.ConditionFalse {
		set(corev1.ConditionFalse, available)
	}
	if rf := workload.Condition(d, appsv1.DeploymentReplicaFailure); rf != nil && rf.Status == corev1.ConditionTrue {
		set(corev1.ConditionFalse, rf)
	}
	return c
}

func ingressReady(in statusInput) common.Condition {
	c := common.Condition{Type: v1beta1.IngressReady, Status: corev1.ConditionFalse}
	switch {
	case in.Obs.Problem.Kind == machine.ConfigProblem:
		c.Reason, c.Message = in.Obs.Problem.Reason, in.Obs.Problem.Message
	case !in.IngressWanted:
		c.Status = corev1.ConditionTrue
	case !in.Obs.Predictor.Serving:
		c.Reason = reasonIngressNotCreated
	case in.Ingress == nil:
		c.Reason, c.Message = "IngressNotCreated", in.Lifecycle.Message
	default:
		c.Status = corev1.ConditionTrue
	}
	return c
}

// setAddresses writes url, address and the predictor's component URL while the
// predictor serves (and keeps them through a rollout or a degradation, since
// the name still routes there); stopping clears them.
func setAddresses(st *v1beta1.InferenceServiceStatus, in statusInput) {
	if in.State == machine.Stopped || in.State == machine.Deleting || !in.Built || in.Service == nil {
		if in.State == machine.Stopped || !in.Built {
			st.URL, st.Address, st.Components = nil, nil, nil
		}
		return
	}
	if !in.Obs.Predictor.Serving && st.URL == nil {
		return
	}
	if in.URL != "" {
		st.URL = common.NewURL(in.URL)
	}
	st.Address = &common.Addressable{URL: common.NewURL(in.Address)}
	if in.Obs.Predictor.Serving && in.ComponentURL != "" {
		st.Components = map[v1beta1.ComponentType]v1beta1.ComponentStatusSpec{v1beta1.PredictorComponent: {URL: common.NewURL(in.ComponentURL)}}
	}
}
