package localmodelnode

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/fsmserve/fsmserve/internal/scheme"
)

// A fake node is steered with a ConfigMap (in any namespace) labelled
// fake-node.fsmserve.io/node=<node>, whose data.action is one of the
// actions below (data.sourceModelUri names the model for the folder ones).
// The outcome is written once into its fake-node.fsmserve.io/result
// annotation: a scenario applies the ConfigMap and expects the annotation.
const (
	FakeNodeLabel          = "fake-node.fsmserve.io/node"
	FakeNodeResult         = "fake-node.fsmserve.io/result"
	ActionRestartAgent     = "RestartAgent"
	ActionDeleteFolder     = "DeleteModelFolder"
	ActionInspectFolder    = "InspectModelFolder"
	fakeNodeActionKey      = "action"
	fakeNodeSourceModelURI = "sourceModelUri"
)

// startControl runs the loop that carries out fake-node ConfigMaps.
func (f *FakeNodes) startControl(ctx context.Context) error {
	hasNode, _ := labels.NewRequirement(FakeNodeLabel, selection.Exists, nil)
	mgr, err := ctrl.NewManager(f.cfg, ctrl.Options{
		Scheme:  scheme.New(),
		Cache:   cache.Options{ByObject: map[client.Object]cache.ByObject{&corev1.ConfigMap{}: {Label: labels.NewSelector().Add(*hasNode)}}},
		Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
	})
	if err != nil {
		return err
	}
	ctl := &fakeControl{f: f, c: mgr.GetClient()}
	err = ctrl.NewControllerManagedBy(mgr).Named("fake-node-control").For(&corev1.ConfigMap{}).
		WithOptions(controller.Options{SkipNameValidation: ptr.To(true)}).Complete(ctl)
	if err != nil {
		return err
	}
	r, err := run(ctx, mgr.Start, mgr.GetCache().WaitForCacheSync)
	if err != nil {
		return fmt.Errorf("fake node control: %w", err)
	}
	f.control = r
	return nil
}

type fakeControl struct {
	f *FakeNodes
	c client.Client
}

// Reconcile carries out a fake-node ConfigMap once.
func (fc *fakeControl) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{}
	if err := fc.c.Get(ctx, req.NamespacedName, cm); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if _, done := cm.Annotations[FakeNodeResult]; done || cm.DeletionTimestamp != nil {
		return ctrl.Result{}, nil
	}
	result := fc.act(ctx, cm.Labels[FakeNodeLabel], cm.Data[fakeNodeActionKey], cm.Data[fakeNodeSourceModelURI])
	patch := client.MergeFrom(cm.DeepCopy())
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[FakeNodeResult] = result
	return ctrl.Result{}, client.IgnoreNotFound(fc.c.Patch(ctx, cm, patch))
}

func (fc *fakeControl) act(ctx context.Context, node, action, uri string) string {
	var err error
	switch action {
	case ActionRestartAgent:
		if err = fc.f.Restart(ctx, node); err == nil {
			return "restarted"
		}
	case ActionDeleteFolder:
		if err = fc.f.DeleteModelFolder(node, uri); err == nil {
			return "deleted"
		}
	case ActionInspectFolder:
		var found string
		if found, err = fc.f.InspectModelFolder(node, uri); err == nil {
			return found
		}
	default:
		err = fmt.Errorf("unknown action %q: use %s, %s or %s", action, ActionRestartAgent, ActionDeleteFolder, ActionInspectFolder)
	}
	return "error: " + err.Error()
}
