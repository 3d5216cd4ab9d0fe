// Command fencelab runs the course's experiments on real SQLite files and
// real worker processes, and prints what happened as one JSON document.
//
// Run it with no arguments for the list of commands.
package main

import (
	"os"

	"github.com/fencelab/fencelab/internal/runner"
)

func main() {
	os.Exit(runner.Main())
}
