// Command webhookgen writes config/webhook/manifests.yaml from the endpoint
// table in webhooks/endpoints.go (run by `make generate`).
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks"
)

func main() {
	out := "config/webhook/manifests.yaml"
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	raw, err := webhooks.ManifestYAML(config.DefaultSystemNamespace)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(out), 0o755)
	}
	if err == nil {
		err = os.WriteFile(out, raw, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "webhookgen:", err)
		os.Exit(1)
	}
}
