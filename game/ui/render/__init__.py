"""Drawing: one kitchen renderer for every view, plus the Gantt timeline and panels."""
