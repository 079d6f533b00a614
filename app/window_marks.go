//go:build desktop

package app

import (
	"context"
	"fmt"
	"io"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// markPage writes each mark the page reports to w, as a line: the name, then the time.
func markPage(ctx context.Context, w io.Writer) {
	runtime.EventsOn(ctx, markEvent, func(data ...any) {
		if len(data) != 2 {
			return
		}
		name, _ := data[0].(string)
		if at, ok := data[1].(float64); ok && name != "" {
			fmt.Fprintf(w, "agentdesk-bench: %s at %.0f\n", name, at)
		}
	})
}
