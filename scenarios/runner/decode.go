package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
)

// decodeStrict decodes one JSON value into v, rejecting unknown keys. Custom
// unmarshalers call it for their object forms: encoding/json does not carry
// DisallowUnknownFields into them.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("unexpected data after the value")
	}
	return nil
}

// jsonKind names the JSON type of data for error messages.
func jsonKind(data []byte) string {
	switch t := bytes.TrimSpace(data); {
	case len(t) == 0:
		return "nothing"
	case t[0] == '{':
		return "a mapping"
	case t[0] == '[':
		return "a list"
	case t[0] == '"':
		return "a string"
	case bytes.Equal(t, []byte("null")):
		return "null"
	case bytes.Equal(t, []byte("true")), bytes.Equal(t, []byte("false")):
		return "a boolean"
	default:
		return "a number"
	}
}

// UnmarshalJSON reads a string, number or boolean as the expected text;
// "~regex" is compiled here so a bad pattern fails at load time.
func (m *Match) UnmarshalJSON(data []byte) error {
	var raw string
	switch jsonKind(data) {
	case "a string":
		if err := json.Unmarshal(data, &raw); err != nil {
			return err
		}
	case "a number", "a boolean":
		raw = string(bytes.TrimSpace(data))
	default:
		return fmt.Errorf("expected a string, number or boolean, got %s", jsonKind(data))
	}
	parsed, err := newMatch(raw)
	if err != nil {
		return err
	}
	*m = parsed
	return nil
}

// MarshalJSON writes the text as written.
func (m Match) MarshalJSON() ([]byte, error) { return json.Marshal(m.raw) }

// newMatch parses an expected value: a literal, "~regex" or "<absent>".
func newMatch(raw string) (Match, error) {
	m := Match{raw: raw}
	switch {
	case raw == AbsentMarker:
		m.absent = true
	case strings.HasPrefix(raw, "~"):
		re, err := regexp.Compile(raw[1:])
		if err != nil {
			return Match{}, fmt.Errorf("invalid regular expression %q: %v", raw[1:], err)
		}
		m.re = re
	}
	return m, nil
}

// String returns the text as written.
func (m Match) String() string { return m.raw }

// UnmarshalJSON reads "30s"-style durations; bare numbers are refused because
// their unit would be a guess.
func (d *Duration) UnmarshalJSON(data []byte) error {
	var s string
	if jsonKind(data) != "a string" || json.Unmarshal(data, &s) != nil {
		return fmt.Errorf("a duration is a string with a unit such as 30s or 1m30s, got %s", strings.TrimSpace(string(data)))
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("invalid duration %q: write it with a unit such as 30s or 1m30s", s)
	}
	if v <= 0 {
		return fmt.Errorf("duration %q must be positive", s)
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// D returns the duration as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// UnmarshalJSON reads a status alone ("True", True, "<absent>") or the
// {status, reason, message} form.
func (c *ConditionExpect) UnmarshalJSON(data []byte) error {
	switch jsonKind(data) {
	case "a string", "a boolean":
		var status Match
		if err := status.UnmarshalJSON(data); err != nil {
			return err
		}
		*c = ConditionExpect{Status: status}
	case "a mapping":
		type plain ConditionExpect
		var p plain
		if err := decodeStrict(data, &p); err != nil {
			return err
		}
		if p.Status.raw == "" {
			return errors.New(`the mapping form needs "status" (True, False, Unknown or <absent>)`)
		}
		*c = ConditionExpect(p)
	default:
		return fmt.Errorf("a condition is a status (True, False, Unknown, <absent>) or {status, reason, message}, got %s", jsonKind(data))
	}
	return c.normalizeStatus()
}

// normalizeStatus turns YAML booleans and any capitalisation of a status into
// the API's spelling, and refuses anything that is not a status.
func (c *ConditionExpect) normalizeStatus() error {
	if c.Status.re != nil || c.Status.absent {
		return nil
	}
	for _, s := range []string{"True", "False", "Unknown"} {
		if strings.EqualFold(c.Status.raw, s) {
			c.Status = Match{raw: s}
			return nil
		}
	}
	return fmt.Errorf("condition status %q: want True, False, Unknown, <absent> or ~regex", c.Status.raw)
}

// UnmarshalJSON reads a YAML string of one or more documents, one mapping, or
// a list of mappings.
func (m *Manifests) UnmarshalJSON(data []byte) error {
	var docs []json.RawMessage
	switch jsonKind(data) {
	case "a string":
		var text string
		if err := json.Unmarshal(data, &text); err != nil {
			return err
		}
		parsed, err := splitYAMLDocuments(text)
		if err != nil {
			return err
		}
		docs = parsed
	case "a mapping":
		docs = []json.RawMessage{append(json.RawMessage(nil), data...)}
	case "a list":
		if err := json.Unmarshal(data, &docs); err != nil {
			return err
		}
	default:
		return fmt.Errorf("apply takes YAML documents in a string, a mapping or a list of mappings, got %s", jsonKind(data))
	}
	if len(docs) == 0 {
		return errors.New("apply has no objects")
	}
	for i, doc := range docs {
		if err := checkManifest(doc); err != nil {
			return fmt.Errorf("object %d: %w", i+1, err)
		}
	}
	m.Docs = docs
	return nil
}

// MarshalJSON writes the documents as a list of mappings.
func (m Manifests) MarshalJSON() ([]byte, error) {
	if m.Docs == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(m.Docs)
}

// looksLikeSelector tells a label selector from an object name in the string
// form of a Selection: names never hold these characters.
func looksLikeSelector(s string) bool { return strings.ContainsAny(s, "=!,() ") }

// selectionFromString reads the string form of a Selection.
func selectionFromString(data []byte) (Selection, error) {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return Selection{}, err
	}
	s = strings.TrimSpace(s)
	if looksLikeSelector(s) {
		return Selection{Selector: s}, nil
	}
	return Selection{Name: s}, nil
}

// decodeTarget decodes the string or mapping form of a world target into out,
// an alias type of the target whose first field is its Selection.
func decodeTarget(data []byte, out any, sel *Selection) error {
	switch jsonKind(data) {
	case "a string":
		s, err := selectionFromString(data)
		if err != nil {
			return err
		}
		*sel = s
		return nil
	case "a mapping":
		return decodeStrict(data, out)
	default:
		return fmt.Errorf("a target is a name, a label selector or a mapping, got %s", jsonKind(data))
	}
}

// UnmarshalJSON reads a name, a selector or {name|selector, replicas}.
func (t *DeploymentTarget) UnmarshalJSON(data []byte) error {
	type plain DeploymentTarget
	p := (*plain)(t)
	return decodeTarget(data, p, &p.Selection)
}

// UnmarshalJSON reads a name, a selector or {name|selector, reason, message, replicaFailure}.
func (t *DeploymentFailure) UnmarshalJSON(data []byte) error {
	type plain DeploymentFailure
	p := (*plain)(t)
	return decodeTarget(data, p, &p.Selection)
}

// UnmarshalJSON reads a name, a selector or {name|selector}.
func (t *JobTarget) UnmarshalJSON(data []byte) error {
	type plain JobTarget
	p := (*plain)(t)
	return decodeTarget(data, p, &p.Selection)
}

// UnmarshalJSON reads a name, a selector or {name|selector, reason, message}.
func (t *PodsStuck) UnmarshalJSON(data []byte) error {
	type plain PodsStuck
	p := (*plain)(t)
	return decodeTarget(data, p, &p.Selection)
}

// UnmarshalJSON reads a name, a selector or {name|selector, reason, message}.
func (t *JobFailure) UnmarshalJSON(data []byte) error {
	type plain JobFailure
	p := (*plain)(t)
	return decodeTarget(data, p, &p.Selection)
}
