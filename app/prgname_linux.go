//go:build desktop && cgo

package app

/*
#cgo pkg-config: glib-2.0
#include <stdlib.h>
#include <glib.h>
*/
import "C"

import "unsafe"

// setProgramName names the process to GTK before the window exists. Wails' own
// Linux.ProgramName comes too late: GDK has already taken the executable's name for WM_CLASS
// by then, so the desktop would not pair the window with its launcher. GDK derives the class
// half of WM_CLASS from it too ("Dev.agentdesk.AgentDesk"); the instance half is the app id.
func setProgramName(name string) {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	C.g_set_prgname(cs)
}
