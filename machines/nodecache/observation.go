package nodecache

// Observation is everything the agent saw in one reconcile that the machine
// decides on. It is a plain value: building it is the agent's job.
type Observation struct {
	// Model is the model's key in LocalModelNode status (name, or
	// namespace/name for a namespace cache), for messages.
	Model          string
	SourceModelUri string
	// InSpec is true while the LocalModelNode's spec lists the model.
	InSpec bool
	// Folder is the model folder on the node's disk.
	Folder Folder
	// Capacity says whether the model fits its node group's storage limit
	// next to the models that already hold space on this node.
	Capacity Capacity
	// Download is how the model's download is going.
	Download Download
	// Evicted is true once the model's Jobs are gone and its folder is
	// removed (or kept because another spec entry shares it).
	Evicted bool
}

// Folder is {modelsRoot}/models/{storageKey} on the node.
type Folder struct {
	Path string
	// Verified is true when the folder exists and is not empty.
	Verified bool
	// Problem says why it is not verified ("does not exist", "is empty").
	Problem string
}

// Capacity is the admission decision against LocalModelNodeGroup.spec.storageLimit.
type Capacity struct {
	// Fits is true when the model may take its space (or no limit applies).
	Fits bool
	// NodeGroup, Limit, Need and Free (quantities as written, e.g. "10Gi")
	// explain the decision.
	NodeGroup string
	Limit     string
	Need      string
	Free      string
	// Holders lists the models that hold the group's space on this node.
	Holders []string
}

// Phase is how far the download has got, as the node cache reads the
// download Job machine.
type Phase string

const (
	NotStarted Phase = ""
	Running    Phase = "Running"
	Succeeded  Phase = "Succeeded"
	GaveUp     Phase = "GaveUp"
)

// Download is the download of the model's folder.
type Download struct {
	Phase Phase
	// State is the download lifecycle's state, for messages.
	State string
	// Reason and Message explain a download that gave up.
	Reason  string
	Message string
	// SharedWith names the spec entry whose download fills the same folder
	// (same source URI), when it is not this model's own.
	SharedWith string
}
