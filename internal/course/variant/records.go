package variant

// This file reads the line-per-record files check and mutate keep their
// verdicts in.

import (
	"iter"
	"strings"
)

// Records yields each record of a verdict file: its line number (from 1)
// and its fields as strings.Fields splits them. Blank lines and lines
// starting with # (after leading space) are not records.
func Records(data []byte) iter.Seq2[int, []string] {
	return func(yield func(int, []string) bool) {
		n := 0
		for line := range strings.Lines(string(data)) {
			n++
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if !yield(n, strings.Fields(line)) {
				return
			}
		}
	}
}
