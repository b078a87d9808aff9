package provider

import (
	"context"
	"fmt"
	"strings"
)

// Gone or cannot see: on a list's 404, one shared read of the parent says which (DESIGN.md "Gone or cannot see").

// parentSeen is what the read of a parent found: missing (404), or its name, a workspace's
// can-update, a module's versions.
type parentSeen struct {
	missing   bool
	name      string
	canUpdate bool
	// versions in semantic version order, joined by ", ": a string keeps parentSeen comparable.
	versions string
}

// seeParent reads parent key once per operation; a 404 is kept as an answer, another error is not.
func (d *providerData) seeParent(ctx context.Context, key string, read func(context.Context) (parentSeen, error)) (*parentSeen, error) {
	return d.lists.parents.get(ctx, key, func(ctx context.Context) (*parentSeen, error) {
		seen, err := read(ctx)
		if isNotFound(err) {
			return &parentSeen{missing: true}, nil
		}
		if err != nil {
			return nil, err
		}
		return &seen, nil
	})
}

func (d *providerData) organizationSeen(ctx context.Context, org string) (*parentSeen, error) {
	return d.seeParent(ctx, "organization:"+org, func(ctx context.Context) (parentSeen, error) {
		_, err := d.client.Organizations.Read(ctx, org)
		return parentSeen{}, err
	})
}

func (d *providerData) agentPoolSeen(ctx context.Context, poolID string) (*parentSeen, error) {
	return d.seeParent(ctx, "agent-pool:"+poolID, func(ctx context.Context) (parentSeen, error) {
		pool, err := d.client.AgentPools.Read(ctx, poolID)
		if err != nil {
			return parentSeen{}, err
		}
		return parentSeen{name: pool.Name}, nil
	})
}

func (d *providerData) moduleSeen(ctx context.Context, mod moduleRef) (*parentSeen, error) {
	return d.seeParent(ctx, "module:"+mod.String(), func(ctx context.Context) (parentSeen, error) {
		m, err := d.client.RegistryModules.Read(ctx, mod.id())
		if err != nil {
			return parentSeen{}, err
		}
		versions := make([]string, 0, len(m.VersionStatuses))
		for _, v := range m.VersionStatuses {
			versions = append(versions, v.Version)
		}
		sortVersions(versions)
		return parentSeen{versions: strings.Join(versions, ", ")}, nil
	})
}

const stateRmAdvice = "If it was deleted, remove the resource from state: terraform state rm <address>, or a removed block " +
	"(removed { from = <address> lifecycle { destroy = false } }). State keeps the object until then."

// cannotSee explains what, whose parent's list of objects answered 404, from the parent's read
// (seen or readErr): the token lacks perm, or the parent is deleted or outside its organizations.
func cannotSee(what, parentWhat, objects, perm string, seen *parentSeen, readErr error) string {
	switch {
	case readErr != nil:
		return fmt.Sprintf("%s cannot be refreshed: the list of %s of %s answered 404 (deleted, or the API token lacks %s), and reading %s to tell which failed: %s. State keeps it.",
			what, objects, parentWhat, perm, parentWhat, readErr)
	case seen.missing:
		return fmt.Sprintf("%s cannot be refreshed: %s was not found. It was deleted, or the API token belongs to no team of its organization: the service answers the same to both. %s",
			what, parentWhat, stateRmAdvice)
	}
	if seen.name != "" {
		parentWhat += fmt.Sprintf(" (%q)", seen.name)
	}
	return fmt.Sprintf("%s cannot be refreshed: %s exists, but the API token may not list its %s: it needs %s. "+
		"State keeps it; refresh with a token that has the permission.", what, parentWhat, objects, perm)
}

// cannotSeeError fails a refresh that cannot tell gone from cannot-see.
type cannotSeeError struct{ detail string }

func (e *cannotSeeError) Error() string { return e.detail }
