package localmodel

import (
	"encoding/json"
	"testing"

	"github.com/fsmserve/fsmserve/internal/crdschema"
)

// crdFiles are the CRDs of the kinds the cases use.
var crdFiles = map[string]string{
	"LocalModelCache":          "../../config/crd/bases/serving.kserve.io_localmodelcaches.yaml",
	"LocalModelNamespaceCache": "../../config/crd/bases/serving.kserve.io_localmodelnamespacecaches.yaml",
	"LocalModelNodeGroup":      "../../config/crd/bases/serving.kserve.io_localmodelnodegroups.yaml",
	"InferenceService":         "../../config/crd/bases/serving.kserve.io_inferenceservices.yaml",
}

// TestCasesPassTheSchema keeps the cases honest: through a real API server
// it is the webhook that rejects them, not the CRD schema, and nothing is
// pruned on the way.
func TestCasesPassTheSchema(t *testing.T) {
	kinds := crdschema.LoadKinds(t, crdFiles)
	check := func(what string, raw json.RawMessage) { kinds.Admit(t, what, raw) }
	for _, c := range loadCases(t) {
		check(c.Name, c.Object)
		if c.Old != nil {
			check(c.Name+" old", c.Old)
		}
		for i, e := range c.Existing {
			check(c.Name+" existing "+string(rune('0'+i)), e)
		}
	}
}
