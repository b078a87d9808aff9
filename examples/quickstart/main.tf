# The quickstart that `make demo` applies against the sandbox's demo seed.
# The provider reads TFE_ADDRESS, TFE_TOKEN and TFE_ORGANIZATION. The
# workspace, teams, agent pool and module are named by name: data sources
# (tfgov_workspace, tfgov_teams, tfgov_agent_pool, tfgov_registry_module)
# find their IDs, so the configuration runs unchanged on any organization
# with objects of these names.
terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

provider "tfgov" {}
