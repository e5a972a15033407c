package pod

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/fsmserve/fsmserve/api/v1alpha1"
	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/webhooks/pod/credentials"
)

// read fills in the objects the steps will use for this pod and nothing
// more: a pod that gets no storage initializer and no agent (or already has
// them) costs no reads. It asks the same questions the steps ask, so the two
// cannot disagree about what is needed. A plan that fails is left for Mutate
// to report.
func (m *Mutator) read(ctx context.Context, pod *corev1.Pod, in *Inputs) error {
	plan, _ := planStorage(pod, in.Config)
	agent, wantsAgent := requestedAgent(pod)
	if wantsAgent && agent.logger {
		in.InferenceService = m.readInferenceService(ctx, pod)
	}
	if plan != nil && (plan.needsDownload() || plan.containerName != "") {
		list := &v1alpha1.ClusterStorageContainerList{}
		if err := m.Reader.List(ctx, list); err != nil {
			return fmt.Errorf("list ClusterStorageContainers: %w", err)
		}
		in.StorageContainers = list.Items
	}
	creds := &in.Config.Credentials
	if plan != nil && plan.needsDownload() && plan.spec != nil {
		secret, err := credentials.GetSecret(ctx, m.Reader, pod.Namespace, creds.StorageSecretName(pod.Annotations))
		if err != nil {
			return err
		}
		in.StorageConfigSecret = secret
	}
	if wantsAgent || (plan != nil && plan.needsDownload() && plan.spec == nil) {
		set, err := credentials.Resolve(ctx, m.Reader, creds, pod.Namespace, pod.Spec.ServiceAccountName, pod.Annotations)
		if err != nil {
			return err
		}
		in.StorageCredentials = set
	}
	if wantsAgent && agent.logger {
		if storage := resolveLogger(&in.Config.Logger, in.InferenceService).storage; storage != nil {
			set, err := credentials.Resolve(ctx, m.Reader, creds, pod.Namespace, storage.serviceAccountName, pod.Annotations)
			if err != nil {
				return err
			}
			in.LoggerCredentials = set
		}
	}
	return nil
}

// readInferenceService is best effort, as in KServe: without it the logger
// uses the config alone.
func (m *Mutator) readInferenceService(ctx context.Context, pod *corev1.Pod) *v1beta1.InferenceService {
	name := pod.Labels[v1beta1.InferenceServiceLabel]
	if name == "" {
		return nil
	}
	isvc := &v1beta1.InferenceService{}
	if err := m.Reader.Get(ctx, client.ObjectKey{Namespace: pod.Namespace, Name: name}, isvc); err != nil {
		logf.FromContext(ctx).V(1).Info("InferenceService not read; the logger uses the config alone", "name", name, "reason", err.Error())
		return nil
	}
	return isvc
}
