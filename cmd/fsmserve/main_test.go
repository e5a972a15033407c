package main

import (
	"bytes"
	"strings"
	"testing"
)

func run(args ...string) (string, error) {
	root := newRootCommand()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

func TestMachinesGraph(t *testing.T) {
	out, err := run("machines", "graph", "inferenceservice")
	if err != nil || !strings.HasPrefix(out, `digraph "inferenceservice"`) {
		t.Fatalf("DOT: err %v, output %q", err, out)
	}
	out, err = run("machines", "graph", "inferenceservice", "--format", "mermaid")
	if err != nil || !strings.HasPrefix(out, "stateDiagram-v2") || !strings.Contains(out, "Deploying --> Ready : RolloutSucceeded") {
		t.Fatalf("Mermaid: err %v, output %q", err, out)
	}
}

func TestMachinesGraphErrorsNameTheFix(t *testing.T) {
	if _, err := run("machines", "graph", "nope"); err == nil || !strings.Contains(err.Error(), "choose one of:") || !strings.Contains(err.Error(), "inferenceservice") {
		t.Fatalf("unknown machine: %v", err)
	}
	if _, err := run("machines", "graph", "inferenceservice", "--format", "png"); err == nil || !strings.Contains(err.Error(), "use dot or mermaid") {
		t.Fatalf("unknown format: %v", err)
	}
}

func TestEverySubcommandIsWired(t *testing.T) {
	root := newRootCommand()
	for _, name := range []string{"manager", "router", "dev", "machines", "scenario"} {
		if c, _, err := root.Find([]string{name}); err != nil || c.Name() != name {
			t.Errorf("subcommand %s missing", name)
		}
	}
}

func TestDevInstallsTheLocalModelJobNamespaceAndEnablesTheCache(t *testing.T) {
	docs, err := installManifests()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(docs[0]), "kind: Namespace") || !strings.Contains(string(docs[0]), "kserve-localmodel-jobs") {
		t.Fatalf("first document is not the jobs namespace:\n%s", docs[0])
	}
	last := string(docs[len(docs)-1])
	if !strings.Contains(last, "inferenceservice-config") || !strings.Contains(last, `"enabled": true`) {
		t.Fatalf("the dev cluster's config does not enable the local model cache:\n%s", last)
	}
}
