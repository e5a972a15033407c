package lifecycle

import (
	"context"
	"errors"
	"time"

	kerrors "k8s.io/apimachinery/pkg/util/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/fsmserve/fsmserve/machines/engine"
	"github.com/fsmserve/fsmserve/steps/outcome"
)

// hopRetry is how soon a reconcile whose machine hit the hop limit goes on.
const hopRetry = 50 * time.Millisecond

// Result turns what went wrong in a reconcile into a requeue: transient step
// errors back off, a hop limit continues right away, a definition error is a
// bug worth an error, a not-permitted trigger is only logged (the next
// observation decides again). The steps' combined outcome says how soon the
// states asked to run again.
func Result(ctx context.Context, runErr error, steps outcome.Outcome) (ctrl.Result, error) {
	var errs []error
	if steps.Err != nil {
		errs = append(errs, steps.Err)
	}
	requeueAfter := steps.RequeueAfter
	var hop *engine.HopLimitError
	var def *engine.DefinitionError
	var refused *engine.NotPermittedError
	switch {
	case errors.As(runErr, &def):
		errs = append(errs, runErr)
	case errors.As(runErr, &hop):
		log.FromContext(ctx).Info("lifecycle did not settle in one reconcile; continuing", "path", hop.Path)
		return ctrl.Result{RequeueAfter: hopRetry}, kerrors.NewAggregate(errs)
	case errors.As(runErr, &refused):
		refusedTriggersTotal.WithLabelValues(refused.Machine, refused.State, refused.Trigger).Inc()
		log.FromContext(ctx).V(1).Info("observation implied a trigger the state does not take", "error", runErr.Error())
	}
	return ctrl.Result{RequeueAfter: requeueAfter}, kerrors.NewAggregate(errs)
}
