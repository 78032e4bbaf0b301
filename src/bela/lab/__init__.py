"""The bot lab: measuring and training the players, never needed to play.

``arena`` pits two bots on duplicate deals; ``lead_training`` fits the lead
weights. The lab may import every layer below it (engine, search, ai); nothing
below imports the lab, and the app reaches it only through the command line.
"""
