package i18n

import "testing"

// What every command pays before it does anything: the messages of both languages, parsed.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := Load(); err != nil {
			b.Fatal(err)
		}
	}
}
