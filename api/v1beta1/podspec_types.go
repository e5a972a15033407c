package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
)

// PodSpec lists every field of corev1.PodSpec (k8s.io/api v0.35) under the
// same JSON names, with one difference: containers is optional, because a
// component that uses a framework or a runtime sets only pod-level overrides
// here. A test keeps the field list in step with corev1.PodSpec. List and map
// markers follow KServe's copy, which leaves most lists atomic.
type PodSpec struct {
	// Volumes that containers of the pod can mount.
	// +optional
	Volumes []corev1.Volume `json:"volumes,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
	// InitContainers run in order before the containers start.
	// +optional
	InitContainers []corev1.Container `json:"initContainers,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	// Containers of the pod; required only for a custom component.
	// +optional
	Containers []corev1.Container `json:"containers,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	// EphemeralContainers cannot be set when a pod is created, so the schema
	// does not describe them (KServe drops them from its schema to keep the
	// CRD small); whatever is written is kept.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	EphemeralContainers []corev1.EphemeralContainer `json:"ephemeralContainers,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	// RestartPolicy of the containers: Always, OnFailure or Never.
	// +optional
	RestartPolicy corev1.RestartPolicy `json:"restartPolicy,omitempty"`
	// TerminationGracePeriodSeconds is how long a pod may take to stop.
	// +optional
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
	// ActiveDeadlineSeconds bounds how long the pod may run.
	// +optional
	ActiveDeadlineSeconds *int64 `json:"activeDeadlineSeconds,omitempty"`
	// DNSPolicy of the pod.
	// +optional
	DNSPolicy corev1.DNSPolicy `json:"dnsPolicy,omitempty"`
	// NodeSelector restricts the nodes the pod may run on.
	// +optional
	// +mapType=atomic
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// ServiceAccountName the pod runs as.
	// +optional
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// DeprecatedServiceAccount is the old spelling of serviceAccountName.
	// +optional
	DeprecatedServiceAccount string `json:"serviceAccount,omitempty"`
	// AutomountServiceAccountToken mounts the service account's token.
	// +optional
	AutomountServiceAccountToken *bool `json:"automountServiceAccountToken,omitempty"`
	// NodeName binds the pod to a node, bypassing the scheduler.
	// +optional
	NodeName string `json:"nodeName,omitempty"`
	// HostNetwork uses the node's network namespace.
	// +optional
	HostNetwork bool `json:"hostNetwork,omitempty"`
	// HostPID uses the node's PID namespace.
	// +optional
	HostPID bool `json:"hostPID,omitempty"`
	// HostIPC uses the node's IPC namespace.
	// +optional
	HostIPC bool `json:"hostIPC,omitempty"`
	// ShareProcessNamespace shares one PID namespace among the containers.
	// +optional
	ShareProcessNamespace *bool `json:"shareProcessNamespace,omitempty"`
	// SecurityContext of the pod.
	// +optional
	SecurityContext *corev1.PodSecurityContext `json:"securityContext,omitempty"`
	// ImagePullSecrets used to pull the images.
	// +optional
	ImagePullSecrets []corev1.LocalObjectReference `json:"imagePullSecrets,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	// Hostname of the pod.
	// +optional
	Hostname string `json:"hostname,omitempty"`
	// Subdomain of the pod.
	// +optional
	Subdomain string `json:"subdomain,omitempty"`
	// Affinity constrains scheduling.
	// +optional
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
	// SchedulerName of the scheduler that places the pod.
	// +optional
	SchedulerName string `json:"schedulerName,omitempty"`
	// Tolerations of node taints.
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
	// HostAliases added to the pod's hosts file.
	// +optional
	HostAliases []corev1.HostAlias `json:"hostAliases,omitempty" patchStrategy:"merge" patchMergeKey:"ip"`
	// PriorityClassName of the pod.
	// +optional
	PriorityClassName string `json:"priorityClassName,omitempty"`
	// Priority of the pod, filled from priorityClassName by admission.
	// +optional
	Priority *int32 `json:"priority,omitempty"`
	// DNSConfig of the pod.
	// +optional
	DNSConfig *corev1.PodDNSConfig `json:"dnsConfig,omitempty"`
	// ReadinessGates are extra conditions for pod readiness.
	// +optional
	ReadinessGates []corev1.PodReadinessGate `json:"readinessGates,omitempty"`
	// RuntimeClassName selects the container runtime.
	// +optional
	RuntimeClassName *string `json:"runtimeClassName,omitempty"`
	// EnableServiceLinks injects service environment variables.
	// +optional
	EnableServiceLinks *bool `json:"enableServiceLinks,omitempty"`
	// PreemptionPolicy of the pod.
	// +optional
	PreemptionPolicy *corev1.PreemptionPolicy `json:"preemptionPolicy,omitempty"`
	// Overhead is the resource cost of the runtime class.
	// +optional
	Overhead corev1.ResourceList `json:"overhead,omitempty"`
	// TopologySpreadConstraints spread the pods across topology domains.
	// +optional
	// +patchMergeKey=topologyKey
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=topologyKey
	// +listMapKey=whenUnsatisfiable
	TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty" patchStrategy:"merge" patchMergeKey:"topologyKey"`
	// SetHostnameAsFQDN sets the hostname to the fully qualified name.
	// +optional
	SetHostnameAsFQDN *bool `json:"setHostnameAsFQDN,omitempty"`
	// OS of the pod.
	// +optional
	OS *corev1.PodOS `json:"os,omitempty"`
	// HostUsers uses the node's user namespace.
	// +optional
	HostUsers *bool `json:"hostUsers,omitempty"`
	// SchedulingGates hold the pod back from scheduling.
	// +optional
	// +patchMergeKey=name
	// +patchStrategy=merge
	// +listType=map
	// +listMapKey=name
	SchedulingGates []corev1.PodSchedulingGate `json:"schedulingGates,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
	// ResourceClaims the pod needs allocated before it starts.
	// +optional
	// +patchMergeKey=name
	// +patchStrategy=merge,retainKeys
	// +listType=map
	// +listMapKey=name
	ResourceClaims []corev1.PodResourceClaim `json:"resourceClaims,omitempty" patchStrategy:"merge,retainKeys" patchMergeKey:"name"`
	// Resources of the whole pod.
	// +optional
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
	// HostnameOverride sets the pod's hostname.
	// +optional
	HostnameOverride *string `json:"hostnameOverride,omitempty"`
	// WorkloadRef names the Workload and pod group the pod belongs to.
	// +optional
	WorkloadRef *corev1.WorkloadReference `json:"workloadRef,omitempty"`
}
