// Package predictor builds the desired children of an InferenceService
// predictor in Standard mode (Deployment, Service, HPA) from the spec, the
// chosen runtime and the platform configuration. Every function here is pure.
package predictor

import (
	"github.com/fsmserve/fsmserve/api/v1beta1"
)

// Normalize converts a framework shorthand to predictor.model (see
// PredictorSpec.ConvertShorthand). It changes p in place; pass a copy.
func Normalize(p *v1beta1.PredictorSpec) { p.ConvertShorthand() }
