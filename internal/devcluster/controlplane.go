package devcluster

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Startup timeouts, generous for a loaded 2-core machine.
const (
	etcdReadyTimeout      = 30 * time.Second
	apiserverReadyTimeout = 90 * time.Second
	nodesReadyTimeout     = 60 * time.Second
)

func (c *Cluster) startEtcd(ctx context.Context) error {
	p, err := c.launch(BinEtcd, c.opts.Binaries.Etcd, etcdArgs(c.layout, c.ports), nil)
	if err != nil {
		return err
	}
	health := loopbackURL("http", c.ports.etcdClient) + "/health"
	return waitFor(ctx, "etcd to be healthy at "+health, etcdReadyTimeout, []*process{p}, func(ctx context.Context) (bool, error) {
		body, err := httpGet(ctx, http.DefaultClient, health)
		return err == nil && strings.Contains(body, `"health":"true"`), err
	})
}

func (c *Cluster) startAPIServer(ctx context.Context) error {
	_, err := c.launch(BinKubeAPIServer, c.opts.Binaries.KubeAPIServer, apiserverArgs(c.layout, c.ports), nil)
	if err != nil {
		return err
	}
	cs, err := c.clientset()
	if err != nil {
		return err
	}
	return waitFor(ctx, "kube-apiserver /readyz at "+c.cfg.Host, apiserverReadyTimeout, c.running(), func(ctx context.Context) (bool, error) {
		body, err := cs.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
		return err == nil && strings.TrimSpace(string(body)) == "ok", err
	})
}

// startControllers starts the processes that only need a ready apiserver.
func (c *Cluster) startControllers() error {
	l := c.layout
	b := c.opts.Binaries
	if _, err := c.launch(BinKubeControllerManager, b.KubeControllerManager, controllerManagerArgs(l), nil); err != nil {
		return err
	}
	if _, err := c.launch(BinKubeScheduler, b.KubeScheduler, schedulerArgs(l), nil); err != nil {
		return err
	}
	_, err := c.launch(BinKwok, b.Kwok, kwokArgs(l), kwokEnv(l))
	return err
}

// startNodes registers the fake nodes and waits until kwok has made them
// Ready and kube-controller-manager has created the default service account
// (without which no pod can be created).
func (c *Cluster) startNodes(ctx context.Context) error {
	cs, err := c.clientset()
	if err != nil {
		return err
	}
	if err := createNodes(ctx, cs, fakeNodes(c.opts.Nodes, c.opts.GPUNodes, c.opts.NodeSize)); err != nil {
		return err
	}
	names := c.NodeNames()
	err = waitFor(ctx, "kwok to mark the nodes Ready", nodesReadyTimeout, c.running(), func(ctx context.Context) (bool, error) {
		return nodesReady(ctx, cs, names)
	})
	if err != nil {
		return err
	}
	return waitFor(ctx, "kube-controller-manager to create the default service account", nodesReadyTimeout, c.running(),
		func(ctx context.Context) (bool, error) {
			_, err := cs.CoreV1().ServiceAccounts(metav1.NamespaceDefault).Get(ctx, "default", metav1.GetOptions{})
			return err == nil, err
		})
}

// running returns the processes started so far; they must all stay up.
func (c *Cluster) running() []*process {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*process(nil), c.procs...)
}

func httpGet(ctx context.Context, client *http.Client, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return string(body), fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return string(body), nil
}
