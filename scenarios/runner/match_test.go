package runner

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustMatch(t *testing.T, raw string) Match {
	t.Helper()
	m, err := newMatch(raw)
	require.NoError(t, err)
	return m
}

func TestMatchCheck(t *testing.T) {
	tests := []struct {
		expect  string
		value   string
		present bool
		want    bool
	}{
		{"Ready", "Ready", true, true},
		{"Ready", "NotReady", true, false},
		{"Ready", "", false, false},
		{"", "", true, true},
		{"~^http://x-.*\\.example\\.com$", "http://x-scenario-abc.example.com", true, true},
		{"~^http://", "https://x", true, false},
		{"~ready", "is ready now", true, true}, // unanchored
		{"~.*", "", false, false},              // a regex never matches an absent value
		{"<absent>", "", false, true},
		{"<absent>", "", true, false}, // present but empty is not absent
		{"<absent>", "x", true, false},
	}
	for _, tt := range tests {
		got := mustMatch(t, tt.expect).check(tt.value, tt.present)
		assert.Equal(t, tt.want, got, "expect %q against %q (present %v)", tt.expect, tt.value, tt.present)
	}
}

func TestMatchConditions(t *testing.T) {
	have := []observedCondition{
		{Type: "Ready", Status: "False", Reason: "RuntimeNotRecognized", Message: "no runtime supports sklearn"},
		{Type: "PredictorReady", Status: "False", Reason: "RuntimeNotRecognized"},
		{Type: "IngressReady", Status: "True"},
	}
	reason := mustMatch(t, "RuntimeNotRecognized")
	wrongReason := mustMatch(t, "Deploying")
	message := mustMatch(t, "~no runtime")
	absent := mustMatch(t, "<absent>")
	tests := []struct {
		name string
		want map[string]ConditionExpect
		fail []string
	}{
		{"status only", map[string]ConditionExpect{"Ready": {Status: mustMatch(t, "False")}, "IngressReady": {Status: mustMatch(t, "True")}}, nil},
		{"status, reason and message regex", map[string]ConditionExpect{"Ready": {Status: mustMatch(t, "False"), Reason: &reason, Message: &message}}, nil},
		{"absent condition", map[string]ConditionExpect{"LatestDeploymentReady": {Status: absent}}, nil},
		{"absent reason", map[string]ConditionExpect{"IngressReady": {Status: mustMatch(t, "True"), Reason: &absent}}, nil},
		{"wrong status", map[string]ConditionExpect{"IngressReady": {Status: mustMatch(t, "False")}},
			[]string{`condition IngressReady: want status "False"; got IngressReady=True`}},
		{"wrong reason", map[string]ConditionExpect{"PredictorReady": {Status: mustMatch(t, "False"), Reason: &wrongReason}},
			[]string{`condition PredictorReady: want reason "Deploying"; got PredictorReady=False (RuntimeNotRecognized)`}},
		{"missing condition", map[string]ConditionExpect{"Ready": {Status: mustMatch(t, "False")}, "Zeta": {Status: mustMatch(t, "True")}},
			[]string{`condition Zeta: want status "True"; got <absent>`}},
		{"present where absent wanted", map[string]ConditionExpect{"Ready": {Status: absent}},
			[]string{`condition Ready: want status <absent>; got Ready=False (RuntimeNotRecognized: no runtime supports sklearn)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.fail, matchConditions(tt.want, have))
		})
	}
}

func TestConditionsOf(t *testing.T) {
	obj := map[string]any{"status": map[string]any{"conditions": []any{
		map[string]any{"type": "Ready", "status": "True", "reason": "Up", "message": "fine"},
		map[string]any{"type": "Other", "status": "Unknown"},
	}}}
	assert.Equal(t, []observedCondition{{"Ready", "True", "Up", "fine"}, {"Other", "Unknown", "", ""}}, conditionsOf(obj))
	assert.Empty(t, conditionsOf(map[string]any{}))
}

func TestMatchFields(t *testing.T) {
	obj := map[string]any{
		"metadata": map[string]any{"name": "x", "labels": map[string]any{"app.kubernetes.io/name": "iris"}},
		"spec":     map[string]any{"replicas": int64(2), "paused": false, "ports": []any{map[string]any{"port": int64(80)}}},
		"status":   map[string]any{"url": "http://x-ns.example.com", "empty": ""},
	}
	tests := []struct {
		path, want string
		fail       string
	}{
		{".status.url", "http://x-ns.example.com", ""},
		{"{.status.url}", "http://x-ns.example.com", ""},
		{".status.url", "~^http://x-.*\\.example\\.com$", ""},
		{".status.url", "http://other", `field .status.url: want "http://other", got "http://x-ns.example.com"`},
		{".status.address", "<absent>", ""},
		{".status.url", "<absent>", `field .status.url: want <absent>, got "http://x-ns.example.com"`},
		{".status.empty", "", ""},
		{".status.missing", "", `field .status.missing: want "", got <absent>`},
		{".spec.replicas", "2", ""},
		{".spec.paused", "false", ""},
		{".spec.ports[0].port", "80", ""},
		{".spec.ports[3].port", "<absent>", ""},
		{".metadata.labels.app\\.kubernetes\\.io/name", "iris", ""},
	}
	for _, tt := range tests {
		failures := matchFields(map[string]Match{tt.path: mustMatch(t, tt.want)}, obj)
		if tt.fail == "" {
			assert.Empty(t, failures, "%s = %s", tt.path, tt.want)
		} else {
			assert.Equal(t, []string{tt.fail}, failures)
		}
	}
}

func TestMatchEventOrder(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(1000+int64(s), 0) }
	records := []eventRecord{
		{Name: "x.3", Reason: "RuntimeResolved", First: at(2), Count: 1},
		{Name: "x.1", Reason: "Admitted", First: at(1), Count: 1},
		{Name: "x.4", Reason: "RolloutStarted", First: at(3), Count: 1},
		// A series: Retrying seen at 4 and again at 9, after RolloutFailed.
		{Name: "x.5", Reason: "Retrying", First: at(4), Last: at(9), Count: 3},
		{Name: "x.6", Reason: "RolloutFailed", First: at(5), Count: 1},
	}
	occ := occurrences(records)
	assert.Equal(t, []string{"Admitted", "RuntimeResolved", "RolloutStarted", "Retrying", "RolloutFailed", "Retrying"}, reasons(occ))
	tests := []struct {
		want []string
		fail string
	}{
		{nil, ""},
		{[]string{"Admitted", "RuntimeResolved"}, ""},
		{[]string{"Admitted", "RolloutFailed"}, ""}, // others may come between
		{[]string{"RolloutFailed", "Retrying"}, ""}, // the series' last sighting counts
		{[]string{"RuntimeResolved", "Admitted"}, "events: Admitted occurs only before RuntimeResolved (want RuntimeResolved, Admitted in this order)"},
		{[]string{"Admitted", "Ready"}, "events: no Ready event (want Admitted, Ready in this order)"},
		{[]string{"Admitted", "Admitted"}, "events: Admitted occurs only before Admitted (want Admitted, Admitted in this order)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.fail, matchEventOrder(tt.want, occ), "%v", tt.want)
	}
	assert.Empty(t, matchEventsAbsent([]string{"Deleted"}, occ))
	assert.Equal(t, []string{"eventsAbsent: a RolloutFailed event exists"}, matchEventsAbsent([]string{"Deleted", "RolloutFailed"}, occ))
}

func TestOccurrencesBreakTiesByName(t *testing.T) {
	same := time.Unix(1000, 0)
	occ := occurrences([]eventRecord{
		{Name: "x.18a2b3c4d5e6f702", Reason: "Second", First: same, Count: 1},
		{Name: "x.18a2b3c4d5e6f701", Reason: "First", First: same, Count: 1},
	})
	assert.Equal(t, []string{"First", "Second"}, reasons(occ))
}

func TestMissingNames(t *testing.T) {
	assert.Empty(t, missingNames([]string{"Transition"}, []string{"Reconcile", "Transition"}))
	assert.Equal(t, []string{"Step EnsurePredictor"}, missingNames([]string{"Transition", "Step EnsurePredictor"}, []string{"Transition"}))
}
