package inferencegraph

import (
	"context"

	"k8s.io/apimachinery/pkg/api/equality"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// persist writes status once, with optimistic locking (the resourceVersion
// read at the start), and skips the write when nothing changed. A conflict
// returns an error: nothing is published and the next reconcile redoes the
// edge from fresh observations.
func (sc *scope) persist(ctx context.Context) error {
	if equality.Semantic.DeepEqual(*sc.before, sc.ig.Status) {
		return nil
	}
	end := sc.spans.Start("Step WriteStatus")
	replaced := sc.ig.GetResourceVersion()
	err := sc.r.Client.Status().Update(ctx, sc.ig)
	end(err)
	if err == nil {
		sc.r.fresh.Wrote(client.ObjectKeyFromObject(sc.ig), replaced)
	}
	return err
}
