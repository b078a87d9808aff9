terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

variable "workspace_id" {
  type        = string
  description = "The workspace whose team access to adopt (ws-<id>)."
}

variable "module_name" {
  type        = string
  description = "The private registry module whose test variables to adopt, such as network."
}

variable "module_provider" {
  type        = string
  description = "Its provider, such as aws."
}

variable "policy_search" {
  type        = string
  description = "Adopt only the policies whose name contains this text; all policies when null."
  default     = null
}

data "tfgov_workspace_team_access" "app" {
  workspace_id = var.workspace_id
}

data "tfgov_policies" "all" {
  search = var.policy_search
}

data "tfgov_module_test_variables" "module" {
  module_name     = var.module_name
  module_provider = var.module_provider
}

locals {
  # Each object's resource name is made from its name.
  imports = concat(
    [for ta in data.tfgov_workspace_team_access.app.team_access :
    { to = "tfgov_team_access.${replace(coalesce(ta.team_name, ta.team_id), "/[^A-Za-z0-9_-]/", "_")}", id = ta.id }],
    [for p in data.tfgov_policies.all.policies :
    { to = "tfgov_policy.${replace(p.name, "/[^A-Za-z0-9_-]/", "_")}", id = p.id }],
    # A policy's code is its own resource (a policy that never had code has
    # none: drop its block if the import says so).
    [for p in data.tfgov_policies.all.policies :
    { to = "tfgov_policy_upload.${replace(p.name, "/[^A-Za-z0-9_-]/", "_")}", id = p.id }],
    [for v in data.tfgov_module_test_variables.module.variables :
    { to = "tfgov_module_test_variable.${var.module_name}_${lower(v.key)}", id = "${data.tfgov_module_test_variables.module.id}/${v.id}" }],
  )
}

# One import block per object, to write into imports.tf.
output "import_blocks" {
  value = join("\n", [for i in local.imports : "import {\n  to = ${i.to}\n  id = \"${i.id}\"\n}\n"])
}
