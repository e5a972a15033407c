package localmodelnode

import (
	"context"
	"fmt"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/machines/nodecache"
)

// cacheFacts is what the agent reads from a model's LocalModelCache (or
// LocalModelNamespaceCache): its size and its node groups.
type cacheFacts struct {
	Size       *resource.Quantity
	NodeGroups []string
}

// cacheFactsOf reads the cache behind a spec entry; a cache that does not
// exist (yet, or any more) gives no facts.
func (sc *scope) cacheFactsOf(ctx context.Context, m *v1alpha1.LocalModelInfo) (cacheFacts, error) {
	if m.Namespace == "" {
		c := &v1alpha1.LocalModelCache{}
		if err := sc.a.Client.Get(ctx, client.ObjectKey{Name: m.ModelName}, c); err != nil {
			return cacheFacts{}, client.IgnoreNotFound(err)
		}
		return cacheFacts{Size: &c.Spec.ModelSize, NodeGroups: c.Spec.NodeGroups}, nil
	}
	c := &v1alpha1.LocalModelNamespaceCache{}
	if err := sc.a.Client.Get(ctx, client.ObjectKey{Namespace: m.Namespace, Name: m.ModelName}, c); err != nil {
		return cacheFacts{}, client.IgnoreNotFound(err)
	}
	return cacheFacts{Size: &c.Spec.ModelSize, NodeGroups: c.Spec.NodeGroups}, nil
}

// nodeGroupOf is the entry's node group, else its cache's first (default) one.
func nodeGroupOf(m *v1alpha1.LocalModelInfo, f cacheFacts) string {
	if m.NodeGroup != "" || len(f.NodeGroups) == 0 {
		return m.NodeGroup
	}
	return f.NodeGroups[0]
}

// capacityModel is one spec entry as the capacity plan sees it.
type capacityModel struct {
	Key, StorageKey, Group string
	// Size is nil when the cache cannot be read: such a model is not held back.
	Size *resource.Quantity
	// Holds is true when the model already holds its space (downloading,
	// cached, or failed but still listed).
	Holds bool
}

// planCapacity decides, for every model in spec order, whether it fits its
// node group's storage limit on this node. Models that hold space keep it;
// the others are admitted in spec order while they fit. Every agent worker
// computes the same plan from the same spec and status, so two models racing
// for the last space never both take it. A group with no known limit admits
// everything; models with the same storage key share one folder and count once.
func planCapacity(models []capacityModel, limits map[string]resource.Quantity) map[string]nodecache.Capacity {
	out := map[string]nodecache.Capacity{}
	used := map[string]*resource.Quantity{}
	holders := map[string][]string{}
	counted := map[string]bool{}
	take := func(m capacityModel) {
		if counted[m.StorageKey] {
			return
		}
		counted[m.StorageKey] = true
		if used[m.Group] == nil {
			used[m.Group] = resource.NewQuantity(0, resource.BinarySI)
		}
		size := sizeOf(m)
		used[m.Group].Add(*size)
		holders[m.Group] = append(holders[m.Group], fmt.Sprintf("%s (%s)", m.Key, size.String()))
	}
	for _, m := range models {
		if m.Holds {
			take(m)
		}
	}
	for _, m := range models {
		limit, limited := limits[m.Group]
		c := nodecache.Capacity{Fits: true, NodeGroup: m.Group, Need: sizeOf(m).String()}
		if limited {
			c.Limit = limit.String()
		}
		if !m.Holds && limited && !counted[m.StorageKey] {
			free := limit.DeepCopy()
			if u := used[m.Group]; u != nil {
				free.Sub(*u)
			}
			c.Free = free.String()
			c.Holders = append([]string(nil), holders[m.Group]...)
			c.Fits = sizeOf(m).Cmp(free) <= 0
		}
		if c.Fits && !m.Holds {
			take(m)
		}
		out[m.Key] = c
	}
	return out
}

func sizeOf(m capacityModel) *resource.Quantity {
	if m.Size == nil {
		return resource.NewQuantity(0, resource.BinarySI)
	}
	q := m.Size.DeepCopy()
	return &q
}

// holdsSpace lists the node cache states in which a model keeps its space:
// downloading, cached, failed but still listed, or being evicted (its folder
// is still on disk).
func holdsSpace(state string) bool {
	switch nodecache.State(state) {
	case nodecache.Downloading, nodecache.Cached, nodecache.Failed, nodecache.Evicting:
		return true
	}
	return false
}

// evictingModels are the models that left the spec but still hold space,
// as their records remember it.
func (sc *scope) evictingModels() []capacityModel {
	listed := map[string]bool{}
	for i := range sc.node.Spec.LocalModels {
		listed[sc.node.Spec.LocalModels[i].GetStatusKey()] = true
	}
	var out []capacityModel
	for key := range modelKeys(sc.node) {
		if listed[key] || !holdsSpace(sc.storedState(key)) {
			continue
		}
		r := readRecord(&sc.node.Status, key)
		out = append(out, capacityModel{Key: key, StorageKey: r.StorageKey, Group: r.NodeGroup, Size: r.Size, Holds: true})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// observeCapacity builds the plan for the whole spec and returns this
// model's verdict. A node group that does not exist sets no limit.
func (sc *scope) observeCapacity(ctx context.Context) (nodecache.Capacity, error) {
	list := sc.node.Spec.LocalModels
	models := make([]capacityModel, 0, len(list))
	limits := map[string]resource.Quantity{}
	for i := range list {
		m := &list[i]
		facts, err := sc.cacheFactsOf(ctx, m)
		if err != nil {
			return nodecache.Capacity{}, err
		}
		group := nodeGroupOf(m, facts)
		key := m.GetStatusKey()
		if key == sc.key {
			sc.rec.NodeGroup, sc.rec.Size = group, facts.Size
		}
		models = append(models, capacityModel{Key: key, StorageKey: v1alpha1.GetStorageKey(m.SourceModelUri),
			Group: group, Size: facts.Size, Holds: holdsSpace(sc.storedState(key))})
		if _, seen := limits[group]; seen || group == "" {
			continue
		}
		ng := &v1alpha1.LocalModelNodeGroup{}
		err = sc.a.Client.Get(ctx, client.ObjectKey{Name: group}, ng)
		switch {
		case err == nil:
			limits[group] = ng.Spec.StorageLimit
		case !apierrors.IsNotFound(err):
			return nodecache.Capacity{}, err
		}
	}
	return planCapacity(append(sc.evictingModels(), models...), limits)[sc.key], nil
}
