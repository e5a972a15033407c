package v1beta1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
)

// MetricQuantity is a quantity that remembers how it was written. KEDA
// receives metric targets verbatim, and resource.Quantity would rewrite them
// in canonical form ("1.5" becomes "1500m"), so the original text is kept and
// written back unchanged, as a JSON number when it was one.
//
// Quantity is a named field rather than an embedded one so that none of
// resource.Quantity's encoding methods (JSON, CBOR, unstructured) is promoted
// and bypasses the original text.
//
// +kubebuilder:validation:Type=""
// +kubebuilder:validation:XIntOrString
// +kubebuilder:validation:Pattern=`^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$`
type MetricQuantity struct {
	// Original is the value exactly as written.
	Original string `json:"-"`
	// Quantity is Original parsed.
	Quantity resource.Quantity `json:"-"`
	// WrittenAsNumber records that Original was a JSON number, not a string.
	WrittenAsNumber bool `json:"-"`
}

// NewMetricQuantity parses s and keeps it as the original text.
func NewMetricQuantity(s string) (*MetricQuantity, error) {
	q, err := resource.ParseQuantity(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("metric quantity %q: %w", s, err)
	}
	return &MetricQuantity{Original: s, Quantity: q}, nil
}

// String returns the original text, or the canonical quantity when there is none.
func (m *MetricQuantity) String() string {
	if m.Original != "" {
		return m.Original
	}
	return m.Quantity.String()
}

// UnmarshalJSON accepts a JSON string or number and keeps its text.
func (m *MetricQuantity) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if bytes.Equal(data, []byte("null")) {
		*m = MetricQuantity{}
		return nil
	}
	var text string
	asNumber := false
	if len(data) > 0 && data[0] == '"' {
		if err := json.Unmarshal(data, &text); err != nil {
			return fmt.Errorf("metric quantity: %w", err)
		}
	} else {
		var n json.Number
		if err := json.Unmarshal(data, &n); err != nil {
			return fmt.Errorf("metric quantity must be a string or a number, got %s", data)
		}
		text, asNumber = n.String(), true
	}
	q, err := resource.ParseQuantity(strings.TrimSpace(text))
	if err != nil {
		return fmt.Errorf("metric quantity %q: %w", text, err)
	}
	*m = MetricQuantity{Original: text, Quantity: q, WrittenAsNumber: asNumber}
	return nil
}

// MarshalJSON writes the original text back, as a number if it was one.
func (m MetricQuantity) MarshalJSON() ([]byte, error) {
	if m.Original == "" {
		return m.Quantity.MarshalJSON()
	}
	if m.WrittenAsNumber {
		return []byte(m.Original), nil
	}
	return json.Marshal(m.Original)
}
