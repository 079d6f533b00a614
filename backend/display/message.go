// Package display holds what the person is shown of a tool's work: text as a locale key and its
// arguments, and a file's change. It is a leaf (the standard library only) so the event log and
// the decisions can carry it without linking the tools that write it.
package display

// Message is text for the person, as a locale key and its arguments, which the UI renders in
// the person's language. A tool's Output is what the model reads, in English, and stays so; a
// Message says the same to the person. An argument may itself be a Message (a reason inside a
// sentence), rendered the same way.
type Message struct {
	Key  string         `json:"key"`
	Args map[string]any `json:"args,omitempty"`
	// Head and Tail are how many lines at the start and at the end of Output the message stands
	// for: the rest of Output (a file's lines, a command's own output) is shown as it is. Both
	// zero: the message stands for the whole of Output.
	Head int `json:"head,omitempty"`
	Tail int `json:"tail,omitempty"`
}

// Say is a message standing for the whole output; args come in name, value pairs.
func Say(key string, args ...any) *Message {
	m := &Message{Key: key}
	for i := 0; i+1 < len(args); i += 2 {
		if m.Args == nil {
			m.Args = map[string]any{}
		}
		m.Args[args[i].(string)] = args[i+1]
	}
	return m
}

// First is m standing for the first n lines of the output only.
func (m *Message) First(n int) *Message { m.Head = n; return m }

// Last is m standing for the last n lines of the output only.
func (m *Message) Last(n int) *Message { m.Tail = n; return m }
