package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
)

// Recorder wraps a Provider and keeps every request it receives in a JSON file,
// {"requests":[...]}, rewritten whole after each request so the file is valid JSON even when the
// process dies mid-run. It records what the model was asked, never keys or responses.
type Recorder struct {
	inner Provider
	path  string

	mu       sync.Mutex
	requests []json.RawMessage // each request, encoded once when it arrived
}

// The record's shape. Field names are snake_case and every list is present (empty rather than
// null), because scripts and outside tests read them: requests[0].tools has length 0 in Chat.
type recordedRequest struct {
	Provider  string            `json:"provider"`
	Model     string            `json:"model"`
	System    string            `json:"system"`
	MaxTokens int               `json:"max_tokens"`
	Messages  []recordedMessage `json:"messages"`
	Tools     []recordedTool    `json:"tools"`
}

type recordedMessage struct {
	Role        string           `json:"role"`
	Text        string           `json:"text"`
	ToolCalls   []recordedCall   `json:"tool_calls"`
	ToolResults []recordedResult `json:"tool_results"`
}

type recordedCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type recordedResult struct {
	CallID  string `json:"call_id"`
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"is_error"`
}

type recordedTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Record wraps inner with a recorder writing to path. It writes the empty record at once, so a
// bad path fails now and a run that never reaches the model still leaves a valid file.
func Record(inner Provider, path string) (*Recorder, error) {
	r := &Recorder{inner: inner, path: path}
	if err := r.write(); err != nil {
		return nil, err
	}
	return r, nil
}

// Name is the wrapped provider's name.
func (r *Recorder) Name() string { return r.inner.Name() }

// Unwrap returns the wrapped provider.
func (r *Recorder) Unwrap() Provider { return r.inner }

// Stream records req, then hands it to the wrapped provider. A request that cannot be recorded
// is not sent: a run asked to record must not leave gaps in its record.
func (r *Recorder) Stream(ctx context.Context, req Request, emit func(Event)) (Response, error) {
	if err := r.add(req); err != nil {
		return Response{}, err
	}
	return r.inner.Stream(ctx, req, emit)
}

func (r *Recorder) add(req Request) error {
	entry, err := json.MarshalIndent(r.snapshot(req), "    ", "  ")
	if err != nil {
		return errs.New(llm.RecordFailed, "Path", r.path, "Detail", err.Error())
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, entry)
	return r.write()
}

// write replaces the file through a temporary file and a rename, so a reader (or a crash)
// never sees half a document. The caller holds r.mu, or no other goroutine has r yet.
func (r *Recorder) write() error {
	var doc bytes.Buffer
	doc.WriteString("{\n  \"requests\": [")
	for i, entry := range r.requests {
		if i > 0 {
			doc.WriteByte(',')
		}
		doc.WriteString("\n    ")
		doc.Write(entry)
	}
	if len(r.requests) > 0 {
		doc.WriteString("\n  ")
	}
	doc.WriteString("]\n}\n")
	if err := replaceFile(r.path, doc.Bytes()); err != nil {
		return errs.New(llm.RecordFailed, "Path", r.path, "Detail", err.Error())
	}
	return nil
}

func replaceFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once the rename succeeded
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// snapshot converts req to the record's shape, filling in the provider's default model when the
// request names none, so the record says which model was actually asked.
func (r *Recorder) snapshot(req Request) recordedRequest {
	out := recordedRequest{
		Provider:  r.inner.Name(),
		Model:     req.Model,
		System:    req.System,
		MaxTokens: req.MaxTokens,
		Messages:  make([]recordedMessage, 0, len(req.Messages)),
		Tools:     make([]recordedTool, 0, len(req.Tools)),
	}
	if m, ok := r.inner.(interface{ Model() string }); ok && out.Model == "" {
		out.Model = m.Model()
	}
	for _, m := range req.Messages {
		out.Messages = append(out.Messages, recordMessage(m))
	}
	for _, t := range req.Tools {
		out.Tools = append(out.Tools, recordedTool{Name: t.Name, Description: t.Description, InputSchema: llm.Input(t.InputSchema)})
	}
	return out
}

func recordMessage(m Message) recordedMessage {
	out := recordedMessage{
		Role:        string(m.Role),
		Text:        m.Text,
		ToolCalls:   make([]recordedCall, 0, len(m.ToolCalls)),
		ToolResults: make([]recordedResult, 0, len(m.ToolResults)),
	}
	for _, c := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, recordedCall{ID: c.ID, Name: c.Name, Input: llm.Input(c.Input)})
	}
	for _, res := range m.ToolResults {
		out.ToolResults = append(out.ToolResults, recordedResult{CallID: res.CallID, Name: res.Name, Content: res.Content, IsError: res.IsError})
	}
	return out
}
