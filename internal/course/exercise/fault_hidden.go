package exercise

// This file keeps a fix exercise's fault out of plain sight. A learner
// reads the exercise files; a fault named there ("fault:
// claim-without-state-check", or a mutant's ID) is one `drill show` or one
// search away from its lines. So the file may hold it encoded, "fault:
// hidden:BASE64". Decoding it takes intent, which is all it is meant to
// take: the course cannot hide its own faults from a determined learner.

import (
	"encoding/base64"
	"fmt"
	"strings"
)

// hiddenPrefix marks an encoded fault.
const hiddenPrefix = "hidden:"

// decodeFault returns the fault a "fault:" value names: the value itself,
// or, after hiddenPrefix, its base64 (URL alphabet, no padding) decoded.
func decodeFault(value string) (string, error) {
	enc, ok := strings.CutPrefix(value, hiddenPrefix)
	if !ok {
		return value, nil
	}
	data, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || strings.TrimSpace(string(data)) == "" {
		return "", fmt.Errorf("fault: %q does not decode to a fault's name", value)
	}
	return string(data), nil
}

// HideFault returns the "fault:" value that names fault out of plain sight.
func HideFault(fault string) string {
	return hiddenPrefix + base64.RawURLEncoding.EncodeToString([]byte(fault))
}
