"""Game renderers for the terminal client, one module per game id.

Every module here is imported by `clients.cli.render` on first use and calls `render.register(...)`;
adding a game's renderer means adding one module, nothing else.
"""
