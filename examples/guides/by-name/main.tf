# Governance that names every workspace, team, agent pool and module by
# name: the data sources turn names into IDs, so nothing here depends on
# the organization's IDs. seed.json is an organization of this shape for
# the sandbox.
terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

provider "tfgov" {}

# Every production workspace but the legacy ones, by tag.
data "tfgov_workspaces" "prod" {
  tag_names         = ["prod"]
  exclude_tag_names = ["legacy"]
}

data "tfgov_workspace" "payments_dev" {
  name = "payments-dev"
}

data "tfgov_teams" "operators" {
  names = ["platform", "sre"]
}

data "tfgov_team" "developers" {
  name = "developers"
}

data "tfgov_agent_pool" "ci" {
  name = "ci"
}

data "tfgov_registry_module" "network" {
  module_name     = "network"
  module_provider = "aws"
}

# The SRE team may apply in every production workspace: one grant per
# workspace, keyed by the workspace's name.
resource "tfgov_team_access" "sre" {
  for_each     = data.tfgov_workspaces.prod.ids_by_name
  workspace_id = each.value
  team_id      = data.tfgov_teams.operators.ids_by_name["sre"]
  access       = "write"
}

resource "tfgov_team_access" "developers" {
  workspace_id = data.tfgov_workspace.payments_dev.id
  team_id      = data.tfgov_team.developers.id
  access       = "write"
}

resource "tfgov_agent_token" "ci" {
  agent_pool_id = data.tfgov_agent_pool.ci.id
  description   = "CI agents"
}

resource "tfgov_module_test_variable" "region" {
  module_name     = data.tfgov_registry_module.network.module_name
  module_provider = data.tfgov_registry_module.network.module_provider
  key             = "TF_VAR_region"
  value           = "eu-west-1"
}

# Every published version of the module but the latest is deprecated.
resource "tfgov_module_version_deprecation" "old" {
  for_each = toset([
    for v in data.tfgov_registry_module.network.versions : v.version
    if v.status == "ok" && v.version != data.tfgov_registry_module.network.latest_version
  ])
  module_name     = data.tfgov_registry_module.network.module_name
  module_provider = data.tfgov_registry_module.network.module_provider
  module_version  = each.value
  reason          = "Upgrade to ${data.tfgov_registry_module.network.latest_version}."
}

output "sre_workspaces" {
  description = "The workspaces the SRE team may apply in, by name."
  value       = { for name, a in tfgov_team_access.sre : name => a.access }
}
