package cli

import "testing"

// TestEveryDecimalDigitReads: every digit from 0 to 9 reads as itself, at
// either end of a number, and the bytes just outside the range, '/' and
// ':', are refused. A number flag that turned away 9, or took ':', would
// refuse a learner's --rounds 9 or read garbage.
func TestEveryDecimalDigitReads(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "9": 9, "19": 19, "90": 90, "1234567890": 1234567890} {
		if got, ok := parseDecimal(s); !ok || got != want {
			t.Errorf("parseDecimal(%q) = %d, %v; want %d, true", s, got, ok, want)
		}
	}
	for _, s := range []string{"/", ":", "1/", "1:", "9:"} {
		if got, ok := parseDecimal(s); ok {
			t.Errorf("parseDecimal(%q) = %d, true; want it refused", s, got)
		}
	}
}
