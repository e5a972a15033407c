package inferenceservice

import (
	"context"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/machines/engine"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
	"github.com/fsmserve/fsmserve/steps/ingress"
)

// readySet is KServe's: Ready is True exactly when PredictorReady and
// IngressReady are.
var readySet = common.NewConditionSet(v1beta1.PredictorReady, v1beta1.IngressReady)

// reasonIngressNotCreated is KServe's IngressReady reason while the predictor
// is not ready, written as KServe writes it.
const reasonIngressNotCreated = "Predictor ingress not created"

// deriveStatus recomputes status from the machine and what was observed. It is
// the only place status is written, in memory; persist writes it once.
func (sc *scope) deriveStatus(ctx context.Context, m *engine.Machine[machine.State, machine.Trigger, machine.Observation], obs machine.Observation) {
	st := &sc.isvc.Status
	now := metav1.NewTime(sc.r.now())
	state := m.State()
	m.WriteLifecycle(ctx, st.Lifecycle)
	st.DeploymentMode = string(sc.mode)
	st.ObservedGeneration = sc.isvc.Generation
	sc.setRuntimeNames()
	sc.setConditions(state, obs, now)
	sc.setAddresses(state, obs)
	sc.setModelStatus(state, obs)
	sort.Slice(st.Conditions, func(i, j int) bool { return st.Conditions[i].Type < st.Conditions[j].Type })
}

func (sc *scope) setRuntimeNames() {
	st := &sc.isvc.Status
	st.ServingRuntimeName, st.ClusterServingRuntimeName = "", ""
	if sc.runtime == nil {
		return
	}
	if sc.runtime.Cluster {
		st.ClusterServingRuntimeName = sc.runtime.Name
	} else {
		st.ServingRuntimeName = sc.runtime.Name
	}
}

func (sc *scope) setConditions(state machine.State, obs machine.Observation, now metav1.Time) {
	st := &sc.isvc.Status.Status
	l := sc.isvc.Status.Lifecycle
	stopped := state == machine.Stopped
	st.SetCondition(boolCondition(v1beta1.Stopped, stopped, reasonIf(stopped, machine.ReasonStopped), "", common.ConditionSeverityInfo), now)
	switch {
	case stopped:
		msg := "stopped by annotation serving.kserve.io/stop"
		st.SetCondition(common.Condition{Type: v1beta1.PredictorReady, Status: corev1.ConditionFalse, Reason: v1beta1.ReasonStopped, Message: msg}, now)
		st.SetCondition(common.Condition{Type: v1beta1.IngressReady, Status: corev1.ConditionFalse, Reason: v1beta1.ReasonStopped, Message: msg}, now)
	case state == machine.Repairing:
		// Pods without their storage initializer cannot serve the model,
		// whatever the Deployment says.
		st.SetCondition(common.Condition{Type: v1beta1.PredictorReady, Status: corev1.ConditionFalse, Reason: l.Reason, Message: l.Message}, now)
		st.SetCondition(sc.ingressReady(obs, l), now)
	default:
		st.SetCondition(predictorReady(sc.deployment, l), now)
		st.SetCondition(sc.ingressReady(obs, l), now)
	}
	readySet.Recompute(st, now)
	kind := machine.Machine.KindOf(state)
	reconciling := kind == engine.Progressing || kind == engine.Degraded
	st.SetCondition(boolCondition(v1beta1.Reconciling, reconciling, reasonIf(reconciling, l.Reason), messageIf(reconciling, l.Message), common.ConditionSeverityInfo), now)
	stalled := kind == engine.Blocked
	st.SetCondition(boolCondition(v1beta1.Stalled, stalled, reasonIf(stalled, l.Reason), messageIf(stalled, l.Message), common.ConditionSeverityInfo), now)
}

// predictorReady follows KServe's reading of the Deployment's conditions; with
// no Deployment (or no verdict yet) it says what the lifecycle is doing.
func predictorReady(d *appsv1.Deployment, l *common.Lifecycle) common.Condition {
	c := propagateRaw(d)
	if c.Reason == "" && c.Status != corev1.ConditionTrue {
		c.Reason, c.Message = l.Reason, l.Message
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
	available := deploymentCondition(d, appsv1.DeploymentAvailable)
	availableTrue := available != nil && available.Status == corev1.ConditionTrue
	if availableTrue {
		set(corev1.ConditionTrue, available)
	}
	if p := deploymentCondition(d, appsv1.DeploymentProgressing); p != nil {
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
	if rf := deploymentCondition(d, appsv1.DeploymentReplicaFailure); rf != nil && rf.Status == corev1.ConditionTrue {
		set(corev1.ConditionFalse, rf)
	}
	return c
}

func (sc *scope) ingressReady(obs machine.Observation, l *common.Lifecycle) common.Condition {
	c := common.Condition{Type: v1beta1.IngressReady, Status: corev1.ConditionFalse}
	switch {
	case obs.Problem.Kind == machine.ConfigProblem:
		c.Reason, c.Message = obs.Problem.Reason, obs.Problem.Message
	case !ingress.Wanted(sc.isvc, &sc.cfg.Ingress):
		c.Status = corev1.ConditionTrue
	case !obs.Predictor.Serving:
		c.Reason = reasonIngressNotCreated
	case sc.ingress == nil:
		c.Reason, c.Message = "IngressNotCreated", l.Message
	default:
		c.Status = corev1.ConditionTrue
	}
	return c
}

// setAddresses writes url, address and the predictor's component URL while the
// predictor serves (and keeps them through a rollout or a degradation, since
// the name still routes there); stopping clears them.
func (sc *scope) setAddresses(state machine.State, obs machine.Observation) {
	st := &sc.isvc.Status
	if state == machine.Stopped || state == machine.Deleting || sc.desired == nil || sc.service == nil {
		if state == machine.Stopped || sc.desired == nil {
			st.URL, st.Address, st.Components = nil, nil, nil
		}
		return
	}
	if !obs.Predictor.Serving && st.URL == nil {
		return
	}
	if u, err := ingress.URL(sc.isvc, &sc.cfg.Ingress); err == nil {
		st.URL = common.NewURL(u)
	}
	st.Address = &common.Addressable{URL: common.NewURL(ingress.Address(sc.service, sc.r.ClusterDomain))}
	if obs.Predictor.Serving {
		if cu, err := ingress.ComponentURL(sc.isvc, &sc.cfg.Ingress); err == nil {
			st.Components = map[v1beta1.ComponentType]v1beta1.ComponentStatusSpec{v1beta1.PredictorComponent: {URL: common.NewURL(cu)}}
		}
	}
}

func boolCondition(t common.ConditionType, v bool, reason, message string, sev common.ConditionSeverity) common.Condition {
	status := corev1.ConditionFalse
	if v {
		status = corev1.ConditionTrue
	}
	return common.Condition{Type: t, Status: status, Reason: reason, Message: message, Severity: sev}
}

func reasonIf(cond bool, reason string) string {
	if cond {
		return reason
	}
	return ""
}

func messageIf(cond bool, msg string) string { return reasonIf(cond, msg) }
