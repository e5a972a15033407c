package v1alpha1

import (
	"fmt"
	"regexp"
	"strings"
)

// IsDisabled reports whether the storage container is taken out of use.
func (c *ClusterStorageContainer) IsDisabled() bool {
	return c.Disabled != nil && *c.Disabled
}

// SupportsURI reports whether one of the container's formats matches uri: a
// prefix it starts with, or a regular expression it matches. A format whose
// regular expression does not compile is an error that names it.
func (s *StorageContainerSpec) SupportsURI(uri string) (bool, error) {
	for _, f := range s.SupportedUriFormats {
		switch {
		case f.Prefix != "":
			if strings.HasPrefix(uri, f.Prefix) {
				return true, nil
			}
		case f.Regex != "":
			re, err := regexp.Compile(f.Regex)
			if err != nil {
				return false, fmt.Errorf("supportedUriFormats regex %q: %w", f.Regex, err)
			}
			if re.MatchString(uri) {
				return true, nil
			}
		}
	}
	return false, nil
}
