package localmodelnode

import (
	"context"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// housekeep is the node-wide part of the agent's work, outside any model's
// lifecycle: it deletes download Jobs that no model of this LocalModelNode
// accounts for (a model gone before the agent saw it, or a LocalModelNode of
// the same name deleted and created again), removes folders that no spec
// entry references, and schedules the next periodic check of every model.
func (a *Agent) housekeep(ctx context.Context, node *v1alpha1.LocalModelNode, cfg *config.Config) (ctrl.Result, error) {
	defer a.wake.at(Request{Model: allModels}, a.now().Add(cfg.LocalModel.ReconcilationFrequency()))
	if err := a.deleteStrayJobs(ctx, node); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, a.removeStrayFolders(ctx, node)
}

func (a *Agent) deleteStrayJobs(ctx context.Context, node *v1alpha1.LocalModelNode) error {
	list := &batchv1.JobList{}
	if err := a.Client.List(ctx, list, client.InNamespace(a.JobNamespace), client.MatchingLabelsSelector{Selector: localmodel.NodeJobSelector(a.NodeName)}); err != nil {
		return err
	}
	known := modelKeys(node)
	for i := range list.Items {
		j := &list.Items[i]
		key, _ := localmodel.ModelKeyOfJob(j.Annotations, j.Labels)
		if known[key] && localmodel.ControlledBy(j, node.UID) {
			continue
		}
		log.FromContext(ctx).Info("deleting a download Job no model of this node accounts for", "job", j.Name, "model", key)
		if err := localmodel.DeleteJob(ctx, a.Client, j); err != nil {
			return err
		}
	}
	return nil
}

// removeStrayFolders removes the folders under {root}/models that no spec
// entry references. Evicted models' folders go with their lifecycle; this
// catches the rest (an agent that was down while a model left the spec).
func (a *Agent) removeStrayFolders(ctx context.Context, node *v1alpha1.LocalModelNode) error {
	names, err := localmodel.ModelFolderNames(a.ModelsRoot)
	if err != nil {
		return err
	}
	for _, name := range names {
		if referenced(node.Spec.LocalModels, name) {
			continue
		}
		log.FromContext(ctx).Info("removing a model folder no spec entry references", "folder", localmodel.ModelFolder(a.ModelsRoot, name))
		if err := localmodel.RemoveModelFolder(localmodel.ModelFolder(a.ModelsRoot, name)); err != nil {
			return err
		}
	}
	return nil
}

// modelKeys lists every model the node accounts for: listed in the spec or
// still tracked in status (being evicted).
func modelKeys(node *v1alpha1.LocalModelNode) map[string]bool {
	out := map[string]bool{}
	for i := range node.Spec.LocalModels {
		out[node.Spec.LocalModels[i].GetStatusKey()] = true
	}
	for key := range node.Status.Lifecycles {
		if !strings.HasSuffix(key, downloadSuffix) {
			out[key] = true
		}
	}
	return out
}
