# A Sentinel set whose policies come from the `policies/` directory of a GitHub repository, ingested by
# the service on each push through the organization's VCS connection.
resource "tfgov_policy_set" "from_vcs" {
  name          = "security"
  policies_path = "policies"
  vcs_repo = {
    identifier     = "acme/security-policies"
    branch         = "main"
    oauth_token_id = var.oauth_token_id
  }
  scope = {
    project_ids = [var.platform_project_id]
  }
}

variable "oauth_token_id" {
  description = "ID of the OAuth token of the organization's GitHub connection (ot-...)."
  type        = string
}
