"""Every model call: the litellm gateway (the only importer of litellm, lazily), retries,
provider error translation, token and cost accounting, caching and stream guards."""
