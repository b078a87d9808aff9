package sandbox

import (
	"fmt"
	"slices"
	"strings"
)

// The seed file reader's helpers: each reads one value of a JSON object and
// records a problem at its path.

// seedObj is one JSON object of the file at path.
type seedObj struct {
	p    *seedParser
	path string
	m    map[string]any
}

// object returns v as an object, or nil after a problem.
func (p *seedParser) object(path string, v any, allowed ...string) *seedObj {
	m, ok := v.(map[string]any)
	if !ok {
		p.fail(path, "must be an object, got %s", jsonKind(v))
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			p.fail(join(path, k), "unknown field; allowed: %s", strings.Join(allowed, ", "))
		}
	}
	return &seedObj{p: p, path: path, m: m}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	default:
		return "a number"
	}
}

// str returns the string at key ("" when absent). A required one must be
// there and not empty; check, when set, says what is wrong with a value.
func (o *seedObj) str(key string, required bool, check func(string) string) string {
	v, ok := o.m[key]
	path := join(o.path, key)
	if !ok || v == nil {
		if required {
			o.p.fail(path, "required")
		}
		return ""
	}
	s, ok := v.(string)
	if !ok {
		o.p.fail(path, "must be a string, got %s", jsonKind(v))
		return ""
	}
	if s == "" && required {
		o.p.fail(path, "must not be empty")
		return ""
	}
	if check != nil && s != "" {
		if msg := check(s); msg != "" {
			o.p.fail(path, "%q %s", s, msg)
			return ""
		}
	}
	return s
}

func (o *seedObj) boolean(key string, def bool) bool {
	v, ok := o.m[key]
	if !ok || v == nil {
		return def
	}
	b, ok := v.(bool)
	if !ok {
		o.p.fail(join(o.path, key), "must be true or false, got %s", jsonKind(v))
		return def
	}
	return b
}

// list calls each for every element of the list at key with its path.
func (o *seedObj) list(key string, each func(path string, v any)) {
	v, ok := o.m[key]
	if !ok || v == nil {
		return
	}
	l, ok := v.([]any)
	if !ok {
		o.p.fail(join(o.path, key), "must be a list, got %s", jsonKind(v))
		return
	}
	for i, e := range l {
		each(fmt.Sprintf("%s[%d]", join(o.path, key), i), e)
	}
}

// strings returns the list of strings at key, each checked.
func (o *seedObj) strings(key string, check func(path, s string) bool) []string {
	var out []string
	o.list(key, func(path string, v any) {
		s, ok := v.(string)
		if !ok || s == "" {
			o.p.fail(path, "must be a non-empty string, got %s", jsonKind(v))
			return
		}
		if check(path, s) {
			out = append(out, s)
		}
	})
	return out
}

// id returns the object's ID: the file's (checked for prefix, characters
// and uniqueness) or one derived from key.
func (o *seedObj) id(prefix, what string, key ...string) string {
	return o.idAt("id", prefix, what, key...)
}

// idAt is id for the field field.
func (o *seedObj) idAt(field, prefix, what string, key ...string) string {
	id := o.str(field, false, func(s string) string {
		rest, ok := strings.CutPrefix(s, prefix)
		if !ok || !seedIDRE.MatchString(rest) {
			return fmt.Sprintf("is not %s ID: %s followed by 1 to 64 letters and digits (such as %sAbC123)", what, prefix, prefix)
		}
		return ""
	})
	if id == "" {
		return stableID(prefix, key...)
	}
	path := join(o.path, field)
	if other, ok := o.p.ids[id]; ok {
		o.p.fail(path, "%q is already the ID of %s: IDs must be unique", id, other)
	}
	o.p.ids[id] = o.path
	if field != "id" {
		o.p.ids[id] = path
	}
	return id
}

// unique records name in seen (scope-wide), failing on a repeat.
func (p *seedParser) unique(seen map[string]string, path, what, name string) {
	if name == "" {
		return
	}
	if other, ok := seen[name]; ok {
		p.fail(path, "%s %q is also %s: %ss must be unique", what, name, other, what)
		return
	}
	seen[name] = path
}

// knownBy records the description of a token without an id, which names it (its ID is derived
// from it, README.md "IDs"): two such tokens of one owner would be one.
func (p *seedParser) knownBy(seen map[string]string, path, owner, description string) {
	if other, ok := seen[description]; ok {
		what := fmt.Sprintf("%q is also the description of %s", description, other)
		if description == "" {
			what = "none, as " + other + " has none"
		}
		p.fail(join(path, "description"), "%s, and neither has an id: a token without an id is known by its description, "+
			"so give one of them an id or another description (unique among %s tokens without an id)", what, owner)
		return
	}
	seen[description] = path
}

func seedCheckName(s string) string {
	if !nameRE.MatchString(s) {
		return "is not a valid name: letters, digits, - and _ only"
	}
	return ""
}

// optStr returns the string at key, nil when absent or null ("" is a value).
func (o *seedObj) optStr(key string) *string {
	v, ok := o.m[key]
	if !ok || v == nil {
		return nil
	}
	s, ok := v.(string)
	if !ok {
		o.p.fail(join(o.path, key), "must be a string, got %s", jsonKind(v))
		return nil
	}
	return &s
}
