package runner

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadmeExamplesParse keeps the format's documentation honest: the full
// example parses, and so does every snippet of steps.
func TestReadmeExamplesParse(t *testing.T) {
	text, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(text), -1)
	require.NotEmpty(t, blocks)

	full, err := Parse([]byte(blocks[0][1]), "README.md")
	require.NoError(t, err, "the full example")
	assert.Greater(t, len(full.Steps), 10)

	snippets := 0
	for _, b := range blocks[1:] {
		if !strings.HasPrefix(b[1], "- ") {
			continue
		}
		snippets++
		_, err := Parse([]byte("name: snippet\nsteps:\n"+b[1]), "README.md")
		assert.NoError(t, err, "snippet:\n%s", b[1])
	}
	assert.Positive(t, snippets)
}

// TestReadmeShowsThePlatformTableTheTestsRun keeps the documented example
// for platform teams the one the tests run on both hosts.
func TestReadmeShowsThePlatformTableTheTestsRun(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	table, err := os.ReadFile("../platform/01-team-runtime.yaml")
	require.NoError(t, err)
	assert.Contains(t, string(readme), "```yaml\n"+string(table)+"```", "the README's example must be scenarios/platform/01-team-runtime.yaml as it is")
}
