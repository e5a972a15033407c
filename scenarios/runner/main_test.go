package runner

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/internal/testenv"
)

// env is the one API server of this package's integration tests. No
// controllers run: the tests play them.
var env *testenv.Env

func TestMain(m *testing.M) {
	e, err := testenv.Start(testenv.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting envtest:", err)
		os.Exit(1)
	}
	env = e
	code := m.Run()
	if err := env.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping envtest:", err)
	}
	os.Exit(code)
}

// testStart is the fake clock's start in every test.
var testStart = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func newHarness(t *testing.T) *Harness {
	return &Harness{
		Client:        env.Client,
		Clock:         clocktesting.NewFakeClock(testStart),
		DefaultWithin: 5 * time.Second,
		Progress:      testWriter{t},
	}
}

// testWriter sends progress lines to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func mustParse(t *testing.T, text string) *Scenario {
	t.Helper()
	s, err := Parse([]byte(text), t.Name()+".yaml")
	require.NoError(t, err)
	return s
}

// createNamespace makes a namespace named after prefix that the test deletes
// when it ends, and returns its name. Names are generated because envtest has
// no namespace controller: a deleted namespace stays (Terminating) until the
// API server stops, and tests may run again (-count).
func createNamespace(t *testing.T, prefix string) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-"}}
	require.NoError(t, env.Client.Create(context.Background(), ns))
	t.Cleanup(func() { _ = env.Client.Delete(context.Background(), ns) })
	return ns.Name
}

// uniqueName makes a scenario name no other run of the tests uses, so
// scenarioNamespace finds this run's namespace.
func uniqueName(base string) string {
	return fmt.Sprintf("%s %d", base, time.Now().UnixNano())
}

// startRun begins a scenario by hand, so a test can run single steps and
// inspect objects before the cleanup; the cleanup runs when the test ends.
func startRun(t *testing.T, h *Harness) *run {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "scenario-"}}
	require.NoError(t, env.Client.Create(context.Background(), ns))
	r := &run{h: h, scenario: &Scenario{Name: t.Name(), File: t.Name() + ".yaml"}, namespace: ns.Name}
	t.Cleanup(func() { require.NoError(t, r.cleanup(context.Background(), ns)) })
	return r
}

// runSteps parses steps (a YAML list) and runs them in r.
func runSteps(t *testing.T, r *run, steps string) error {
	t.Helper()
	s := mustParse(t, "name: steps\nsteps:\n"+steps)
	for i, step := range s.Steps {
		if err := r.runStep(context.Background(), i+1, step); err != nil {
			return err
		}
	}
	return nil
}

// scenarioNamespace finds the namespace Run created for the named scenario.
func scenarioNamespace(t *testing.T, scenario string) *corev1.Namespace {
	t.Helper()
	var list corev1.NamespaceList
	require.NoError(t, env.Client.List(context.Background(), &list))
	for i, ns := range list.Items {
		if ns.Annotations[ScenarioAnnotation] == scenario {
			return &list.Items[i]
		}
	}
	t.Fatalf("no namespace annotated with scenario %q", scenario)
	return nil
}

// assertGone checks that obj no longer exists or is being deleted.
func assertGone(t *testing.T, obj client.Object) {
	t.Helper()
	err := env.Client.Get(context.Background(), client.ObjectKeyFromObject(obj), obj)
	if apierrors.IsNotFound(err) {
		return
	}
	require.NoError(t, err)
	require.NotNil(t, obj.GetDeletionTimestamp(), "%T %s still exists", obj, client.ObjectKeyFromObject(obj))
}
