# Every managed resource that is created or changed must carry the
# required tags.
package terraform.policies.required_tags

import rego.v1

required := {"owner", "cost-center"}

deny contains msg if {
	some rc in input.plan.resource_changes
	rc.mode == "managed"
	some action in rc.change.actions
	action in {"create", "update"}
	tags := object.get(rc.change.after, "tags", {})
	missing := required - {key | some key, _ in tags}
	count(missing) > 0
	msg := sprintf("%s is missing the tags %v", [rc.address, missing])
}
