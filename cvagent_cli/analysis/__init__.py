"""The offline analyzer: rules, scoring, the report schema, JD coverage and the
not-a-resume check, all over the document model."""
