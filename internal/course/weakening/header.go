package weakening

// This file reads the header every catalog file of the course shares, a
// weakening's and an exercise's alike: a summary in words, then one
// `key: value` line per setting.

import (
	"bufio"
	"fmt"
	"slices"
	"strings"
)

// KeyLine is one `key: value` line of a header.
type KeyLine struct {
	Key, Value string
	Line       int // counted from 1 within the header
}

// ParseHeader reads a header: the summary (the non-blank lines before the
// first key line, joined by spaces) and the key lines, in order. After the
// first key line, every non-blank line must be a key line for one of keys.
// A key given twice is an error unless repeatable names it. The error
// says which line is at fault; callers wrap it with their own sentinel.
func ParseHeader(header []byte, keys []string, repeatable ...string) (summary string, lines []KeyLine, err error) {
	var words []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(string(header)))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		k, v, found := strings.Cut(line, ":")
		if !found || !slices.Contains(keys, k) {
			if len(seen) > 0 {
				return "", nil, fmt.Errorf("line %d: %q is not a key line (want one of %s: VALUE)", n, line, strings.Join(keys, ", "))
			}
			words = append(words, line)
			continue
		}
		if seen[k] && !slices.Contains(repeatable, k) {
			return "", nil, fmt.Errorf("line %d: %s: given twice", n, k)
		}
		seen[k] = true
		lines = append(lines, KeyLine{Key: k, Value: strings.TrimSpace(v), Line: n})
	}
	return strings.Join(words, " "), lines, sc.Err()
}
