"""The Pygame front end: one window, screens that hand over to each other."""
