package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

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
