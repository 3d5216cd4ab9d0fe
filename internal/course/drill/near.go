package drill

// This file suggests the name a learner probably meant: a command, an
// exercise or a weakening one or two keystrokes away from what they typed.

import "strings"

// nearest returns the name among names closest to s, if it is close
// enough to be a typo (at most a third of s's length, and at most 3 edits,
// away; or s is a prefix of it), else "".
func nearest(s string, names []string) string {
	best, bestDist := "", 0
	for _, n := range names {
		d := distance(s, n)
		if strings.HasPrefix(n, s) && len(s) >= 3 {
			d = min(d, 1)
		}
		if best == "" || d < bestDist {
			best, bestDist = n, d
		}
	}
	if best == "" || bestDist > min(3, max(1, len(s)/3)) {
		return ""
	}
	return best
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
