"""Study sessions: a participant plans a list of levels while the clock and counters record what
a paper's human-study section reports (session), kept on disk (persist), exported (export)."""
