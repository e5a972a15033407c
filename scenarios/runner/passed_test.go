package runner

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rolledOut is an object that went Pending -> Deploying -> Ready, as its
// history and its Events tell.
func rolledOut(history bool, events bool) *observation {
	obs := isvcObservation()
	obs.object.Object["status"].(map[string]any)["lifecycle"].(map[string]any)["state"] = "Ready"
	if history {
		obs.object.Object["status"].(map[string]any)["lifecycle"].(map[string]any)["history"] = []any{
			map[string]any{"from": "Pending", "to": "Deploying", "trigger": "RuntimeResolved", "reason": "Deploying"},
			map[string]any{"from": "Deploying", "to": "Ready", "trigger": "PredictorAvailable", "reason": "PredictorAvailable"},
		}
	}
	obs.events = nil
	if events {
		obs.events = []eventRecord{
			{Name: "iris.2", Reason: "PredictorAvailable", Note: "Deploying -> Ready (PredictorAvailable) [trace 0af76519]", First: time.Unix(2, 0), Count: 1},
			{Name: "iris.1", Reason: "RuntimeResolved", Note: "Pending -> Deploying (RuntimeResolved): waiting [trace 0af76519]", First: time.Unix(1, 0), Count: 1},
		}
	}
	return obs
}

func TestPassedReadsThePathFromHistoryOrEvents(t *testing.T) {
	tests := []struct {
		name            string
		expect          string
		history, events bool
		fail            bool
	}{
		{"states in order from the history", `{object: InferenceService/iris, passed: [Deploying, Ready]}`, true, false, false},
		{"states in order from the events alone", `{object: InferenceService/iris, passed: [Deploying, Ready]}`, false, true, false},
		{"the wrong order fails", `{object: InferenceService/iris, passed: [Ready, Deploying]}`, true, true, true},
		{"a trigger that did not fire fails", `{object: InferenceService/iris, passed: [{state: Ready, trigger: Recovered}]}`, true, true, true},
		{"trigger and reason match", `{object: InferenceService/iris, passed: [{state: Ready, trigger: PredictorAvailable, reason: PredictorAvailable}]}`, true, false, false},
		{"a state never entered fails", `{object: InferenceService/iris, passed: [Failed]}`, true, true, true},
		{"no path at all fails", `{object: InferenceService/iris, passed: [Deploying]}`, false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			failures := evaluate(parseExpect(t, tt.expect), rolledOut(tt.history, tt.events))
			if tt.fail {
				require.Len(t, failures, 1)
				assert.Contains(t, failures[0], "passed: not through")
			} else {
				assert.Empty(t, failures)
			}
		})
	}
}

func TestPassedNeedsAState(t *testing.T) {
	_, err := Parse([]byte("name: t\nsteps:\n- expect: {object: InferenceService/iris, passed: [{trigger: X}]}\n"), "t.yaml")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "passed: every entry names a state")
}

func TestRequiresSkipsAStoryTheHostCannotTell(t *testing.T) {
	s, err := Parse([]byte("name: t\nrequires: {admission: \"off\", why: it applies what admission refuses}\nsteps:\n- wait: 1s\n"), "t.yaml")
	require.NoError(t, err)
	assert.Equal(t, "", s.Requires.unmet(Host{}))
	assert.Contains(t, s.Requires.unmet(Host{Live: true, Admission: true}), "needs admission off, this host has it on: it applies what admission refuses")
	_, err = Parse([]byte("name: t\nrequires: {admission: \"off\"}\nsteps:\n- wait: 1s\n"), "t.yaml")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "requires.why is required")
	_, err = Parse([]byte("name: t\nrequires: {hots: live, why: x}\nsteps:\n- wait: 1s\n"), "t.yaml")
	require.Error(t, err)
}
