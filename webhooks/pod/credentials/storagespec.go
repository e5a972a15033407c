package credentials

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// Variables the storage initializer reads for a storage: block.
const (
	envStorageConfig         = "STORAGE_CONFIG"
	envStorageOverrideConfig = "STORAGE_OVERRIDE_CONFIG"
	defaultStorageKey        = "default"
	// URIPlaceholder is the scheme the controller writes for a storage.path
	// until the store's type is known.
	URIPlaceholder = "<scheme-placeholder>://"
)

// StorageTypes are the store types a storage: block may name.
var StorageTypes = []string{"s3", "hdfs", "webhdfs"}

// StorageSpec is a predictor's storage: block as the controller wrote it into
// the pod's annotations.
type StorageSpec struct {
	// Key of the storage-config secret that describes the store; "" means
	// "default", or "default_{type}" when the parameters name a type.
	Key string
	// Parameters override the store's settings; "type" and "bucket" are
	// also read here.
	Parameters map[string]string
}

// store is what the secret and the parameters together say about the store.
type store struct {
	typ, bucket, caBundleConfigMap string
	// key is the secret data key that holds the store's JSON; "" when the
	// secret has none to offer.
	key string
}

// ApplyStorageSpec points the storage initializer c at the store: the store
// JSON from the secret as STORAGE_CONFIG, the parameters as
// STORAGE_OVERRIDE_CONFIG, and every placeholder URI argument rewritten to
// {type}://{bucket}/{path}. secret is nil when secretName does not exist,
// which is fine unless a key was asked for.
func ApplyStorageSpec(spec StorageSpec, namespace, secretName string, secret *corev1.Secret, c *corev1.Container) error {
	st, err := lookupStore(spec, namespace, secretName, secret)
	if err != nil {
		return err
	}
	if st.typ == "" {
		return fmt.Errorf("cannot tell the type of the predictor's storage: neither storage.parameters nor secret %q in namespace %q (key %q) sets \"type\"; set it to one of %s",
			secretName, namespace, storeKey(spec), strings.Join(StorageTypes, ", "))
	}
	if !slices.Contains(StorageTypes, st.typ) {
		return fmt.Errorf("storage type %q is not supported; use one of %s", st.typ, strings.Join(StorageTypes, ", "))
	}
	if err := rewritePlaceholders(c.Args, st); err != nil {
		return err
	}
	if st.caBundleConfigMap != "" {
		podspec.SetEnvValue(c, envAWSCABundleCM, st.caBundleConfigMap)
	}
	if st.key != "" {
		podspec.SetEnv(c, podspec.SecretEnv(envStorageConfig, secretName, st.key))
	}
	if len(spec.Parameters) > 0 {
		raw, err := json.Marshal(spec.Parameters)
		if err != nil {
			return fmt.Errorf("storage.parameters: %w", err)
		}
		podspec.SetEnvValue(c, envStorageOverrideConfig, string(raw))
	}
	return nil
}

func storeKey(spec StorageSpec) string {
	switch {
	case spec.Key != "":
		return spec.Key
	case spec.Parameters["type"] != "":
		return defaultStorageKey + "_" + spec.Parameters["type"]
	}
	return defaultStorageKey
}

// lookupStore merges the parameters over the secret's JSON document; the
// parameters win, as they do in the storage initializer.
func lookupStore(spec StorageSpec, namespace, secretName string, secret *corev1.Secret) (store, error) {
	st := store{typ: spec.Parameters["type"], bucket: spec.Parameters["bucket"]}
	key := storeKey(spec)
	if secret == nil {
		if spec.Key != "" {
			return st, fmt.Errorf("storage.key %q needs secret %q in namespace %q, which does not exist; create the secret with that key",
				spec.Key, secretName, namespace)
		}
		return st, nil
	}
	data, ok := secret.Data[key]
	if !ok {
		if spec.Key != "" {
			return st, fmt.Errorf("secret %q in namespace %q has no key %q; add the key or correct storage.key",
				secretName, namespace, spec.Key)
		}
		return st, nil
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return st, fmt.Errorf("key %q of secret %q in namespace %q is not a JSON object (%v); write the store as JSON such as {\"type\": \"s3\", \"bucket\": \"models\"}",
			key, secretName, namespace, err)
	}
	str := func(name string) string { s, _ := doc[name].(string); return s }
	if st.typ == "" {
		st.typ = str("type")
	}
	if st.bucket == "" {
		st.bucket = str("bucket")
	}
	st.caBundleConfigMap = str("cabundle_configmap")
	st.key = key
	return st, nil
}

// rewritePlaceholders rewrites the URI arguments (every other argument,
// starting with the first) that still carry the placeholder scheme.
func rewritePlaceholders(args []string, st store) error {
	for i := 0; i < len(args); i += 2 {
		path, ok := strings.CutPrefix(args[i], URIPlaceholder)
		if !ok {
			continue
		}
		if st.typ != "s3" {
			args[i] = st.typ + "://" + path
			continue
		}
		if st.bucket == "" {
			return fmt.Errorf("storage type s3 needs a bucket, but neither storage.parameters nor the storage-config secret sets \"bucket\"; add one")
		}
		args[i] = "s3://" + st.bucket + "/" + path
	}
	return nil
}
