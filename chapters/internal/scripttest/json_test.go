package scripttest

import (
	"encoding/json"
	"testing"

	"gotest.tools/v3/assert"
)

// TestValueReadsLiteralsAndReferences: a VALUE is a literal, @PATH a value
// of the document being asserted, and @FILE:PATH a value of another
// file's document, which is how a script compares two runs.
func TestValueReadsLiteralsAndReferences(t *testing.T) {
	t.Parallel()
	doc, err := decodeOne(`{"seed": 9, "plan": {"kills": [3, 5]}}`)
	assert.NilError(t, err)
	files := map[string]string{"first.json": `{"plan": {"kills": [3, 5]}, "seed": 10}`}
	read := func(file string) string { return files[file] }
	for _, tc := range []struct {
		arg  string
		want string // the value, as JSON
	}{
		{"refused", `"refused"`},
		{"4", `4`},
		{"@seed", `9`},
		{"@plan.kills.1", `5`},
		{"@first.json:seed", `10`},
		{"@first.json:plan", `{"kills":[3,5]}`},
	} {
		got, err := value(doc, tc.arg, read)
		assert.NilError(t, err, "value(%q)", tc.arg)
		b, err := json.Marshal(got)
		assert.NilError(t, err)
		assert.Equal(t, string(b), tc.want, "value(%q)", tc.arg)
	}
	_, err = value(doc, "@first.json:nope", read)
	assert.ErrorContains(t, err, `no key "nope"`, "a path the other file lacks")
	_, err = value(doc, "@missing.json:seed", read)
	assert.ErrorContains(t, err, "not a JSON document", "a file with no document")
}
