terraform {
  required_providers {
    tfgov = {
      source = "tfgov/tfgov"
    }
  }
}

provider "tfgov" {}
