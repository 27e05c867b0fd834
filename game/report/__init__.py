"""Scoring runs: the paper's metrics per group (metrics), reading result files (files), and
an optional bar-chart plot (plot, needs matplotlib)."""
