"""What untrusted text may carry: secrets, invisible characters, hidden markup, unattended
changes."""
