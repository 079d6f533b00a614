package app

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"

	"agentdesk/backend/acp/client"
	"agentdesk/backend/agent"
	"agentdesk/backend/agent/external"
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/hunk"
	"agentdesk/backend/mcp"
	"agentdesk/backend/netproxy"
	"agentdesk/backend/provider/llm"
	"agentdesk/backend/rewind"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/serve"
	"agentdesk/backend/tool"
)

var errorType = reflect.TypeFor[error]()

// Methods exposes every exported facade method as "Struct.Method" for the browser bridge,
// taking the same request structs the window's bindings take.
func (s *Services) Methods() map[string]serve.Method {
	out := map[string]serve.Method{}
	for _, facade := range s.Facades() {
		v := reflect.ValueOf(facade)
		for i := 0; i < v.NumMethod(); i++ {
			m := v.Type().Method(i)
			if fn, ok := s.adapt(v.Method(i)); ok {
				out[v.Elem().Type().Name()+"."+m.Name] = fn
			}
		}
	}
	return out
}

// adapt wraps a method of shape func([Req]) ([Result,] error).
func (s *Services) adapt(fn reflect.Value) (serve.Method, bool) {
	t := fn.Type()
	if t.NumIn() > 1 || t.NumOut() == 0 || t.NumOut() > 2 || t.Out(t.NumOut()-1) != errorType {
		return nil, false
	}
	return func(_ context.Context, body json.RawMessage) (any, error) {
		args, err := decodeArgs(t, body)
		if err != nil {
			return nil, s.fail(err)
		}
		out := fn.Call(args)
		if err, _ := out[len(out)-1].Interface().(error); err != nil {
			return nil, err
		}
		if len(out) == 1 {
			return nil, nil
		}
		return out[0].Interface(), nil
	}, true
}

func decodeArgs(t reflect.Type, body json.RawMessage) ([]reflect.Value, error) {
	if t.NumIn() == 0 {
		return nil, nil
	}
	req := reflect.New(t.In(0))
	if len(body) > 0 {
		if err := json.Unmarshal(body, req.Interface()); err != nil {
			return nil, errs.Wrap(errs.InvalidInput, err, "Field", "request")
		}
	}
	return []reflect.Value{req.Elem()}, nil
}

// faults are the kinds that are not a refusal of the caller's request: AgentDesk's own failure
// (500), a provider, agent or server it depends on failing (502, 504), a part not there now
// (503), or the request colliding with what is running (409). The browser bridge answers every
// other kind with a 4xx, so a page can tell "you asked for something refused" from "we broke".
var faults = map[errs.Kind]int{
	sandbox.HelperMissing: http.StatusInternalServerError, sandbox.SandboxFailed: http.StatusInternalServerError,
	llm.RecordFailed: http.StatusInternalServerError, llm.KeyringFailed: http.StatusInternalServerError,
	agent.QueuedMessageUnreadable: http.StatusInternalServerError, agent.TurnLogUnreadable: http.StatusInternalServerError,
	decision.PayloadUnreadable: http.StatusInternalServerError, tool.ToolFailed: http.StatusInternalServerError,
	checkpoint.Missing: http.StatusInternalServerError, checkpoint.RestoreFailed: http.StatusInternalServerError,
	mcp.LogUnreadable: http.StatusInternalServerError, netproxy.ListenFailed: http.StatusInternalServerError,

	llm.HTTPFailed: http.StatusBadGateway, llm.StreamFailed: http.StatusBadGateway, llm.Unreachable: http.StatusBadGateway,
	external.AgentFailed: http.StatusBadGateway, external.AgentProtocol: http.StatusBadGateway,
	external.AgentUnavailable: http.StatusBadGateway, client.ExternalAgentStartTimeout: http.StatusGatewayTimeout,
	mcp.ServerCrashed: http.StatusBadGateway, mcp.ServerUnavailable: http.StatusBadGateway,
	mcp.ServerUnreachable: http.StatusBadGateway, mcp.ServerSilent: http.StatusGatewayTimeout,
	mcp.CallFailed: http.StatusBadGateway, agent.SummaryEmpty: http.StatusBadGateway,
	netproxy.ResolveFailed: http.StatusBadGateway, netproxy.DialFailed: http.StatusBadGateway,

	agent.ShuttingDown: http.StatusServiceUnavailable, rewind.Unavailable: http.StatusServiceUnavailable,
	NotificationsUnavailable: http.StatusServiceUnavailable, llm.KeyringMissing: http.StatusServiceUnavailable,

	rewind.Busy: http.StatusConflict, hunk.Conflict: http.StatusConflict, mcp.ToolChanged: http.StatusConflict,
	checkpoint.NeedsConfirmation: http.StatusConflict,
}
