package localmodelcache

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/internal/tracing"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// world is what one reconcile read about a cache: its node groups, their
// nodes, the LocalModelNodes and the users, and the clients its steps write
// with. Steps update the LocalModelNodes they write.
type world struct {
	client client.Client
	// live reads LocalModelNodes afresh when a write conflicts.
	live  client.Reader
	spans *tracing.Recorder
	view  view
	cache localmodel.Cache

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
}

// user is an InferenceService that uses the cache.
type user struct {
	namespace, name, nodeGroup string
}

// observe reads everything the machine decides on. Errors here are transient
// API errors and requeue.
func (r *Reconciler) observe(ctx context.Context, rn *run) (*world, error) {
	v := viewOf(rn.Object)
	w := &world{client: r.Client, live: r.APIReader, spans: rn.Spans, view: v, cache: v.cache(r.Kind)}
	cfg, keyErrs, err := r.Config.Load(ctx)
	if err != nil {
		return nil, err
	}
	w.cfg = cfg
	if err := w.observeNodeGroups(ctx); err != nil {
		return nil, err
	}
	if err := w.observeJobNamespace(ctx, keyErrs.For(config.KeyLocalModel)); err != nil {
		return nil, err
	}
	if err := w.observeNodes(ctx); err != nil {
		return nil, err
	}
	return w, w.observeUsers(ctx)
}

// observeNodeGroups loads the node groups in spec order; missing ones are a
// problem that names them.
func (w *world) observeNodeGroups(ctx context.Context) error {
	var missing []string
	for _, name := range w.view.spec.NodeGroups {
		g := &v1alpha1.LocalModelNodeGroup{}
		err := w.client.Get(ctx, client.ObjectKey{Name: name}, g)
		switch {
		case apierrors.IsNotFound(err):
			missing = append(missing, name)
		case err != nil:
			return err
		default:
			w.groups = append(w.groups, g)
		}
	}
	if len(missing) > 0 {
		w.problem = machine.Problem{Kind: machine.NodeGroupProblem, Reason: machine.ReasonNodeGroupNotFound,
			Message: fmt.Sprintf("LocalModelNodeGroup %s named in spec.nodeGroups does not exist; create it, or remove it from spec.nodeGroups",
				strings.Join(missing, ", "))}
	}
	return nil
}

// observeJobNamespace records a configuration problem: a rejected localModel
// key, or a job namespace that does not exist (the download claims and Jobs
// live there).
func (w *world) observeJobNamespace(ctx context.Context, ke *config.KeyError) error {
	if ke != nil {
		w.problem = machine.Problem{Kind: machine.ConfigProblem, Reason: ke.Reason(), Message: ke.Error()}
		return nil
	}
	ns := w.cfg.LocalModel.JobNamespace
	err := w.client.Get(ctx, client.ObjectKey{Name: ns}, &corev1.Namespace{})
	if apierrors.IsNotFound(err) {
		w.problem = machine.Problem{Kind: machine.ConfigProblem, Reason: machine.ReasonJobNamespaceNotFound, Message: fmt.Sprintf(
			"namespace %s (key localModel, field jobNamespace, of %s) does not exist; the download volumes and Jobs live there: create it, or set jobNamespace to an existing namespace",
			ns, config.ConfigMapName)}
		return nil
	}
	return err
}

// observeNodes reads the Nodes (membership comes from the groups' affinity)
// and every LocalModelNode.
func (w *world) observeNodes(ctx context.Context) error {
	nodes := &corev1.NodeList{}
	if err := w.client.List(ctx, nodes); err != nil {
		return err
	}
	w.members = localmodel.Members(w.groups, nodes.Items)
	w.existing = make(map[string]bool, len(nodes.Items))
	for i := range nodes.Items {
		w.existing[nodes.Items[i].Name] = true
	}
	lmns := &v1alpha1.LocalModelNodeList{}
	if err := w.client.List(ctx, lmns); err != nil {
		return err
	}
	w.nodes = make(map[string]*v1alpha1.LocalModelNode, len(lmns.Items))
	for i := range lmns.Items {
		w.nodes[lmns.Items[i].Name] = &lmns.Items[i]
	}
	return nil
}

// observation distils the world into what the machine decides on. It is
// pure and runs again after every step.
func observation(rn *run) machine.Observation {
	w := rn.World
	o := machine.Observation{
		Deleting:    rn.Deleting,
		SpecChanged: rn.SpecChanged,
		Problem:     w.problem,
		Nodes:       w.nodesObservation(),
	}
	if w.cfg != nil {
		o.JobNamespace = w.cfg.LocalModel.JobNamespace
	}
	for _, u := range w.users {
		o.Users = append(o.Users, u.namespace+"/"+u.name)
	}
	return o
}
