package common

// Addressable is knative's duck v1 Addressable as KServe writes it in
// status.address: the in-cluster URL of the object.
type Addressable struct {
	// Name is the name of the address.
	// +optional
	Name *string `json:"name,omitempty"`
	// URL is the address URL.
	// +optional
	URL *URL `json:"url,omitempty"`
	// CACerts is the Certification Authority certificates in PEM format.
	// +optional
	CACerts *string `json:"CACerts,omitempty"`
	// Audience is the OIDC audience for this address.
	// +optional
	Audience *string `json:"audience,omitempty"`
}

// URL is an absolute URL serialised as a string, as knative's apis.URL is.
type URL string

// String returns the URL text.
func (u *URL) String() string {
	if u == nil {
		return ""
	}
	return string(*u)
}

// NewURL returns a pointer to u, or nil for "".
func NewURL(u string) *URL {
	if u == "" {
		return nil
	}
	v := URL(u)
	return &v
}
