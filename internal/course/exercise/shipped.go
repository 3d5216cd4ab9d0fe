package exercise

// This file knows the shipped code: what every file an exercise touches
// held when the course shipped it. Between exercises the learner's tree
// holds exactly that, so any exercise can start at any time; a learner
// may commit whatever they like, so "shipped" cannot be read from HEAD.
// It is a committed list instead, ShippedFile: each file's git blob id.
// The id says whether a file is as shipped without git; the bytes come
// back from the repository's own history (git cat-file), where every
// clone of the course has them.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// shippedStore is the folder under StateDir where a grading's scratch
// copy, which has no git history, keeps the shipped files by blob id. A
// learner's tree has none: git holds them there.
const shippedStore = "shipped"

// ShippedFile is the list of shipped files, relative to the module root.
const ShippedFile = "chapters/shipped.sum"

// ErrNotShipped is returned (wrapped) for a file the shipped list does
// not name: no exercise touches it, or the list is out of date.
var ErrNotShipped = errors.New("exercise: not in " + ShippedFile)

// ErrShippedGone is returned (wrapped) when the shipped bytes of a file
// are not in the repository's history (a shallow clone, or no git).
var ErrShippedGone = errors.New("exercise: the shipped file is not in this repository's history")

// Shipped maps each file an exercise touches to its git blob id as shipped.
type Shipped map[string]string

// BlobID returns the id git gives data as a blob: the SHA-1 of
// "blob <size>\x00" followed by data.
func BlobID(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// LoadShipped reads root's shipped list. A missing list is an empty one.
func LoadShipped(root string) (Shipped, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ShippedFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return Shipped{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the shipped list: %w", err)
	}
	return parseSum(ShippedFile, data)
}

// parseSum reads a list of "<blob id>  <path>" lines; name is its file,
// for errors.
func parseSum(name string, data []byte) (Shipped, error) {
	s := Shipped{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, file, ok := strings.Cut(line, "  ")
		if !ok || len(id) != 40 || strings.TrimSpace(file) == "" {
			return nil, fmt.Errorf("%s:%d: want \"<blob id>  <path>\"", name, n)
		}
		s[strings.TrimSpace(file)] = id
	}
	return s, sc.Err()
}

// Format returns the list as ShippedFile holds it.
func (s Shipped) Format() []byte {
	var b bytes.Buffer
	b.WriteString("# Every file a drill exercise touches, as the course ships it: its git\n")
	b.WriteString("# blob id, then its path. drill start, reset and grade tell shipped code\n")
	b.WriteString("# from a learner's by these ids, and take the shipped bytes back from git.\n")
	b.WriteString("# After changing one of these files, write the list again with:\n")
	b.WriteString("#   go test ./internal/course/exercise/ -run TestShippedListMatchesTheTree -update\n")
	for _, f := range s.files() {
		fmt.Fprintf(&b, "%s  %s\n", s[f], f)
	}
	return b.Bytes()
}

// files returns the files of the list, sorted.
func (s Shipped) files() []string {
	files := make([]string, 0, len(s))
	for f := range s {
		files = append(files, f)
	}
	sort.Strings(files)
	return files
}

// ShippedOf returns the shipped list the exercises of set call for, read
// from the tree as it is now: what the list must hold when the tree is as
// shipped.
func ShippedOf(set *Set) (Shipped, error) {
	s := Shipped{}
	for _, e := range set.Exercises {
		files, err := set.ShippedFiles(e)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join(set.Root, filepath.FromSlash(f)))
			if err != nil {
				return nil, err
			}
			s[f] = BlobID(data)
		}
	}
	return s, nil
}

// Differs returns those of files whose bytes under root are not as
// shipped (a file that is gone differs too), in the order given.
func (s Shipped) Differs(root string, files []string) ([]string, error) {
	var out []string
	for _, f := range files {
		id, ok := s[f]
		if !ok {
			return nil, fmt.Errorf("%s: %w", f, ErrNotShipped)
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if errors.Is(err, fs.ErrNotExist) {
			out = append(out, f)
			continue
		}
		if err != nil {
			return nil, err
		}
		if BlobID(data) != id {
			out = append(out, f)
		}
	}
	return out, nil
}

// Bytes returns file as shipped: the file itself if it is, else a copy
// in root's shipped store (a grading's scratch copy keeps one, having no
// git), else the blob from the history of the git repository at gitRoot.
func (s Shipped) Bytes(ctx context.Context, root, gitRoot, file string) ([]byte, error) {
	id, ok := s[file]
	if !ok {
		return nil, fmt.Errorf("%s: %w", file, ErrNotShipped)
	}
	if data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file))); err == nil && BlobID(data) == id {
		return data, nil
	}
	if data, err := os.ReadFile(statePath(root, shippedStore, id)); err == nil && BlobID(data) == id {
		return data, nil
	}
	cmd := exec.CommandContext(ctx, "git", "cat-file", "blob", id)
	cmd.Dir = gitRoot
	data, err := cmd.Output()
	if err != nil || BlobID(data) != id {
		return nil, fmt.Errorf("%s (blob %.10s): %w; fetch the course's whole history (git fetch --unshallow) and try again", file, id, ErrShippedGone)
	}
	return data, nil
}
