package display

// Change is what a write or an edit would do to a file, for the approval card's diff: the file
// as it is and as it would be. Created: the file does not exist yet. Omitted (binary, too large)
// leaves Before and After empty, so the card falls back to the call's summary.
type Change struct {
	Path    string `json:"path"`
	Before  string `json:"before"`
	After   string `json:"after"`
	Created bool   `json:"created,omitempty"`
	Omitted string `json:"omitted,omitempty"` // "binary" or "too_large"
}
