package battery_test

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	machine "github.com/fsmserve/fsmserve/machines/localmodelcache"
	"github.com/fsmserve/fsmserve/test/battery"
)

const (
	poolLabel = "battery.fsmserve.io/pool"
	pool      = "battery-pool"
)

// cachePlatform turns model caching on with Jobs in the battery's
// namespace, and makes one Ready node in one node group.
func cachePlatform(ctx context.Context, c client.Client, ns string) error {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: config.DefaultSystemNamespace, Name: config.ConfigMapName}, cm); err != nil {
		return err
	}
	cm.Data[config.KeyLocalModel] = fmt.Sprintf(`{"enabled": true, "jobNamespace": %q}`, ns)
	if err := c.Update(ctx, cm); err != nil {
		return err
	}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "battery-node", Labels: map[string]string{poolLabel: pool}}}
	if err := c.Create(ctx, node); err != nil {
		return err
	}
	node.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady"}}
	if err := c.Status().Update(ctx, node); err != nil {
		return err
	}
	size := resource.MustParse("50Gi")
	group := &v1alpha1.LocalModelNodeGroup{ObjectMeta: metav1.ObjectMeta{Name: pool}, Spec: v1alpha1.LocalModelNodeGroupSpec{
		StorageLimit: size,
		PersistentVolumeSpec: corev1.PersistentVolumeSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}, Capacity: corev1.ResourceList{corev1.ResourceStorage: size},
			PersistentVolumeSource: corev1.PersistentVolumeSource{Local: &corev1.LocalVolumeSource{Path: "/mnt/models"}},
			NodeAffinity: &corev1.VolumeNodeAffinity{Required: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchExpressions: []corev1.NodeSelectorRequirement{{Key: poolLabel, Operator: corev1.NodeSelectorOpIn, Values: []string{pool}}}}}}},
		},
		PersistentVolumeClaimSpec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: size}},
		},
	}}
	return c.Create(ctx, group)
}

// agentsDownloaded plays the node agents: every model a LocalModelNode
// lists is downloaded.
func agentsDownloaded(ctx context.Context, c client.Client, _ string) error {
	list := &v1alpha1.LocalModelNodeList{}
	if err := c.List(ctx, list); err != nil {
		return err
	}
	for i := range list.Items {
		n := &list.Items[i]
		changed := false
		for _, m := range n.Spec.LocalModels {
			if n.Status.ModelStatus[m.GetStatusKey()] != v1alpha1.ModelDownloaded {
				if n.Status.ModelStatus == nil {
					n.Status.ModelStatus = map[string]v1alpha1.ModelStatus{}
				}
				n.Status.ModelStatus[m.GetStatusKey()] = v1alpha1.ModelDownloaded
				changed = true
			}
		}
		if !changed {
			continue
		}
		if err := c.Status().Update(ctx, n); err != nil && !apierrors.IsConflict(err) {
			return err
		}
	}
	return nil
}

func TestLocalModelCacheBattery(t *testing.T) {
	battery.Plan[machine.State, machine.Trigger, machine.Observation]{
		Definition: machine.Definition,
		Controller: "localmodelcache",
		Prepare:    cachePlatform,
		Seed: battery.Objects[machine.State](machine.MachineName, func(_, name string) client.Object {
			return &v1alpha1.LocalModelCache{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: v1alpha1.LocalModelCacheSpec{
				SourceModelUri: "gs://bucket/" + name, ModelSize: resource.MustParse("1Gi"), NodeGroups: []string{pool}}}
		}, func(o client.Object) **common.Lifecycle { return &o.(*v1alpha1.LocalModelCache).Status.Lifecycle }),
		Goal: machine.Ready,
		Skip: map[machine.State]string{
			machine.WaitingForUsers: "a deletion waiting for its users: a state only a deleted object is in",
		},
		World: agentsDownloaded,
		Children: []battery.Child{
			battery.OnePer(func() client.ObjectList { return &corev1.PersistentVolumeClaimList{} }),
		},
	}.Run(t, newHost(t))
}
