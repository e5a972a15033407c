// Package battery is the controller battery: the checks every lifecycle
// kind owes against a real API server, next to enginetest.Battery for the
// machine alone. For each state a stored object can be in, it stores one
// object in that state, starts a fresh manager (fresh cache) and plays the
// cluster's missing controllers until every object reaches the kind's goal.
// Then it checks that every transition taken is one the definition
// permits, that no trigger was refused, that no object controls two
// children of one kind, and that a second fresh manager, started on the
// settled objects, reconciles each of them and writes nothing.
package battery

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/machines/engine"
)

// Kind is what the battery needs to know about one lifecycle kind.
type Kind[S ~string, T ~string, O any] struct {
	Definition *engine.Definition[S, T, O]
	// Controller is the controller's name in controller-runtime's metrics.
	Controller string
	// New returns the object to store in a state: a valid spec that can
	// reach Goal in the world World plays.
	New func(namespace, name string) client.Object
	// Lifecycle points at the object's status.lifecycle.
	Lifecycle func(client.Object) **common.Lifecycle
	// Goal is the state every object must end in.
	Goal S
	// Prepare, when set, makes the world the objects need (nodes, groups,
	// configuration) before any is stored.
	Prepare func(ctx context.Context, c client.Client, namespace string) error
	// Skip names the states not stored, each with the reason.
	Skip map[S]string
	// World plays the controllers the test cluster lacks, once; the
	// battery calls it until the objects converge. It must be idempotent.
	World func(ctx context.Context, c client.Client, namespace string) error
	// Children are the kinds of children; an object controls at most one
	// object of each.
	Children []func() client.ObjectList
}

// Host is where the battery runs: an API server with the platform
// installed, and a way to start a fresh manager on it.
type Host struct {
	Config *rest.Config
	Client client.Client
	// Start starts a fresh manager with every controller on cfg, waits for
	// its caches and returns a function that stops it.
	Start func(ctx context.Context, cfg *rest.Config) (stop func(), err error)
}

// Converge is how long the objects have to reach the goal.
var Converge = 90 * time.Second

// Run runs the battery for one kind.
func Run[S ~string, T ~string, O any](t *testing.T, h Host, k Kind[S, T, O]) {
	ns := namespace(t, h.Client, k.Definition.Name)
	if k.Prepare != nil {
		if err := k.Prepare(context.Background(), h.Client, ns); err != nil {
			t.Fatal(err)
		}
	}
	seeded := seed(t, h.Client, k, ns)
	refusedBefore := refusedTriggers(t, k.Definition.Name)

	stop := start(t, h, nil)
	converge(t, h.Client, k, ns, seeded)
	stop()

	t.Run("EveryTransitionIsPermitted", func(t *testing.T) { checkHistories(t, h.Client, k, seeded) })
	t.Run("NoTriggerRefused", func(t *testing.T) {
		if n := refusedTriggers(t, k.Definition.Name) - refusedBefore; n != 0 {
			t.Errorf("%v triggers refused: Classify implied a trigger the state does not permit (see fsmserve_lifecycle_refused_triggers_total)", n)
		}
	})
	t.Run("NoDuplicateChild", func(t *testing.T) { checkChildren(t, h.Client, k, ns) })
	t.Run("ZeroWritesOnASettledObject", func(t *testing.T) {
		writes := &WriteLog{}
		before := reconciles(t, k.Controller)
		stop := start(t, h, writes)
		defer stop()
		waitFor(t, 30*time.Second, func() string {
			if n := reconciles(t, k.Controller) - before; n < float64(len(seeded)) {
				return fmt.Sprintf("the fresh manager reconciled %v of %d objects", n, len(seeded))
			}
			return ""
		})
		// Events are sent asynchronously; give them time to show.
		time.Sleep(time.Second)
		if w := writes.Writes(); len(w) != 0 {
			t.Errorf("a fresh manager wrote %d times to %d settled objects:\n  %s", len(w), len(seeded), strings.Join(w, "\n  "))
		}
	})
}

// States lists the states the battery stores: all but the Final (a deletion
// is its own story) and Abstract ones, and those skipped.
func (k Kind[S, T, O]) States() []S {
	var out []S
	for _, r := range k.Definition.States {
		if r.Kind == engine.Final || r.Kind == engine.Abstract {
			continue
		}
		if _, skip := k.Skip[r.State]; skip {
			continue
		}
		out = append(out, r.State)
	}
	return out
}

func namespace(t *testing.T, c client.Client, kind string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "battery-" + strings.ToLower(kind) + "-"}}
	if err := c.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

// seed creates one object per state and stores the state in its status,
// as an earlier fsmserve would have left it. It returns the objects'
// names by the state stored.
func seed[S ~string, T ~string, O any](t *testing.T, c client.Client, k Kind[S, T, O], ns string) map[S]client.Object {
	t.Helper()
	ctx := context.Background()
	out := map[S]client.Object{}
	for _, s := range k.States() {
		obj := k.New(ns, strings.ToLower(string(s)))
		if err := c.Create(ctx, obj); err != nil {
			t.Fatalf("create the object for %s: %v", s, err)
		}
		*k.Lifecycle(obj) = &common.Lifecycle{Machine: k.Definition.Name, State: string(s)}
		if err := c.Status().Update(ctx, obj); err != nil {
			t.Fatalf("store state %s: %v", s, err)
		}
		out[s] = obj
	}
	return out
}

func start(t *testing.T, h Host, writes *WriteLog) func() {
	t.Helper()
	cfg := rest.CopyConfig(h.Config)
	if writes != nil {
		cfg.Wrap(writes.wrap)
	}
	stop, err := h.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return stop
}

// converge plays the world until every object is in the goal state.
func converge[S ~string, T ~string, O any](t *testing.T, c client.Client, k Kind[S, T, O], ns string, seeded map[S]client.Object) {
	t.Helper()
	ctx := context.Background()
	waitFor(t, Converge, func() string {
		if k.World != nil {
			if err := k.World(ctx, c, ns); err != nil {
				return "world: " + err.Error()
			}
		}
		var off []string
		for s, obj := range sortedObjects(seeded) {
			got := k.New(obj.GetNamespace(), obj.GetName())
			if err := c.Get(ctx, client.ObjectKeyFromObject(obj), got); err != nil {
				return err.Error()
			}
			if l := *k.Lifecycle(got); l == nil || l.State != string(k.Goal) {
				off = append(off, fmt.Sprintf("stored %s: now %s", s, describe(l)))
			}
		}
		if len(off) > 0 {
			return fmt.Sprintf("%d objects not %s:\n  %s", len(off), k.Goal, strings.Join(off, "\n  "))
		}
		return ""
	})
}

func describe(l *common.Lifecycle) string {
	if l == nil {
		return "no lifecycle"
	}
	return fmt.Sprintf("%s (%s: %s)", l.State, l.Reason, l.Message)
}

// checkHistories: every recorded transition is an edge of the definition,
// and the first leaves the state stored.
func checkHistories[S ~string, T ~string, O any](t *testing.T, c client.Client, k Kind[S, T, O], seeded map[S]client.Object) {
	bp := k.Definition.Blueprint()
	for s, obj := range sortedObjects(seeded) {
		got := k.New(obj.GetNamespace(), obj.GetName())
		if err := c.Get(context.Background(), client.ObjectKeyFromObject(obj), got); err != nil {
			t.Fatal(err)
		}
		l := *k.Lifecycle(got)
		if s != k.Goal && len(l.History) == 0 {
			t.Errorf("stored %s: reached %s with no transition recorded", s, l.State)
			continue
		}
		if len(l.History) > 0 && len(l.History) < common.MaxLifecycleHistory && l.History[0].From != string(s) {
			t.Errorf("stored %s: the first transition leaves %s", s, l.History[0].From)
		}
		for _, tr := range l.History {
			if !permitted(bp, tr) {
				t.Errorf("stored %s: %s --%s--> %s is not an edge of the definition", s, tr.From, tr.Trigger, tr.To)
			}
		}
	}
}

func permitted[S ~string, T ~string](bp engine.Blueprint[S, T], tr common.LifecycleTransition) bool {
	for _, e := range bp.EffectiveEdges(S(tr.From)) {
		if !e.Ignore && string(e.Trigger) == tr.Trigger && string(e.To) == tr.To {
			return true
		}
	}
	return false
}

// checkChildren: no object controls two children of one kind.
func checkChildren[S ~string, T ~string, O any](t *testing.T, c client.Client, k Kind[S, T, O], ns string) {
	for _, newList := range k.Children {
		list := newList()
		if err := c.List(context.Background(), list, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			t.Fatal(err)
		}
		byParent := map[string][]string{}
		for _, item := range items {
			o := item.(client.Object)
			if ref := metav1.GetControllerOf(o); ref != nil {
				byParent[ref.Name] = append(byParent[ref.Name], o.GetName())
			}
		}
		for parent, names := range byParent {
			if len(names) > 1 {
				t.Errorf("%s controls %d %T: %v", parent, len(names), list, names)
			}
		}
	}
}

func sortedObjects[S ~string](m map[S]client.Object) func(func(S, client.Object) bool) {
	keys := make([]S, 0, len(m))
	for s := range m {
		keys = append(keys, s)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return func(yield func(S, client.Object) bool) {
		for _, s := range keys {
			if !yield(s, m[s]) {
				return
			}
		}
	}
}

func waitFor(t *testing.T, timeout time.Duration, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) {
		if last = cond(); last == "" {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("not within %s: %s", timeout, last)
}
