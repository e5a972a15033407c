package runner

import (
	"encoding/json"
	"reflect"
	"strings"
)

// stepFieldTypes are the Go types of a step's keys, for the key check.
var stepFieldTypes = map[string]reflect.Type{
	actionApply:   reflect.TypeFor[Manifests](),
	actionPatch:   reflect.TypeFor[Patch](),
	actionExpect:  reflect.TypeFor[Expect](),
	actionWorld:   reflect.TypeFor[World](),
	actionAdvance: reflect.TypeFor[Duration](),
	actionWait:    reflect.TypeFor[Duration](),
}

// opaqueTypes hold content the format does not define (objects to apply,
// merge patches) or scalars with their own decoder: their keys are not checked.
var opaqueTypes = []reflect.Type{reflect.TypeFor[Manifests](), reflect.TypeFor[json.RawMessage](), reflect.TypeFor[Match]()}

// checkUnknownKeys walks raw along the Go type t and refuses the first key t
// does not define, naming its path (expect.conditions.Ready) and the closest
// known key. Values in a form other than a mapping (a status string for a
// condition, a name for a target) are left to the decoder.
func checkUnknownKeys(raw json.RawMessage, t reflect.Type, path string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || containsType(opaqueTypes, t) {
		return nil
	}
	switch {
	case t.Kind() == reflect.Struct && jsonKind(raw) == "a mapping":
		return checkStructKeys(raw, t, path)
	case t.Kind() == reflect.Map && jsonKind(raw) == "a mapping":
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return nil
		}
		for _, k := range sortedKeys(m) {
			if err := checkUnknownKeys(m[k], t.Elem(), path+"."+k); err != nil {
				return err
			}
		}
	case t.Kind() == reflect.Slice && jsonKind(raw) == "a list":
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		for _, item := range items {
			if err := checkUnknownKeys(item, t.Elem(), path+"[]"); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkStructKeys(raw json.RawMessage, t reflect.Type, path string) error {
	fields := jsonFields(t)
	known := make([]string, 0, len(fields))
	for _, f := range fields {
		known = append(known, f.key)
	}
	if err := checkKeys(raw, known, "in "+path); err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	for _, f := range fields {
		if v, ok := m[f.key]; ok {
			if err := checkUnknownKeys(v, f.typ, path+"."+f.key); err != nil {
				return err
			}
		}
	}
	return nil
}

type jsonField struct {
	key string
	typ reflect.Type
}

// jsonFields lists the JSON keys of a struct type and their types, including
// those of embedded structs.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && name == "":
			out = append(out, jsonFields(f.Type)...)
		case f.IsExported() && name != "-":
			if name == "" {
				name = f.Name
			}
			out = append(out, jsonField{name, f.Type})
		}
	}
	return out
}

func containsType(types []reflect.Type, t reflect.Type) bool {
	for _, c := range types {
		if c == t {
			return true
		}
	}
	return false
}
