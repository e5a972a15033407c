package runner

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/internal/kubesim"
)

const deploymentYAML = `
- apply: |
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: iris-predictor, labels: {app: iris}}
    spec:
      replicas: 2
      selector: {matchLabels: {app: iris}}
      template:
        metadata: {labels: {app: iris}}
        spec: {containers: [{name: kserve-container, image: sklearn}]}
`

func getDeployment(t *testing.T, r *run) *appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	require.NoError(t, env.Client.Get(context.Background(), client.ObjectKey{Namespace: r.namespace, Name: "iris-predictor"}, &d))
	return &d
}

func TestWorldDeploymentOnTheAPIServer(t *testing.T) {
	h := newHarness(t)
	r := startRun(t, h)
	require.NoError(t, runSteps(t, r, deploymentYAML+"- world: {deploymentAvailable: iris-predictor}\n"))

	d := getDeployment(t, r)
	assert.Equal(t, d.Generation, d.Status.ObservedGeneration)
	assert.Equal(t, [4]int32{2, 2, 2, 2}, [4]int32{d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.ReadyReplicas, d.Status.AvailableReplicas})
	assert.Equal(t, map[string]string{"Available": "True/MinimumReplicasAvailable", "Progressing": "True/NewReplicaSetAvailable"}, kubesim.Conditions(d))
	assert.True(t, d.Status.Conditions[0].LastTransitionTime.Time.Equal(testStart), "condition times come from the fake clock")

	// A new generation, then a rollout that fails, chosen by label selector.
	d.Spec.Template.Spec.Containers[0].Image = "sklearn:2"
	require.NoError(t, env.Client.Update(context.Background(), d))
	require.NoError(t, runSteps(t, r, `- world: {deploymentFailed: {selector: "app=iris", replicaFailure: FailedCreate, message: quota exceeded}}`))
	d = getDeployment(t, r)
	assert.Equal(t, d.Generation, d.Status.ObservedGeneration, "the failure is about the new generation")
	assert.Equal(t, int64(2), d.Generation)
	assert.Equal(t, map[string]string{"Available": "False/MinimumReplicasUnavailable", "Progressing": "False/ProgressDeadlineExceeded", "ReplicaFailure": "True/FailedCreate"}, kubesim.Conditions(d))

	require.NoError(t, runSteps(t, r, "- world: {deploymentProgressing: {name: iris-predictor, replicas: 3}}\n"))
	d = getDeployment(t, r)
	assert.Equal(t, map[string]string{"Available": "True/MinimumReplicasAvailable", "Progressing": "True/ReplicaSetUpdated", "ReplicaFailure": "True/FailedCreate"}, kubesim.Conditions(d))
	assert.Equal(t, int32(4), d.Status.Replicas)

	require.NoError(t, runSteps(t, r, "- world: {deploymentUnavailable: iris-predictor}\n"))
	d = getDeployment(t, r)
	assert.Equal(t, "False/MinimumReplicasUnavailable", kubesim.Conditions(d)["Available"])
	assert.Equal(t, int32(0), d.Status.AvailableReplicas)

	// The story can read back what it played.
	require.NoError(t, runSteps(t, r, `- expect: {object: Deployment/iris-predictor, conditions: {Available: "False", Progressing: {status: "True", reason: ReplicaSetUpdated}}, fields: {.status.unavailableReplicas: "2"}}`))
}

func TestWorldWaitsForItsTarget(t *testing.T) {
	h := newHarness(t)
	r := startRun(t, h)
	wait := mustParse(t, "name: w\nsteps:\n- world: {deploymentAvailable: iris-predictor, within: 10s}\n").Steps[0]
	done := make(chan error, 1)
	go func() { done <- r.runStep(context.Background(), 1, wait) }()
	time.Sleep(300 * time.Millisecond)
	require.NoError(t, runSteps(t, r, deploymentYAML))
	require.NoError(t, <-done)
	assert.Equal(t, int32(2), getDeployment(t, r).Status.AvailableReplicas)

	err := runSteps(t, r, "- name: missing\n  world: {jobSucceeded: nothing-here, within: 300ms}\n")
	var stepErr *StepError
	require.True(t, errors.As(err, &stepErr), "%v", err)
	assert.Contains(t, err.Error(), `step 1 ("missing"): world jobSucceeded failed`)
	assert.Contains(t, err.Error(), `no Job "nothing-here" in namespace `+r.namespace+" after 300ms")
}

const jobsYAML = `
- apply: |
    apiVersion: batch/v1
    kind: Job
    metadata: {name: download-a, labels: {app: download}}
    spec:
      backoffLimit: 2
      template:
        spec: {restartPolicy: Never, containers: [{name: dl, image: busybox}]}
    ---
    apiVersion: batch/v1
    kind: Job
    metadata: {name: download-b, labels: {app: download}}
    spec:
      completions: 3
      template:
        spec: {restartPolicy: Never, containers: [{name: dl, image: busybox}]}
`

func jobConditions(t *testing.T, r *run, name string) (*batchv1.Job, map[string]string) {
	t.Helper()
	var j batchv1.Job
	require.NoError(t, env.Client.Get(context.Background(), client.ObjectKey{Namespace: r.namespace, Name: name}, &j))
	out := map[string]string{}
	for _, c := range j.Status.Conditions {
		out[string(c.Type)] = string(c.Status) + "/" + c.Reason
	}
	return &j, out
}

func TestWorldJobsOnTheAPIServer(t *testing.T) {
	h := newHarness(t)
	r := startRun(t, h)
	require.NoError(t, runSteps(t, r, jobsYAML+"- world: {jobRunning: \"app=download\"}\n"))
	for _, name := range []string{"download-a", "download-b"} {
		j, conds := jobConditions(t, r, name)
		assert.Equal(t, int32(1), j.Status.Active, name)
		assert.NotNil(t, j.Status.StartTime, name)
		assert.Empty(t, conds, name)
	}

	require.NoError(t, runSteps(t, r, "- world: {jobFailed: download-a}\n- world: {jobSucceeded: {name: download-b}}\n"))
	j, conds := jobConditions(t, r, "download-a")
	assert.Equal(t, map[string]string{"FailureTarget": "True/BackoffLimitExceeded", "Failed": "True/BackoffLimitExceeded"}, conds)
	assert.Equal(t, int32(3), j.Status.Failed)
	assert.Equal(t, int32(0), j.Status.Active)

	j, conds = jobConditions(t, r, "download-b")
	assert.Equal(t, map[string]string{"SuccessCriteriaMet": "True/CompletionsReached", "Complete": "True/CompletionsReached"}, conds)
	assert.Equal(t, int32(3), j.Status.Succeeded)
	assert.NotNil(t, j.Status.CompletionTime)
}

func TestWorldPodsReadyOnTheAPIServer(t *testing.T) {
	h := newHarness(t)
	r := startRun(t, h)
	require.NoError(t, runSteps(t, r, `
- apply: {apiVersion: v1, kind: Pod, metadata: {name: iris-0, labels: {app: iris}}, spec: {containers: [{name: kserve-container, image: sklearn}]}}
- world: {podsReady: {selector: app=iris}}
- expect: {object: Pod/iris-0, conditions: {Ready: "True", ContainersReady: "True"}, fields: {.status.phase: Running, ".status.containerStatuses[0].ready": "true"}}
`))
	var p corev1.Pod
	require.NoError(t, env.Client.Get(context.Background(), client.ObjectKey{Namespace: r.namespace, Name: "iris-0"}, &p))
	assert.Equal(t, corev1.PodRunning, p.Status.Phase)
}
