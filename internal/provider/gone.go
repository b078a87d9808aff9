package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Gone or cannot see: on a list's 404, one shared read of the parent says which (DESIGN.md "Gone or cannot see").

// parentSeen is what the read of a parent found: missing (404), or its name, whether the token
// sees every grant of a workspace (seesEveryGrant), a module's versions.
type parentSeen struct {
	missing   bool
	name      string
	allGrants bool
	project   string // a workspace's project ID
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

// goneCheck names what asks "gone, or cannot see?": a refresh, or a write whose request answered 404.
type goneCheck struct {
	done  string // "refreshed", "deleted": the texts' "cannot be <done>"
	doing string // "Deleting": how a write's error opens ("" for a refresh)
	again string // what to do once the token has the permission
	keeps string // what stays as it was: "State keeps it" for a resource
}

var refreshCheck = goneCheck{done: "refreshed", again: "refresh", keeps: "State keeps it"}

// writeCheck is the goneCheck of a write: doing "Deleting", done "deleted".
func writeCheck(doing, done string) goneCheck {
	return goneCheck{done: done, doing: doing, again: "apply again", keeps: "State keeps it"}
}

// cannotSee explains what, whose parent's list of objects answered 404, from the parent's read
// (seen or readErr): the token lacks perm, or the parent is deleted or outside its organizations.
func cannotSee(check goneCheck, what, parentWhat, objects, perm string, seen *parentSeen, readErr error) string {
	switch {
	case readErr != nil:
		return fmt.Sprintf("%s cannot be %s: the list of %s of %s answered 404 (deleted, or the API token lacks %s), and reading %s to tell which failed: %s. %s.",
			what, check.done, objects, parentWhat, perm, parentWhat, readErr, check.keeps)
	case seen.missing:
		return fmt.Sprintf("%s cannot be %s: %s was not found. It was deleted, or the API token belongs to no team of its organization: the service answers the same to both. %s",
			what, check.done, parentWhat, stateRmAdvice)
	}
	if seen.name != "" {
		parentWhat += fmt.Sprintf(" (%q)", seen.name)
	}
	return fmt.Sprintf("%s cannot be %s: %s exists, but the API token may not list its %s: it needs %s. "+
		"%s; %s with a token that has the permission.", what, check.done, parentWhat, objects, perm, check.keeps, check.again)
}

// cannotSeeError fails a refresh that cannot tell gone from cannot-see.
type cannotSeeError struct{ detail string }

func (e *cannotSeeError) Error() string { return e.detail }

// A write's 404 (a delete, a removal, a revocation, a reverted deprecation) is the refresh's
// question again, asked with the refresh's own reads made afresh (DESIGN.md "Gone or cannot see").

// locateFunc is a type's refresh asked of one object after a write's 404: exists, or why it
// cannot tell ("" and false: the service confirms it gone). It reads afresh, never a shared list
// or parent read made before the write.
type locateFunc func(ctx context.Context, check goneCheck) (exists bool, why string)

// confirmGone settles a write on what that answered 404: "" when locate finds it gone (the write's
// work is done), else the error's detail, naming the object and what the token needs (perm).
func confirmGone(ctx context.Context, check goneCheck, what, perm string, locate locateFunc) string {
	exists, why := locate(ctx, check)
	intro := fmt.Sprintf("%s %s answered 404, which the service answers both for an object that is gone and for one the API token may not see or change.",
		check.doing, lowerFirst(what))
	switch {
	case why != "":
		return intro + " " + why
	case exists:
		return fmt.Sprintf("%s %s exists: the service still lists it, so the API token may see it but not change it: it needs %s. "+
			"%s; %s with a token that has the permission.", intro, what, perm, check.keeps, check.again)
	}
	tflog.Info(ctx, "A write answered 404 and the service confirms the object gone", map[string]any{"object": what})
	return ""
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// deleteConfirmed is a resource's delete: send, and a 404 is done only when locate confirms the
// object gone (confirmGone). verb is check's in the base form ("delete"); noun names the type.
func deleteConfirmed(ctx context.Context, diags *diag.Diagnostics, check goneCheck, verb, noun, what, id, perm string, send func() error, locate locateFunc) {
	err := send()
	if isNotFound(err) {
		if why := confirmGone(ctx, check, what, perm, locate); why != "" {
			diags.AddError("Cannot "+verb+" "+noun, why)
			return
		}
		err = nil
	}
	if err != nil {
		diags.AddError("Error "+strings.ToLower(check.doing)+" "+noun, fmt.Sprintf("%s %s %s: %s", check.doing, noun, id, err))
		return
	}
	tflog.Info(ctx, upperFirst(check.done)+" "+noun, map[string]any{"id": id})
}
