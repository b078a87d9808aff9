# The tokens of one agent pool (their secrets are never listed).
list "tfgov_agent_token" "ci" {
  provider         = tfgov
  include_resource = true
  config {
    agent_pool_id = "apool-yoGUFz5zcRMMz53i"
  }
}
