"""Tables, charts and self-contained HTML pages: a run's report, sweep/tune/skill pages, the dashboard.
"""
