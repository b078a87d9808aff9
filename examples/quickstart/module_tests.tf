variable "module_name" {
  type        = string
  description = "Private registry module whose tests the quickstart configures (the seed's network)."
}

variable "module_provider" {
  type        = string
  description = "Provider of that module (the seed's aws)."
}
