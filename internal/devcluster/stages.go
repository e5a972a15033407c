package devcluster

import (
	_ "embed"
	"os"
	"path/filepath"
	"strings"

	kwokpods "sigs.k8s.io/kwok/kustomize/stage/pod/fast"
)

//go:embed stages/faults.yaml
var faultStages string

// stagesFile is kwok's stage configuration in the kwok work dir.
func stagesFile(l layout) string { return filepath.Join(l.kwokDir, "stages.yaml") }

// writeStages writes the pod stages kwok plays: its own published defaults
// (a pod runs and is ready, a Job's pod completes, a deleted pod goes) and
// fsmserve's faults (internal/podfault). Giving kwok any pod stage replaces its defaults, so
// they are written out too; node stages stay kwok's defaults.
func writeStages(l layout) error {
	docs := []string{kwokpods.DefaultPodReady, kwokpods.DefaultPodComplete, kwokpods.DefaultPodDelete, faultStages}
	for i, d := range docs {
		docs[i] = strings.TrimSpace(d)
	}
	return os.WriteFile(stagesFile(l), []byte(strings.Join(docs, "\n---\n")+"\n"), 0o644)
}
