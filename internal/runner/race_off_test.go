//go:build !race

package runner_test

// raceEnabled: this test binary was built without -race.
const raceEnabled = false
