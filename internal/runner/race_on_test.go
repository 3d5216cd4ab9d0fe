//go:build race

package runner_test

// raceEnabled: this test binary was built with -race, where every run is
// several times slower; sweeps that repeat a run many times take a sample.
const raceEnabled = true
