package terraform.policies.tags

import rego.v1

deny contains msg if {
	some rc in input.plan.resource_changes
	rc.change.after.tags == null
	msg := sprintf("%s has no tags", [rc.address])
}
