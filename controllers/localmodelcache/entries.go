package localmodelcache

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/steps/localmodel"
	"github.com/fsmserve/fsmserve/steps/outcome"
)

// maxWriteAttempts bounds the read-modify-write loop on one LocalModelNode.
const maxWriteAttempts = 5

// entryEdit changes a LocalModelNode's entries and says whether it did.
type entryEdit func([]v1alpha1.LocalModelInfo) ([]v1alpha1.LocalModelInfo, bool)

// distribute writes the cache's entry into the LocalModelNode of every Ready
// member node and removes it from nodes that left the node groups.
func (w *world) distribute(ctx context.Context) outcome.Outcome {
	end := w.spans.Start("Step WriteLocalModelNodes")
	var firstErr error
	written, changed := 0, false
	edit := func(did bool, err error) {
		firstErr = firstOf(firstErr, err)
		changed = changed || did
		written++
	}
	for _, m := range w.members {
		entry := localmodel.Entry(w.cache, m.Group)
		if !m.Ready || (w.nodes[m.Node] != nil && localmodel.HasEntry(w.nodes[m.Node].Spec.LocalModels, entry)) {
			continue
		}
		upsert := func(list []v1alpha1.LocalModelInfo) ([]v1alpha1.LocalModelInfo, bool) {
			return localmodel.UpsertEntry(list, entry)
		}
		edit(w.editNode(ctx, m.Node, upsert, true))
	}
	for _, name := range w.formerMembers() {
		edit(w.removeFrom(ctx, name))
	}
	end(firstErr, attribute.Int("fsmserve.localmodelnodes.written", written))
	return outcome.Error(firstErr).Then(outcome.OK(changed))
}

// removeEverywhere removes the cache's entry from every LocalModelNode.
func (w *world) removeEverywhere(ctx context.Context) outcome.Outcome {
	holders := w.holders()
	if len(holders) == 0 {
		return outcome.OK(false)
	}
	end := w.spans.Start("Step RemoveFromLocalModelNodes", attribute.Int("fsmserve.localmodelnodes", len(holders)))
	var firstErr error
	changed := false
	for _, name := range holders {
		did, err := w.removeFrom(ctx, name)
		firstErr, changed = firstOf(firstErr, err), changed || did
	}
	end(firstErr)
	return outcome.Error(firstErr).Then(outcome.OK(changed))
}

func (w *world) removeFrom(ctx context.Context, node string) (bool, error) {
	ref := w.cache.Ref
	return w.editNode(ctx, node, func(list []v1alpha1.LocalModelInfo) ([]v1alpha1.LocalModelInfo, bool) {
		return localmodel.RemoveEntry(list, ref)
	}, false)
}

// editNode applies edit to the LocalModelNode named node and writes it with
// optimistic locking. On a conflict it reads the node afresh and applies edit
// again, so caches writing the same node at once never lose each other's
// entries, and the agent's status writes are never overwritten (only the
// main resource is updated). create makes a missing LocalModelNode. It
// reports whether it wrote.
func (w *world) editNode(ctx context.Context, node string, edit entryEdit, create bool) (bool, error) {
	current := w.nodes[node]
	for attempt := 0; attempt < maxWriteAttempts; attempt++ {
		written, err := w.tryEdit(ctx, node, current, edit, create)
		if err == nil {
			if written != nil {
				w.nodes[node] = written
			}
			return written != nil, nil
		}
		if !apierrors.IsConflict(err) && !apierrors.IsAlreadyExists(err) {
			return false, err
		}
		if current, err = w.fresh(ctx, node); err != nil {
			return false, err
		}
	}
	return false, fmt.Errorf("LocalModelNode %s kept changing under %d attempts to update it; retrying later", node, maxWriteAttempts)
}

// tryEdit makes one write attempt; it returns the written object, or nil when
// nothing needed writing.
func (w *world) tryEdit(ctx context.Context, node string, current *v1alpha1.LocalModelNode, edit entryEdit, create bool) (*v1alpha1.LocalModelNode, error) {
	if current == nil {
		if !create {
			return nil, nil
		}
		list, _ := edit([]v1alpha1.LocalModelInfo{})
		lmn := &v1alpha1.LocalModelNode{ObjectMeta: metav1.ObjectMeta{Name: node}, Spec: v1alpha1.LocalModelNodeSpec{LocalModels: list}}
		if err := w.client.Create(ctx, lmn); err != nil {
			return nil, err
		}
		return lmn, nil
	}
	list, changed := edit(current.Spec.LocalModels)
	if !changed {
		return nil, nil
	}
	lmn := current.DeepCopy()
	lmn.Spec.LocalModels = list
	if err := w.client.Update(ctx, lmn); err != nil {
		return nil, err
	}
	return lmn, nil
}

// fresh reads a LocalModelNode from the API server (nil when it is gone).
func (w *world) fresh(ctx context.Context, node string) (*v1alpha1.LocalModelNode, error) {
	lmn := &v1alpha1.LocalModelNode{}
	if err := w.live.Get(ctx, client.ObjectKey{Name: node}, lmn); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	return lmn, nil
}

func firstOf(first, err error) error {
	if first != nil {
		return first
	}
	return err
}
