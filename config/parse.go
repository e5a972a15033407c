package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// keyParser parses one data key's JSON into its part of cfg. It only writes
// cfg when the whole key is valid, so a rejected key keeps its defaults.
type keyParser struct {
	key   string
	parse func(raw string, cfg *Config) *KeyError
}

// keyParsers is in the order KServe documents the keys; Parse does not depend
// on the order because no key's validation reads another key.
var keyParsers = []keyParser{
	{KeyExplainers, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyExplainers, raw, &c.Explainers, defaultExplainers, (*ExplainersConfig).normalize)
	}},
	{KeyInferenceService, parseInferenceService},
	{KeyMultiNode, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyMultiNode, raw, &c.MultiNode, func() MultiNodeConfig { return MultiNodeConfig{} }, (*MultiNodeConfig).validate)
	}},
	{KeyStorageInitializer, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyStorageInitializer, raw, &c.StorageInitializer, defaultStorageInitializer, (*StorageInitializerConfig).validate)
	}},
	{KeyCredentials, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyCredentials, raw, &c.Credentials, defaultCredentials, (*CredentialsConfig).validate)
	}},
	{KeyIngress, parseIngress},
	{KeyLogger, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyLogger, raw, &c.Logger, defaultLogger, (*LoggerConfig).validate)
	}},
	{KeyBatcher, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyBatcher, raw, &c.Batcher, defaultBatcher, (*BatcherConfig).validate)
	}},
	{KeyAgent, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyAgent, raw, &c.Agent, defaultAgent, (*AgentConfig).validate)
	}},
	{KeyRouter, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyRouter, raw, &c.Router, defaultRouter, (*RouterConfig).validate)
	}},
	{KeyDeploy, parseDeploy},
	{KeyService, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyService, raw, &c.Service, func() ServiceConfig { return ServiceConfig{} }, nil)
	}},
	{KeyMetricsAggregator, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyMetricsAggregator, raw, &c.MetricsAggregator, defaultMetricsAggregator, (*MetricsAggregatorConfig).validate)
	}},
	{KeyLocalModel, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyLocalModel, raw, &c.LocalModel, defaultLocalModel, (*LocalModelConfig).validate)
	}},
	{KeySecurity, func(raw string, c *Config) *KeyError {
		return decodeInto(KeySecurity, raw, &c.Security, func() SecurityConfig { return SecurityConfig{} }, nil)
	}},
	{KeyOpenTelemetryCollector, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyOpenTelemetryCollector, raw, &c.OpenTelemetryCollector, defaultOpenTelemetryCollector, (*OpenTelemetryCollectorConfig).validate)
	}},
	{KeyAutoscaler, func(raw string, c *Config) *KeyError {
		return decodeInto(KeyAutoscaler, raw, &c.Autoscaler, func() AutoscalerConfig { return AutoscalerConfig{} }, (*AutoscalerConfig).validate)
	}},
}

// Parse turns ConfigMap data into a Config. Every known key is parsed on its
// own; a malformed key keeps its defaults and is reported in the returned
// *Errors (nil when every key was accepted). Unknown keys and `_example` are
// ignored, as KServe ignores them.
func Parse(data map[string]string) (*Config, *Errors) {
	cfg := Default()
	var errs *Errors
	for _, p := range keyParsers {
		raw, ok := data[p.key]
		if !ok {
			continue
		}
		errs = errs.add(parseOneKey(p, raw, cfg))
	}
	return cfg, errs
}

// parseOneKey is the last line of defence behind "never panic": the parsers
// are written not to panic, but a ConfigMap must never take the process down,
// so anything unexpected becomes that key's error.
func parseOneKey(p keyParser, raw string, cfg *Config) (ke *KeyError) {
	defer func() {
		if r := recover(); r != nil {
			ke = &KeyError{Key: p.key, Problem: fmt.Sprintf("could not be parsed: %v", r),
				Fix: "check the value against the documented example"}
		}
	}()
	return p.parse(raw, cfg)
}

// decodeInto decodes raw over a fresh default value, normalises and validates
// it, and stores it in dst only when everything passed.
func decodeInto[T any](key, raw string, dst *T, fresh func() T, validate func(*T) *KeyError) *KeyError {
	v := fresh()
	if ke := decodeJSON(key, raw, &v); ke != nil {
		return ke
	}
	if validate != nil {
		if ke := validate(&v); ke != nil {
			ke.Key = key
			return ke
		}
	}
	*dst = v
	return nil
}

// decodeJSON unmarshals one key's document. Unknown fields are accepted on
// purpose: KServe ignores them, and newer KServe releases add fields that a
// ConfigMap written for them may carry.
func decodeJSON(key, raw string, v any) *KeyError {
	if strings.TrimSpace(raw) == "" {
		return &KeyError{Key: key, Problem: "the value is empty",
			Fix: "write a JSON object, or {} to keep every default, or remove the key"}
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
	if err := dec.Decode(v); err != nil {
		return jsonError(key, err)
	}
	if dec.More() {
		return &KeyError{Key: key, Problem: "the value has data after the JSON object",
			Fix: "keep exactly one JSON object in the value"}
	}
	return nil
}

// jsonError turns a decoding error into a KeyError naming the field.
func jsonError(key string, err error) *KeyError {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		if typeErr.Field == "" {
			return &KeyError{Key: key, Problem: fmt.Sprintf("the value is a JSON %s, not an object", typeErr.Value),
				Fix: "wrap the settings in a JSON object, e.g. {\"field\": \"value\"}"}
		}
		want := jsonKind(typeErr.Type)
		// Embedded Go structs show up in the path; the author never wrote them.
		field := strings.ReplaceAll(typeErr.Field, "ResourceConfig.", "")
		return &KeyError{Key: key, Field: field,
			Problem: fmt.Sprintf("got a JSON %s, want %s", typeErr.Value, want),
			Fix:     fmt.Sprintf("write the field as %s", want)}
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		return &KeyError{Key: key,
			Problem: fmt.Sprintf("invalid JSON at byte %d: %s", syntaxErr.Offset, syntaxErr.Error()),
			Fix:     "check quotes, commas and braces near that byte; the value must be one JSON object"}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &KeyError{Key: key, Problem: "the JSON document ends early",
			Fix: "close every brace, bracket and string"}
	}
	return &KeyError{Key: key, Problem: err.Error(), Fix: "the value must be one JSON object"}
}

// jsonKind names a Go type the way a ConfigMap author thinks of it, with
// its article.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false, unquoted)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a " + t.String()
}

// orDefault treats an explicitly empty string like an absent field, as KServe
// does for domainTemplate and friends: an empty image or quantity is never what
// the author meant.
func orDefault(v *string, def string) {
	if strings.TrimSpace(*v) == "" {
		*v = def
	}
}
