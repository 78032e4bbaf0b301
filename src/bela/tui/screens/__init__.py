"""The app's screens: start, table, round summary, match end, help and small dialogs."""
