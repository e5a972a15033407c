package inferenceservice

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/machines/engine"
	machine "github.com/fsmserve/fsmserve/machines/inferenceservice"
)

var (
	t0 = metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	t1 = metav1.NewTime(t0.Add(time.Minute))
)

func deployment(conds ...appsv1.DeploymentCondition) *appsv1.Deployment {
	return &appsv1.Deployment{Status: appsv1.DeploymentStatus{Conditions: conds}}
}

func dc(t appsv1.DeploymentConditionType, s corev1.ConditionStatus, reason, msg string) appsv1.DeploymentCondition {
	return appsv1.DeploymentCondition{Type: t, Status: s, Reason: reason, Message: msg}
}

const (
	avail = appsv1.DeploymentAvailable
	prog  = appsv1.DeploymentProgressing
	rfail = appsv1.DeploymentReplicaFailure
	yes   = corev1.ConditionTrue
	no    = corev1.ConditionFalse
	unk   = corev1.ConditionUnknown
)

// TestPropagateRawFollowsKServesRuleOrder: each rule overrides the one before
// it, so the last matching rule decides PredictorReady.
func TestPropagateRawFollowsKServesRuleOrder(t *testing.T) {
	cases := []struct {
		name   string
		d      *appsv1.Deployment
		status corev1.ConditionStatus
		reason string
	}{
		{"no Deployment", nil, no, ""},
		{"no conditions yet", deployment(), no, ""},
		{"available", deployment(dc(avail, yes, "MinimumReplicasAvailable", "")), yes, "MinimumReplicasAvailable"},
		{"available and rolled out: progressing wins", deployment(
			dc(avail, yes, "MinimumReplicasAvailable", ""), dc(prog, yes, "NewReplicaSetAvailable", "rolled out")), yes, "NewReplicaSetAvailable"},
		{"available while a new ReplicaSet progresses stays True", deployment(
			dc(avail, yes, "MinimumReplicasAvailable", ""), dc(prog, yes, "ReplicaSetUpdated", "")), yes, "MinimumReplicasAvailable"},
		{"progressing, not yet available: Unknown", deployment(dc(prog, yes, "ReplicaSetUpdated", "")), unk, "ReplicaSetUpdated"},
		{"deadline exceeded overrides available", deployment(
			dc(avail, yes, "MinimumReplicasAvailable", ""), dc(prog, no, "ProgressDeadlineExceeded", "timed out")), no, "ProgressDeadlineExceeded"},
		{"progressing False without a message is ignored", deployment(
			dc(avail, yes, "MinimumReplicasAvailable", ""), dc(prog, no, "Paused", "")), yes, "MinimumReplicasAvailable"},
		{"unavailable overrides progressing", deployment(
			dc(prog, yes, "ReplicaSetUpdated", ""), dc(avail, no, "MinimumReplicasUnavailable", "")), no, "MinimumReplicasUnavailable"},
		{"replica failure overrides everything", deployment(
			dc(avail, yes, "MinimumReplicasAvailable", ""), dc(prog, yes, "NewReplicaSetAvailable", ""),
			dc(rfail, yes, "FailedCreate", "quota")), no, "FailedCreate"},
		{"replica failure False is ignored", deployment(
			dc(avail, yes, "MinimumReplicasAvailable", ""), dc(rfail, no, "", "")), yes, "MinimumReplicasAvailable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := propagateRaw(c.d)
			if got.Type != v1beta1.PredictorReady || got.Status != c.status || got.Reason != c.reason {
				t.Errorf("got %s=%s (%s), want %s (%s)", got.Type, got.Status, got.Reason, c.status, c.reason)
			}
		})
	}
}

func TestPredictorReadyExplainsWhatTheLifecycleDoesWithoutAVerdict(t *testing.T) {
	l := &common.Lifecycle{Reason: "ChildNotOwned", Message: "Deployment x-predictor exists"}
	if c := predictorReady(nil, l, false); c.Status != no || c.Reason != l.Reason || c.Message != l.Message {
		t.Errorf("no Deployment: got %+v", c)
	}
	d := deployment(dc(prog, yes, "ReplicaSetUpdated", ""))
	if c := predictorReady(d, l, false); c.Reason != "ReplicaSetUpdated" {
		t.Errorf("the Deployment's own reason must win outside a rollout: got %+v", c)
	}
}

func TestARolloutKeepsItsOwnWordsUntilTheDeploymentHasAVerdict(t *testing.T) {
	l := &common.Lifecycle{Reason: "Deploying", Message: "waiting for Deployment x-predictor to become available (0/1 replicas available)"}
	waiting := deployment(dc(prog, yes, "ReplicaSetUpdated", ""), dc(avail, no, "MinimumReplicasUnavailable", "Deployment does not have minimum availability."))
	if c := predictorReady(waiting, l, true); c.Status != no || c.Reason != l.Reason || c.Message != l.Message {
		t.Errorf("an ordinary wait must read as the lifecycle's: got %+v", c)
	}
	failed := deployment(dc(avail, no, "MinimumReplicasUnavailable", ""), dc(rfail, yes, "FailedCreate", "exceeded quota"))
	if c := predictorReady(failed, l, true); c.Reason != "FailedCreate" {
		t.Errorf("a failure verdict must stand during a rollout: got %+v", c)
	}
	done := deployment(dc(avail, yes, "MinimumReplicasAvailable", ""), dc(prog, yes, "NewReplicaSetAvailable", ""))
	if c := predictorReady(done, l, true); c.Status != yes || c.Reason != "NewReplicaSetAvailable" {
		t.Errorf("an available Deployment must read True: got %+v", c)
	}
}

func TestIngressReady(t *testing.T) {
	configProblem := machine.Problem{Kind: machine.ConfigProblem, Reason: "InvalidIngressConfig", Message: "bad domain template"}
	cases := []struct {
		name   string
		in     statusInput
		status corev1.ConditionStatus
		reason string
	}{
		{"a configuration problem names itself", statusInput{Obs: machine.Observation{Problem: configProblem}, IngressWanted: true}, no, "InvalidIngressConfig"},
		{"cluster-local needs no ingress", statusInput{IngressWanted: false}, yes, ""},
		{"predictor not serving: KServe's reason", statusInput{IngressWanted: true}, no, reasonIngressNotCreated},
		{"serving, ingress not yet there", statusInput{IngressWanted: true, Obs: servingObservation()}, no, "IngressNotCreated"},
		{"serving with its ingress", statusInput{IngressWanted: true, Obs: servingObservation(), Ingress: &networkingv1.Ingress{}}, yes, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.in.Lifecycle == nil {
				c.in.Lifecycle = &common.Lifecycle{}
			}
			got := ingressReady(c.in)
			if got.Status != c.status || got.Reason != c.reason {
				t.Errorf("got %s (%s), want %s (%s)", got.Status, got.Reason, c.status, c.reason)
			}
		})
	}
}

func servingObservation() machine.Observation {
	return machine.Observation{Predictor: machine.Workload{Exists: true, Serving: true, UpToDate: true, Available: 1, Desired: 1}}
}

func TestSetConditions(t *testing.T) {
	ready := deployment(dc(avail, yes, "MinimumReplicasAvailable", ""), dc(prog, yes, "NewReplicaSetAvailable", ""))
	cases := []struct {
		name string
		in   statusInput
		want map[common.ConditionType]corev1.ConditionStatus
	}{
		{"ready: Ready is the conjunction", statusInput{State: machine.Ready, Kind: engine.Settled, Obs: servingObservation(), Deployment: ready, IngressWanted: true, Ingress: &networkingv1.Ingress{}},
			map[common.ConditionType]corev1.ConditionStatus{v1beta1.PredictorReady: yes, v1beta1.IngressReady: yes, v1beta1.Ready: yes, v1beta1.Stopped: no}},
		{"ingress missing holds Ready back", statusInput{State: machine.Deploying, Kind: engine.Progressing, Obs: servingObservation(), Deployment: ready, IngressWanted: true},
			map[common.ConditionType]corev1.ConditionStatus{v1beta1.PredictorReady: yes, v1beta1.IngressReady: no, v1beta1.Ready: no}},
		{"stopped: both components False with KServe's reason", statusInput{State: machine.Stopped, Kind: engine.Settled, Deployment: ready, IngressWanted: true},
			map[common.ConditionType]corev1.ConditionStatus{v1beta1.PredictorReady: no, v1beta1.IngressReady: no, v1beta1.Ready: no, v1beta1.Stopped: yes}},
		{"repairing: pods without injection cannot serve, whatever the Deployment says", statusInput{State: machine.Repairing, Kind: engine.Progressing, Obs: servingObservation(), Deployment: ready, IngressWanted: false},
			map[common.ConditionType]corev1.ConditionStatus{v1beta1.PredictorReady: no, v1beta1.IngressReady: yes, v1beta1.Ready: no}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.in.Lifecycle, c.in.Now = &common.Lifecycle{State: string(c.in.State), Reason: "R", Message: "M"}, t0
			st := &common.Status{}
			setConditions(st, c.in)
			for typ, want := range c.want {
				if got := st.GetCondition(typ); got == nil || got.Status != want {
					t.Errorf("%s: got %+v, want %s", typ, got, want)
				}
			}
			for i := 1; i < len(st.Conditions); i++ {
				if st.Conditions[i-1].Type > st.Conditions[i].Type {
					t.Errorf("conditions not sorted: %s before %s", st.Conditions[i-1].Type, st.Conditions[i].Type)
				}
			}
		})
	}
	st := &common.Status{}
	setConditions(st, statusInput{State: machine.Stopped, Lifecycle: &common.Lifecycle{}, Now: t0})
	if c := st.GetCondition(v1beta1.PredictorReady); c.Reason != v1beta1.ReasonStopped {
		t.Errorf("stopped PredictorReady reason = %q, want %q", c.Reason, v1beta1.ReasonStopped)
	}
}

func TestSetAddresses(t *testing.T) {
	svc := &corev1.Service{}
	full := func(s machine.State, obs machine.Observation) statusInput {
		return statusInput{State: s, Obs: obs, Built: true, Service: svc, URL: "http://x.example.com",
			ComponentURL: "http://x-predictor.example.com", Address: "http://x-predictor.ns.svc.cluster.local"}
	}
	cases := []struct {
		name            string
		in              statusInput
		before          *common.URL
		wantURL, wantCU bool
	}{
		{"serving writes url, address and component url", full(machine.Ready, servingObservation()), nil, true, true},
		{"not serving yet writes nothing", full(machine.Deploying, machine.Observation{}), nil, false, false},
		{"a degraded object keeps its url: the name still routes there", full(machine.Degraded, machine.Observation{}), common.NewURL("http://x.example.com"), true, false},
		{"stopping clears", full(machine.Stopped, servingObservation()), common.NewURL("http://x.example.com"), false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &v1beta1.InferenceServiceStatus{URL: c.before}
			setAddresses(st, c.in)
			if (st.URL != nil) != c.wantURL {
				t.Errorf("url = %v, want present %v", st.URL, c.wantURL)
			}
			if _, ok := st.Components[v1beta1.PredictorComponent]; ok != c.wantCU {
				t.Errorf("component url present = %v, want %v", ok, c.wantCU)
			}
		})
	}
}

func pod(name string, created metav1.Time, init *corev1.ContainerStatus, ready bool) corev1.Pod {
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: created}}
	if init != nil {
		p.Status.InitContainerStatuses = []corev1.ContainerStatus{*init}
	}
	if ready {
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	}
	return p
}

func initStatus(state corev1.ContainerState) *corev1.ContainerStatus {
	return &corev1.ContainerStatus{Name: v1beta1.StorageInitializerContainerName, State: state}
}

func TestSetModelStatus(t *testing.T) {
	loading := initStatus(corev1.ContainerState{Running: &corev1.ContainerStateRunning{}})
	failed := initStatus(corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 1, Message: "no such bucket"}})
	runtimeProblem := machine.Problem{Kind: machine.RuntimeProblem, Reason: "NoSupportingRuntime", Message: "no runtime for xgboost"}
	cases := []struct {
		name       string
		in         statusInput
		transition v1beta1.TransitionStatus
		target     v1beta1.ModelState
		copies     int
		failure    v1beta1.FailureReason
	}{
		{"no pods yet", statusInput{State: machine.Deploying}, v1beta1.InProgress, v1beta1.Pending, 0, ""},
		{"storage initializer running", statusInput{State: machine.Deploying, Pods: []corev1.Pod{pod("a", t0, loading, false)}}, v1beta1.InProgress, v1beta1.Loading, 0, ""},
		{"storage initializer failed", statusInput{State: machine.Deploying, Pods: []corev1.Pod{pod("a", t0, failed, false)}}, v1beta1.BlockedByFailedLoad, v1beta1.FailedToLoad, 0, reasonModelLoadFailed},
		{"ready counts serving copies", statusInput{State: machine.Ready, Pods: []corev1.Pod{pod("a", t0, nil, true), pod("b", t0, nil, true)}}, v1beta1.UpToDate, v1beta1.Loaded, 2, ""},
		{"the newest pod decides", statusInput{State: machine.RollingOut, Pods: []corev1.Pod{pod("old", t0, nil, true), pod("new", t1, loading, false)}}, v1beta1.InProgress, v1beta1.Loading, 1, ""},
		{"no runtime is an invalid spec", statusInput{State: machine.RuntimeUnavailable, Obs: machine.Observation{Problem: runtimeProblem}}, v1beta1.InvalidSpec, v1beta1.FailedToLoad, -1, "NoSupportingRuntime"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.in.Now = t0
			st := &v1beta1.InferenceServiceStatus{}
			setModelStatus(st, c.in)
			ms := st.ModelStatus
			if ms.TransitionStatus != c.transition || ms.ModelRevisionStates == nil || ms.ModelRevisionStates.TargetModelState != c.target {
				t.Fatalf("got %s / %+v, want %s / %s", ms.TransitionStatus, ms.ModelRevisionStates, c.transition, c.target)
			}
			if c.copies >= 0 && (ms.ModelCopies == nil || ms.ModelCopies.TotalCopies != c.copies) {
				t.Errorf("copies = %+v, want %d", ms.ModelCopies, c.copies)
			}
			if got := failureOf(ms); got != c.failure {
				t.Errorf("failure reason = %q, want %q", got, c.failure)
			}
		})
	}
}

func failureOf(ms v1beta1.ModelStatus) v1beta1.FailureReason {
	if ms.LastFailureInfo == nil {
		return ""
	}
	return ms.LastFailureInfo.Reason
}

func TestSetModelStatusClearsWhenStopped(t *testing.T) {
	st := &v1beta1.InferenceServiceStatus{ModelStatus: v1beta1.ModelStatus{TransitionStatus: v1beta1.UpToDate}}
	setModelStatus(st, statusInput{State: machine.Stopped, Now: t0})
	if st.ModelStatus.TransitionStatus != "" || st.ModelStatus.ModelRevisionStates != nil {
		t.Errorf("stopped model status = %+v, want empty", st.ModelStatus)
	}
}

// A failure that persists keeps the time it was first seen: a reconcile that
// finds nothing new writes nothing.
func TestAPersistingFailureKeepsItsFirstTime(t *testing.T) {
	problem := machine.Problem{Kind: machine.SpecProblem, Reason: "InvalidPredictorSpec", Message: "two frameworks"}
	st := &v1beta1.InferenceServiceStatus{}
	setModelStatus(st, statusInput{State: machine.InvalidSpec, Obs: machine.Observation{Problem: problem}, Now: t0})
	setModelStatus(st, statusInput{State: machine.InvalidSpec, Obs: machine.Observation{Problem: problem}, Now: t1})
	if got := st.ModelStatus.LastFailureInfo.Time; !got.Equal(&t0) {
		t.Errorf("same failure: time = %v, want the first %v", got, t0)
	}
	problem.Message = "three frameworks"
	setModelStatus(st, statusInput{State: machine.InvalidSpec, Obs: machine.Observation{Problem: problem}, Now: t1})
	if got := st.ModelStatus.LastFailureInfo.Time; !got.Equal(&t1) {
		t.Errorf("new failure: time = %v, want %v", got, t1)
	}
}

func TestFailureReasonStaysInKServesClosedSet(t *testing.T) {
	for in, want := range map[string]v1beta1.FailureReason{
		"NoSupportingRuntime": "NoSupportingRuntime", "RuntimeDisabled": "RuntimeDisabled",
		"ModelLoadFailed": "ModelLoadFailed", "TwoFrameworks": "InvalidPredictorSpec", "": "InvalidPredictorSpec",
	} {
		if got := failureReason(in); got != want {
			t.Errorf("failureReason(%q) = %q, want %q", in, got, want)
		}
	}
}
