package provider

import (
	tfe "github.com/hashicorp/go-tfe"
)

// moduleRef names a private registry module, whose namespace is its
// organization.
type moduleRef struct {
	Organization, Name, Provider string
}

// String is `<organization>/<module_name>/<module_provider>`, the module
// part of import IDs and the key of the provider's variable lists.
func (m moduleRef) String() string { return m.Organization + "/" + m.Name + "/" + m.Provider }

func (m moduleRef) id() tfe.RegistryModuleID {
	return tfe.RegistryModuleID{Organization: m.Organization, Namespace: m.Organization, Name: m.Name, Provider: m.Provider, RegistryName: tfe.PrivateRegistry}
}
