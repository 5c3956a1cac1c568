"""Settings: flags, environment and config files resolved once, trust, the time zone."""
