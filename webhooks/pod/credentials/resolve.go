package credentials

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/config"
)

// DefaultServiceAccountName is the account of a pod that names none.
const DefaultServiceAccountName = "default"

// Secret is one secret a service account or an annotation points at.
type Secret struct {
	Name string
	// Object is the secret, or nil when it does not exist.
	Object *corev1.Secret
}

// Set is what one service account contributes to a container.
type Set struct {
	Namespace          string
	ServiceAccountName string
	// ServiceAccount is nil when the account does not exist. That is not an
	// error: a pod without credentials can still download public models.
	ServiceAccount *corev1.ServiceAccount
	// Annotation is the pod annotation that named the only secret to use, or
	// "" when the account's own secrets are used.
	Annotation string
	// Secrets in the order they are applied; a later secret's variables win.
	Secrets []Secret
}

// SelectedSecret returns the annotation key and secret name when the pod
// carries the configured storage-secret-name annotation with a value.
func SelectedSecret(cfg *config.CredentialsConfig, annotations map[string]string) (annotation, secret string, ok bool) {
	if cfg.StorageSecretNameAnnotation == "" {
		return "", "", false
	}
	name := annotations[cfg.StorageSecretNameAnnotation]
	return cfg.StorageSecretNameAnnotation, name, name != ""
}

// Resolve reads the service account (default "default") and the secrets it
// contributes: only the annotated secret when the pod names one, else every
// secret the account lists. Objects that do not exist are recorded as nil;
// only other read failures are errors.
func Resolve(ctx context.Context, r client.Reader, cfg *config.CredentialsConfig, namespace, serviceAccountName string, annotations map[string]string) (Set, error) {
	if serviceAccountName == "" {
		serviceAccountName = DefaultServiceAccountName
	}
	set := Set{Namespace: namespace, ServiceAccountName: serviceAccountName}
	sa := &corev1.ServiceAccount{}
	switch err := r.Get(ctx, client.ObjectKey{Namespace: namespace, Name: serviceAccountName}, sa); {
	case err == nil:
		set.ServiceAccount = sa
	case !apierrors.IsNotFound(err):
		return set, fmt.Errorf("read service account %q in namespace %q: %w", serviceAccountName, namespace, err)
	}
	var names []string
	if key, name, ok := SelectedSecret(cfg, annotations); ok {
		set.Annotation = key
		names = []string{name}
	} else if set.ServiceAccount != nil {
		for _, ref := range set.ServiceAccount.Secrets {
			names = append(names, ref.Name)
		}
	}
	for _, name := range names {
		s, err := GetSecret(ctx, r, namespace, name)
		if err != nil {
			return set, err
		}
		set.Secrets = append(set.Secrets, Secret{Name: name, Object: s})
	}
	return set, nil
}

// GetSecret reads a secret; nil without error when it does not exist.
func GetSecret(ctx context.Context, r client.Reader, namespace, name string) (*corev1.Secret, error) {
	s := &corev1.Secret{}
	err := r.Get(ctx, client.ObjectKey{Namespace: namespace, Name: name}, s)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read secret %q in namespace %q: %w", name, namespace, err)
	}
	return s, nil
}

// missing explains a referenced secret that does not exist.
func (s Set) missing(name string) error {
	if s.Annotation != "" {
		return fmt.Errorf("annotation %q names secret %q which does not exist in namespace %q; create the secret or correct the annotation",
			s.Annotation, name, s.Namespace)
	}
	return fmt.Errorf("service account %q references secret %q which does not exist in namespace %q; create it or remove it from the service account",
		s.ServiceAccountName, name, s.Namespace)
}
