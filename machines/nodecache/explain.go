package nodecache

import (
	"fmt"
	"strings"
)

// Explain gives the reason and message recorded in the lifecycle block for
// being in state s. Every message names the model, because one LocalModelNode
// holds many; waiting for capacity says how much is needed and who holds it.
func Explain(s State, o Observation) (string, string) {
	m := o.Model
	switch s {
	case Absent:
		if !o.InSpec {
			return ReasonAbsent, fmt.Sprintf("model %s: evicted from this node", m)
		}
		return ReasonAbsent, fmt.Sprintf("model %s (%s) is not on this node yet", m, o.SourceModelUri)
	case Recovering:
		return ReasonRecovering, fmt.Sprintf("model %s: the stored cache state was not recognised; re-deriving it from the disk", m)
	case WaitingForCapacity:
		return ReasonInsufficientCapacity, capacityMessage(o)
	case Downloading:
		return ReasonDownloading, downloadingMessage(o)
	case Cached:
		return ReasonCached, fmt.Sprintf("model %s is cached in %s", m, o.Folder.Path)
	case Failed:
		d := o.Download
		return orDefault(d.Reason, ReasonDownloadFailed), fmt.Sprintf("model %s: the download gave up: %s", m, orDefault(d.Message, "see the download lifecycle"))
	case Evicting:
		return ReasonEvicting, fmt.Sprintf("model %s left the node's spec; deleting its download Job and folder %s", m, o.Folder.Path)
	}
	return string(s), ""
}

func capacityMessage(o Observation) string {
	c := o.Capacity
	holders := "nothing else"
	if len(c.Holders) > 0 {
		holders = strings.Join(c.Holders, ", ")
	}
	return fmt.Sprintf("model %s needs %s but node group %s has %s free of its %s storageLimit on this node (held by %s); it downloads when space is freed or the limit is raised",
		o.Model, c.Need, c.NodeGroup, c.Free, c.Limit, holders)
}

func downloadingMessage(o Observation) string {
	d := o.Download
	if d.SharedWith != "" {
		return fmt.Sprintf("model %s shares folder %s with %s, whose download fills it (%s)", o.Model, o.Folder.Path, d.SharedWith, orDefault(d.State, "not started"))
	}
	return fmt.Sprintf("model %s is downloading into %s (download %s)", o.Model, o.Folder.Path, orDefault(d.State, "starting"))
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
