package inferenceservice

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// kbsResourceIDRegexp is the Key Broker Service address of a decryption key:
// kbs:///<repo>/<type>/<tag>.
var kbsResourceIDRegexp = regexp.MustCompile(`^kbs:///[a-zA-Z0-9_.-]+/[a-zA-Z0-9_.-]+/[a-zA-Z0-9_.-]+$`)

const pvcScheme = "pvc://"

// validateStorage checks a component's model locations: one storageUri or a
// storageUris list, never both; each entry a URI and a safe absolute mount
// path; PVC mount paths unique; other mount paths under one common parent,
// which becomes the download volume's mount.
func validateStorage(c *component) field.ErrorList {
	if len(c.storageUris) == 0 {
		return nil
	}
	path := c.path.Child("storageUris")
	var errs field.ErrorList
	if impl := c.single(); impl != nil && impl.storageURI != nil {
		errs = append(errs, field.Forbidden(path, fmt.Sprintf(
			"storageUris cannot be combined with a single storage URI (%s); list every artifact in storageUris, or keep only the single URI", *impl.storageURI)))
	}
	var downloads []string
	pvcPaths := map[string]bool{}
	for i, s := range c.storageUris {
		entry := path.Index(i)
		mount := mountPathOf(s)
		errs = append(errs, validateStorageURIEntry(s, entry)...)
		if !strings.HasPrefix(s.Uri, pvcScheme) {
			downloads = append(downloads, mount)
			continue
		}
		if pvcPaths[mount] {
			errs = append(errs, field.Invalid(entry.Child("mountPath"), mount,
				"is already the mount path of another pvc:// entry; give each PVC its own mountPath"))
		}
		pvcPaths[mount] = true
	}
	if len(downloads) > 1 && commonParent(downloads) == "/" {
		errs = append(errs, field.Invalid(path, strings.Join(downloads, ", "),
			"the mount paths of downloaded artifacts must share a parent directory other than / (e.g. /mnt/models/a and /mnt/models/b)"))
	}
	return errs
}

func validateStorageURIEntry(s v1beta1.StorageUri, entry *field.Path) field.ErrorList {
	var errs field.ErrorList
	if strings.TrimSpace(s.Uri) == "" {
		errs = append(errs, field.Required(entry.Child("uri"), "set the URI of the artifact, e.g. s3://bucket/model"))
	}
	mount := mountPathOf(s)
	switch {
	case mount == "/":
		errs = append(errs, field.Invalid(entry.Child("mountPath"), mount, "cannot be the root directory; use a directory such as /mnt/models"))
	case !strings.HasPrefix(mount, "/"):
		errs = append(errs, field.Invalid(entry.Child("mountPath"), mount, "must be an absolute path such as /mnt/models"))
	case strings.Contains(mount, ".."):
		errs = append(errs, field.Invalid(entry.Child("mountPath"), mount, "cannot contain '..'; write the absolute path without it"))
	}
	return errs
}

// mountPathOf is the entry's mount path with the CRD's default applied, so
// the rules read the same with or without the API server's defaulting.
func mountPathOf(s v1beta1.StorageUri) string {
	if s.MountPath == "" {
		return v1beta1.DefaultModelMountPath
	}
	return s.MountPath
}

// commonParent returns the deepest directory containing every path, "/"
// when they share none.
func commonParent(paths []string) string {
	var common []string
	for i, p := range paths {
		parts := strings.Split(strings.Trim(p, "/"), "/")
		if i == 0 {
			common = parts
			continue
		}
		n := 0
		for n < len(common) && n < len(parts) && common[n] == parts[n] {
			n++
		}
		common = common[:n]
	}
	if len(common) == 0 || common[0] == "" {
		return "/"
	}
	return "/" + strings.Join(common, "/")
}

// validateConfidential checks confidential model serving: the encrypted
// artifacts are downloaded, so a storage URI is required, and the key is
// addressed as kbs:///<repo>/<type>/<tag>.
func validateConfidential(impl *implementation) field.ErrorList {
	if impl.extension == nil || impl.extension.Confidential == nil || !impl.extension.Confidential.Enabled {
		return nil
	}
	var errs field.ErrorList
	if impl.storageURI == nil || *impl.storageURI == "" {
		errs = append(errs, field.Required(impl.path.Child("storageUri"),
			"confidential model serving decrypts downloaded artifacts, so set storageUri (or disable confidential)"))
	}
	if id := impl.extension.Confidential.ResourceId; id != nil && *id != "" && !kbsResourceIDRegexp.MatchString(*id) {
		errs = append(errs, field.Invalid(impl.path.Child("confidential", "resourceId"), *id,
			"must be written kbs:///<repo>/<type>/<tag>, each part letters, digits, '_', '.' or '-'"))
	}
	return errs
}

// confidentialWarnings notes confidential settings that have no effect.
func confidentialWarnings(isvc *v1beta1.InferenceService) []string {
	impl := isvc.Spec.Predictor.GetImplementation()
	if impl == nil || impl.Extension == nil || impl.Extension.Confidential == nil ||
		!impl.Extension.Confidential.Enabled || impl.Extension.StorageURI == nil {
		return nil
	}
	uri := *impl.Extension.StorageURI
	switch {
	case strings.HasPrefix(uri, "oci://"):
		return []string{"spec.predictor: confidential has no effect with oci:// URIs; the container runtime decrypts OCI images (see runtimeClassName)"}
	case strings.HasPrefix(uri, pvcScheme):
		return []string{"spec.predictor: confidential has no effect with pvc:// URIs; nothing is downloaded, so nothing is decrypted"}
	}
	return nil
}

// validateCollocatedTransformer rejects STORAGE_URI on a transformer
// container that shares the predictor's pod: only the predictor downloads
// the model.
func validateCollocatedTransformer(p *v1beta1.PredictorSpec, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range p.Containers {
		c := &p.Containers[i]
		if c.Name != v1beta1.TransformerContainerName {
			continue
		}
		for j, env := range c.Env {
			if env.Name == v1beta1.StorageURIEnvVar {
				errs = append(errs, field.Forbidden(path.Child("containers").Index(i).Child("env").Index(j).Child("name"),
					"a collocated transformer-container does not download the model; set the storage URI on the predictor (storageUri, or STORAGE_URI on kserve-container)"))
			}
		}
	}
	return errs
}
