package apply

import (
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/fsmserve/fsmserve/steps/outcome"
)

func TestOutcomeNamesWhatAnAPIErrorMeans(t *testing.T) {
	svc := schema.GroupResource{Resource: "services"}
	cases := []struct {
		name   string
		err    error
		status outcome.Status
		reason string
		after  bool
	}{
		{"done", nil, outcome.Done, "", false},
		{"a child someone else controls", &NotOwnedError{Kind: "Deployment", Name: "x"}, outcome.Waiting, ReasonChildNotOwned, false},
		{"an invalid child is the spec's to fix", apierrors.NewInvalid(schema.GroupKind{Kind: "Deployment"}, "x", nil), outcome.Failed, "Rejected", false},
		{"a quota is the cluster's, retried", apierrors.NewForbidden(svc, "x", errors.New("exceeded quota: q, requested: services=1, used: services=0, limited: services=0")), outcome.Waiting, ReasonRefused, true},
		{"an exhausted IP range, retried", apierrors.NewInternalError(errors.New("failed to allocate a serviceIP: range is full")), outcome.Waiting, ReasonRefused, true},
		{"a timeout is transient", apierrors.NewTimeoutError("slow", 1), outcome.Failed, "", false},
		{"a conflict is transient", apierrors.NewConflict(svc, "x", errors.New("modified")), outcome.Failed, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := Outcome(c.err, false, "Rejected", "the predictor", "fix the spec")
			transient := c.reason == "" && c.err != nil
			switch {
			case transient && o.Err == nil:
				t.Errorf("want a transient error, got %+v", o)
			case !transient && (o.Status != c.status || o.Reason != c.reason):
				t.Errorf("got %s %q, want %s %q", o.Status, o.Reason, c.status, c.reason)
			case (o.RequeueAfter > 0) != c.after:
				t.Errorf("requeue after %s, want a retry: %v", o.RequeueAfter, c.after)
			}
		})
	}
}
