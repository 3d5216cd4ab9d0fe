// Package tool is the mutation fixture's command frame: exit statuses, as
// the runner and drill return them.
package tool

import "os"

// Main returns the exit status of a run with args: 2 for no arguments
// (misuse), 1 for a failure, 0 for success.
func Main(args []string) int {
	if len(args) == 0 {
		return 2
	}
	if args[0] == "fail" {
		return 1
	}
	return 0
}

// Halt stops the process as a failure.
func Halt() { os.Exit(1) }

// Width is not an exit status: its constant keeps its int-const mutants.
func Width() int { return 1 }
