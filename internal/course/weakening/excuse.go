package weakening

// This file reads a chapter's never-failing.txt: the tests no weakening is
// expected to make fail, each with the reason written down.

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// ParseExcuses reads an ExcuseFile: one "TestName: reason" per line; blank
// lines and lines starting with # are ignored. A line without a reason, a
// name that is not a top-level test, or a test named twice is an error
// wrapping ErrMalformed.
func ParseExcuses(data []byte) (map[string]string, error) {
	excused := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, _ := strings.Cut(line, ":")
		name, reason = strings.TrimSpace(name), strings.TrimSpace(reason)
		switch {
		case !testPattern.MatchString(name) || strings.Contains(name, "/"):
			return nil, fmt.Errorf("%w: line %d: %q is not a top-level test name (want TestName: reason)", ErrMalformed, n, name)
		case reason == "":
			return nil, fmt.Errorf("%w: line %d: %s has no reason (want TestName: reason)", ErrMalformed, n, name)
		case excused[name] != "":
			return nil, fmt.Errorf("%w: line %d: %s is excused twice", ErrMalformed, n, name)
		}
		excused[name] = reason
	}
	return excused, sc.Err()
}
