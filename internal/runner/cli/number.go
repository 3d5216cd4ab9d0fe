package cli

// This file holds the runner's numeric flags. Every one of them reads a
// number the same way: plain decimal digits, nothing else. The flag
// package's own integers also accept a sign, 0x, 0o and 0b prefixes, _
// separators and a leading 0 for octal, so `--processes 010` would start
// 8 workers; here it is refused.

import (
	"flag"
	"fmt"
	"strconv"
)

// IntFlag is an integer flag bounded to [Min, Max].
type IntFlag struct {
	Name     string
	Min, Max int
}

// Var defines the flag on fs. It stores into p, whose value when Var is
// called is the default, and accepts plain decimal only.
func (f IntFlag) Var(fs *flag.FlagSet, p *int, usage string) {
	fs.Var(&decimal{p: p, f: f}, f.Name, usage)
}

// Check returns a *UsageError if v lies outside the flag's range.
func (f IntFlag) Check(v int) error {
	if v < f.Min || v > f.Max {
		return Usagef("--%s %d is out of range: want an integer from %d to %d", f.Name, v, f.Min, f.Max)
	}
	return nil
}

// decimal is the flag.Value of an IntFlag.
type decimal struct {
	p *int
	f IntFlag
}

func (d *decimal) String() string {
	if d == nil || d.p == nil {
		return "0" // the flag package asks a zero Value for its default
	}
	return strconv.Itoa(*d.p)
}

func (d *decimal) Set(s string) error {
	n, ok := parseDecimal(s)
	if !ok {
		return fmt.Errorf("want a plain decimal integer from %d to %d", d.f.Min, d.f.Max)
	}
	*d.p = n
	return nil
}

// parseDecimal reads s if it is "0" or a run of decimal digits that does
// not start with 0, and fits in an int.
func parseDecimal(s string) (int, bool) {
	if s == "" || (s[0] == '0' && s != "0") {
		return 0, false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
