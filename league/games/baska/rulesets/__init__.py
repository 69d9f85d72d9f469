"""Własne zasady (own rules): rulesets an organiser makes from a preset and uses for tournaments."""
