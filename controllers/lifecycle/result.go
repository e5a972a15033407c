package lifecycle

import (
	"context"
	"errors"
	"time"

	kerrors "k8s.io/apimachinery/pkg/util/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/fsmserve/fsmserve/machines/engine"
)

// hopRetry is how soon a reconcile whose machine hit the hop limit goes on.
const hopRetry = 50 * time.Millisecond

// Result turns what went wrong in a reconcile into a requeue: transient step
// errors (errs) back off, a hop limit continues right away, a definition
// error is a bug worth an error, a not-permitted trigger is only logged (the
// next observation decides again). requeueAfter is what the state asked for.
func Result(ctx context.Context, runErr error, errs []error, requeueAfter time.Duration) (ctrl.Result, error) {
	var hop *engine.HopLimitError
	var def *engine.DefinitionError
	switch {
	case errors.As(runErr, &def):
		errs = append(errs, runErr)
	case errors.As(runErr, &hop):
		log.FromContext(ctx).Info("lifecycle did not settle in one reconcile; continuing", "path", hop.Path)
		return ctrl.Result{RequeueAfter: hopRetry}, kerrors.NewAggregate(errs)
	case engine.IsNotPermitted(runErr):
		log.FromContext(ctx).V(1).Info("observation implied a trigger the state does not take", "error", runErr.Error())
	}
	return ctrl.Result{RequeueAfter: requeueAfter}, kerrors.NewAggregate(errs)
}
