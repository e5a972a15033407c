package servingruntime

import (
	"encoding/json"
	"testing"

	"github.com/fsmserve/fsmserve/internal/crdschema"
)

var runtimeCRDs = map[string]string{
	"ServingRuntime":        "../../config/crd/bases/serving.kserve.io_servingruntimes.yaml",
	"ClusterServingRuntime": "../../config/crd/bases/serving.kserve.io_clusterservingruntimes.yaml",
}

func TestCasesPassTheSchema(t *testing.T) {
	kinds := crdschema.LoadKinds(t, runtimeCRDs)
	check := func(what string, raw json.RawMessage) { kinds.Admit(t, what, raw) }
	for _, c := range loadCases(t) {
		check(c.Name, c.Object)
		if c.Old != nil {
			check(c.Name+" old", c.Old)
		}
		for _, e := range c.Existing {
			check(c.Name+" existing", e)
		}
	}
}
