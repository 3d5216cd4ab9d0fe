package scripttest

// This file holds the script command that asserts the runner's JSON:
//
//	json FILE PATH OP VALUE
//
// FILE is stdout, stderr or a file in the script's work directory; it must
// hold exactly one JSON document. PATH is dotted keys and list indexes
// (claims.0.token); len(PATH) is the length of a list or object. OP is one of
// == != < <= > >=. VALUE is JSON (4, true, "a b") or a bare word (refused),
// or @PATH for another value of the same document, so relations can be
// asserted without fixing numbers: json stdout timeline.3.token > @timeline.0.token
// or @FILE:PATH for a value of the document in FILE, so that two runs can
// be compared: json stdout plan == @first.json:plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func cmdJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 4 {
		ts.Fatalf("usage: json FILE PATH OP VALUE")
	}
	doc, err := decodeOne(ts.ReadFile(args[0]))
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	got, err := lookup(doc, args[1])
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	want, err := value(doc, args[3], ts.ReadFile)
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	ok, err := compare(got, args[2], want)
	if err != nil {
		ts.Fatalf("%v", err)
	}
	if ok == neg {
		not := ""
		if neg {
			not = "not "
		}
		ts.Fatalf("%s: %s = %s; want %s%s %s", args[0], args[1], show(got), not, args[2], show(want))
	}
}

// value reads a VALUE argument against doc, the document being asserted:
// @FILE:PATH looks PATH up in the document read(FILE) returns, @PATH in
// doc itself, and anything else is a literal.
func value(doc any, arg string, read func(file string) string) (any, error) {
	ref, ok := strings.CutPrefix(arg, "@")
	if !ok {
		return literal(arg), nil
	}
	file, path, ok := strings.Cut(ref, ":")
	if !ok {
		return lookup(doc, ref)
	}
	other, err := decodeOne(read(file))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	v, err := lookup(other, path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return v, nil
}

// decodeOne decodes data, which must be exactly one JSON document.
func decodeOne(data string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not a JSON document: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one JSON document")
	}
	return v, nil
}

// lookup follows a dotted path, or len(path).
func lookup(doc any, path string) (any, error) {
	if inner, ok := strings.CutPrefix(path, "len("); ok && strings.HasSuffix(inner, ")") {
		v, err := lookup(doc, strings.TrimSuffix(inner, ")"))
		if err != nil {
			return nil, err
		}
		switch v := v.(type) {
		case []any:
			return json.Number(strconv.Itoa(len(v))), nil
		case map[string]any:
			return json.Number(strconv.Itoa(len(v))), nil
		}
		return nil, fmt.Errorf("len(%s): %s is neither a list nor an object", inner, show(v))
	}
	v := doc
	for _, key := range strings.Split(path, ".") {
		switch node := v.(type) {
		case map[string]any:
			next, ok := node[key]
			if !ok {
				return nil, fmt.Errorf("%s: no key %q", path, key)
			}
			v = next
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(node) {
				return nil, fmt.Errorf("%s: no index %q in a list of %d", path, key, len(node))
			}
			v = node[i]
		default:
			return nil, fmt.Errorf("%s: cannot look up %q in %s", path, key, show(node))
		}
	}
	return v, nil
}

// literal reads a VALUE argument: JSON if it parses, else a bare string.
func literal(s string) any {
	v, err := decodeOne(s)
	if err != nil {
		return s
	}
	return v
}

func compare(got any, op string, want any) (bool, error) {
	switch op {
	case "==":
		return reflect.DeepEqual(got, want), nil
	case "!=":
		return !reflect.DeepEqual(got, want), nil
	case "<", "<=", ">", ">=":
		g, gok := number(got)
		w, wok := number(want)
		if !gok || !wok {
			return false, fmt.Errorf("%s compares numbers; got %s and %s", op, show(got), show(want))
		}
		switch op {
		case "<":
			return g < w, nil
		case "<=":
			return g <= w, nil
		case ">":
			return g > w, nil
		}
		return g >= w, nil
	}
	return false, fmt.Errorf("unknown operator %q: want == != < <= > >=", op)
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

func show(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(b.String())
}
