// Package podfault names the pod faults the dev cluster's fake nodes play
// (kwok stages that internal/devcluster installs): a label on a pod makes
// its node report it as a kubelet would for a container that is not ready,
// an image that cannot be pulled, or a crash loop. The scenario runner uses
// them to bring about, by real means, the world its tables describe.
package podfault

const (
	// Label on a pod selects the fault; removing it lets the pod recover.
	Label = "fault.fsmserve.io/pod"
	// MessageAnnotation words the kubelet's message of the fault.
	MessageAnnotation = "fault.fsmserve.io/message"
	// ExitCodeAnnotation is a crash loop's exit code.
	ExitCodeAnnotation = "fault.fsmserve.io/exit-code"
	// NodeLabel ("true") marks nodes that play these faults.
	NodeLabel = "fault.fsmserve.io/stages"
)

// The faults, as the Label's values.
const (
	NotReady  = "not-ready"
	ImagePull = "image-pull"
	CrashLoop = "crash-loop"
)
