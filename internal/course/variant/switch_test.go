package variant

import (
	"strings"
	"testing"
)

// The chapters' script harness passes on every FENCELAB_ variable to the
// runner a script starts, and no other: a switch under another name would
// leave every script testing the unswitched code.
func TestSwitchReachesTheScriptsRunner(t *testing.T) {
	if !strings.HasPrefix(SwitchEnv, "FENCELAB_") {
		t.Fatalf("SwitchEnv = %q; want a FENCELAB_ name, the prefix chapters/internal/scripttest passes on to scripts", SwitchEnv)
	}
}
