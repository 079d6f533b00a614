// Command gents writes the page's contract, frontend/src/bridge/generated.ts, from the Go side:
// the types of the facades' requests and results (app/*.go) and of the broadcast events, and the
// Methods and Events maps the bridge types its calls and subscriptions with; and
// frontend/docs/API.md, the same methods and events to read. Run by `make gen`; its test fails
// while a checked-in file is stale.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// Where the contract goes, relative to the module root.
const (
	output = "frontend/src/bridge/generated.ts"
	apiDoc = "frontend/docs/API.md"
)

func main() {
	root := flag.String("root", ".", "the module root")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "gents:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	src, err := load(root, contract...)
	if err != nil {
		return err
	}
	files, err := generate(src)
	if err != nil {
		return err
	}
	for path, data := range files {
		if err := os.WriteFile(filepath.Join(root, path), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
