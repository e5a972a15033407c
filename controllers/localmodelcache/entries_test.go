package localmodelcache

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/internal/tracing"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

func testScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	require.NoError(t, v1alpha1.AddToScheme(s))
	return s
}

func testCache(name string) *v1alpha1.LocalModelCache {
	return &v1alpha1.LocalModelCache{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID("uid-" + name)},
		Spec: v1alpha1.LocalModelCacheSpec{SourceModelUri: "s3://models/" + name, NodeGroups: []string{"gpu"}}}
}

// scopeFor builds the part of a reconcile's world that writes entries: the
// cache, its one Ready member node and the LocalModelNodes c holds.
func scopeFor(t *testing.T, c client.Client, cache *v1alpha1.LocalModelCache, nodes ...string) *world {
	t.Helper()
	v := viewOf(cache)
	sc := &world{client: c, live: c, spans: tracing.NewRecorder("test"), view: v, cache: v.cache(ClusterCaches)}
	list := &v1alpha1.LocalModelNodeList{}
	require.NoError(t, c.List(context.Background(), list))
	sc.nodes = map[string]*v1alpha1.LocalModelNode{}
	for i := range list.Items {
		sc.nodes[list.Items[i].Name] = &list.Items[i]
	}
	sc.existing = map[string]bool{}
	for _, n := range nodes {
		sc.members = append(sc.members, localmodel.Member{Node: n, Group: "gpu", Ready: true})
		sc.existing[n] = true
	}
	return sc
}

func entriesOf(t *testing.T, c client.Reader, node string) []string {
	t.Helper()
	lmn := &v1alpha1.LocalModelNode{}
	require.NoError(t, c.Get(context.Background(), client.ObjectKey{Name: node}, lmn))
	var out []string
	for _, e := range lmn.Spec.LocalModels {
		out = append(out, e.GetStatusKey())
	}
	return out
}

// TestAWriteThatLosesARaceIsRetriedOnAFreshRead plays another cache writing
// the same LocalModelNode between this reconcile's read and its write.
func TestAWriteThatLosesARaceIsRetriedOnAFreshRead(t *testing.T) {
	ctx := context.Background()
	existing := &v1alpha1.LocalModelNode{ObjectMeta: metav1.ObjectMeta{Name: "n1"},
		Spec: v1alpha1.LocalModelNodeSpec{LocalModels: []v1alpha1.LocalModelInfo{{ModelName: "first", SourceModelUri: "s3://first"}}}}
	var base client.Client
	raced := false
	base = fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(existing).WithInterceptorFuncs(interceptor.Funcs{
		Update: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
			if !raced {
				raced = true
				other := &v1alpha1.LocalModelNode{}
				require.NoError(t, c.Get(ctx, client.ObjectKey{Name: "n1"}, other))
				other.Spec.LocalModels = append(other.Spec.LocalModels, v1alpha1.LocalModelInfo{ModelName: "racer", SourceModelUri: "s3://racer"})
				require.NoError(t, c.Update(ctx, other))
			}
			return c.Update(ctx, obj, opts...)
		},
	}).Build()
	sc := scopeFor(t, base, testCache("mine"), "n1")
	require.NoError(t, sc.distribute(ctx).Err)
	assert.True(t, raced)
	assert.Equal(t, []string{"first", "racer", "mine"}, entriesOf(t, base, "n1"), "no cache's entry is lost")
}

func TestACreateThatLosesARaceUpdatesInstead(t *testing.T) {
	ctx := context.Background()
	created := false
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).WithInterceptorFuncs(interceptor.Funcs{
		Create: func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			if _, ok := obj.(*v1alpha1.LocalModelNode); ok && !created {
				created = true
				other := &v1alpha1.LocalModelNode{ObjectMeta: metav1.ObjectMeta{Name: obj.GetName()},
					Spec: v1alpha1.LocalModelNodeSpec{LocalModels: []v1alpha1.LocalModelInfo{{ModelName: "racer", SourceModelUri: "s3://racer"}}}}
				require.NoError(t, c.Create(ctx, other))
			}
			return c.Create(ctx, obj, opts...)
		},
	}).Build()
	sc := scopeFor(t, c, testCache("mine"), "n1")
	require.NoError(t, sc.distribute(ctx).Err)
	assert.Equal(t, []string{"racer", "mine"}, entriesOf(t, c, "n1"))
}

// TestManyCachesWritingOneNodeAtOnce is the property the optimistic lock
// buys: caches reconciled concurrently never drop each other's entries.
func TestManyCachesWritingOneNodeAtOnce(t *testing.T) {
	ctx := context.Background()
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).
		WithObjects(&v1alpha1.LocalModelNode{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Spec: v1alpha1.LocalModelNodeSpec{LocalModels: []v1alpha1.LocalModelInfo{}}}).Build()
	const caches = 12
	var wg sync.WaitGroup
	errs := make([][]error, caches)
	for i := 0; i < caches; i++ {
		sc := scopeFor(t, c, testCache(fmt.Sprintf("m%02d", i)), "n1")
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			// Each cache retries as the workqueue would until its write lands.
			var last error
			for attempt := 0; attempt < 20; attempt++ {
				if last = sc.distribute(ctx).Err; last == nil {
					break
				}
				fresh, err := sc.fresh(ctx, "n1")
				if err != nil {
					last = err
					break
				}
				sc.nodes["n1"] = fresh
			}
			if last != nil {
				errs[i] = []error{last}
			}
		}(i)
	}
	wg.Wait()
	for i, e := range errs {
		assert.Empty(t, e, "cache %d", i)
	}
	assert.Len(t, entriesOf(t, c, "n1"), caches)
}

func TestRemovalLeavesOtherEntriesAndUnknownNodesAlone(t *testing.T) {
	ctx := context.Background()
	mine := localmodel.Entry(localmodel.Cache{Ref: localmodel.CacheRef{Name: "mine"}, Spec: testCache("mine").Spec}, "gpu")
	nsMine := mine
	nsMine.Namespace = "team"
	lmn := func(name string, entries ...v1alpha1.LocalModelInfo) client.Object {
		return &v1alpha1.LocalModelNode{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: v1alpha1.LocalModelNodeSpec{LocalModels: entries}}
	}
	c := fake.NewClientBuilder().WithScheme(testScheme(t)).WithObjects(
		lmn("left", nsMine, mine), lmn("other", nsMine), lmn("no-such-node", mine)).Build()
	sc := scopeFor(t, c, testCache("mine"))
	sc.existing["left"], sc.existing["other"] = true, true
	assert.Equal(t, []string{"left", "no-such-node"}, sc.holders(), "a namespace cache of the same name is someone else")
	assert.Equal(t, []string{"left"}, sc.formerMembers(), "a LocalModelNode without a Node is left alone")
	require.NoError(t, sc.distribute(ctx).Err)
	assert.Equal(t, []string{"team/mine"}, entriesOf(t, c, "left"), "only the cluster cache's entry left the node that left the group")
	assert.Equal(t, []string{"team/mine"}, entriesOf(t, c, "other"))
	assert.Equal(t, []string{"mine"}, entriesOf(t, c, "no-such-node"))
	wrote, err := sc.removeFrom(ctx, "absent")
	require.NoError(t, err, "a node without a LocalModelNode has nothing to remove")
	assert.False(t, wrote)
	got, err := sc.fresh(ctx, "absent")
	assert.NoError(t, err)
	assert.Nil(t, got)

	out := sc.removeEverywhere(ctx)
	require.NoError(t, out.Err)
	assert.True(t, out.Changed, "removing the last entry is a write")
	assert.Empty(t, entriesOf(t, c, "no-such-node"), "a cache being deleted leaves no entry anywhere")
}
