package lockservice

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/fencelab/fencelab/chapters/internal/scripttest"
	"github.com/fencelab/fencelab/internal/runner"
	"github.com/fencelab/fencelab/internal/runner/etcdroles"
)

// TestMain lets this test binary be the fencelab runner with the etcd
// roles linked in, as the companion is (internal/runner/companion): the
// scripts' lockservice runs in the test binary itself, under whatever
// weakening or mutant the course's tools switch on.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"fencelab": func() { os.Exit(runner.MainWith(etcdroles.Roles)) },
	})
}

// TestScripts runs testdata/script/*.txtar against the runner: the four
// cases with the fence on and off, their misuse, and their clean-up.
func TestScripts(t *testing.T) { scripttest.Run(t) }
