package localmodelcache

import (
	"context"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/controllers/lifecycle"
	"github.com/fsmserve/fsmserve/internal/tracing"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// scope is one reconcile's view of a cache and its world: what was read, what
// the steps did. It lives for one reconcile.
type scope struct {
	r           *Reconciler
	view        view
	cache       localmodel.Cache
	before      *v1alpha1.LocalModelCacheStatus
	storedState string

	cfg     *config.Config
	problem machine.Problem
	// groups are the cache's node groups that exist, in spec order.
	groups []*v1alpha1.LocalModelNodeGroup
	// members are the nodes of those groups; nodes holds every
	// LocalModelNode by name (the cache's entries live in them).
	members []localmodel.Member
	nodes   map[string]*v1alpha1.LocalModelNode
	// existing names every Node of the cluster.
	existing map[string]bool
	users    []user

	spans           *tracing.Recorder
	changed         bool
	errs            []error
	removeFinalizer bool
}

// user is an InferenceService that uses the cache.
type user struct {
	namespace, name, nodeGroup string
}

func newScope(r *Reconciler, obj client.Object) *scope {
	v := viewOf(obj)
	before := v.status.DeepCopy()
	ensureLifecycle(v)
	return &scope{
		r: r, view: v, cache: v.cache(r.Kind), before: before, storedState: stateOf(v),
		spans: tracing.NewRecorder("Reconcile "+r.Kind.Name, append(lifecycle.ObjectAttributes(obj),
			attribute.String("sm.machine", machine.MachineName), attribute.Int64("k8s.object.generation", obj.GetGeneration()))...),
	}
}

// observe reads everything the machine decides on. Errors here are transient
// API errors and requeue.
func (sc *scope) observe(ctx context.Context) error {
	cfg, keyErrs, err := sc.r.Config.Load(ctx)
	if err != nil {
		return err
	}
	sc.cfg = cfg
	if err := sc.observeNodeGroups(ctx); err != nil {
		return err
	}
	if err := sc.observeJobNamespace(ctx, keyErrs.For(config.KeyLocalModel)); err != nil {
		return err
	}
	if err := sc.observeNodes(ctx); err != nil {
		return err
	}
	return sc.observeUsers(ctx)
}

// observeNodeGroups loads the node groups in spec order; missing ones are a
// problem that names them.
func (sc *scope) observeNodeGroups(ctx context.Context) error {
	var missing []string
	for _, name := range sc.view.spec.NodeGroups {
		g := &v1alpha1.LocalModelNodeGroup{}
		err := sc.r.Client.Get(ctx, client.ObjectKey{Name: name}, g)
		switch {
		case apierrors.IsNotFound(err):
			missing = append(missing, name)
		case err != nil:
			return err
		default:
			sc.groups = append(sc.groups, g)
		}
	}
	if len(missing) > 0 {
		sc.problem = machine.Problem{Kind: machine.NodeGroupProblem, Reason: machine.ReasonNodeGroupNotFound,
			Message: fmt.Sprintf("LocalModelNodeGroup %s named in spec.nodeGroups does not exist; create it, or remove it from spec.nodeGroups",
				strings.Join(missing, ", "))}
	}
	return nil
}

// observeJobNamespace records a configuration problem: a rejected localModel
// key, or a job namespace that does not exist (the download claims and Jobs
// live there).
func (sc *scope) observeJobNamespace(ctx context.Context, ke *config.KeyError) error {
	if ke != nil {
		sc.problem = machine.Problem{Kind: machine.ConfigProblem, Reason: ke.Reason(), Message: ke.Error()}
		return nil
	}
	ns := sc.cfg.LocalModel.JobNamespace
	err := sc.r.Client.Get(ctx, client.ObjectKey{Name: ns}, &corev1.Namespace{})
	if apierrors.IsNotFound(err) {
		sc.problem = machine.Problem{Kind: machine.ConfigProblem, Reason: machine.ReasonJobNamespaceNotFound, Message: fmt.Sprintf(
			"namespace %s (key localModel, field jobNamespace, of %s) does not exist; the download volumes and Jobs live there: create it, or set jobNamespace to an existing namespace",
			ns, config.ConfigMapName)}
		return nil
	}
	return err
}

// observeNodes reads the Nodes (membership comes from the groups' affinity)
// and every LocalModelNode.
func (sc *scope) observeNodes(ctx context.Context) error {
	nodes := &corev1.NodeList{}
	if err := sc.r.Client.List(ctx, nodes); err != nil {
		return err
	}
	sc.members = localmodel.Members(sc.groups, nodes.Items)
	sc.existing = make(map[string]bool, len(nodes.Items))
	for i := range nodes.Items {
		sc.existing[nodes.Items[i].Name] = true
	}
	lmns := &v1alpha1.LocalModelNodeList{}
	if err := sc.r.Client.List(ctx, lmns); err != nil {
		return err
	}
	sc.nodes = make(map[string]*v1alpha1.LocalModelNode, len(lmns.Items))
	for i := range lmns.Items {
		sc.nodes[lmns.Items[i].Name] = &lmns.Items[i]
	}
	return nil
}

// observation distils the scope into what the machine decides on.
func (sc *scope) observation() machine.Observation {
	o := machine.Observation{
		Deleting:    sc.view.obj.GetDeletionTimestamp() != nil,
		SpecChanged: sc.before.ObservedGeneration != 0 && sc.before.ObservedGeneration != sc.view.obj.GetGeneration(),
		Problem:     sc.problem,
		Nodes:       sc.nodesObservation(),
	}
	if sc.cfg != nil {
		o.JobNamespace = sc.cfg.LocalModel.JobNamespace
	}
	for _, u := range sc.users {
		o.Users = append(o.Users, u.namespace+"/"+u.name)
	}
	return o
}
