// Command fsmserve is the one binary of fsmserve: the controller manager, the
// InferenceGraph router, the local development cluster, the scenario runner
// and the machine diagrams.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/fsmserve/fsmserve/internal/devcluster"
	"github.com/fsmserve/fsmserve/router"
)

func main() {
	if err := newRootCommand().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "fsmserve:", err)
		os.Exit(1)
	}
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "fsmserve",
		Short:         "A KServe-compatible model-serving control plane whose lifecycles are explicit state machines",
		SilenceErrors: true,
	}
	root.AddCommand(
		newManagerCommand(),
		newLocalModelManagerCommand(),
		router.NewCommand(),
		devcluster.NewDevCommand(newInProcess().hooks()),
		newMachinesCommand(),
		newScenarioCommand(),
		newLocalModelAgentCommand(),
		newBenchCommand(),
	)
	return root
}
