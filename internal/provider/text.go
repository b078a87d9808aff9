package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// backticked renders values as a Markdown list of code spans.
func backticked(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "`" + v + "`"
	}
	return strings.Join(q, ", ")
}

func quoted(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// sha256Hex is the SHA-256 of b in hex, as content_sha256 holds it.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// int64Ptr is an optional count as a Terraform value (null when absent).
func int64Ptr(n *int) types.Int64 {
	if n == nil {
		return types.Int64Null()
	}
	return types.Int64Value(int64(*n))
}

// upperFirst is s with its first letter upper-case (an error's text opening a sentence).
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
