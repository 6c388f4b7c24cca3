"""The parts of the site build; build.py at the repository root runs them as named steps."""
