package tfeclient

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestListAll: the pager reads pages 1, 2, 3... and stops at the last page
// whatever the server says, so no answer makes it loop, skip or go back.
func TestListAll(t *testing.T) {
	// pages[i] is what the server answers for page i+1; a page past the
	// end fails the test.
	type answer struct {
		items []int
		p     *tfe.Pagination
	}
	pg := func(next, total int) *tfe.Pagination { return &tfe.Pagination{NextPage: next, TotalPages: total} }
	errBoom := errors.New("boom")
	tests := map[string]struct {
		pages     []answer
		failAt    int // page that fails (0: none)
		want      []int
		wantPages int
		wantErr   error
	}{
		"no pagination (an unpaginated list)": {pages: []answer{{[]int{1, 2}, nil}}, want: []int{1, 2}, wantPages: 1},
		"one page":                            {pages: []answer{{[]int{1}, pg(0, 1)}}, want: []int{1}, wantPages: 1},
		"three pages":                         {pages: []answer{{[]int{1}, pg(2, 3)}, {[]int{2}, pg(3, 3)}, {[]int{3}, pg(0, 3)}}, want: []int{1, 2, 3}, wantPages: 3},
		"no total pages given":                {pages: []answer{{[]int{1}, pg(2, 0)}, {[]int{2}, pg(0, 0)}}, want: []int{1, 2}, wantPages: 2},
		"server repeats a page number":        {pages: []answer{{[]int{1}, pg(2, 0)}, {[]int{2}, pg(2, 0)}}, want: []int{1, 2}, wantPages: 2},
		"server goes back":                    {pages: []answer{{[]int{1}, pg(2, 0)}, {[]int{2}, pg(1, 0)}}, want: []int{1, 2}, wantPages: 2},
		"next page past the total":            {pages: []answer{{[]int{1}, pg(2, 2)}, {[]int{2}, pg(3, 2)}}, want: []int{1, 2}, wantPages: 2},
		"server names a page far ahead":       {pages: []answer{{[]int{1}, pg(9, 3)}, {[]int{2}, pg(3, 3)}, {[]int{3}, pg(0, 3)}}, want: []int{1, 2, 3}, wantPages: 3},
		"empty page with a next page":         {pages: []answer{{[]int{1}, pg(2, 0)}, {nil, pg(3, 0)}}, want: []int{1}, wantPages: 2},
		"empty list":                          {pages: []answer{{nil, pg(0, 0)}}, want: nil, wantPages: 1},
		"error on page 2":                     {pages: []answer{{[]int{1}, pg(2, 2)}, {[]int{2}, pg(0, 2)}}, failAt: 2, wantErr: errBoom},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var asked []int
			fetch := func(_ context.Context, n int) ([]int, *tfe.Pagination, error) {
				asked = append(asked, n)
				if n == tc.failAt {
					return nil, nil, errBoom
				}
				if n < 1 || n > len(tc.pages) {
					return nil, nil, fmt.Errorf("page %d asked; the server has %d", n, len(tc.pages))
				}
				return tc.pages[n-1].items, tc.pages[n-1].p, nil
			}
			got, err := ListAll(context.Background(), fetch)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("items %v, want %v", got, tc.want)
			}
			if want := seq(tc.wantPages); !slices.Equal(asked, want) {
				t.Errorf("asked pages %v, want %v", asked, want)
			}
		})
	}
}

// TestWalkPages_stop: visit ends the walk at the page that has what it
// looks for; no later page is fetched.
func TestWalkPages_stop(t *testing.T) {
	fetched := 0
	pages, err := WalkPages(context.Background(), func(_ context.Context, n int) ([]int, *tfe.Pagination, error) {
		fetched++
		return []int{n * 10, n*10 + 1}, &tfe.Pagination{NextPage: n + 1, TotalPages: 5}, nil
	}, func(items []int) bool { return slices.Contains(items, 21) })
	if err != nil || pages != 2 || fetched != 2 {
		t.Errorf("WalkPages = %d pages, %v; fetched %d, want 2 pages, no error", pages, err, fetched)
	}
}

func seq(n int) []int {
	var s []int
	for i := 1; i <= n; i++ {
		s = append(s, i)
	}
	return s
}
