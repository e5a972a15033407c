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
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/internal/apicount"
	"github.com/fsmserve/fsmserve/machines/engine"
)

// Subject is one lifecycle the battery watches: an object's, or one entry
// of an object that holds several (a node's models).
type Subject struct {
	// Name says which, in failures.
	Name string
	// Stored is the state stored before the manager started.
	Stored string
	// Lifecycle reads the lifecycle as it is now; nil when there is none.
	Lifecycle func(ctx context.Context, c client.Client) (*common.Lifecycle, error)
}

// Plan is the battery for one machine.
type Plan[S ~string, T ~string, O any] struct {
	Definition *engine.Definition[S, T, O]
	// Controller is the controller's name in controller-runtime's metrics.
	Controller string
	// Prepare, when set, makes the world the subjects need (nodes, groups,
	// configuration) before any is stored.
	Prepare func(ctx context.Context, c client.Client, namespace string) error
	// Seed stores each state given, as an earlier fsmserve would have left
	// it, and returns the subjects in the order given.
	Seed func(ctx context.Context, c client.Client, namespace string, states []S) ([]Subject, error)
	// Goal is the state every subject must end in, unless Ends names
	// another for the state stored.
	Goal S
	Ends map[S]S
	// Skip names the states not stored, each with the reason.
	Skip map[S]string
	// World plays the controllers the test cluster lacks, once; the
	// battery calls it until the subjects converge. It must be idempotent.
	World func(ctx context.Context, c client.Client, namespace string) error
	// Children are the kinds of children and what makes one a duplicate.
	Children []Child
}

// Child is one kind of child: no two children of the kind may share a key.
type Child struct {
	List func() client.ObjectList
	// Key says what must be unique; nil: the controller (an object
	// controls at most one child of the kind).
	Key func(client.Object) string
}

// OnePer is a child kind an object controls at most one of.
func OnePer(list func() client.ObjectList) Child { return Child{List: list} }

// Host is where the battery runs: an API server with the platform
// installed, and a way to start a fresh manager on it.
type Host struct {
	Config *rest.Config
	Client client.Client
	// Start starts a fresh manager on cfg for the battery's namespace,
	// waits for its caches and returns a function that stops it.
	Start func(ctx context.Context, cfg *rest.Config, namespace string) (stop func(), err error)
}

// Converge is how long the subjects have to reach their goal.
var Converge = 90 * time.Second

// Run runs the battery for one machine.
func (p Plan[S, T, O]) Run(t *testing.T, h Host) {
	ctx := context.Background()
	ns := namespace(t, h.Client, p.Definition.Name)
	if p.Prepare != nil {
		if err := p.Prepare(ctx, h.Client, ns); err != nil {
			t.Fatal(err)
		}
	}
	subjects, err := p.Seed(ctx, h.Client, ns, p.States())
	if err != nil {
		t.Fatal(err)
	}
	refusedBefore := refusedTriggers(t, p.Definition.Name)

	stop := start(t, h, ns, nil)
	p.converge(t, h.Client, ns, subjects)
	stop()

	t.Run("EveryTransitionIsPermitted", func(t *testing.T) { p.checkHistories(t, h.Client, subjects) })
	t.Run("NoTriggerRefused", func(t *testing.T) {
		if n := refusedTriggers(t, p.Definition.Name) - refusedBefore; n != 0 {
			t.Errorf("%v triggers refused: Classify implied a trigger the state does not permit (see fsmserve_lifecycle_refused_triggers_total)", n)
		}
	})
	t.Run("NoDuplicateChild", func(t *testing.T) { checkChildren(t, h.Client, p.Children, ns) })
	t.Run("ZeroWritesOnASettledObject", func(t *testing.T) { p.checkNoWrites(t, h, ns, len(subjects)) })
}

// checkNoWrites starts a fresh manager on the settled subjects: it
// reconciles every one and writes nothing.
func (p Plan[S, T, O]) checkNoWrites(t *testing.T, h Host, ns string, n int) {
	writes := &apicount.Log{}
	before := reconciles(t, p.Controller)
	stop := start(t, h, ns, writes)
	defer stop()
	waitFor(t, 30*time.Second, func() string {
		if got := reconciles(t, p.Controller) - before; got < float64(n) {
			return fmt.Sprintf("the fresh manager reconciled %v times for %d subjects", got, n)
		}
		return ""
	})
	// Events are sent asynchronously; give them time to show.
	time.Sleep(time.Second)
	if w := writes.Snapshot().Writes(); len(w) != 0 {
		t.Errorf("a fresh manager wrote %d times to %d settled subjects: %v", apicount.Total(w), n, w)
	}
}

// States lists the states the battery stores: all but the Final (a deletion
// is its own story) and Abstract ones, and those skipped.
func (p Plan[S, T, O]) States() []S {
	var out []S
	for _, r := range p.Definition.States {
		if r.Kind == engine.Final || r.Kind == engine.Abstract {
			continue
		}
		if _, skip := p.Skip[r.State]; skip {
			continue
		}
		out = append(out, r.State)
	}
	return out
}

func (p Plan[S, T, O]) goalOf(stored string) S {
	if g, ok := p.Ends[S(stored)]; ok {
		return g
	}
	return p.Goal
}

func namespace(t *testing.T, c client.Client, kind string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "battery-" + strings.ToLower(kind) + "-"}}
	if err := c.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

func start(t *testing.T, h Host, ns string, writes *apicount.Log) func() {
	t.Helper()
	cfg := rest.CopyConfig(h.Config)
	if writes != nil {
		cfg = writes.Attach(cfg)
	}
	stop, err := h.Start(context.Background(), cfg, ns)
	if err != nil {
		t.Fatal(err)
	}
	return stop
}

// converge plays the world until every subject is in its goal state.
func (p Plan[S, T, O]) converge(t *testing.T, c client.Client, ns string, subjects []Subject) {
	t.Helper()
	ctx := context.Background()
	waitFor(t, Converge, func() string {
		if p.World != nil {
			if err := p.World(ctx, c, ns); err != nil {
				return "world: " + err.Error()
			}
		}
		var off []string
		for _, sub := range subjects {
			l, err := sub.Lifecycle(ctx, c)
			if err != nil {
				return err.Error()
			}
			if goal := p.goalOf(sub.Stored); l == nil || l.State != string(goal) {
				off = append(off, fmt.Sprintf("%s, stored %s: now %s, want %s", sub.Name, sub.Stored, describe(l), goal))
			}
		}
		if len(off) > 0 {
			return fmt.Sprintf("%d subjects not at their goal:\n  %s", len(off), strings.Join(off, "\n  "))
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
func (p Plan[S, T, O]) checkHistories(t *testing.T, c client.Client, subjects []Subject) {
	bp := p.Definition.Blueprint()
	for _, sub := range subjects {
		l, err := sub.Lifecycle(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if l == nil {
			continue
		}
		if sub.Stored != string(p.goalOf(sub.Stored)) && len(l.History) == 0 {
			t.Errorf("%s, stored %s: reached %s with no transition recorded", sub.Name, sub.Stored, l.State)
			continue
		}
		if len(l.History) > 0 && len(l.History) < common.MaxLifecycleHistory && l.History[0].From != sub.Stored {
			t.Errorf("%s, stored %s: the first transition leaves %s", sub.Name, sub.Stored, l.History[0].From)
		}
		for _, tr := range l.History {
			if !permitted(bp, tr) {
				t.Errorf("%s, stored %s: %s --%s--> %s is not an edge of the definition", sub.Name, sub.Stored, tr.From, tr.Trigger, tr.To)
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

// checkChildren: no two children of a kind share a key.
func checkChildren(t *testing.T, c client.Client, children []Child, ns string) {
	for _, child := range children {
		list := child.List()
		if err := c.List(context.Background(), list, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		items, err := meta.ExtractList(list)
		if err != nil {
			t.Fatal(err)
		}
		byKey := map[string][]string{}
		for _, item := range items {
			o := item.(client.Object)
			ref := metav1.GetControllerOf(o)
			if ref == nil {
				continue
			}
			key := ref.Name
			if child.Key != nil {
				key += " " + child.Key(o)
			}
			byKey[key] = append(byKey[key], o.GetName())
		}
		for key, names := range byKey {
			if len(names) > 1 {
				t.Errorf("%d of %T share %q: %v", len(names), list, key, names)
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
