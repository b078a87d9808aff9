data "tfgov_agent_tokens" "ci" {
  agent_pool_id = "apool-yoGUFz5zcRMMz53i"
}

output "agent_token_descriptions" {
  value = data.tfgov_agent_tokens.ci.tokens[*].description
}
