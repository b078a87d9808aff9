terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

variable "workspace_name" {
  type        = string
  description = "The workspace whose team access to adopt, by name, such as app."
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

# The workspace's ID, from its name.
data "tfgov_workspace" "app" {
  name = var.workspace_name
}

data "tfgov_workspace_team_access" "app" {
  workspace_id = data.tfgov_workspace.app.id
}

data "tfgov_policies" "all" {
  search = var.policy_search
}

data "tfgov_module_test_variables" "module" {
  module_name     = var.module_name
  module_provider = var.module_provider
}

locals {
  # Each object's resource name is made from its name. A Terraform name
  # holds only letters, digits, "_" and "-", and starts with a letter or
  # "_": every other character becomes "_", and a name that starts with a
  # digit or "-" gets a "_" in front (2024-legacy -> _2024-legacy).
  team_names = {
    for ta in data.tfgov_workspace_team_access.app.team_access :
    ta.id => replace(replace(coalesce(ta.team_name, ta.team_id), "/[^A-Za-z0-9_-]/", "_"), "/^([0-9-])/", "_$1")
  }
  policy_names = {
    for p in data.tfgov_policies.all.policies :
    p.id => replace(replace(p.name, "/[^A-Za-z0-9_-]/", "_"), "/^([0-9-])/", "_$1")
  }
  module_prefix = replace(replace(var.module_name, "/[^A-Za-z0-9_-]/", "_"), "/^([0-9-])/", "_$1")

  imports = concat(
    [for ta in data.tfgov_workspace_team_access.app.team_access :
    { to = "tfgov_team_access.${local.team_names[ta.id]}", id = ta.id }],
    [for p in data.tfgov_policies.all.policies :
    { to = "tfgov_policy.${local.policy_names[p.id]}", id = p.id }],
    # A policy's code is its own resource (a policy that never had code has
    # none: drop its block if the import says so).
    [for p in data.tfgov_policies.all.policies :
    { to = "tfgov_policy_upload.${local.policy_names[p.id]}", id = p.id }],
    [for v in data.tfgov_module_test_variables.module.variables :
    { to = "tfgov_module_test_variable.${local.module_prefix}_${lower(v.key)}", id = "${data.tfgov_module_test_variables.module.id}/${v.id}" }],
  )
}

# One import block per object, to write into imports.tf.
output "import_blocks" {
  value = join("\n", [for i in local.imports : "import {\n  to = ${i.to}\n  id = \"${i.id}\"\n}\n"])
}
