// Package devcluster builds, caches and runs a local Kubernetes control plane
// (etcd, kube-apiserver, kube-controller-manager, kube-scheduler and kwok with
// fake nodes) for `fsmserve dev`, envtest and the integration tests.
//
// Nothing is downloaded as a release: every binary is built once per machine
// from the Go module proxy into a cache outside the clone, keyed by version.
package devcluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Versions of the binaries the local cluster runs.
const (
	KubernetesVersion = "v1.35.4"
	EtcdVersion       = "v3.6.16"
	KwokVersion       = "v0.7.0"
	JaegerVersion     = "v1.76.0"
)

// Names of the binaries in the cache.
const (
	BinKubeAPIServer         = "kube-apiserver"
	BinKubeControllerManager = "kube-controller-manager"
	BinKubeScheduler         = "kube-scheduler"
	BinEtcd                  = "etcd"
	BinKwok                  = "kwok"
	BinJaeger                = "jaeger"
)

// ensureAssetsHint tells a user how to fill the cache.
const ensureAssetsHint = "run `go run ./hack/ensure-assets` (add --jaeger for Jaeger) from the repository root to build it into the cache"

// tool is one binary of a component: its name and the package main that builds it.
type tool struct {
	name     string
	pkg      string
	estimate string // how long a cold build took on 2 cores, shown to the user
}

// component is one upstream module built in its own scratch module.
type component struct {
	name    string // cache key, e.g. "kubernetes"
	module  string
	version string
	tools   []tool
	ldflags string
	// stagingReplaces: the module's own go.mod replaces its staging modules
	// with local paths, which a dependent module cannot see; pin each to the
	// published module of the same minor version instead.
	stagingReplaces bool
	// viaGetTool: prepare the scratch module with `go get -tool` instead of a
	// tools.go file and `go mod tidy` (what worked for Jaeger).
	viaGetTool bool
}

func (c component) key() string { return c.name + "-" + c.version }

var (
	kubernetesComponent = component{
		name: "kubernetes", module: "k8s.io/kubernetes", version: KubernetesVersion,
		tools: []tool{
			{BinKubeAPIServer, "k8s.io/kubernetes/cmd/kube-apiserver", "~7 min"},
			{BinKubeControllerManager, "k8s.io/kubernetes/cmd/kube-controller-manager", "~2 min"},
			{BinKubeScheduler, "k8s.io/kubernetes/cmd/kube-scheduler", "~1 min"},
		},
		ldflags:         kubernetesLDFlags(KubernetesVersion),
		stagingReplaces: true,
	}
	etcdComponent = component{
		name: "etcd", module: "go.etcd.io/etcd/server/v3", version: EtcdVersion,
		tools: []tool{{BinEtcd, "go.etcd.io/etcd/server/v3", "~2 min"}},
	}
	kwokComponent = component{
		name: "kwok", module: "sigs.k8s.io/kwok", version: KwokVersion,
		tools: []tool{{BinKwok, "sigs.k8s.io/kwok/cmd/kwok", "~2 min"}},
	}
	jaegerComponent = component{
		name: "jaeger", module: "github.com/jaegertracing/jaeger", version: JaegerVersion,
		tools:      []tool{{BinJaeger, "github.com/jaegertracing/jaeger/cmd/jaeger", "~8 min"}},
		viaGetTool: true,
	}
)

// kubernetesLDFlags stamps the version so `--version` and /version do not
// report v0.0.0-master.
func kubernetesLDFlags(version string) string {
	major, minor := "", ""
	parts := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	if len(parts) >= 2 {
		major, minor = parts[0], parts[1]
	}
	return fmt.Sprintf("-s -w -X k8s.io/component-base/version.gitVersion=%s"+
		" -X k8s.io/component-base/version.gitMajor=%s -X k8s.io/component-base/version.gitMinor=%s",
		version, major, minor)
}

// CacheDir returns the root of the binary cache: $FSMSERVE_CACHE, else
// $XDG_CACHE_HOME/fsmserve, else $HOME/.cache/fsmserve.
func CacheDir() (string, error) { return cacheDirFrom(os.Getenv) }

func cacheDirFrom(getenv func(string) string) (string, error) {
	if dir := getenv("FSMSERVE_CACHE"); dir != "" {
		return filepath.Abs(dir)
	}
	if dir := getenv("XDG_CACHE_HOME"); dir != "" {
		return filepath.Abs(filepath.Join(dir, "fsmserve"))
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".cache", "fsmserve"), nil
	}
	return "", errors.New("cannot locate the fsmserve binary cache: set FSMSERVE_CACHE (or XDG_CACHE_HOME or HOME)")
}

func binaryPath(cache string, c component, name string) string {
	return filepath.Join(cache, "bin", c.key(), name)
}

// Binaries holds the absolute paths of the cached binaries.
type Binaries struct {
	KubeAPIServer         string
	KubeControllerManager string
	KubeScheduler         string
	Etcd                  string
	Kwok                  string
	Jaeger                string
}

// CachedBinaries returns where the binaries live in the cache, whether or
// not they have been built yet; see Binaries.Missing.
func CachedBinaries() (Binaries, error) {
	cache, err := CacheDir()
	if err != nil {
		return Binaries{}, err
	}
	return binariesIn(cache), nil
}

func binariesIn(cache string) Binaries {
	return Binaries{
		KubeAPIServer:         binaryPath(cache, kubernetesComponent, BinKubeAPIServer),
		KubeControllerManager: binaryPath(cache, kubernetesComponent, BinKubeControllerManager),
		KubeScheduler:         binaryPath(cache, kubernetesComponent, BinKubeScheduler),
		Etcd:                  binaryPath(cache, etcdComponent, BinEtcd),
		Kwok:                  binaryPath(cache, kwokComponent, BinKwok),
		Jaeger:                binaryPath(cache, jaegerComponent, BinJaeger),
	}
}

// Missing returns an error naming every cluster binary (and Jaeger when
// withJaeger) that is not an executable file, with the command that builds it.
func (b Binaries) Missing(withJaeger bool) error {
	paths := []string{b.Etcd, b.KubeAPIServer, b.KubeControllerManager, b.KubeScheduler, b.Kwok}
	if withJaeger {
		paths = append(paths, b.Jaeger)
	}
	var missing []string
	for _, p := range paths {
		if !isExecutable(p) {
			missing = append(missing, p)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("local cluster binaries missing: %s; %s", strings.Join(missing, ", "), ensureAssetsHint)
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
}

// EnsureOptions selects what EnsureBinaries builds.
type EnsureOptions struct {
	// Jaeger also builds Jaeger (about 8 minutes cold on 2 cores).
	Jaeger bool
	// Only restricts the build to these binary names (e.g. "etcd", "kwok");
	// empty means every cluster binary.
	Only []string
	// Progress receives one line per long step; nil discards them.
	Progress io.Writer
}

// EnsureBinaries builds whatever is missing from the cache and returns the
// paths. Concurrent callers (parallel test packages) build each binary once:
// the others wait for the lock and reuse the result.
func EnsureBinaries(ctx context.Context, opts EnsureOptions) (Binaries, error) {
	cache, err := CacheDir()
	if err != nil {
		return Binaries{}, err
	}
	progress := opts.Progress
	if progress == nil {
		progress = io.Discard
	}
	if err := checkToolNames(opts.Only); err != nil {
		return Binaries{}, err
	}
	components := []component{etcdComponent, kwokComponent, kubernetesComponent}
	if opts.Jaeger {
		components = append(components, jaegerComponent)
	}
	b := &builder{cache: cache, progress: progress}
	for _, c := range components {
		names := selectTools(c, opts.Only)
		if len(names) == 0 {
			continue
		}
		if err := b.ensure(ctx, c, names); err != nil {
			return Binaries{}, err
		}
	}
	return binariesIn(cache), nil
}

func checkToolNames(names []string) error {
	var known []string
	for _, c := range []component{etcdComponent, kubernetesComponent, kwokComponent, jaegerComponent} {
		for _, t := range c.tools {
			known = append(known, t.name)
		}
	}
	for _, n := range names {
		if !contains(known, n) {
			return fmt.Errorf("unknown binary %q: choose from %s", n, strings.Join(known, ", "))
		}
	}
	return nil
}

func selectTools(c component, only []string) []string {
	var names []string
	for _, t := range c.tools {
		if len(only) == 0 || contains(only, t.name) {
			names = append(names, t.name)
		}
	}
	return names
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// EnvtestAssetsDir returns a directory suitable for KUBEBUILDER_ASSETS: it
// holds kube-apiserver and etcd (symlinks into the cache, built if missing)
// and a kubectl symlink when kubectl is on PATH. A non-empty
// KUBEBUILDER_ASSETS in the environment wins and is returned unchanged.
func EnvtestAssetsDir(ctx context.Context, progress io.Writer) (string, error) {
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		return dir, nil
	}
	bins, err := EnsureBinaries(ctx, EnsureOptions{Only: []string{BinKubeAPIServer, BinEtcd}, Progress: progress})
	if err != nil {
		return "", err
	}
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "envtest", kubernetesComponent.key()+"_"+etcdComponent.key())
	links := map[string]string{BinKubeAPIServer: bins.KubeAPIServer, BinEtcd: bins.Etcd}
	if kubectl, err := exec.LookPath("kubectl"); err == nil {
		if abs, err := filepath.Abs(kubectl); err == nil {
			links["kubectl"] = abs
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating envtest assets dir %s: %w", dir, err)
	}
	for name, target := range links {
		if err := replaceSymlink(target, filepath.Join(dir, name)); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// replaceSymlink points link at target atomically, so a concurrent reader
// never sees the link missing.
func replaceSymlink(target, link string) error {
	if current, err := os.Readlink(link); err == nil && current == target {
		return nil
	}
	tmp := fmt.Sprintf("%s.tmp%d", link, os.Getpid())
	_ = os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return fmt.Errorf("linking %s to %s: %w", link, target, err)
	}
	if err := os.Rename(tmp, link); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("linking %s to %s: %w", link, target, err)
	}
	return nil
}
