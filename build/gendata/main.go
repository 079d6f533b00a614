// Command gendata builds a data folder the size of a year of use (issue 11: 10,000 sessions,
// 1,000,000 events) through the store's own API, for the scale benchmarks (build/scripts/bench.sh)
// and for trying the app on it: agentdesk --data-dir DIR.
//
//	go run ./build/gendata [-sessions 10000 -events 1000000 -big 100000 -medium 10000] DIR
//
// A folder already built to the same spec is left as it is.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"agentdesk/backend/scaledata"
)

func main() {
	spec := scaledata.Year
	flag.IntVar(&spec.Sessions, "sessions", spec.Sessions, "sessions in all")
	flag.IntVar(&spec.Events, "events", spec.Events, "events in all")
	flag.IntVar(&spec.Big, "big", spec.Big, "events of the largest session")
	flag.IntVar(&spec.Medium, "medium", spec.Medium, "events of the second largest session")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gendata [flags] DIR")
		os.Exit(2)
	}
	start, last := time.Now(), time.Now()
	m, err := scaledata.Ensure(flag.Arg(0), spec, func(done, total int) {
		if time.Since(last) > 5*time.Second {
			last = time.Now()
			fmt.Fprintf(os.Stderr, "gendata: %d of %d events (%s)\n", done, total, time.Since(start).Round(time.Second))
		}
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendata:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d sessions, %d events; the largest session %s (%d events), then %s (%d)\n",
		flag.Arg(0), m.Sessions, m.Events, m.BigID, m.Big, m.MediumID, m.Medium)
}
