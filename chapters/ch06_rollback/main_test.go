package rollback

import (
	"testing"

	"github.com/fencelab/fencelab/chapters/internal/scripttest"
)

func TestMain(m *testing.M) { scripttest.Main(m) }

// TestScripts runs testdata/script/*.txtar against the fencelab runner.
func TestScripts(t *testing.T) { scripttest.Run(t) }
