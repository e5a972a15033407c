// Package webhookhost serves fsmserve's admission webhooks from this process
// to an API server on the same host (envtest, the local cluster): a loopback
// port, configurations pointing at it, fsmserve's own certificate injected.
package webhookhost

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/controllers"
	"github.com/fsmserve/fsmserve/internal/scheme"
	"github.com/fsmserve/fsmserve/webhooks"
)

// Start serves the webhooks until ctx ends and returns, with the server's
// address, once the API server's admission calls succeed.
func Start(ctx context.Context, cfg *rest.Config, systemNamespace string) (string, error) {
	port, err := FreePort()
	if err != nil {
		return "", err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	c, err := client.New(cfg, client.Options{Scheme: scheme.New()})
	if err != nil {
		return "", err
	}
	if err := webhooks.Install(ctx, c, systemNamespace, webhooks.AtURL("https://"+addr)); err != nil {
		return "", fmt.Errorf("install webhook configurations: %w", err)
	}
	srv, cm, err := webhooks.NewServer(cfg, webhooks.ServeOptions{SystemNamespace: systemNamespace, Host: "127.0.0.1", Port: port, IPs: []net.IP{net.ParseIP("127.0.0.1")}})
	if err != nil {
		return "", err
	}
	mgr, err := controllers.NewManager(cfg, controllers.ManagerOptions{SystemNamespace: systemNamespace, Webhook: srv})
	if err != nil {
		return "", err
	}
	if err := webhooks.Register(mgr, systemNamespace, cm); err != nil {
		return "", err
	}
	go func() { _ = mgr.Start(ctx) }()
	readyCtx, stop := context.WithTimeout(ctx, 60*time.Second)
	defer stop()
	return addr, webhooks.WaitServing(readyCtx, cm, addr)
}

// FreePort asks the kernel for an unused loopback port.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
