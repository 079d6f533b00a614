// Command gendata builds a data folder the size of a year of use (10,000 sessions,
// 1,000,000 events) through the store's own API, for the scale benchmarks (build/scripts/bench.sh)
// and for trying the app on it: agentdesk --data-dir DIR.
//
//	go run ./build/gendata [-sessions 10000 -events 1000000 -big 100000 -medium 10000] [-current] DIR
//
// A folder already built to the same spec is left as it is. With -current the one line on
// standard output is the folder to open at the store's schema: DIR, or a copy of it migrated
// once beside it (DIR.schema-N), so the app never migrates a year of events per launch.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"agentdesk/build/scaledata"
)

func main() {
	spec := scaledata.Year
	flag.IntVar(&spec.Sessions, "sessions", spec.Sessions, "sessions in all")
	flag.IntVar(&spec.Events, "events", spec.Events, "events in all")
	flag.IntVar(&spec.Big, "big", spec.Big, "events of the largest session")
	flag.IntVar(&spec.Medium, "medium", spec.Medium, "events of the second largest session")
	current := flag.Bool("current", false, "print only the folder at the store's schema (DIR or its migrated copy)")
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
	summary := os.Stdout
	if *current {
		summary = os.Stderr
	}
	fmt.Fprintf(summary, "%s: %d sessions, %d events; the largest session %s (%d events), then %s (%d)\n",
		flag.Arg(0), m.Sessions, m.Events, m.BigID, m.Big, m.MediumID, m.Medium)
	if *current {
		dir, _, err := scaledata.Current(flag.Arg(0), m)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gendata:", err)
			os.Exit(1)
		}
		fmt.Println(dir)
	}
}
