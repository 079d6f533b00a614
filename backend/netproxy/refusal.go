package netproxy

import (
	"bufio"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"sync"

	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
)

// refusalPrefix starts every refusal's line, so a person or model reading a command's stderr
// knows the proxy, not the remote server, said no.
const refusalPrefix = "agentdesk proxy: "

// RefusalHeader carries a refusal's kind, for programs that read the response.
const RefusalHeader = "AgentDesk-Refusal"

// englishMessages loads the locale bundle once per process. Refusals are always English: they
// are read by the model and by tools' log parsers, not shown in the app's language.
var englishMessages = sync.OnceValues(i18n.Load)

// discardLog silences net/http's own messages: they are about commands hanging up mid-request,
// which is ordinary, and a background log line would reach nobody who could act on it.
var discardLog = log.New(io.Discard, "", 0)

// refusalText is the one line the proxy answers err with.
func (p *Proxy) refusalText(err *errs.Error) string {
	msg := p.messages.T(i18n.Fallback, "error."+string(err.Kind), err.Args)
	return oneLine(refusalPrefix + msg)
}

func statusOf(k errs.Kind) int {
	switch k {
	case ResolveFailed, DialFailed:
		return http.StatusBadGateway
	case BadRequest:
		return http.StatusBadRequest
	}
	return http.StatusForbidden
}

// proxyStatusError is the RFC 9209 Proxy-Status error type of a refusal.
func proxyStatusError(k errs.Kind) string {
	switch k {
	case AddressForbidden:
		return "destination_ip_prohibited"
	case ResolveFailed:
		return "dns_error"
	case DialFailed:
		return "destination_unavailable"
	case BadRequest:
		return "http_request_error"
	}
	return "http_request_denied"
}

// refuse answers with the refusal and closes the connection. It writes the response itself
// when it can, to put the line in the status's reason phrase too: for a failed CONNECT, most
// clients print only the status line (Python's "Tunnel connection failed: 403 <reason>"), and
// curl -v shows it.
func (p *Proxy) refuse(w http.ResponseWriter, err *errs.Error) {
	text, status := p.refusalText(err), statusOf(err.Kind)
	hj, ok := w.(http.Hijacker)
	if !ok {
		p.refuseThroughWriter(w, err, text, status)
		return
	}
	conn, rw, herr := hj.Hijack()
	if herr != nil {
		p.refuseThroughWriter(w, err, text, status)
		return
	}
	defer conn.Close()
	writeRefusal(rw.Writer, err.Kind, text, status)
}

func (p *Proxy) refuseThroughWriter(w http.ResponseWriter, err *errs.Error, text string, status int) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Proxy-Status", proxyStatus(err.Kind, text))
	h.Set(RefusalHeader, string(err.Kind))
	h.Set("Connection", "close")
	w.WriteHeader(status)
	io.WriteString(w, text+"\n")
}

func writeRefusal(w *bufio.Writer, kind errs.Kind, text string, status int) {
	body := text + "\n"
	fmt.Fprintf(w, "HTTP/1.1 %d %s\r\n", status, text)
	fmt.Fprintf(w, "Content-Type: text/plain; charset=utf-8\r\n")
	fmt.Fprintf(w, "Proxy-Status: %s\r\n", proxyStatus(kind, text))
	fmt.Fprintf(w, "%s: %s\r\n", RefusalHeader, kind)
	fmt.Fprintf(w, "Content-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
	w.Flush()
}

func proxyStatus(k errs.Kind, text string) string {
	return fmt.Sprintf("agentdesk; error=%s; details=%q", proxyStatusError(k), strings.ReplaceAll(text, `"`, `'`))
}

// oneLine keeps a message to one printable line: it becomes a status line and a header.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}
