package provider

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitImportID(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		id      string
		n       int
		want    []string
		wantErr bool
	}{
		"two parts":        {id: "apool-1/at-2", n: 2, want: []string{"apool-1", "at-2"}},
		"four parts":       {id: "org/mod/aws/1.0.0", n: 4, want: []string{"org", "mod", "aws", "1.0.0"}},
		"too few":          {id: "apool-1", n: 2, wantErr: true},
		"too many":         {id: "a/b/c", n: 2, wantErr: true},
		"empty part":       {id: "apool-1/", n: 2, wantErr: true},
		"blank part":       {id: " /at-1", n: 2, wantErr: true},
		"empty":            {id: "", n: 2, wantErr: true},
		"leading slash":    {id: "/a/b", n: 2, wantErr: true},
		"one part allowed": {id: "x", n: 1, want: []string{"x"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := splitImportID(tc.id, tc.n, "<a>/<b>")
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "<a>/<b>") {
					t.Fatalf("err = %v, want one naming the form", err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
