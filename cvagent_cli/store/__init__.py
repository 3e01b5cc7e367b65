"""Storage at the bottom of the house: text I/O, atomic writes, state files, locks, undo
logs and the transcript database. Pure disk; knows nothing of resumes."""
