// Package mcptest is a real MCP server written with the official Go SDK, for the tests of
// backend/mcp and the end-to-end suites: the same tools over stdio (fixture/main.go, run as its
// own process) and Streamable HTTP. It is test support, never linked into the app.
package mcptest

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// VariantEnv picks the server's tool definitions: "" the original, "changed" a changed echo
// (another description and a new required parameter), as a server update would.
const VariantEnv = "MCP_FIXTURE_VARIANT"

// Options shape one fixture server.
type Options struct {
	Variant string
	// Exit ends the process for the crash tool; tests of an in-process server leave it nil.
	Exit func(code int)
}

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

type echoLoudIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
	Loud bool   `json:"loud" jsonschema:"shout it"`
}

type noteIn struct {
	Name string `json:"name" jsonschema:"file name in the working folder"`
	Text string `json:"text" jsonschema:"what to write"`
}

type bigIn struct {
	Bytes int `json:"bytes" jsonschema:"how many bytes of output"`
}

type probeIn struct {
	Read    string `json:"read,omitempty" jsonschema:"a file to read"`
	Write   string `json:"write,omitempty" jsonschema:"a file to create"`
	Connect string `json:"connect,omitempty" jsonschema:"a TCP address to dial"`
}

type none struct{}

type slowIn struct {
	Steps int  `json:"steps" jsonschema:"how many progress notices to send"`
	Hold  bool `json:"hold,omitempty" jsonschema:"after the notices, wait until the call is cancelled"`
}

type sampleIn struct {
	Prompt string `json:"prompt" jsonschema:"what to ask the client's model"`
}

// NewServer builds the fixture: echo (read-only), write_note, greet (asks the person through an
// elicitation), big, probe (what the sandbox lets it do), crash and evolve (changes echo live).
func NewServer(opts Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "agentdesk-fixture", Version: "1.0.0"}, nil)
	addEcho(s, opts.Variant)
	mcp.AddTool(s, &mcp.Tool{Name: "write_note", Description: "Writes a note file into the working folder.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false)}}, writeNote)
	mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: "Greets the person by the name they give.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, greet)
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "Returns a long text.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, big)
	mcp.AddTool(s, &mcp.Tool{Name: "probe", Description: "Reports what the process may read, write and dial."}, probe)
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Exits the server process."},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "fixture: crashing on purpose")
			if opts.Exit != nil {
				opts.Exit(3)
			}
			return text("not crashed: no process to end"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "Reports progress step by step; may wait to be cancelled.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, slow)
	mcp.AddTool(s, &mcp.Tool{Name: "sample", Description: "Asks the client's model a question (sampling).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, sample)
	mcp.AddTool(s, &mcp.Tool{Name: "evolve", Description: "Changes the echo tool's definition."},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			addEcho(s, "changed")
			return text("echo changed"), nil, nil
		})
	return s
}

func addEcho(s *mcp.Server, variant string) {
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	if variant == "changed" {
		mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echoes the text back, louder if asked.", Annotations: ro},
			func(_ context.Context, _ *mcp.CallToolRequest, in echoLoudIn) (*mcp.CallToolResult, any, error) {
				if in.Loud {
					return text("echo: " + strings.ToUpper(in.Text)), nil, nil
				}
				return text("echo: " + in.Text), nil, nil
			})
		return
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echoes the text back.", Annotations: ro},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return text("echo: " + in.Text), nil, nil
		})
}

func writeNote(_ context.Context, _ *mcp.CallToolRequest, in noteIn) (*mcp.CallToolResult, any, error) {
	if err := os.WriteFile(filepath.Clean(in.Name), []byte(in.Text), 0o644); err != nil {
		return errorText(err.Error()), nil, nil
	}
	return text("wrote " + in.Name), nil, nil
}

// greetSchema is a flat form: a required name and a language chosen from two.
var greetSchema = &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"name":     {Type: "string", Title: "Your name", Description: "How the greeting addresses you"},
		"language": {Type: "string", Title: "Language", Enum: []any{"en", "zh"}},
	},
	Required: []string{"name"},
}

// greet asks through the multi round-trip pattern, which the SDK also carries to clients of
// older protocol versions as a plain elicitation request.
func greet(_ context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
	res, ok := req.Params.InputResponses["who"].(*mcp.ElicitResult)
	if !ok {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"who": &mcp.ElicitParams{
			Message: "Who should I greet?", RequestedSchema: greetSchema}}}, nil, nil
	}
	if res.Action != "accept" {
		return text("greeting " + map[string]string{"decline": "declined", "cancel": "cancelled"}[res.Action]), nil, nil
	}
	hello := "Hello"
	if res.Content["language"] == "zh" {
		hello = "你好"
	}
	return text(fmt.Sprintf("%s, %v!", hello, res.Content["name"])), nil, nil
}

// CancelledFile is what slow writes into its working folder when its call was cancelled while
// it held: the proof that notifications/cancelled reached the server.
const CancelledFile = "slow-cancelled.txt"

func slow(ctx context.Context, req *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
	token := req.Params.GetProgressToken()
	for i := 1; i <= in.Steps; i++ {
		if token != nil {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
				Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d", i)})
		}
	}
	if in.Hold {
		<-ctx.Done()
		_ = os.WriteFile(CancelledFile, []byte("cancelled"), 0o644)
		return text("cancelled"), nil, nil
	}
	return text(fmt.Sprintf("done after %d steps", in.Steps)), nil, nil
}

// sample asks through the multi round-trip pattern, as greet does.
func sample(_ context.Context, req *mcp.CallToolRequest, in sampleIn) (*mcp.CallToolResult, any, error) {
	res, ok := req.Params.InputResponses["answer"].(*mcp.CreateMessageWithToolsResult)
	if !ok {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"answer": &mcp.CreateMessageParams{MaxTokens: 100,
			SystemPrompt: "Answer in one line.",
			Messages:     []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: in.Prompt}}}}}}, nil, nil
	}
	var answer []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			answer = append(answer, t.Text)
		}
	}
	return text(fmt.Sprintf("%s answered: %s", res.Model, strings.Join(answer, " "))), nil, nil
}

func big(_ context.Context, _ *mcp.CallToolRequest, in bigIn) (*mcp.CallToolResult, any, error) {
	return text("BEGIN" + strings.Repeat("x", max(in.Bytes-8, 0)) + "END"), nil, nil
}

func probe(_ context.Context, _ *mcp.CallToolRequest, in probeIn) (*mcp.CallToolResult, any, error) {
	var out []string
	if in.Read != "" {
		_, err := os.ReadFile(in.Read)
		out = append(out, "read: "+outcome(err))
	}
	if in.Write != "" {
		err := os.WriteFile(in.Write, []byte("probe"), 0o644)
		out = append(out, "write: "+outcome(err))
	}
	if in.Connect != "" {
		c, err := net.Dial("tcp", in.Connect)
		if err == nil {
			c.Close()
		}
		out = append(out, "connect: "+outcome(err))
	}
	return text(strings.Join(out, "\n")), nil, nil
}

func outcome(err error) string {
	if err != nil {
		return "denied (" + err.Error() + ")"
	}
	return "ok"
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func errorText(s string) *mcp.CallToolResult {
	r := text(s)
	r.IsError = true
	return r
}

func ptr[T any](v T) *T { return &v }
