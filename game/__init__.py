"""A kitchen for time-efficient multi-agent planning."""

__version__ = "0.1.0"
