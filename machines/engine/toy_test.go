package engine

// A toy lifecycle used to test the engine: a job that is queued, runs, and
// either finishes or fails; it can be cancelled from anywhere while alive.

type toyState string
type toyTrigger string

const (
	tAlive    toyState   = "Alive"
	tQueued   toyState   = "Queued"
	tRunning  toyState   = "Running"
	tDone     toyState   = "Done"
	tFailed   toyState   = "Failed"
	tRecover  toyState   = "Recovering"
	tGone     toyState   = "Gone"
	trStart   toyTrigger = "Start"
	trFinish  toyTrigger = "Finish"
	trFail    toyTrigger = "Fail"
	trRetry   toyTrigger = "Retry"
	trCancel  toyTrigger = "Cancel"
	trUnknown toyTrigger = "RecoveryStarted"
	trLoop    toyTrigger = "Loop"
)

type toyObs struct {
	started, finished, failed, cancelled, fixed bool
	loop                                        bool
	urgent                                      bool
	stepRuns                                    *int
}

func isUrgent(o toyObs) bool    { return o.urgent }
func isNotUrgent(o toyObs) bool { return !o.urgent }
func always(toyObs) bool        { return true }

func defineToy(b *Builder[toyState, toyTrigger, toyObs]) {
	b.Configure(tAlive).Permit(trCancel, tGone)
	b.Configure(tRecover).SubstateOf(tAlive).Permit(trStart, tRunning)
	b.Configure(tQueued).SubstateOf(tAlive).
		Permit(trStart, tRunning, isNotUrgent).
		Permit(trFinish, tDone, isUrgent)
	b.Configure(tRunning).SubstateOf(tAlive).
		Permit(trFinish, tDone).
		Permit(trFail, tFailed).
		Permit(trLoop, tQueued)
	b.Configure(tFailed).SubstateOf(tAlive).Permit(trRetry, tQueued)
	b.Configure(tDone).SubstateOf(tAlive).Ignore(trCancel)
}

func classifyToy(s toyState, o toyObs) (toyTrigger, bool) {
	switch {
	case o.cancelled && s != tGone && s != tDone:
		return trCancel, true
	case (s == tQueued || s == tRecover) && o.started:
		return trStart, true
	case s == tRunning && o.loop:
		return trLoop, true
	case s == tRunning && o.finished:
		return trFinish, true
	case s == tRunning && o.failed:
		return trFail, true
	case s == tFailed && o.fixed:
		return trRetry, true
	}
	return "", false
}

func explainToy(s toyState, o toyObs) (string, string) {
	if s == tFailed {
		return "JobFailed", "the job failed; fix it and retry"
	}
	return string(s), ""
}

func toySpec() *Definition[toyState, toyTrigger, toyObs] {
	return &Definition[toyState, toyTrigger, toyObs]{
		Name:            "toy",
		Initial:         tQueued,
		Recovery:        tRecover,
		RecoveryTrigger: trUnknown,
		States: []StateRecord[toyState]{
			{State: tAlive, Kind: Abstract, Description: "alive"},
			{State: tQueued, Kind: Progressing, Description: "waiting to start"},
			{State: tRecover, Kind: Progressing, Description: "re-deriving"},
			{State: tRunning, Kind: Progressing, Description: "running"},
			{State: tDone, Kind: Settled, Description: "finished"},
			{State: tFailed, Kind: Blocked, Description: "failed"},
			{State: tGone, Kind: Final, Description: "cancelled"},
		},
		Triggers: []TriggerRecord[toyTrigger]{
			{trStart, "started", false},
			{trFinish, "finished", false},
			{trFail, "failed", false},
			{trRetry, "fixed", false},
			{trLoop, "loops back", false},
			{trCancel, "cancelled", true},
			{trUnknown, "unknown stored state", true},
		},
		Define:   defineToy,
		Classify: classifyToy,
		Explain:  explainToy,
	}
}
