package config

import (
	"fmt"
	"path"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// OCIModelMode is how oci:// model URIs are materialised.
type OCIModelMode string

const (
	// OCIModelcar runs the model image as a sidecar sharing the process namespace.
	OCIModelcar OCIModelMode = "modelcar"
	// OCINative mounts the model image as a Kubernetes image volume.
	OCINative OCIModelMode = "native"
	// OCIFetch pulls the image into an emptyDir from an init container.
	OCIFetch OCIModelMode = "fetch"
	// OCIDisabled means oci:// URIs are not served through any OCI path.
	OCIDisabled OCIModelMode = ""
)

// Storage initializer defaults: the values KServe ships, because KServe's
// code has none (it rejects empty quantities) apart from the modelcar and CA
// bundle ones, which are its code defaults.
const (
	DefaultStorageInitializerImage = "kserve/storage-initializer:latest"
	DefaultCABundleVolumeMountPath = "/etc/ssl/custom-certs"
	DefaultCPUModelcar             = "10m"
	DefaultMemoryModelcar          = "15Mi"
)

// StorageInitializerConfig is the `storageInitializer` key.
type StorageInitializerConfig struct {
	Image         string `json:"image"`
	CPURequest    string `json:"cpuRequest"`
	CPULimit      string `json:"cpuLimit"`
	MemoryRequest string `json:"memoryRequest"`
	MemoryLimit   string `json:"memoryLimit"`
	// CABundleConfigMapName, when set, names a ConfigMap in the system
	// namespace whose cabundle.crt is copied to workload namespaces.
	CABundleConfigMapName   string `json:"caBundleConfigMapName"`
	CABundleVolumeMountPath string `json:"caBundleVolumeMountPath"`
	// EnableModelcar is KServe's older switch for OCI models (modelcar).
	EnableModelcar bool   `json:"enableModelcar"`
	CPUModelcar    string `json:"cpuModelcar"`
	MemoryModelcar string `json:"memoryModelcar"`
	// UIDModelcar, when set, is the RunAsUser of the modelcar containers.
	UIDModelcar           *int64       `json:"uidModelcar"`
	EnableOCIModelSupport bool         `json:"enableOciModelSupport"`
	OCIModelMode          OCIModelMode `json:"ociModelMode"`
	// OCIInsecureRegistry turns off TLS verification for fetch mode; it is an
	// explicit opt-in, never inferred.
	OCIInsecureRegistry bool `json:"ociInsecureRegistry"`
}

func defaultStorageInitializer() StorageInitializerConfig {
	return StorageInitializerConfig{
		Image:                   DefaultStorageInitializerImage,
		CPURequest:              "100m",
		CPULimit:                "1",
		MemoryRequest:           "100Mi",
		MemoryLimit:             "1Gi",
		CABundleVolumeMountPath: DefaultCABundleVolumeMountPath,
		CPUModelcar:             DefaultCPUModelcar,
		MemoryModelcar:          DefaultMemoryModelcar,
	}
}

func (c *StorageInitializerConfig) resources() ResourceConfig {
	return ResourceConfig{CPULimit: c.CPULimit, MemoryLimit: c.MemoryLimit, CPURequest: c.CPURequest, MemoryRequest: c.MemoryRequest}
}

// Resources are the storage-initializer init container's resources.
func (c *StorageInitializerConfig) Resources() corev1.ResourceRequirements {
	return c.resources().Resources()
}

// ModelcarResources are the modelcar containers' resources: request equals
// limit so the tiny sidecar is never throttled below what it asked for.
func (c *StorageInitializerConfig) ModelcarResources() corev1.ResourceRequirements {
	list := corev1.ResourceList{}
	if q, err := resource.ParseQuantity(c.CPUModelcar); err == nil {
		list[corev1.ResourceCPU] = q
	}
	if q, err := resource.ParseQuantity(c.MemoryModelcar); err == nil {
		list[corev1.ResourceMemory] = q
	}
	return corev1.ResourceRequirements{Requests: list, Limits: list.DeepCopy()}
}

// EffectiveOCIModelMode resolves the OCI mode: ociModelMode when set, else
// modelcar when either legacy switch is on, else disabled.
func (c *StorageInitializerConfig) EffectiveOCIModelMode() OCIModelMode {
	if c.OCIModelMode != OCIDisabled {
		return c.OCIModelMode
	}
	if c.EnableModelcar || c.EnableOCIModelSupport {
		return OCIModelcar
	}
	return OCIDisabled
}

func (c *StorageInitializerConfig) validate() *KeyError {
	def := defaultStorageInitializer()
	orDefault(&c.Image, def.Image)
	orDefault(&c.CPURequest, def.CPURequest)
	orDefault(&c.CPULimit, def.CPULimit)
	orDefault(&c.MemoryRequest, def.MemoryRequest)
	orDefault(&c.MemoryLimit, def.MemoryLimit)
	orDefault(&c.CABundleVolumeMountPath, def.CABundleVolumeMountPath)
	orDefault(&c.CPUModelcar, def.CPUModelcar)
	orDefault(&c.MemoryModelcar, def.MemoryModelcar)
	if ke := c.resources().validate(""); ke != nil {
		return ke
	}
	if ke := checkQuantity("cpuModelcar", c.CPUModelcar); ke != nil {
		return ke
	}
	if ke := checkQuantity("memoryModelcar", c.MemoryModelcar); ke != nil {
		return ke
	}
	switch c.OCIModelMode {
	case OCIDisabled, OCIModelcar, OCINative, OCIFetch:
	default:
		return &KeyError{Field: "ociModelMode", Problem: fmt.Sprintf("unknown OCI model mode %q", c.OCIModelMode),
			Fix: `use "modelcar", "native" or "fetch", or leave it empty`}
	}
	if c.UIDModelcar != nil && *c.UIDModelcar < 0 {
		return &KeyError{Field: "uidModelcar", Problem: fmt.Sprintf("%d is negative", *c.UIDModelcar),
			Fix: "use a non-negative user ID, or remove the field to keep the image's user"}
	}
	if !path.IsAbs(c.CABundleVolumeMountPath) {
		return &KeyError{Field: "caBundleVolumeMountPath", Problem: fmt.Sprintf("%q is not an absolute path", c.CABundleVolumeMountPath),
			Fix: "use an absolute path such as " + DefaultCABundleVolumeMountPath}
	}
	return validateObjectName("caBundleConfigMapName", c.CABundleConfigMapName)
}

// validateObjectName accepts "" (unset) or a valid object name.
func validateObjectName(field, name string) *KeyError {
	if name == "" {
		return nil
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return &KeyError{Field: field, Problem: fmt.Sprintf("%q is not a valid object name: %s", name, errs[0]),
			Fix: "use a lower-case name of letters, digits, '-' and '.'"}
	}
	return nil
}
