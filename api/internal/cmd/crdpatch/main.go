// Command crdpatch applies crdpatch.Patch in place to the CRD files named on
// the command line; make generate runs it after controller-gen.
package main

import (
	"fmt"
	"os"

	"github.com/fsmserve/fsmserve/api/internal/crdpatch"
)

func main() {
	for _, path := range os.Args[1:] {
		if err := crdpatch.PatchFile(path); err != nil {
			fmt.Fprintln(os.Stderr, "crdpatch:", err)
			os.Exit(1)
		}
	}
}
