package provider

import (
	tfe "github.com/hashicorp/go-tfe"
)

// moduleRef names a private registry module (namespace: its organization); String is its import ID part.
type moduleRef struct {
	Organization, Name, Provider string
}

func (m moduleRef) String() string { return m.Organization + "/" + m.Name + "/" + m.Provider }

func (m moduleRef) id() tfe.RegistryModuleID {
	return tfe.RegistryModuleID{Organization: m.Organization, Namespace: m.Organization, Name: m.Name, Provider: m.Provider, RegistryName: tfe.PrivateRegistry}
}
