"""Text safety: fencing untrusted text for the model, and the guards that flag edits
and instructions hidden in a resume."""
