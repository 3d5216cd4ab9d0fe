package weakening

// This file finds the exercises a chapter README points learners to, so a
// test can keep the text and the catalog in step both ways.

import "regexp"

// TryCommand is the command a chapter README gives for each exercise,
// followed by a space and the weakening's name.
const TryCommand = "go run ./tools/drill try"

// tryLine matches TryCommand and captures the word after it.
var tryLine = regexp.MustCompile(`go run \./tools/drill try +([^\s` + "`" + `'")\]]+)`)

// TryNames returns the names readme passes to TryCommand, in order of
// appearance, repeats included.
func TryNames(readme []byte) []string {
	var names []string
	for _, m := range tryLine.FindAllSubmatch(readme, -1) {
		names = append(names, string(m[1]))
	}
	return names
}
