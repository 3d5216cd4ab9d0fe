package snippet

// This file tests Edit.Apply on a small Go file: each way a block can go
// in, and each way a place can fail to be exactly one.

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
)

// source is the file the edits below are made to.
const source = `package p

// T is a type.
type T struct{}

// Add adds.
func (t *T) Add(x int) {
	switch x {
	case 1:
		return
	}
}

func Add() {}
`

func TestApplyPutsTheBlockWhereTheMarkerSays(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		edit Edit
		want string
	}{
		"Append": {
			Edit{How: "append", Block: Block{Body: "func G() {}\n"}},
			source + "\nfunc G() {}\n",
		},
		"Replace": {
			Edit{How: "replace", Find: "\tcase 1:\n", Block: Block{Body: "\tcase 1, 2:\n"}},
			"package p\n\n// T is a type.\ntype T struct{}\n\n// Add adds.\nfunc (t *T) Add(x int) {\n\tswitch x {\n\tcase 1, 2:\n\t\treturn\n\t}\n}\n\nfunc Add() {}\n",
		},
		"ReplaceMethodAndItsDoc": {
			Edit{How: "replace-func", Arg: "T.Add", Block: Block{Body: "// Add adds nothing.\nfunc (t *T) Add(x int) bool { return false }\n"}},
			"package p\n\n// T is a type.\ntype T struct{}\n\n// Add adds nothing.\nfunc (t *T) Add(x int) bool { return false }\n\nfunc Add() {}\n",
		},
		"ReplaceFunction": {
			Edit{How: "replace-func", Arg: "Add", Block: Block{Body: "func Add() { println() }\n"}},
			"package p\n\n// T is a type.\ntype T struct{}\n\n// Add adds.\nfunc (t *T) Add(x int) {\n\tswitch x {\n\tcase 1:\n\t\treturn\n\t}\n}\n\nfunc Add() { println() }\n",
		},
		"Before": {
			Edit{How: "before", Arg: "case 1:", Block: Block{Body: "\tcase 0:\n\t\tpanic(x)\n"}},
			"package p\n\n// T is a type.\ntype T struct{}\n\n// Add adds.\nfunc (t *T) Add(x int) {\n\tswitch x {\n\tcase 0:\n\t\tpanic(x)\n\tcase 1:\n\t\treturn\n\t}\n}\n\nfunc Add() {}\n",
		},
		"After": {
			Edit{How: "after", Arg: "switch x {", Block: Block{Body: "\tcase 0:\n"}},
			"package p\n\n// T is a type.\ntype T struct{}\n\n// Add adds.\nfunc (t *T) Add(x int) {\n\tswitch x {\n\tcase 0:\n\tcase 1:\n\t\treturn\n\t}\n}\n\nfunc Add() {}\n",
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tc.edit.File = "p/p.go"
			got, err := tc.edit.Apply([]byte(source))
			assert.NilError(t, err)
			assert.Equal(t, string(got), tc.want)
		})
	}
}

func TestApplyRefusesAPlaceThatIsNotExactlyOne(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		edit Edit
		want error
	}{
		"TextMissing":      {Edit{How: "replace", Find: "case 2:\n"}, ErrNoPlace},
		"TextTwice":        {Edit{How: "replace", Find: "Add"}, ErrManyPlaces},
		"NoSuchFunction":   {Edit{How: "replace-func", Arg: "T.Remove"}, ErrNoPlace},
		"MethodIsNotAFunc": {Edit{How: "replace-func", Arg: "U.Add"}, ErrNoPlace},
		"AnchorMissing":    {Edit{How: "before", Arg: "for {"}, ErrNoPlace},
		"AnchorTwice":      {Edit{How: "after", Arg: "Add"}, ErrManyPlaces},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tc.edit.File = "p/p.go"
			_, err := tc.edit.Apply([]byte(source))
			var place *PlaceError
			assert.Check(t, errors.As(err, &place), "Apply(%s) = %v; want a *PlaceError", &tc.edit, err)
			assert.Check(t, errors.Is(err, tc.want), "Apply(%s) = %v; want %v", &tc.edit, err, tc.want)
		})
	}
}
