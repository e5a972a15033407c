package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/fsmserve/fsmserve/machines/engine"
	"github.com/fsmserve/fsmserve/steps/outcome"
)

func TestResultTurnsRunOutcomesIntoRequeues(t *testing.T) {
	ctx := context.Background()
	stepErr := errors.New("conflict writing the Deployment")
	cases := []struct {
		name      string
		runErr    error
		errs      []error
		requeue   time.Duration
		wantAfter time.Duration
		wantErr   bool
	}{
		{"settled, state asks for a check later", nil, nil, 10 * time.Second, 10 * time.Second, false},
		{"step error backs off", nil, []error{stepErr}, 0, 0, true},
		{"hop limit continues at once", fmt.Errorf("run: %w", &engine.HopLimitError{Machine: "m", Path: []string{"A", "B"}}), nil, time.Minute, hopRetry, false},
		{"definition error is an error", &engine.DefinitionError{Machine: "m", Problem: "two edges"}, nil, 0, 0, true},
		{"not permitted is only logged", &engine.NotPermittedError{Machine: "m", State: "A", Trigger: "T"}, nil, time.Second, time.Second, false},
	}
	for _, c := range cases {
		res, err := Result(ctx, c.runErr, outcome.Outcome{Err: errors.Join(c.errs...), RequeueAfter: c.requeue})
		if res.RequeueAfter != c.wantAfter || (err != nil) != c.wantErr {
			t.Errorf("%s: got RequeueAfter %v, err %v; want %v, error %v", c.name, res.RequeueAfter, err, c.wantAfter, c.wantErr)
		}
	}
}

func TestPersistFailed(t *testing.T) {
	gr := schema.GroupResource{Group: "serving.kserve.io", Resource: "inferenceservices"}
	conflict := apierrors.NewConflict(gr, "x", errors.New("the object has been modified"))
	gone := apierrors.NewNotFound(gr, "x")
	cases := []struct {
		name     string
		deleting bool
		err      error
		requeue  time.Duration
		wantErr  bool
	}{
		{"a lost race is redone on a fresh read, not logged as an error", false, conflict, conflictRetry, false},
		{"an object being deleted that is gone needs nothing", true, gone, 0, false},
		{"a live object that is gone is an error", false, gone, 0, true},
		{"anything else backs off", false, errors.New("connection refused"), 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := persistFailed(context.Background(), c.deleting, c.err)
			if (err != nil) != c.wantErr || res.RequeueAfter != c.requeue {
				t.Errorf("got %+v, %v; want requeue %s, error %v", res, err, c.requeue, c.wantErr)
			}
		})
	}
}
