package mutate

// This file keeps reused verdicts honest: a key leaves out the rest of the
// mechanism on purpose (a one-function change re-judges only that
// function's mutants), so a change elsewhere could leave a stored verdict
// wrong. --sample N re-judges N reused verdicts chosen at random, and any
// that differs is a problem: CI runs it on every change.

import (
	"fmt"
	"slices"

	"github.com/fencelab/fencelab/internal/course/variant"
)

// SampleReport says what a sample re-judged.
type SampleReport struct {
	Seed uint64 `json:"seed"`
	// Size is how many reused verdicts were re-judged: the size asked
	// for, or every reused verdict if there were fewer.
	Size int `json:"size"`
	// Differ lists the sampled mutants whose verdict changed.
	Differ []string `json:"differ"`
}

// pickSample moves cfg.Sample reused verdicts, chosen at random, to the
// mutants to judge.
func (m *measurement) pickSample() {
	if m.cfg.Sample <= 0 {
		return
	}
	var reused []int
	for _, i := range m.runnable {
		if m.results[i].Reused {
			reused = append(reused, i)
		}
	}
	reused, seed := variant.Sample(reused, m.cfg.Sample, m.cfg.Seed)
	slices.Sort(reused)
	for _, i := range reused {
		m.sampled[i] = m.stored[m.all[i].ID].Verdict
		m.results[i] = Result{ID: m.results[i].ID, Package: m.results[i].Package, Operator: m.results[i].Operator,
			Diff: m.results[i].Diff, Authority: m.results[i].Authority}
	}
	m.todo = append(m.todo, reused...)
	slices.Sort(m.todo)
	m.rep.Sample = &SampleReport{Seed: seed, Size: len(reused), Differ: []string{}}
	m.cfg.logf("mutate: sample: re-judging %d reused verdicts (seed %d)", len(reused), seed)
}

// checkSample reports every sampled verdict that differs from the one
// stored.
func (m *measurement) checkSample() {
	for _, i := range sortedInts(m.sampled) {
		was, now := m.sampled[i], m.fresh[i]
		if was == now {
			continue
		}
		id := m.all[i].ID
		m.rep.Sample.Differ = append(m.rep.Sample.Differ, id)
		m.rep.Problems = append(m.rep.Problems, fmt.Sprintf("sample: %s was stored %s but is %s now: its key missed a change it depends on; run drill mutate --full", id, was, now))
	}
}

// sortedInts returns m's keys in order.
func sortedInts[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
