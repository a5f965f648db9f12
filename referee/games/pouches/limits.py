"""Numbers the rules fix for both editions."""

POUCH_LIMIT = 5  # cards a pouch holds once an action has completed
DROP_LIMIT = 4  # a discard may raise the marsupials on its spot by at most this (no Diamond bonus)
