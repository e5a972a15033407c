package webhooks

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// credentialReader reads Secrets and ServiceAccounts straight from the API
// server and everything else from the manager's cache. Secrets are never
// cached (a cluster-wide Secret cache is how controllers run out of memory),
// and a pod is often created right after its credentials, so a cache could be
// stale; storage containers, InferenceServices and the ConfigMap are few and
// change rarely, so the cache spares the API server a read per pod.
type credentialReader struct {
	cache client.Reader
	api   client.Reader
}

func (r credentialReader) pick(obj runtime.Object) client.Reader {
	switch obj.(type) {
	case *corev1.Secret, *corev1.SecretList, *corev1.ServiceAccount, *corev1.ServiceAccountList:
		return r.api
	}
	return r.cache
}

func (r credentialReader) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	return r.pick(obj).Get(ctx, key, obj, opts...)
}

func (r credentialReader) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	return r.pick(list).List(ctx, list, opts...)
}
