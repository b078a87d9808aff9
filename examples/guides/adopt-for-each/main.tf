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

# The workspace's ID, from its name.
data "tfgov_workspace" "app" {
  name = var.workspace_name
}

data "tfgov_workspace_team_access" "app" {
  workspace_id = data.tfgov_workspace.app.id
}

data "tfgov_module_test_variables" "module" {
  module_name     = var.module_name
  module_provider = var.module_provider
}

locals {
  team_access = { for ta in data.tfgov_workspace_team_access.app.team_access : ta.team_id => ta }
  test_vars   = { for v in data.tfgov_module_test_variables.module.variables : v.key => v }
}

# Every team access of the workspace, as it is.
import {
  for_each = local.team_access
  to       = tfgov_team_access.app[each.key]
  id       = each.value.id
}

resource "tfgov_team_access" "app" {
  for_each     = local.team_access
  team_id      = each.value.team_id
  workspace_id = data.tfgov_workspace.app.id
  access       = each.value.access
  # With a fixed level these are exactly what the level implies, which the
  # resource accepts.
  permissions = each.value.permissions
}

# Every test variable of the module. A sensitive variable's value cannot be
# read back: its value is left to the service (value and value_wo both null).
import {
  for_each = local.test_vars
  to       = tfgov_module_test_variable.module[each.key]
  id       = "${data.tfgov_module_test_variables.module.id}/${each.value.id}"
}

resource "tfgov_module_test_variable" "module" {
  for_each        = local.test_vars
  module_name     = var.module_name
  module_provider = var.module_provider
  key             = each.key
  value           = each.value.value
  description     = each.value.description
  hcl             = each.value.hcl
  sensitive       = each.value.sensitive
}
