package provider

import (
	"context"
	"fmt"
	"strings"
)

// Gone or cannot see (DESIGN.md, "Gone or cannot see"). The API answers
// 404 for a missing object and for one the token may not see. A refresh
// removes an object from state only when the service confirms it is gone;
// when an object's list answers 404, one read of its parent (which every
// member of the organization may read), shared by every resource of that
// parent in the operation, names what is wrong, and the refresh fails.

// parentSeen is what the one read of a parent found: the parent is
// missing (a 404: deleted, or the token belongs to no team of its
// organization), or visible, with its name when it has one and, for a
// workspace, whether the token may update it (and so see every grant),
// for a module, its versions.
type parentSeen struct {
	missing   bool
	name      string
	canUpdate bool
	// versions are a module's versions (its version-statuses) in semantic
	// version order, joined by ", " (a string keeps parentSeen comparable).
	versions string
}

// seeParent reads parent key once per configured provider (shared with
// every refresh that asks, as the lists are): a 404 is an answer, kept;
// another error is returned and not kept.
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

// organizationSeen reads organization org, once.
func (d *providerData) organizationSeen(ctx context.Context, org string) (*parentSeen, error) {
	return d.seeParent(ctx, "organization:"+org, func(ctx context.Context) (parentSeen, error) {
		_, err := d.client.Organizations.Read(ctx, org)
		return parentSeen{}, err
	})
}

// agentPoolSeen reads agent pool poolID, once.
func (d *providerData) agentPoolSeen(ctx context.Context, poolID string) (*parentSeen, error) {
	return d.seeParent(ctx, "agent-pool:"+poolID, func(ctx context.Context) (parentSeen, error) {
		pool, err := d.client.AgentPools.Read(ctx, poolID)
		if err != nil {
			return parentSeen{}, err
		}
		return parentSeen{name: pool.Name}, nil
	})
}

// moduleSeen reads private registry module mod, once.
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

// stateRmAdvice tells how to forget an object whose parent was deleted.
const stateRmAdvice = "If it was deleted, remove the resource from state: terraform state rm <address>, or a removed block " +
	"(removed { from = <address> lifecycle { destroy = false } }). State keeps the object until then."

// cannotSee explains a refresh that cannot tell whether object what (its
// type and ID) still exists, because the list of its parent's objects
// (parentWhat's type and ID; objects, what that list holds) answered 404:
// from the one read of the parent (seen, or readErr), the parent exists
// and the token lacks perm, or the parent is missing, which is a deleted
// parent or a token of no team of its organization alike.
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

// cannotSeeError is a refresh that cannot tell gone from cannot-see: its
// text says why, and the refresh fails with it.
type cannotSeeError struct{ detail string }

func (e *cannotSeeError) Error() string { return e.detail }
