"""The resume: text I/O, the Markdown document model, the offline analyzer, JD matching."""
