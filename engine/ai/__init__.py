"""Bot players."""
