// Package pod is the mutating admission webhook for the pods of
// InferenceServices (label serving.kserve.io/inferenceservice). It injects,
// in KServe's order: the GKE accelerator node selector, the storage
// initializer (or a read-only PVC mount) with its credentials and CA bundle,
// the Istio CNI user ID of the storage initializer, the agent sidecar for the
// logger, batcher and model puller, the metrics-aggregation settings and the
// OCI model containers.
//
// The work is split in two. Mutator reads what a pod needs from the cluster
// (configuration, service accounts, secrets, ClusterStorageContainers, the
// InferenceService); Mutate is a pure function of the pod and those Inputs.
// Every step is idempotent, because the API server may invoke the webhook again
// on a pod it has already mutated (reinvocationPolicy: IfNeeded): a second run
// must leave the pod as it is.
package pod
