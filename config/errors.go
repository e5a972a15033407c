package config

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// KeyError says why one data key of the inferenceservice-config ConfigMap was
// rejected. The key then keeps its defaults, so the message has to be enough for
// an operator to repair the ConfigMap without reading our code: it names the
// key, the field inside the key's JSON document, the problem and a fix.
type KeyError struct {
	// Key is the ConfigMap data key, for example "ingress".
	Key string
	// Field is the JSON path inside the key's document, for example
	// "domainTemplate" or "s3.s3Endpoint"; empty when the whole value is at fault.
	Field string
	// Problem is what is wrong, in a sentence fragment.
	Problem string
	// Fix is what to change so that the key is accepted.
	Fix string
}

// Error renders the message that ends up in conditions, events and logs.
func (e *KeyError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s key %q: ", ConfigMapName, e.Key)
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Problem)
	if e.Fix != "" {
		b.WriteString("; fix: ")
		b.WriteString(e.Fix)
	}
	return b.String()
}

// Reason is the condition reason for this error; see Reason.
func (e *KeyError) Reason() string { return Reason(e.Key) }

// Errors collects at most one KeyError per data key. A nil *Errors means the
// ConfigMap was accepted whole; every method is safe on nil so callers can ask
// For(key) without checking first.
type Errors struct {
	byKey map[string]*KeyError
}

func (e *Errors) add(ke *KeyError) *Errors {
	if ke == nil {
		return e
	}
	if e == nil {
		e = &Errors{byKey: map[string]*KeyError{}}
	}
	if _, seen := e.byKey[ke.Key]; !seen {
		e.byKey[ke.Key] = ke
	}
	return e
}

// For returns the error recorded for key, or nil when the key was accepted (or
// absent).
func (e *Errors) For(key string) *KeyError {
	if e == nil {
		return nil
	}
	return e.byKey[key]
}

// Keys lists the rejected keys in sorted order, so messages and conditions built
// from them are stable between reconciles.
func (e *Errors) Keys() []string {
	if e == nil {
		return nil
	}
	keys := make([]string, 0, len(e.byKey))
	for k := range e.byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Len is the number of rejected keys.
func (e *Errors) Len() int {
	if e == nil {
		return 0
	}
	return len(e.byKey)
}

// All returns the errors in key order.
func (e *Errors) All() []*KeyError {
	keys := e.Keys()
	out := make([]*KeyError, 0, len(keys))
	for _, k := range keys {
		out = append(out, e.byKey[k])
	}
	return out
}

// Err joins every KeyError into one error, or returns a true nil when there is
// none. *Errors deliberately does not implement error itself: a nil *Errors
// stored in an error interface would compare non-nil.
func (e *Errors) Err() error {
	all := e.All()
	if len(all) == 0 {
		return nil
	}
	errs := make([]error, len(all))
	for i, ke := range all {
		errs[i] = ke
	}
	return errors.Join(errs...)
}

// Reason returns the CamelCase condition reason for a rejected key, for example
// "InvalidIngressConfig" for "ingress" and "InvalidInferenceServiceConfig" for
// "inferenceService". Consumers put it on the condition that depends on the key,
// so `kubectl describe` points at the key to repair.
func Reason(key string) string {
	var b strings.Builder
	b.WriteString("Invalid")
	upper := true
	for _, r := range key {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			upper = true
			continue
		}
		if r > unicode.MaxASCII {
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
			upper = false
		}
		b.WriteRune(r)
	}
	b.WriteString("Config")
	return b.String()
}
