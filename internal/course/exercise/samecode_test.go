package exercise

import (
	"testing"

	"gotest.tools/v3/assert"
)

// TestOnlyACodeChangeCountsAsAChange: comments, spacing and line breaks a
// semicolon stands for are not a repair; a changed token, a changed
// string (SQL lives in strings) or an added statement is.
func TestOnlyACodeChangeCountsAsAChange(t *testing.T) {
	const start = "package p\n\nfunc f(n int) bool {\n\tif false {\n\t\treturn true\n\t}\n\treturn q(`SELECT 1`)\n}\n"
	cases := []struct {
		name, after string
		same        bool
	}{
		{"as started", start, true},
		{"a comment added", "package p\n\n// fixed\nfunc f(n int) bool {\n\tif false { // really\n\t\treturn true\n\t}\n\treturn q(`SELECT 1`)\n}\n", true},
		{"spacing", "package p\nfunc f(n int) bool {\n  if false   {\n\t\treturn true\n\t}\n\treturn q(`SELECT 1`)   \n}\n", true},
		{"a written semicolon", "package p\n\nfunc f(n int) bool {\n\tif false {\n\t\treturn true;\n\t}\n\treturn q(`SELECT 1`)\n}\n", true},
		{"a changed condition", "package p\n\nfunc f(n int) bool {\n\tif n > 1 {\n\t\treturn true\n\t}\n\treturn q(`SELECT 1`)\n}\n", false},
		{"a changed string", "package p\n\nfunc f(n int) bool {\n\tif false {\n\t\treturn true\n\t}\n\treturn q(`SELECT 2`)\n}\n", false},
		{"a statement added", "package p\n\nfunc f(n int) bool {\n\tif false {\n\t\treturn true\n\t}\n\tn++\n\treturn q(`SELECT 1`)\n}\n", false},
	}
	for _, c := range cases {
		assert.Check(t, sameCode([]byte(start), []byte(c.after)) == c.same, "%s: sameCode = %t; want %t", c.name, !c.same, c.same)
	}
}
