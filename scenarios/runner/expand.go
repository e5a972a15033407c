package runner

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Placeholders a scenario may use in any string of a step; they are replaced
// when the step runs, because the namespace is only known then.
const (
	PlaceholderNamespace       = "${NAMESPACE}"
	PlaceholderSystemNamespace = "${SYSTEM_NAMESPACE}"
)

// expandStep returns the step with its placeholders replaced. It goes through
// the step's JSON form so that every string (manifests, patches, expected
// values, names) is covered by one rule, then checks the result as a file's
// step is checked (which also covers scenarios built in Go).
func expandStep(step Step, values map[string]string) (Step, error) {
	raw, err := json.Marshal(step)
	if err != nil {
		return Step{}, err
	}
	text := string(raw)
	pairs := make([]string, 0, 2*len(values))
	for placeholder, value := range values {
		quoted, _ := json.Marshal(value)
		pairs = append(pairs, placeholder, strings.Trim(string(quoted), `"`))
	}
	expanded, err := parseStep(json.RawMessage(strings.NewReplacer(pairs...).Replace(text)))
	if err != nil {
		return Step{}, fmt.Errorf("checking the step with placeholders replaced: %w", err)
	}
	return expanded, nil
}
