package localmodel

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// SimulatedDownloadMarker is the file a node agent with SimulateDownloads
// writes into a model folder when the download Job reports success, standing
// in for the Job's work on fake nodes (fsmserve dev, scenarios), where pods
// run nowhere. Real agents never write it.
const SimulatedDownloadMarker = "fsmserve-simulated-download.txt"

// ModelsDir is the directory under the models root that holds one folder per
// storage key, KServe's {root}/models.
func ModelsDir(root string) string { return filepath.Join(root, "models") }

// ModelFolder is where a model with storageKey lives on the node.
func ModelFolder(root, storageKey string) string { return filepath.Join(ModelsDir(root), storageKey) }

// FolderCheck is what the disk says about a model folder.
type FolderCheck struct {
	// Verified is true when the folder exists, is a directory and is not empty.
	Verified bool
	// Problem says why not: "does not exist", "is empty", "is not a directory".
	Problem string
}

// CheckModelFolder looks at a model folder. An error is an I/O failure other
// than the folder being absent.
func CheckModelFolder(path string) (FolderCheck, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return FolderCheck{Problem: "does not exist"}, nil
	}
	if err != nil {
		return FolderCheck{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return FolderCheck{}, err
	}
	if !info.IsDir() {
		return FolderCheck{Problem: "is not a directory"}, nil
	}
	names, err := f.Readdirnames(1)
	if len(names) == 0 {
		if err != nil && !errors.Is(err, io.EOF) {
			return FolderCheck{}, err
		}
		return FolderCheck{Problem: "is empty"}, nil
	}
	return FolderCheck{Verified: true}, nil
}

// ModelFolderNames lists the folders under {root}/models.
func ModelFolderNames(root string) ([]string, error) {
	entries, err := os.ReadDir(ModelsDir(root))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// RemoveModelFolder deletes a model folder; an absent one is not an error.
func RemoveModelFolder(path string) error { return os.RemoveAll(path) }

// WriteSimulatedDownload fills a model folder the way a finished download
// Job would on a real node: only for fake nodes (see SimulatedDownloadMarker).
func WriteSimulatedDownload(path, uri, job string) error {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return err
	}
	body := fmt.Sprintf("simulated download of %s by Job %s (fsmserve fake node: no pod ran)\n", uri, job)
	return os.WriteFile(filepath.Join(path, SimulatedDownloadMarker), []byte(body), 0o644)
}
