package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadFullExample(t *testing.T) {
	s, err := Load("testdata/full.yaml")
	require.NoError(t, err)
	assert.Equal(t, "happy path", s.Name)
	assert.Equal(t, "testdata/full.yaml", s.File)
	require.Len(t, s.Steps, 15)

	apply := s.Steps[0]
	assert.Equal(t, "apply the sample", apply.Name)
	require.NotNil(t, apply.Apply)
	require.Len(t, apply.Apply.Docs, 1)
	assert.Contains(t, string(apply.Apply.Docs[0]), `"storageUri":"gs://bucket/model"`)

	e := s.Steps[1].Expect
	require.NotNil(t, e)
	assert.Equal(t, "InferenceService/sklearn-iris", e.Object)
	assert.Equal(t, "Deploying", e.State.String())
	assert.Equal(t, "False", e.Conditions["Ready"].Status.String())
	assert.Equal(t, "RuntimeNotRecognized", e.Conditions["PredictorReady"].Reason.String())
	assert.Equal(t, []string{"Admitted", "RuntimeResolved"}, e.Events)
	assert.Equal(t, []string{"Transition", "Step EnsurePredictor"}, e.Spans)
	assert.Equal(t, 20*time.Second, e.Within.D())
	assert.Equal(t, []string{"Ingress/sklearn-iris"}, e.Children.Absent)

	assert.Equal(t, Selection{Name: "sklearn-iris-predictor"}, s.Steps[2].World.DeploymentAvailable.Selection)
	assert.Equal(t, int32(2), *s.Steps[3].World.DeploymentAvailable.Replicas)
	assert.Equal(t, "too slow", s.Steps[4].World.DeploymentFailed.Message)
	assert.Equal(t, Selection{Selector: "app=isvc.sklearn-iris-predictor"}, s.Steps[6].World.DeploymentUnavailable.Selection)
	assert.Equal(t, "DeadlineExceeded", s.Steps[8].World.JobFailed.Reason)
	assert.Equal(t, 5*time.Second, s.Steps[9].World.Within.D())
	assert.Equal(t, "${SYSTEM_NAMESPACE}", s.Steps[11].Patch.Namespace)
	assert.JSONEq(t, `{"data":{"ingress":"{}"}}`, string(s.Steps[11].Patch.Merge))
	assert.Equal(t, "InferenceService/sklearn-iris", s.Steps[12].Delete)
	assert.Equal(t, 30*time.Second, s.Steps[13].Advance.D())
	assert.Equal(t, 2*time.Second, s.Steps[14].Wait.D())
}

func TestParseValidForms(t *testing.T) {
	tests := []struct {
		name  string
		steps string
		check func(t *testing.T, s *Scenario)
	}{
		{"apply several documents in a string", "- apply: |\n    apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: a}\n    ---\n    # only a comment\n    ---\n    apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: b}\n",
			func(t *testing.T, s *Scenario) { assert.Len(t, s.Steps[0].Apply.Docs, 2) }},
		{"apply one mapping", "- apply: {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}",
			func(t *testing.T, s *Scenario) { assert.Len(t, s.Steps[0].Apply.Docs, 1) }},
		{"apply a list of mappings", "- apply:\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n  - {apiVersion: v1, kind: Secret, metadata: {name: b}}",
			func(t *testing.T, s *Scenario) { assert.Len(t, s.Steps[0].Apply.Docs, 2) }},
		{"condition statuses as YAML booleans, lower case, absent and regex", "- expect: {object: A/x, conditions: {A: True, B: false, C: unknown, D: <absent>, E: ~^(True|False)$}}",
			func(t *testing.T, s *Scenario) {
				c := s.Steps[0].Expect.Conditions
				assert.Equal(t, "True", c["A"].Status.String())
				assert.Equal(t, "False", c["B"].Status.String())
				assert.Equal(t, "Unknown", c["C"].Status.String())
				assert.True(t, c["D"].Status.absent)
				assert.NotNil(t, c["E"].Status.re)
			}},
		{"condition mapping form with message regex", "- expect: {object: A/x, conditions: {Ready: {status: \"False\", reason: Failed, message: \"~deadline\"}}}",
			func(t *testing.T, s *Scenario) {
				c := s.Steps[0].Expect.Conditions["Ready"]
				assert.Equal(t, "Failed", c.Reason.String())
				assert.NotNil(t, c.Message.re)
			}},
		{"field values as numbers and booleans", "- expect: {object: A/x, fields: {.spec.replicas: 2, .spec.paused: true}}",
			func(t *testing.T, s *Scenario) {
				assert.Equal(t, "2", s.Steps[0].Expect.Fields[".spec.replicas"].String())
				assert.Equal(t, "true", s.Steps[0].Expect.Fields[".spec.paused"].String())
			}},
		{"children alone", "- expect: {children: {absent: [Deployment/x]}}",
			func(t *testing.T, s *Scenario) {
				assert.Equal(t, []string{"Deployment/x"}, s.Steps[0].Expect.Children.Absent)
			}},
		{"explicit group in a reference", "- delete: Event.events.k8s.io/x",
			func(t *testing.T, s *Scenario) { assert.Equal(t, "Event.events.k8s.io/x", s.Steps[0].Delete) }},
		{"step namespace and compound durations", "- namespace: kserve\n  advance: 1m30s",
			func(t *testing.T, s *Scenario) {
				assert.Equal(t, "kserve", s.Steps[0].Namespace)
				assert.Equal(t, 90*time.Second, s.Steps[0].Advance.D())
			}},
		{"selector in the string form of a target", "- world: {jobSucceeded: \"app in (a, b)\"}",
			func(t *testing.T, s *Scenario) {
				assert.Equal(t, "app in (a, b)", s.Steps[0].World.JobSucceeded.Selector)
			}},
		{"status subresource patch", "- patch: {object: A/x, subresource: status, merge: {status: {phase: Running}}}",
			func(t *testing.T, s *Scenario) { assert.Equal(t, "status", s.Steps[0].Patch.Subresource) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte("name: t\nsteps:\n"+tt.steps+"\n"), "t.yaml")
			require.NoError(t, err)
			tt.check(t, s)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []string // substrings of the error, besides the file name
	}{
		{"unknown top-level key", "name: t\nstesp: []\n", []string{`unknown key "stesp" at the top level`, `did you mean "steps"`}},
		{"name missing", "steps: [{wait: 1s}]\n", []string{`"name" is required`}},
		{"no steps", "name: t\nsteps: []\n", []string{`"steps" is required`}},
		{"unknown step key", "name: t\nsteps:\n- wait: 1s\n- expct: {object: A/x}\n", []string{"step 2", `unknown key "expct" in the step`, `did you mean "expect"`}},
		{"unknown key in expect names the step name", "name: t\nsteps:\n- name: ready\n  expect: {object: A/x, state: Ready, withn: 3s}\n", []string{`step 1 ("ready")`, `unknown key "withn" in expect`, `did you mean "within"`}},
		{"unknown key in children", "name: t\nsteps:\n- expect: {children: {presnt: [A/x]}}\n", []string{"step 1", `unknown key "presnt" in expect.children (did you mean "present"?)`}},
		{"unknown key in a condition", "name: t\nsteps:\n- expect: {object: A/x, conditions: {Ready: {status: \"True\", reson: X}}}\n", []string{"step 1", `unknown key "reson" in expect.conditions.Ready (did you mean "reason"?)`}},
		{"unknown key in patch", "name: t\nsteps:\n- patch: {object: A/x, merge: {}, subresurce: status}\n", []string{"step 1", `unknown key "subresurce" in patch`}},
		{"unknown world change", "name: t\nsteps:\n- world: {deploymentAvaliable: x}\n", []string{"step 1", `unknown key "deploymentAvaliable" in world`, `did you mean "deploymentAvailable"`}},
		{"unknown key in a world target", "name: t\nsteps:\n- world: {deploymentAvailable: {name: x, replica: 2}}\n", []string{"step 1", `unknown key "replica" in world.deploymentAvailable (did you mean "replicas"?)`}},
		{"unknown key in a job failure", "name: t\nsteps:\n- world: {jobFailed: {name: x, reasn: Y}}\n", []string{"step 1", `unknown key "reasn" in world.jobFailed`}},
		{"two actions", "name: t\nsteps:\n- apply: {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n  expect: {object: ConfigMap/a}\n", []string{"step 1", "2 actions (apply, expect)", "exactly one action"}},
		{"no action", "name: t\nsteps:\n- name: lonely\n", []string{`step 1 ("lonely")`, "no action"}},
		{"two world changes", "name: t\nsteps:\n- world: {jobRunning: a, jobFailed: b}\n", []string{"step 1", "exactly one change", "jobFailed, jobRunning"}},
		{"empty action", "name: t\nsteps:\n- expect:\n", []string{"step 1", "expect has no value"}},
		{"duration without unit", "name: t\nsteps:\n- advance: 30\n", []string{"step 1", "advance", "a duration is a string with a unit"}},
		{"duration as a bare number string", "name: t\nsteps:\n- wait: \"30\"\n", []string{"step 1", `invalid duration "30"`}},
		{"negative duration", "name: t\nsteps:\n- wait: -1s\n", []string{"step 1", "must be positive"}},
		{"bad within", "name: t\nsteps:\n- expect: {object: A/x, state: X, within: soon}\n", []string{"step 1", `invalid duration "soon"`}},
		{"apply without a name", "name: t\nsteps:\n- apply: |\n    apiVersion: v1\n    kind: ConfigMap\n", []string{"step 1", "object 1", "metadata.name is required"}},
		{"apply of a scalar", "name: t\nsteps:\n- apply: [3]\n", []string{"step 1", "an object is a mapping"}},
		{"bad regex", "name: t\nsteps:\n- expect: {object: A/x, fields: {.a: \"~(\"}}\n", []string{"step 1", "invalid regular expression"}},
		{"field path without a dot", "name: t\nsteps:\n- expect: {object: A/x, fields: {status.url: x}}\n", []string{"step 1", `fields "status.url"`, "starts with a dot"}},
		{"lower-case kind", "name: t\nsteps:\n- delete: deployment/x\n", []string{"step 1", "not deployment"}},
		{"empty delete", "name: t\nsteps:\n- delete: \"\"\n", []string{"step 1", "delete", "write Kind/name"}},
		{"two actions, one broken", "name: t\nsteps:\n- wait: 1s\n  advance: 30\n", []string{"step 1", "2 actions (advance, wait)"}},
		{"reference without a kind", "name: t\nsteps:\n- delete: .apps/x\n", []string{"step 1", "the kind is missing"}},
		{"reference without a name", "name: t\nsteps:\n- delete: Deployment\n", []string{"step 1", "write Kind/name"}},
		{"object checks without object", "name: t\nsteps:\n- expect: {state: Ready}\n", []string{"step 1", `"object" is required`}},
		{"nothing to expect", "name: t\nsteps:\n- expect: {within: 1s}\n", []string{"step 1", "nothing to expect"}},
		{"name and selector", "name: t\nsteps:\n- world: {jobRunning: {name: a, selector: b=c}}\n", []string{"step 1", "not both"}},
		{"bad selector", "name: t\nsteps:\n- world: {jobRunning: {selector: \"a=(\"}}\n", []string{"step 1", `selector "a=("`}},
		{"namespace twice", "name: t\nsteps:\n- namespace: a\n  patch: {object: A/x, namespace: b, merge: {}}\n", []string{"step 1", "namespace given twice"}},
		{"patch without merge", "name: t\nsteps:\n- patch: {object: A/x}\n", []string{"step 1", `"merge" must be a mapping`}},
		{"patch of another subresource", "name: t\nsteps:\n- patch: {object: A/x, merge: {}, subresource: scale}\n", []string{"step 1", `subresource "scale"`}},
		{"condition status not a status", "name: t\nsteps:\n- expect: {object: A/x, conditions: {Ready: Maybe}}\n", []string{"step 1", `condition status "Maybe"`}},
		{"mapping where a string is expected", "name: t\nsteps:\n- expect: {object: A/x, state: {is: Ready}}\n", []string{"step 1", "expected a string, number or boolean, got a mapping"}},
		{"wrong type", "name: t\nsteps:\n- expect: {object: A/x, events: Admitted}\n", []string{"step 1", "expect", "events: expected a list, got a string"}},
		{"two documents", "name: a\nsteps: [{wait: 1s}]\n---\nname: b\nsteps: [{wait: 1s}]\n", []string{"exactly one YAML document, found 2"}},
		{"duplicate key", "name: a\nname: b\nsteps: [{wait: 1s}]\n", []string{`"name" already set`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.file), "scenarios/broken.yaml")
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), "scenarios/broken.yaml: "), err.Error())
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestLoadAll(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	write("b.yaml", "name: b\nsteps: [{wait: 1s}]\n")
	write("a.yaml", "name: a\nsteps: [{wait: 1s}]\n")

	all, err := LoadAll(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	require.Len(t, all, 2)
	assert.Equal(t, "a", all[0].Name, "sorted by path")

	write("c.yaml", "name: c\nsteps: [{wat: 1s}]\n")
	write("d.yaml", "name: d\n")
	all, err = LoadAll(filepath.Join(dir, "*.yaml"))
	require.Error(t, err)
	assert.Len(t, all, 2, "the good files still load")
	assert.Contains(t, err.Error(), "c.yaml: step 1")
	assert.Contains(t, err.Error(), "d.yaml: ")

	_, err = LoadAll(filepath.Join(dir, "*.yml"))
	assert.ErrorContains(t, err, "no scenario files match")
}
