package app

import (
	"context"
	"encoding/json"
	"reflect"

	"agentdesk/backend/errs"
	"agentdesk/backend/serve"
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
