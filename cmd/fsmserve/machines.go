package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fsmserve/fsmserve/machines/catalog"
)

func newMachinesCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "machines", Short: "Show fsmserve's lifecycle machines"}
	var format string
	graph := &cobra.Command{
		Use:   "graph NAME",
		Short: "Print a machine as a Graphviz DOT or Mermaid diagram",
		Long:  "graph prints a lifecycle machine. Machines: " + strings.Join(catalog.Names(), ", ") + ".",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, ok := catalog.Get(args[0])
			if !ok {
				return fmt.Errorf("no machine %q; choose one of: %s", args[0], strings.Join(catalog.Names(), ", "))
			}
			switch format {
			case "dot":
				fmt.Fprint(cmd.OutOrStdout(), e.Machine.DOT())
			case "mermaid":
				fmt.Fprint(cmd.OutOrStdout(), e.Machine.Mermaid())
			default:
				return fmt.Errorf("--format %q: use dot or mermaid", format)
			}
			return nil
		},
	}
	graph.Flags().StringVar(&format, "format", "dot", "dot or mermaid")
	var out string
	docs := &cobra.Command{
		Use:   "docs",
		Short: "Write one documentation page (and DOT file) per machine",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := os.MkdirAll(out, 0o755); err != nil {
				return err
			}
			for _, e := range catalog.All() {
				if err := os.WriteFile(filepath.Join(out, e.Name+".md"), []byte(e.Machine.Markdown(e.Title, e.Intro)), 0o644); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(out, e.Name+".dot"), []byte(e.Machine.DOT()), 0o644); err != nil {
					return err
				}
			}
			return nil
		},
	}
	docs.Flags().StringVar(&out, "out", "docs/machines", "directory to write into")
	cmd.AddCommand(graph, docs)
	return cmd
}
