package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Load reads and checks one scenario file.
func Load(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// LoadAll loads every file matching glob (filepath.Glob syntax), sorted by
// path. It reports every broken file, not just the first; a glob that matches
// nothing is an error, so a mistyped pattern cannot pass as "no failures".
func LoadAll(glob string) ([]*Scenario, error) {
	paths, err := filepath.Glob(glob)
	if err != nil {
		return nil, fmt.Errorf("scenario glob %q: %w", glob, err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no scenario files match %q", glob)
	}
	sort.Strings(paths)
	var out []*Scenario
	var errs []error
	for _, p := range paths {
		s, err := Load(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}

// Parse reads a scenario from data; file names it in errors.
func Parse(data []byte, file string) (*Scenario, error) {
	s, err := parse(data)
	if err != nil {
		if file == "" {
			file = "<scenario>"
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	s.File = file
	return s, nil
}

// topLevelKeys are the keys of a scenario file.
var topLevelKeys = []string{"name", "description", "requires", "steps"}

func parse(data []byte) (*Scenario, error) {
	if n, err := countYAMLDocuments(data); err != nil {
		return nil, err
	} else if n != 1 {
		return nil, fmt.Errorf("a scenario file holds exactly one YAML document, found %d", n)
	}
	js, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return nil, err
	}
	if jsonKind(js) != "a mapping" {
		return nil, fmt.Errorf("a scenario is a mapping with %s, got %s", strings.Join(topLevelKeys, ", "), jsonKind(js))
	}
	var top struct {
		Name        string            `json:"name"`
		Description string            `json:"description"`
		Requires    *Requires         `json:"requires"`
		Steps       []json.RawMessage `json:"steps"`
	}
	if err := checkKeys(js, topLevelKeys, "at the top level"); err != nil {
		return nil, err
	}
	if err := decodeStrict(js, &top); err != nil {
		return nil, friendlyJSONError(err)
	}
	if strings.TrimSpace(top.Name) == "" {
		return nil, errors.New(`"name" is required: say in a few words what the scenario shows`)
	}
	if len(top.Steps) == 0 {
		return nil, errors.New(`"steps" is required and must hold at least one step`)
	}
	if top.Requires != nil {
		if err := top.Requires.validate(); err != nil {
			return nil, err
		}
	}
	s := &Scenario{Name: top.Name, Description: top.Description, Requires: top.Requires}
	for i, raw := range top.Steps {
		step, err := parseStep(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", stepLabel(i+1, step.Name), err)
		}
		s.Steps = append(s.Steps, step)
	}
	return s, nil
}

// stepLabel names a step in messages: `step 3 ("apply the sample")`.
func stepLabel(number int, name string) string {
	if name == "" {
		return fmt.Sprintf("step %d", number)
	}
	return fmt.Sprintf("step %d (%q)", number, name)
}

// stepKeys are the keys a step may hold besides its action.
var stepKeys = []string{"name", "namespace", "requires", "refused"}

// parseStep decodes one step key by key, so an error names the action it is
// in. The step's name is returned even on error, for the message.
func parseStep(raw json.RawMessage) (Step, error) {
	var step Step
	var fields map[string]json.RawMessage
	if jsonKind(raw) != "a mapping" || json.Unmarshal(raw, &fields) != nil {
		return step, fmt.Errorf("a step is a mapping with one action (%s), got %s", strings.Join(actionKeys, ", "), jsonKind(raw))
	}
	if name, ok := fields["name"]; ok {
		_ = json.Unmarshal(name, &step.Name)
	}
	if err := checkKeys(raw, append(slices.Clone(stepKeys), actionKeys...), "in the step"); err != nil {
		return step, err
	}
	var actions []string
	for _, key := range sortedKeys(fields) {
		if slices.Contains(actionKeys, key) {
			actions = append(actions, key)
		}
	}
	switch len(actions) {
	case 0:
		return step, fmt.Errorf("no action: a step holds exactly one of %s", strings.Join(actionKeys, ", "))
	case 1:
	default:
		return step, fmt.Errorf("%d actions (%s): a step holds exactly one action; split it into steps", len(actions), strings.Join(actions, ", "))
	}
	for _, key := range sortedKeys(fields) {
		if jsonKind(fields[key]) == "null" {
			return step, fmt.Errorf("%s has no value", key)
		}
		if err := checkUnknownKeys(fields[key], stepFieldTypes[key], key); err != nil {
			return step, err
		}
		if err := decodeStepField(&step, key, fields[key]); err != nil {
			return step, fmt.Errorf("%s: %w", key, friendlyJSONError(err))
		}
	}
	if err := validateStep(&step, actions[0]); err != nil {
		return step, fmt.Errorf("%s: %w", actions[0], err)
	}
	if step.Requires != nil {
		if err := step.Requires.validate(); err != nil {
			return step, err
		}
	}
	if step.Refused != nil && !slices.Contains([]string{actionApply, actionPatch, actionDelete}, actions[0]) {
		return step, fmt.Errorf("refused goes with apply, patch or delete, not %s", actions[0])
	}
	return step, nil
}

func decodeStepField(step *Step, key string, raw json.RawMessage) error {
	targets := map[string]any{
		"name": &step.Name, "namespace": &step.Namespace, "requires": &step.Requires, "refused": &step.Refused,
		actionApply: &step.Apply, actionPatch: &step.Patch, actionDelete: &step.Delete,
		actionExpect: &step.Expect, actionWorld: &step.World,
		actionAdvance: &step.Advance, actionWait: &step.Wait,
	}
	return decodeStrict(raw, targets[key])
}

// checkKeys refuses keys of the mapping in js that are not in known, naming
// the key and suggesting the closest known one.
func checkKeys(js []byte, known []string, where string) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(js, &fields); err != nil {
		return err
	}
	for _, key := range sortedKeys(fields) {
		if slices.Contains(known, key) {
			continue
		}
		msg := fmt.Sprintf("unknown key %q %s", key, where)
		if guess := closest(key, known); guess != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", guess)
		}
		return fmt.Errorf("%s; known keys: %s", msg, strings.Join(known, ", "))
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// friendlyJSONError rewrites encoding/json errors in the words of the format:
// keys rather than fields, YAML types rather than Go types.
func friendlyJSONError(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		where := typeErr.Field
		if where == "" {
			where = "value"
		}
		return fmt.Errorf("%s: expected %s, got a %s", where, yamlTypeName(typeErr.Type.String()), typeErr.Value)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	msg = strings.Replace(msg, "unknown field", "unknown key", 1)
	return errors.New(msg)
}

func yamlTypeName(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["):
		return "a mapping"
	case goType == "string":
		return "a string"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "float"):
		return "a number"
	case goType == "bool":
		return "a boolean"
	default:
		return "a mapping"
	}
}

// countYAMLDocuments counts the non-empty documents of a YAML stream.
func countYAMLDocuments(data []byte) (int, error) {
	docs, err := readYAMLDocuments(data)
	return len(docs), err
}

// readYAMLDocuments splits a YAML stream on "---" lines and drops documents
// that hold only comments or whitespace.
func readYAMLDocuments(data []byte) ([][]byte, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var docs [][]byte
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, err
		}
		if jsonKind(js) != "null" {
			docs = append(docs, doc)
		}
	}
}

// closest returns the known key nearest to key when it is plausibly a typo.
func closest(key string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if strings.EqualFold(k, key) {
			return k
		}
		if d := editDistance(strings.ToLower(key), strings.ToLower(k)); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
