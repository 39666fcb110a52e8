"""Skill ratings, seasons, achievements and a player's page: what a person's parties add up to over time.

Everything here is computed from the parties the database keeps, so it can be rebuilt from them at any time.
"""
