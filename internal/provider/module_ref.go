package provider

import (
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/go-version"
)

// moduleRef names a private registry module (namespace: its organization); String is its import ID part.
type moduleRef struct {
	Organization, Name, Provider string
}

func (m moduleRef) String() string { return m.Organization + "/" + m.Name + "/" + m.Provider }

func (m moduleRef) id() tfe.RegistryModuleID {
	return tfe.RegistryModuleID{Organization: m.Organization, Namespace: m.Organization, Name: m.Name, Provider: m.Provider, RegistryName: tfe.PrivateRegistry}
}

// sortVersions sorts by semantic version; any that does not parse goes last, in text order.
func sortVersions(vs []string) {
	slices.SortFunc(vs, func(a, b string) int {
		va, ea := version.NewVersion(a)
		vb, eb := version.NewVersion(b)
		switch {
		case ea == nil && eb == nil:
			return va.Compare(vb)
		case ea == nil:
			return -1
		case eb == nil:
			return 1
		}
		return strings.Compare(a, b)
	})
}
