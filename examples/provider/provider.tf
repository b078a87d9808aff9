terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

# Credentials come from the environment (TFE_TOKEN, or `terraform login`);
# never write a token into configuration.
provider "tfgov" {
  hostname     = "app.terraform.io"
  organization = "my-org"
}

# Against the local sandbox (make demo prints these values):
# provider "tfgov" {
#   address      = "http://127.0.0.1:8787"
#   organization = "tfgov-demo"
# }
