package localmodelcache

import (
	"fmt"
	"strings"
)

// maxListed bounds how many names a message lists, so status stays small on
// big clusters; the rest is counted.
const maxListed = 5

// Explain gives the reason and message recorded in status.lifecycle for being
// in state s. Messages name the nodes, node groups and InferenceServices
// involved and say what to do when the cache is stuck.
func Explain(s State, o Observation) (string, string) {
	n := o.Nodes
	switch s {
	case Pending:
		return ReasonPending, "accepted; waiting for the controller to act"
	case Recovering:
		return ReasonRecovering, "the stored lifecycle state was not recognised; re-deriving it from what is observed"
	case ResolvingNodeGroups:
		return ReasonResolving, "loading the node groups named in spec.nodeGroups"
	case WaitingForNodeGroup, ConfigInvalid:
		return o.Problem.Reason, o.Problem.Message
	case WaitingForNodes:
		return ReasonNoReadyNodes, explainNoNodes(n)
	case Distributing:
		return ReasonDistributing, fmt.Sprintf("adding the model to the LocalModelNode of %d Ready node(s) of node group(s) %s%s",
			n.Ready(), strings.Join(n.Groups, ", "), outdated(n))
	case Downloading:
		return ReasonDownloading, copies(n) + progress(n) + notReady(n)
	case Ready:
		return ReasonReady, fmt.Sprintf("the model is on all %d Ready node(s) of node group(s) %s%s", n.Ready(), strings.Join(n.Groups, ", "), notReady(n))
	case PartiallyFailed:
		return ReasonPartiallyFailed, copies(n) + "; " + failures(n) + progress(n) + "; " + failureFix(o)
	case Failed:
		return ReasonFailed, "the download failed on every Ready node: " + failures(n) + "; " + failureFix(o)
	case WaitingForUsers:
		return ReasonInUse, fmt.Sprintf("deletion waits until no InferenceService uses the cache; still used by %s; delete them, or annotate them with serving.kserve.io/disable-localmodel: \"true\" so they stop using it",
			list(o.Users))
	case Deleting:
		return ReasonDeleting, "removing the model from every node and deleting its volumes"
	}
	return string(s), ""
}

func explainNoNodes(n Nodes) string {
	groups := strings.Join(n.Groups, ", ")
	if len(n.NotReady) > 0 {
		return fmt.Sprintf("no node of node group(s) %s is Ready (not Ready: %s); the model is distributed when one becomes Ready", groups, list(n.NotReady))
	}
	return fmt.Sprintf("no node matches the required node affinity of node group(s) %s (spec.persistentVolumeSpec.nodeAffinity of the LocalModelNodeGroup); label nodes to match it, or fix the affinity", groups)
}

func copies(n Nodes) string {
	return fmt.Sprintf("%d of %d copies available", len(n.Downloaded), n.Ready())
}

func progress(n Nodes) string {
	var parts []string
	if len(n.Downloading) > 0 {
		parts = append(parts, "downloading on "+list(n.Downloading))
	}
	if len(n.Pending) > 0 {
		parts = append(parts, "pending on "+list(n.Pending))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func notReady(n Nodes) string {
	if len(n.NotReady) == 0 {
		return ""
	}
	return "; not Ready, so not counted: " + list(n.NotReady)
}

func outdated(n Nodes) string {
	if len(n.Outdated) == 0 {
		return ""
	}
	return "; updating " + list(n.Outdated)
}

// failures names the failed nodes with what their agent said.
func failures(n Nodes) string {
	parts := make([]string, 0, len(n.Failed))
	for i, f := range n.Failed {
		if i == maxListed {
			parts = append(parts, fmt.Sprintf("and %d more", len(n.Failed)-maxListed))
			break
		}
		detail := f.Node
		if f.Reason != "" || f.Message != "" {
			detail += " (" + strings.TrimSpace(f.Reason+" "+f.Message) + ")"
		}
		parts = append(parts, detail)
	}
	return "download failed on " + strings.Join(parts, ", ")
}

func failureFix(o Observation) string {
	ns := o.JobNamespace
	if ns == "" {
		ns = "the localModel jobNamespace"
	}
	return fmt.Sprintf("check spec.sourceModelUri and the credentials (spec.serviceAccountName, spec.storage), and the download Jobs in namespace %s (kubectl describe localmodelnode NODE); the node agents retry", ns)
}

// list joins names, at most maxListed of them.
func list(names []string) string {
	if len(names) <= maxListed {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxListed], ", "), len(names)-maxListed)
}
