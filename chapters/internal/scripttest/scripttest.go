// Package scripttest is the testscript set-up every chapter shares: it
// registers the fencelab runner as a command the scripts can exec without a
// build step, and adds the commands the scripts use to assert its JSON.
//
// A chapter's test file needs two calls:
//
//	func TestMain(m *testing.M) { scripttest.Main(m) }
//	func TestScripts(t *testing.T) { scripttest.Run(t) }
package scripttest

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"gotest.tools/v3/golden"

	"github.com/fencelab/fencelab/internal/runner"
)

// Main is the chapter's TestMain. When the test binary is started as
// "fencelab" (by a script, or by the runner starting its own workers), it
// runs the runner instead of the tests.
func Main(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"fencelab": func() { os.Exit(runner.Main()) },
	})
}

// Run runs every script in the chapter's testdata/script folder.
// `go test ./chapters/... -update` rewrites, inside each script, the golden
// files that the script compares with cmp, from what the runner printed
// (after normalize has replaced its per-run values).
func Run(t *testing.T) {
	testscript.Run(t, Params("testdata/script"))
}

// Params returns the testscript parameters the chapters use for the scripts
// in dir.
func Params(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       golden.FlagUpdate(),
		Setup:               passSwitch,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"json":      cmdJSON,
			"nolitter":  cmdNoLitter,
			"exits":     cmdExits,
			"keptdir":   cmdKeptDir,
			"normalize": cmdNormalize,
		},
	}
}
