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

list "tfgov_team_access" "app" {
  provider         = tfgov
  include_resource = true
  config {
    workspace_name = var.workspace_name
  }
}

list "tfgov_policy" "all" {
  provider         = tfgov
  include_resource = true
  limit            = 1000
  config {
    search = var.policy_search
  }
}

list "tfgov_policy_upload" "all" {
  provider         = tfgov
  include_resource = true
  limit            = 1000
  config {
    search = var.policy_search
  }
}

list "tfgov_module_test_variable" "module" {
  provider         = tfgov
  include_resource = true
  config {
    module_name     = var.module_name
    module_provider = var.module_provider
  }
}
