# Agent pools by exact names (each must exist).
data "tfgov_agent_pools" "named" {
  names = ["build", "deploy"]
}

# Pools whose name contains "ci-" (in any case). A search that matches no
# pool fails the plan, naming the closest names: a typo would otherwise
# empty a for_each and plan the destroy of everything it drove.
data "tfgov_agent_pools" "ci" {
  search = "ci-"
}

# A token for each CI pool.
resource "tfgov_agent_token" "ci" {
  for_each      = data.tfgov_agent_pools.ci.ids_by_name
  agent_pool_id = each.value
  description   = "ci runner (${each.key})"
}

# A search that may rightly match nothing.
data "tfgov_agent_pools" "spare" {
  search      = "spare-"
  allow_empty = true
}
