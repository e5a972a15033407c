package inferenceservice

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/fsmserve/fsmserve/machines/workload"
)

var (
	serving    = Workload{Exists: true, Serving: true}
	complete   = Workload{Exists: true, Serving: true, UpToDate: true, Available: 1, Desired: 1}
	progress   = Workload{Exists: true}
	deadline   = Workload{Exists: true, Failed: true, Reason: "ProgressDeadlineExceeded", Message: "ReplicaSet has timed out progressing"}
	missingRT  = Problem{Kind: RuntimeProblem, Reason: "RuntimeNotRecognized", Message: "Waiting for runtime to become available"}
	badConfig  = Problem{Kind: ConfigProblem, Reason: "InvalidIngressConfig", Message: "bad"}
	badSpec    = Problem{Kind: SpecProblem, Reason: "InvalidPredictorSpec", Message: "no kserve-container"}
	standardOK = Observation{Mode: "Standard", ModeSupported: true}
	refused    = Problem{Kind: RefusalProblem, Reason: "RefusedByAPIServer", Message: "services \"iris-predictor\" is forbidden: exceeded quota: q"}
	notOurs    = Problem{Kind: OwnershipProblem, Reason: "ChildNotOwned", Message: "Deployment iris-predictor exists and is not controlled by InferenceService iris: rename or delete it"}
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
		{"a new object in a supported mode is admitted", Pending, standardOK, Admitted},
		{"Knative is rejected by name", Pending, with(func(o *Observation) { o.ModeSupported, o.Mode = false, "Knative" }), ModeRejected},
		{"deletion beats everything", Ready, with(func(o *Observation) { o.Deleting, o.StopRequested = true, true }), DeletionRequested},
		{"stop beats problems", RuntimeUnavailable, with(func(o *Observation) { o.StopRequested, o.Problem = true, missingRT }), StopRequested},
		{"stopped stays stopped while annotated", Stopped, with(func(o *Observation) { o.StopRequested = true }), ""},
		{"removing the annotation resumes", Stopped, standardOK, ResumeRequested},
		{"a missing runtime blocks", Resolving, with(func(o *Observation) { o.Problem = missingRT }), RuntimeMissing},
		{"a bad config key blocks", Resolving, with(func(o *Observation) { o.Problem = badConfig }), ConfigRejected},
		{"resolved runtime deploys", Resolving, standardOK, RuntimeResolved},
		{"the runtime appearing unblocks", RuntimeUnavailable, standardOK, RuntimeResolved},
		{"an unchanged problem keeps the state", RuntimeUnavailable, with(func(o *Observation) { o.Problem = missingRT }), ""},
		{"a different problem moves between blocked states", RuntimeUnavailable, with(func(o *Observation) { o.Problem = badSpec }), SpecRejected},
		{"a runtime deleted while ready blocks", Ready, with(func(o *Observation) { o.Problem, o.Predictor = missingRT, complete }), RuntimeMissing},
		{"deploying waits while progressing", Deploying, with(func(o *Observation) { o.Predictor = progress }), ""},
		{"available but not rolled out is not yet ready", Deploying, with(func(o *Observation) { o.Predictor = serving }), ""},
		{"complete rollout is ready", Deploying, with(func(o *Observation) { o.Predictor = complete }), RolloutSucceeded},
		{"deadline exceeded fails", Deploying, with(func(o *Observation) { o.Predictor = deadline }), RolloutFailed},
		{"a new template while ready starts a rollout", Ready, with(func(o *Observation) { o.Predictor = serving }), RolloutStarted},
		{"losing availability degrades", Ready, with(func(o *Observation) { o.Predictor = progress }), AvailabilityLost},
		{"availability back restores", Degraded, with(func(o *Observation) { o.Predictor = complete }), AvailabilityRestored},
		{"a failed rollout that becomes available recovers", Failed, with(func(o *Observation) { o.Predictor = complete }), Recovered},
		{"a failed rollout that progresses again restarts", Failed, with(func(o *Observation) { o.Predictor = serving }), RolloutStarted},
		{"a spec change while ready starts an episode", Ready, with(func(o *Observation) { o.SpecChanged, o.Predictor = true, complete }), SpecChanged},
		{"progressing states pick spec changes up on their own", Deploying, with(func(o *Observation) { o.SpecChanged, o.Predictor = true, progress }), ""},
		{"unsupported mode stays until deleted", UnsupportedMode, with(func(o *Observation) { o.ModeSupported = false }), ""},
		{"a mode this version runs leaves unsupported mode", UnsupportedMode, with(func(o *Observation) { o.ModeSupported = true }), Admitted},
		{"nothing moves a deleting object", Deleting, with(func(o *Observation) { o.Deleting = true }), ""},
		{"a pod the mutator never saw starts a repair", Ready, with(func(o *Observation) { o.Predictor, o.UninjectedPods = complete, []string{"p-1"} }), InjectionMissing},
		{"a repair ends when no such pod remains", Repairing, with(func(o *Observation) { o.Predictor = complete }), InjectionRestored},
		{"a child owned by someone else blocks", Resolving, with(func(o *Observation) { o.Problem = notOurs }), ChildNotOwned},
		{"a refused child blocks", Deploying, with(func(o *Observation) { o.Problem = refused }), ChildRefused},
		{"a refusal is not over before the retried apply ran", Refused, with(func(o *Observation) {}), ""},
		{"a refusal is over once an apply went through", Refused, with(func(o *Observation) { o.PredictorApplied = true }), RuntimeResolved},
		{"a refusal that persists stays", Refused, with(func(o *Observation) { o.Problem, o.PredictorApplied = refused, false }), ""},
		{"a child owned by someone else blocks a ready object too", Ready, with(func(o *Observation) { o.Problem, o.Predictor = notOurs, complete }), ChildNotOwned},
		{"the foreign child gone, the predictor deploys", ChildConflict, standardOK, RuntimeResolved},
		{"a stopped object ignores a foreign child", Stopped, with(func(o *Observation) { o.StopRequested, o.Problem = true, notOurs }), ""},
		{"a repair waits while such pods remain", Repairing, with(func(o *Observation) { o.Predictor, o.UninjectedPods = complete, []string{"p-1"} }), ""},
	}
	for _, c := range cases {
		t.Run(c.why, func(t *testing.T) {
			got, ok := Classify(c.state, c.obs)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.want != "", ok)
		})
	}
}

func TestRolloutAfterSpecChangeKeepsServing(t *testing.T) {
	m := Definition.New(string(Ready), func() time.Time { return time.Unix(0, 0) })
	obs := with(func(o *Observation) { o.SpecChanged, o.Predictor = true, complete })
	applyNewTemplate := func(_ context.Context, s State, o Observation) Observation {
		if s == Resolving {
			o.SpecChanged = false // Resolving takes the new generation up
		}
		if s == RollingOut {
			o.Predictor.UpToDate = false // the apply bumped the Deployment's generation
		}
		return o
	}
	_, err := m.Run(context.Background(), obs, applyNewTemplate)
	assert.NoError(t, err)
	assert.Equal(t, RollingOut, m.State(), "the previous version serves, so the new one rolls out beside it")
	var path []Trigger
	for _, tr := range m.Journal() {
		path = append(path, Trigger(tr.Trigger))
	}
	assert.Equal(t, []Trigger{SpecChanged, RuntimeResolved}, path)
}

func TestExplainNamesTheFix(t *testing.T) {
	reason, msg := Explain(RuntimeUnavailable, with(func(o *Observation) { o.Problem = missingRT }))
	assert.Equal(t, "RuntimeNotRecognized", reason)
	assert.Contains(t, msg, "runtime")
	reason, msg = Explain(Failed, with(func(o *Observation) { o.Predictor, o.DeploymentName = deadline, "iris-predictor" }))
	assert.Equal(t, "ProgressDeadlineExceeded", reason)
	assert.Contains(t, msg, "iris-predictor")
	_, msg = Explain(UnsupportedMode, with(func(o *Observation) { o.Mode = "Knative" }))
	assert.Contains(t, msg, "serving.kserve.io/deploymentMode: Standard")
	for _, st := range Definition.States {
		if st.State == Active {
			continue
		}
		reason, _ := Explain(st.State, with(func(o *Observation) { o.Problem, o.Predictor = badSpec, deadline }))
		assert.NotEmpty(t, reason, st.State)
	}
}

func TestSpecChangeThatChangesNoWorkloadSettlesBackToReady(t *testing.T) {
	m := Definition.New(string(Ready), func() time.Time { return time.Unix(0, 0) })
	obs := with(func(o *Observation) { o.SpecChanged, o.Predictor = true, complete })
	takeUp := func(_ context.Context, s State, o Observation) Observation {
		if s == Resolving {
			o.SpecChanged = false
		}
		return o
	}
	_, err := m.Run(context.Background(), obs, takeUp)
	assert.NoError(t, err)
	assert.Equal(t, Ready, m.State())
	assert.Len(t, m.Journal(), 3, "Ready -> Resolving -> RollingOut -> Ready")
}

func TestSeeksRuntimeOnlyBeforeOneResolved(t *testing.T) {
	for _, s := range []State{"", Pending, Resolving, RuntimeUnavailable, InvalidSpec} {
		if !SeeksRuntime(s) {
			t.Errorf("%q waits for a runtime", s)
		}
	}
	for _, s := range []State{Deploying, Ready, RollingOut, Stopped, ConfigInvalid, Deleting} {
		if SeeksRuntime(s) {
			t.Errorf("%q has a runtime or does not need one", s)
		}
	}
}

func TestAWaitNamesWhatKeepsThePodsFromRunning(t *testing.T) {
	o := with(func(o *Observation) {
		o.DeploymentName = "iris-predictor"
		o.PodTrouble = workload.PodTrouble{Pod: "iris-predictor-abc", Reason: "Unschedulable", Message: "0/4 nodes are available: 4 Insufficient cpu."}
	})
	for _, s := range []State{Deploying, RollingOut} {
		reason, msg := Explain(s, o)
		if reason != "Unschedulable" || !strings.Contains(msg, "pod iris-predictor-abc cannot be scheduled (Unschedulable): 0/4 nodes are available") {
			t.Errorf("%s: %s: %s", s, reason, msg)
		}
	}
	if reason, _ := Explain(Deploying, with(func(o *Observation) {})); reason != ReasonDeploying {
		t.Errorf("no trouble: reason %s", reason)
	}
}
