package serve

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"

	"agentdesk/backend/errs"
)

const (
	cookieName   = "agentdesk_token"
	allowedAddrs = "127.0.0.1:PORT, [::1]:PORT, localhost:PORT"
)

// checkLoopback refuses any address that is not on the loopback interface.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return errs.Invalid("--addr", addr, []string{allowedAddrs})
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return errs.Invalid("--addr", addr, []string{allowedAddrs})
}

// guard admits a request only when its Host is ours (no DNS rebinding), its Origin, if any,
// is ours (no cross-site requests), and it carries the token.
type guard struct {
	hosts    map[string]bool
	origins  map[string]bool
	token    string
	describe func(error) ErrorBody
}

func newGuard(port, token string, describe func(error) ErrorBody) guard {
	g := guard{hosts: map[string]bool{}, origins: map[string]bool{}, token: token, describe: describe}
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
		g.hosts[h+":"+port] = true
		g.origins["http://"+h+":"+port] = true
	}
	return g
}

func (g guard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.hosts[r.Host] || !g.originAllowed(r) {
			writeError(w, http.StatusForbidden, g.describe(errs.New(errs.Forbidden)))
			return
		}
		if q := r.URL.Query().Get("token"); q != "" && g.matches(q) && r.Method == http.MethodGet && r.URL.Path != "/ws" {
			g.setCookieAndClean(w, r)
			return
		}
		if !g.authorized(r) {
			writeError(w, http.StatusUnauthorized, g.describe(errs.New(errs.Unauthorized)))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (g guard) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	return origin == "" || g.origins[origin]
}

func (g guard) authorized(r *http.Request) bool {
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && g.matches(bearer) {
		return true
	}
	if c, err := r.Cookie(cookieName); err == nil && g.matches(c.Value) {
		return true
	}
	return g.matches(r.URL.Query().Get("token"))
}

func (g guard) matches(candidate string) bool {
	return candidate != "" && subtle.ConstantTimeCompare([]byte(candidate), []byte(g.token)) == 1
}

// setCookieAndClean trades the token in the address for a strict cookie, then redirects to
// the clean address so the token does not linger in history or screenshots.
func (g guard) setCookieAndClean(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: g.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	clean := *r.URL
	q := clean.Query()
	q.Del("token")
	clean.RawQuery = q.Encode()
	http.Redirect(w, r, clean.RequestURI(), http.StatusSeeOther)
}
