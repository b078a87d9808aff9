package terraform.policies.required_tags

import rego.v1

required := {"owner", "cost-center"}

deny contains msg if {
	some rc in input.plan.resource_changes
	rc.mode == "managed"
	some action in rc.change.actions
	action in {"create", "update"}
	tags := object.get(rc.change.after, "tags", {})
	missing := required - {k | some k, _ in tags}
	count(missing) > 0
	msg := sprintf("%s lacks the tags %v", [rc.address, missing])
}
