# An agent pool of the provider's organization, by name.
data "tfgov_agent_pool" "ci" {
  name = "ci"
}

resource "tfgov_agent_token" "ci" {
  agent_pool_id = data.tfgov_agent_pool.ci.id
  description   = "CI agents"
}
