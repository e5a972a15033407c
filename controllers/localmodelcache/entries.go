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
)

// maxWriteAttempts bounds the read-modify-write loop on one LocalModelNode.
const maxWriteAttempts = 5

// entryEdit changes a LocalModelNode's entries and says whether it did.
type entryEdit func([]v1alpha1.LocalModelInfo) ([]v1alpha1.LocalModelInfo, bool)

// distribute writes the cache's entry into the LocalModelNode of every Ready
// member node and removes it from nodes that left the node groups.
func (sc *scope) distribute(ctx context.Context) {
	end := sc.spans.Start("Step WriteLocalModelNodes")
	var firstErr error
	written := 0
	for _, m := range sc.members {
		entry := localmodel.Entry(sc.cache, m.Group)
		if !m.Ready || (sc.nodes[m.Node] != nil && localmodel.HasEntry(sc.nodes[m.Node].Spec.LocalModels, entry)) {
			continue
		}
		upsert := func(list []v1alpha1.LocalModelInfo) ([]v1alpha1.LocalModelInfo, bool) {
			return localmodel.UpsertEntry(list, entry)
		}
		firstErr = firstOf(firstErr, sc.editNode(ctx, m.Node, upsert, true))
		written++
	}
	for _, name := range sc.formerMembers() {
		firstErr = firstOf(firstErr, sc.removeFrom(ctx, name))
		written++
	}
	end(firstErr, attribute.Int("fsmserve.localmodelnodes.written", written))
	sc.recordErr(firstErr)
}

// removeEverywhere removes the cache's entry from every LocalModelNode.
func (sc *scope) removeEverywhere(ctx context.Context) {
	holders := sc.holders()
	if len(holders) == 0 {
		return
	}
	end := sc.spans.Start("Step RemoveFromLocalModelNodes", attribute.Int("fsmserve.localmodelnodes", len(holders)))
	var firstErr error
	for _, name := range holders {
		firstErr = firstOf(firstErr, sc.removeFrom(ctx, name))
	}
	end(firstErr)
	sc.recordErr(firstErr)
}

func (sc *scope) removeFrom(ctx context.Context, node string) error {
	ref := sc.cache.Ref
	return sc.editNode(ctx, node, func(list []v1alpha1.LocalModelInfo) ([]v1alpha1.LocalModelInfo, bool) {
		return localmodel.RemoveEntry(list, ref)
	}, false)
}

// editNode applies edit to the LocalModelNode named node and writes it with
// optimistic locking. On a conflict it reads the node afresh and applies edit
// again, so caches writing the same node at once never lose each other's
// entries, and the agent's status writes are never overwritten (only the
// main resource is updated). create makes a missing LocalModelNode.
func (sc *scope) editNode(ctx context.Context, node string, edit entryEdit, create bool) error {
	current := sc.nodes[node]
	for attempt := 0; attempt < maxWriteAttempts; attempt++ {
		written, err := sc.tryEdit(ctx, node, current, edit, create)
		if err == nil {
			if written != nil {
				sc.nodes[node] = written
			}
			return nil
		}
		if !apierrors.IsConflict(err) && !apierrors.IsAlreadyExists(err) {
			return err
		}
		if current, err = sc.fresh(ctx, node); err != nil {
			return err
		}
	}
	return fmt.Errorf("LocalModelNode %s kept changing under %d attempts to update it; retrying later", node, maxWriteAttempts)
}

// tryEdit makes one write attempt; it returns the written object, or nil when
// nothing needed writing.
func (sc *scope) tryEdit(ctx context.Context, node string, current *v1alpha1.LocalModelNode, edit entryEdit, create bool) (*v1alpha1.LocalModelNode, error) {
	if current == nil {
		if !create {
			return nil, nil
		}
		list, _ := edit([]v1alpha1.LocalModelInfo{})
		lmn := &v1alpha1.LocalModelNode{ObjectMeta: metav1.ObjectMeta{Name: node}, Spec: v1alpha1.LocalModelNodeSpec{LocalModels: list}}
		if err := sc.r.Client.Create(ctx, lmn); err != nil {
			return nil, err
		}
		sc.changed = true
		return lmn, nil
	}
	list, changed := edit(current.Spec.LocalModels)
	if !changed {
		return nil, nil
	}
	lmn := current.DeepCopy()
	lmn.Spec.LocalModels = list
	if err := sc.r.Client.Update(ctx, lmn); err != nil {
		return nil, err
	}
	sc.changed = true
	return lmn, nil
}

// fresh reads a LocalModelNode from the API server (nil when it is gone).
func (sc *scope) fresh(ctx context.Context, node string) (*v1alpha1.LocalModelNode, error) {
	lmn := &v1alpha1.LocalModelNode{}
	if err := sc.r.APIReader.Get(ctx, client.ObjectKey{Name: node}, lmn); err != nil {
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

func (sc *scope) recordErr(err error) {
	if err != nil {
		sc.errs = append(sc.errs, err)
	}
}
