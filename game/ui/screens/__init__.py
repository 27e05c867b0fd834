"""Screens: level browser, play, replay, compare. Each returns the next screen."""
