package otlp

import (
	"math"
	"strings"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/octop-dev/octop/internal/usage"
	"github.com/octop-dev/octop/internal/wire"
)

// modelAttrs names the provider and the model, when the server said.
func modelAttrs(provider, modelID string) []attribute.KeyValue {
	var out []attribute.KeyValue
	if provider != "" {
		out = append(out, semconv.GenAIProviderNameKey.String(provider))
	}
	if modelID != "" {
		out = append(out, semconv.GenAIRequestModel(modelID))
	}
	return out
}

// usageAttrs are the token counts as the conventions count them: input
// includes the cached tokens (read and written) and output the reasoning
// ones, which OpenCode counts apart; the parts are given too.
func usageAttrs(t usage.Tokens) []attribute.KeyValue {
	return []attribute.KeyValue{
		semconv.GenAIUsageInputTokens(whole(t.Input + t.CacheRead + t.CacheWrite)),
		semconv.GenAIUsageOutputTokens(whole(t.Output + t.Reasoning)),
		semconv.GenAIUsageCacheReadInputTokens(whole(t.CacheRead)),
		semconv.GenAIUsageCacheCreationInputTokens(whole(t.CacheWrite)),
		semconv.GenAIUsageReasoningOutputTokensKey.Int(whole(t.Reasoning)),
	}
}

// AttrSubtreeUnpriced counts the replies of a session and its
// descendants that used tokens with no cost reported, which
// opencode.subtree.cost_usd leaves out.
const AttrSubtreeUnpriced = attribute.Key("opencode.subtree.cost.unpriced_replies")

// costAttrs is key with the cost of the priced replies, when any of it is
// known (model.Cost.Known), and how many replies had no cost (under
// AttrUnpriced for a span's own cost, AttrSubtreeUnpriced for its
// subtree's). A cost the server did not report is left out, never sent
// as 0.
func costAttrs(key attribute.Key, f usage.Figures) []attribute.KeyValue {
	var out []attribute.KeyValue
	c := f.TotalCost()
	if c.Known() {
		out = append(out, key.Float64(c.USD))
	}
	if c.Unpriced > 0 {
		unpriced := AttrUnpriced
		if key == AttrSubtreeCost {
			unpriced = AttrSubtreeUnpriced
		}
		out = append(out, unpriced.Int(c.Unpriced))
	}
	return out
}

// subtreeCosts is every session's figures over itself and its descendants.
func subtreeCosts(t Tree) map[string]usage.Figures {
	out := make(map[string]usage.Figures, len(t.Sessions))
	for i := len(t.Sessions) - 1; i >= 0; i-- { // children come after parents
		s := &t.Sessions[i]
		f := out[s.ID]
		for j := range s.Msgs {
			if r, ok := usage.ReplyOf(&s.Msgs[j]); ok {
				f.Add(r)
			}
		}
		out[s.ID] = f
		if s.ParentID != "" {
			p := out[s.ParentID]
			p.Plus(f)
			out[s.ParentID] = p
		}
	}
	return out
}

// lastTime is the latest time a message or its parts name (Unix ms).
func lastTime(m *wire.MessageWithParts) int64 {
	t := max(m.Info.Time.Created, m.Info.Time.Completed)
	for i := range m.Parts {
		p := &m.Parts[i]
		if p.Time != nil {
			t = max(t, p.Time.Start, p.Time.End)
		}
		if p.State != nil {
			t = max(t, p.State.Time.Start, p.State.Time.End)
		}
	}
	return t
}

func whole(v float64) int { return int(math.Round(v)) }

// bounded is server text for an attribute: one line, at most maxText
// bytes, cut at a rune.
func bounded(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxText {
		return s
	}
	cut := maxText - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// errorType is error.type: the server's or octop's word for what went
// wrong, bounded, else fallback (the conventions ask for a value on every
// failed operation; an error the server sent with no name has none).
func errorType(word, fallback string) attribute.KeyValue {
	if word = bounded(word); word == "" {
		word = fallback
	}
	return semconv.ErrorTypeKey.String(word)
}

// errorText is an error's message, else its name.
func errorText(e *wire.ErrorInfo) string {
	if e.Data.Message != "" {
		return e.Data.Message
	}
	return e.Name
}
