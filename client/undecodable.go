package client

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"

	"github.com/octop-dev/octop/internal/wire"
)

// This file keeps one record that does not decode (a session whose title
// is a number) from costing the rest of its answer. encoding/json goes on
// past a value of the wrong type, filling what it can, and says so with an
// UnmarshalTypeError: a list is decoded element by element, each bad one
// left out (or, a session whose id was read, kept and marked) and
// reported to Options.Undecodable, the others kept. An answer that is not
// JSON at all stays an error: there is no telling where its records are.

// recordError says err is about a value of the wrong type: the decoder
// read the value whole and went on, so the rest of the answer is good.
func recordError(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te)
}

// reasonOf says in one line what err found wrong with a record:
// "title is a number", "time.created is the number 1e999, which does not
// fit", "it is a string, not an object".
func reasonOf(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return oneLine(err.Error(), 200)
	}
	value := te.Value
	switch {
	case strings.HasPrefix(value, "number "):
		value = "the " + value + ", which does not fit"
	case strings.HasPrefix(value, "a") || strings.HasPrefix(value, "o"):
		value = "an " + value // array, object
	default:
		value = "a " + value
	}
	if te.Field == "" {
		return oneLine("it is "+value+", not "+kindOf(te.Type), 200)
	}
	return oneLine(te.Field+" is "+value, 200)
}

// kindOf names what a Go type is decoded from, in JSON's words.
func kindOf(t reflect.Type) string {
	if t == nil {
		return "what was expected"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Pointer:
		return kindOf(t.Elem())
	}
	return "a number"
}

// idOf is the id a half-decoded record holds (its ID, or its Info's, as a
// message's), or "".
func idOf(v reflect.Value) string {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return ""
	}
	if f := v.FieldByName("ID"); f.IsValid() && f.Kind() == reflect.String {
		return f.String()
	}
	if f := v.FieldByName("Info"); f.IsValid() {
		return idOf(f)
	}
	return ""
}

// mark sets a half-decoded session's Undecodable field (wire.Session's,
// or a caller's own type's of that name) to why.
func mark(v reflect.Value, why string) {
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if f := v.FieldByName("Undecodable"); f.IsValid() && f.Kind() == reflect.String && f.CanSet() {
		f.SetString(why)
	}
}

// skipped reports a record left out, or kept marked, to the caller's
// Options.Undecodable, if it has one. It says whether the record, given
// half-decoded as v, is kept: a session whose id could be read, marked,
// so it is shown where it belongs.
func (c *Client) skipped(u wire.Undecodable, v reflect.Value) (keep bool) {
	if c.undecodable != nil {
		c.undecodable(u)
	}
	if u.What != whatSession || u.ID == "" {
		return false
	}
	mark(v, u.Reason)
	return true
}

// The records a call's answer is a list (or map) of, as Undecodable.What
// names them.
const (
	whatSession = "session"
	whatMessage = "message"
	whatStatus  = "status"
)

// salvage decodes data, an answer of records (a list, or a map by id)
// that failed as a whole with a recordError, into out one record at a
// time: what decodes is kept, what does not is left out or marked
// (skipped). It says whether it could: not when out is neither, or data is
// not one.
func (c *Client) salvage(op, what string, data []byte, out any) bool {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return false
	}
	v = v.Elem()
	switch v.Kind() {
	case reflect.Slice:
		var raws []json.RawMessage
		if json.Unmarshal(data, &raws) != nil {
			return false
		}
		list := reflect.MakeSlice(v.Type(), 0, len(raws))
		for i, raw := range raws {
			e := reflect.New(v.Type().Elem())
			if err := decode(raw, e.Interface()); err != nil {
				if !recordError(err) {
					return false
				}
				u := wire.Undecodable{What: what, ID: idOf(e), Pos: i + 1, Reason: reasonOf(err), Op: op}
				if !c.skipped(u, e) {
					continue
				}
			}
			list = reflect.Append(list, e.Elem())
		}
		v.Set(list)
	case reflect.Map:
		var raws map[string]json.RawMessage
		if v.Type().Key().Kind() != reflect.String || json.Unmarshal(data, &raws) != nil {
			return false
		}
		m := reflect.MakeMapWithSize(v.Type(), len(raws))
		for k, raw := range raws {
			e := reflect.New(v.Type().Elem())
			if err := decode(raw, e.Interface()); err != nil {
				if !recordError(err) {
					return false
				}
				c.skipped(wire.Undecodable{What: what, ID: k, Reason: reasonOf(err), Op: op}, e)
				continue
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), e.Elem())
		}
		v.Set(m)
	default:
		return false
	}
	return true
}
