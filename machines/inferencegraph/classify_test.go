package inferencegraph

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	serving    = Workload{Exists: true, Serving: true}
	complete   = Workload{Exists: true, Serving: true, UpToDate: true, Available: 1, Desired: 1}
	progress   = Workload{Exists: true}
	deadline   = Workload{Exists: true, Failed: true, Reason: "ProgressDeadlineExceeded", Message: "ReplicaSet has timed out progressing"}
	missing    = Problem{Kind: ServiceProblem, Reason: ReasonServiceNotFound, Message: "waiting for InferenceService cat-dog (nodes.root.steps[0]): it does not exist"}
	notReady   = Problem{Kind: ServiceProblem, Reason: ReasonServiceNotReady, Message: "waiting for InferenceService cat-dog: it is not Ready"}
	badConfig  = Problem{Kind: ConfigProblem, Reason: "InvalidRouterConfig", Message: "bad"}
	badSpec    = Problem{Kind: SpecProblem, Reason: "InvalidGraphSpec", Message: "nodes.root is missing"}
	standardOK = Observation{Mode: "Standard", ModeSupported: true, DeploymentName: "dog-breed"}
)

func with(mut func(*Observation)) Observation {
	o := standardOK
	mut(&o)
	return o
}

func TestClassify(t *testing.T) {
	cases := []struct {
		why   string
		state State
		obs   Observation
		want  Trigger
	}{
		{"a new graph in a supported mode is admitted", Pending, standardOK, Admitted},
		{"Knative is rejected by name", Pending, with(func(o *Observation) { o.ModeSupported, o.Mode = false, "Knative" }), ModeRejected},
		{"deletion beats everything", Ready, with(func(o *Observation) { o.Deleting, o.StopRequested = true, true }), DeletionRequested},
		{"stop beats a missing service", WaitingForInferenceService, with(func(o *Observation) { o.StopRequested, o.Problem = true, missing }), StopRequested},
		{"stopped stays stopped while annotated", Stopped, with(func(o *Observation) { o.StopRequested = true }), ""},
		{"removing the annotation resumes", Stopped, standardOK, ResumeRequested},
		{"a missing service makes it wait", ResolvingSteps, with(func(o *Observation) { o.Problem = missing }), InferenceServiceUnavailable},
		{"a service that is not ready keeps it waiting", WaitingForInferenceService, with(func(o *Observation) { o.Problem = notReady }), ""},
		{"every step resolved deploys the router", ResolvingSteps, standardOK, StepsResolved},
		{"the service becoming ready unblocks", WaitingForInferenceService, standardOK, StepsResolved},
		{"a bad router config key blocks", ResolvingSteps, with(func(o *Observation) { o.Problem = badConfig }), ConfigRejected},
		{"a graph without root is rejected", ResolvingSteps, with(func(o *Observation) { o.Problem = badSpec }), SpecRejected},
		{"a service vanishing while deploying makes it wait", DeployingRouter, with(func(o *Observation) { o.Problem, o.Router = missing, progress }), InferenceServiceUnavailable},
		{"a service vanishing while ready degrades", Ready, with(func(o *Observation) { o.Problem, o.Router = missing, complete }), InferenceServiceUnavailable},
		{"a service vanishing during a rollout degrades", RollingOut, with(func(o *Observation) { o.Problem, o.Router = notReady, serving }), InferenceServiceUnavailable},
		{"degraded by a missing service stays until it is back", Degraded, with(func(o *Observation) { o.Problem, o.Router = missing, complete }), ""},
		{"the service back with the same address restores", Degraded, with(func(o *Observation) { o.Router = complete }), AvailabilityRestored},
		{"the service back at a new address rolls the router", Degraded, with(func(o *Observation) { o.Router = serving }), RolloutStarted},
		{"deploying waits while progressing", DeployingRouter, with(func(o *Observation) { o.Router = progress }), ""},
		{"available but not the current graph is not yet ready", DeployingRouter, with(func(o *Observation) { o.Router = serving }), ""},
		{"the router available with the current graph is ready", DeployingRouter, with(func(o *Observation) { o.Router = complete }), RolloutSucceeded},
		{"deadline exceeded fails", DeployingRouter, with(func(o *Observation) { o.Router = deadline }), RolloutFailed},
		{"a new resolved graph while ready starts a rollout", Ready, with(func(o *Observation) { o.Router = serving }), RolloutStarted},
		{"the router losing availability degrades", Ready, with(func(o *Observation) { o.Router = progress }), AvailabilityLost},
		{"availability back restores", Degraded, with(func(o *Observation) { o.Router = complete }), AvailabilityRestored},
		{"a failed rollout that becomes available recovers", Failed, with(func(o *Observation) { o.Router = complete }), Recovered},
		{"a failed rollout that progresses again restarts", Failed, with(func(o *Observation) { o.Router = serving }), RolloutStarted},
		{"a spec change while ready starts an episode", Ready, with(func(o *Observation) { o.SpecChanged, o.Router = true, complete }), SpecChanged},
		{"progressing states pick spec changes up on their own", WaitingForInferenceService, with(func(o *Observation) { o.SpecChanged, o.Problem = true, missing }), ""},
		{"unsupported mode stays until deleted", UnsupportedMode, with(func(o *Observation) { o.ModeSupported = false }), ""},
		{"a refusal is not over before the retried apply ran", Refused, with(func(o *Observation) {}), ""},
		{"a refusal is over once an apply went through", Refused, with(func(o *Observation) { o.RouterApplied = true }), StepsResolved},
		{"a refused router child blocks", DeployingRouter, with(func(o *Observation) { o.Problem = Problem{Kind: RefusalProblem, Reason: "RefusedByAPIServer"} }), ChildRefused},
		{"a mode this version runs leaves unsupported mode", UnsupportedMode, with(func(o *Observation) { o.ModeSupported = true }), Admitted},
		{"nothing moves a deleting object", Deleting, with(func(o *Observation) { o.Deleting = true }), ""},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			got, ok := Classify(c.state, c.obs)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.want != "", ok)
		})
	}
}

// TestDestinationsOfAVanishingService pins where InferenceServiceUnavailable
// leads: waiting for a graph that never served, Degraded for one that did.
func TestDestinationsOfAVanishingService(t *testing.T) {
	for from, want := range map[State]State{
		ResolvingSteps: WaitingForInferenceService, DeployingRouter: WaitingForInferenceService, Failed: WaitingForInferenceService,
		InvalidSpec: WaitingForInferenceService, Ready: Degraded, RollingOut: Degraded,
	} {
		m := Definition.New(string(from), func() time.Time { return time.Unix(0, 0) })
		require.NoError(t, m.Fire(context.Background(), InferenceServiceUnavailable, with(func(o *Observation) { o.Problem = missing })), from)
		assert.Equal(t, want, m.State(), from)
	}
}

func TestGraphWaitsThenDeploysInOneStory(t *testing.T) {
	m := Definition.New("", func() time.Time { return time.Unix(0, 0) })
	_, err := m.Run(context.Background(), with(func(o *Observation) { o.Problem = missing }), nil)
	require.NoError(t, err)
	assert.Equal(t, WaitingForInferenceService, m.State())
	applyRouter := func(_ context.Context, s State, o Observation) Observation {
		if s == DeployingRouter {
			o.Router = progress
		}
		return o
	}
	_, err = m.Run(context.Background(), standardOK, applyRouter)
	require.NoError(t, err)
	assert.Equal(t, DeployingRouter, m.State())
	_, err = m.Run(context.Background(), with(func(o *Observation) { o.Router = complete }), nil)
	require.NoError(t, err)
	assert.Equal(t, Ready, m.State())
	var path []Trigger
	for _, tr := range m.Journal() {
		path = append(path, Trigger(tr.Trigger))
	}
	assert.Equal(t, []Trigger{Admitted, InferenceServiceUnavailable, StepsResolved, RolloutSucceeded}, path)
}

func TestSpecChangeWhileReadyRollsOutBesideTheServingRouter(t *testing.T) {
	m := Definition.New(string(Ready), func() time.Time { return time.Unix(0, 0) })
	obs := with(func(o *Observation) { o.SpecChanged, o.Router = true, complete })
	applyNewGraph := func(_ context.Context, s State, o Observation) Observation {
		switch s {
		case ResolvingSteps:
			o.SpecChanged = false
		case RollingOut:
			o.Router.UpToDate = false
		}
		return o
	}
	_, err := m.Run(context.Background(), obs, applyNewGraph)
	require.NoError(t, err)
	assert.Equal(t, RollingOut, m.State())
}

func TestExplainNamesTheService(t *testing.T) {
	reason, msg := Explain(WaitingForInferenceService, with(func(o *Observation) { o.Problem = missing }))
	assert.Equal(t, ReasonServiceNotFound, reason)
	assert.Contains(t, msg, "cat-dog")
	reason, msg = Explain(Degraded, with(func(o *Observation) { o.Problem, o.Router = missing, complete }))
	assert.Equal(t, ReasonServiceNotFound, reason)
	assert.Contains(t, msg, "cat-dog")
	reason, msg = Explain(Degraded, with(func(o *Observation) {
		o.Router = Workload{Exists: true, Reason: "MinimumReplicasUnavailable", Message: "0 of 1"}
	}))
	assert.Equal(t, "MinimumReplicasUnavailable", reason)
	assert.Contains(t, msg, "dog-breed")
	reason, msg = Explain(Failed, with(func(o *Observation) { o.Router = deadline }))
	assert.Equal(t, "ProgressDeadlineExceeded", reason)
	assert.Contains(t, msg, "router image")
	_, msg = Explain(UnsupportedMode, with(func(o *Observation) { o.Mode = "Knative" }))
	assert.Contains(t, msg, "serving.kserve.io/deploymentMode: Standard")
	for _, st := range Definition.States {
		if st.State == Active {
			continue
		}
		reason, _ := Explain(st.State, with(func(o *Observation) { o.Problem, o.Router = badSpec, deadline }))
		assert.NotEmpty(t, reason, st.State)
	}
}
