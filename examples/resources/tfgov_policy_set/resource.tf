data "tfgov_workspaces" "sandboxes" {
  names = ["sandbox-alice", "sandbox-bob"]
}

# Every workspace of the organization but the sandboxes and the projects of experiments.
resource "tfgov_policy_set" "baseline" {
  name        = "baseline"
  description = "Policies every workspace follows"
  policy_ids  = [tfgov_policy.required_tags.id]
  scope = {
    global                 = true
    excluded_workspace_ids = values(data.tfgov_workspaces.sandboxes.ids_by_name)
    excluded_tags          = [{ key = "experiment" }]
  }
}

# The workspaces of two projects, and any workspace tagged env=prod, but not the legacy ones.
resource "tfgov_policy_set" "production" {
  name        = "production"
  kind        = "opa"
  policy_ids  = [tfgov_policy.cost_limits.id]
  overridable = true
  scope = {
    project_ids   = [var.payments_project_id, var.platform_project_id]
    tags          = [{ key = "env", value = "prod" }]
    excluded_tags = [{ key = "legacy" }]
  }
}

# An OPA set uploaded from a directory (policies.hcl, its .rego files and their *_test.rego tests,
# which run at plan).
resource "tfgov_policy_set" "uploaded" {
  name   = "tagging"
  kind   = "opa"
  source = "${path.module}/policies"
  scope = {
    project_ids = [var.payments_project_id]
  }
}

resource "tfgov_policy" "required_tags" {
  name   = "required-tags"
  kind   = "sentinel"
  source = "${path.module}/required-tags.sentinel"
}

resource "tfgov_policy" "cost_limits" {
  name  = "cost-limits"
  kind  = "opa"
  query = "data.terraform.policies.cost.deny"
}

variable "payments_project_id" {
  type = string
}

variable "platform_project_id" {
  type = string
}

output "governed_by_production" {
  value = tfgov_policy_set.production.governed_workspaces
}
