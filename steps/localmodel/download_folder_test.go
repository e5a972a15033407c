package localmodel

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckModelFolder(t *testing.T) {
	root := t.TempDir()
	full := ModelFolder(root, "full")
	require.NoError(t, WriteSimulatedDownload(full, "gs://x", "job-1"))
	empty := ModelFolder(root, "empty")
	require.NoError(t, os.MkdirAll(empty, 0o755))
	file := ModelFolder(root, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	cases := []struct {
		path    string
		want    bool
		problem string
	}{
		{full, true, ""},
		{empty, false, "is empty"},
		{file, false, "is not a directory"},
		{ModelFolder(root, "absent"), false, "does not exist"},
	}
	for _, c := range cases {
		got, err := CheckModelFolder(c.path)
		require.NoError(t, err)
		assert.Equal(t, c.want, got.Verified, c.path)
		assert.Equal(t, c.problem, got.Problem, c.path)
	}
	names, err := ModelFolderNames(root)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"full", "empty"}, names, "files are not model folders")
	require.NoError(t, RemoveModelFolder(full))
	require.NoError(t, RemoveModelFolder(full), "removing twice is fine")
	_, err = os.Stat(filepath.Join(full, SimulatedDownloadMarker))
	assert.True(t, os.IsNotExist(err))
	names, err = ModelFolderNames(filepath.Join(root, "nothing-here"))
	assert.NoError(t, err)
	assert.Empty(t, names)
}
