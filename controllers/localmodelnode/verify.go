package localmodelnode

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"

	"github.com/fsmserve/fsmserve/machines/downloadjob"
	"github.com/fsmserve/fsmserve/steps/localmodel"
)

// verify checks the model folder once the Job finished. With
// SimulateDownloads (fake nodes only) the agent first writes the folder a
// succeeded Job would have written.
func (sc *scope) verify(ctx context.Context, o downloadjob.Observation) downloadjob.Observation {
	end := sc.download.spans.Start("Step VerifyModelFolder", attribute.String("fsmserve.folder", sc.folderPath))
	check, err := localmodel.CheckModelFolder(sc.folderPath)
	if err == nil && !check.Verified && sc.a.SimulateDownloads && o.Job.Succeeded {
		if err = localmodel.WriteSimulatedDownload(sc.folderPath, sc.entry.SourceModelUri, o.Job.Name); err == nil {
			sc.changed = true
			check, err = localmodel.CheckModelFolder(sc.folderPath)
		}
	}
	end(err, attribute.Bool("fsmserve.verified", check.Verified))
	if err != nil {
		sc.recordErr(err) // an I/O error is no verdict: verify again next time
		return o
	}
	o.Verification = downloadjob.Verification{Done: true, OK: check.Verified}
	o.Folder.Verified = check.Verified
	if !check.Verified {
		o.Verification.Reason, o.Verification.Message = sc.verificationFailure(o.Job, check)
	}
	return o
}

// verificationFailure explains a folder that failed the check. A Job that
// succeeded without leaving the folder here most likely wrote elsewhere:
// KServe users meet this as endless download Jobs when the agent's models
// root and the node group volume's path differ.
func (sc *scope) verificationFailure(j downloadjob.Job, check localmodel.FolderCheck) (string, string) {
	reason := downloadjob.ReasonFolderMissing
	if check.Problem == "is empty" {
		reason = downloadjob.ReasonFolderEmpty
	}
	if !j.Exists {
		return downloadjob.ReasonJobDeleted, fmt.Sprintf("Job %s vanished before it was seen finishing and %s %s", j.Name, sc.folderPath, check.Problem)
	}
	return reason, fmt.Sprintf("Job %s succeeded but %s %s on node %s; check that the agent's models root (%s) is the path of node group %s's volume",
		j.Name, sc.folderPath, check.Problem, sc.a.NodeName, sc.a.ModelsRoot, sc.nodeGroup)
}
