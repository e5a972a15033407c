package localmodelcache

import (
	"context"
	"sort"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// observeUsers lists the InferenceServices that use the cache, as the
// InferenceService defaulter labels them: a cluster cache's users carry
// label internal.serving.kserve.io/localmodel={name} and no namespace label;
// a namespace cache's users live in its namespace and carry both labels.
func (w *world) observeUsers(ctx context.Context) error {
	list, err := listUsers(ctx, w.client, w.cache.Ref)
	if err != nil {
		return err
	}
	for i := range list {
		isvc := &list[i]
		w.users = append(w.users, user{namespace: isvc.Namespace, name: isvc.Name,
			nodeGroup: isvc.Annotations[v1beta1.NodeGroupAnnotation]})
	}
	return nil
}

// listUsers lists the InferenceServices that use the cache, sorted by
// namespace and name.
func listUsers(ctx context.Context, c client.Reader, ref localmodel.CacheRef) ([]v1beta1.InferenceService, error) {
	list := &v1beta1.InferenceServiceList{}
	opts := []client.ListOption{client.MatchingLabels{v1beta1.LocalModelLabel: ref.Name}}
	if ref.Namespace != "" {
		opts = []client.ListOption{client.InNamespace(ref.Namespace),
			client.MatchingLabels{v1beta1.LocalModelLabel: ref.Name, v1beta1.LocalModelNamespaceLabel: ref.Namespace}}
	}
	if err := c.List(ctx, list, opts...); err != nil {
		return nil, err
	}
	var out []v1beta1.InferenceService
	for _, isvc := range list.Items {
		if ref.Namespace == "" && isvc.Labels[v1beta1.LocalModelNamespaceLabel] != "" {
			continue
		}
		out = append(out, isvc)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Namespace != out[j].Namespace {
			return out[i].Namespace < out[j].Namespace
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// placement is where serving volumes are needed: per namespace, the node
// groups its users ask for.
func (w *world) placement() localmodel.ServingPlacement {
	users := make([]localmodel.User, len(w.users))
	for i, u := range w.users {
		users[i] = localmodel.User{Namespace: u.namespace, NodeGroup: u.nodeGroup}
	}
	return localmodel.PlaceServing(w.view.spec.NodeGroups, users)
}

// usersStatus is status.inferenceServices.
func (w *world) usersStatus() []v1alpha1.NamespacedName {
	var out []v1alpha1.NamespacedName
	for _, u := range w.users {
		out = append(out, v1alpha1.NamespacedName{Namespace: u.namespace, Name: u.name})
	}
	return out
}
